"""The account supervisor: sign-in help, profile changes, security, closure and two-factor resets."""

from __future__ import annotations

from domains.supervisor import DomainSupervisorTask


class AccountSupervisorTask(DomainSupervisorTask):
    """Spec attached in `domains/account/__init__.py`."""
