"""The billing supervisor: routes charges, refunds, invoices, plans and balance questions."""

from __future__ import annotations

from domains.supervisor import DomainSupervisorTask


class BillingSupervisorTask(DomainSupervisorTask):
    """Spec attached in `domains/billing/__init__.py`, beside the specialists it routes to."""
