"""The technical supervisor: API errors, service status, integrations, escalations and tickets."""

from __future__ import annotations

from domains.supervisor import DomainSupervisorTask


class TechnicalSupervisorTask(DomainSupervisorTask):
    """Spec attached in `domains/technical/__init__.py`."""
