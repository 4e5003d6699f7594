"""What billing reads from the service's status: incidents and a customer's API errors.

A refund for a service failure needs them; they belong to the status page, a port that
another domain (technical) or a company's adapter provides under the name "status". Billing
imports no other domain: it declares here, as Protocols, the few fields it reads, and asks
the line's ports for the port by its configured name. A line without a status port (no
technical domain, no adapter) knows of no incident, so no service-failure credit is ever
paid there; duplicates are still refunded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from callcenter.store.adapters import Ports

STATUS = "status"  # the port's name, as CALLCENTER_ADAPTERS and its declaring domain give it


class IncidentFact(Protocol):
    @property
    def started_at(self) -> str: ...
    @property
    def resolved_at(self) -> str | None: ...


class UsageFact(Protocol):
    @property
    def day(self) -> str: ...
    @property
    def errors_5xx(self) -> int: ...


class ServiceFacts(Protocol):
    def incidents(self, *, active_only: bool = False, days: int = 14) -> Sequence[IncidentFact]: ...
    def api_usage(self, customer_id: str, days: int = 7) -> Sequence[UsageFact]: ...


class _NoStatusPage:
    """The line has no status port: nothing is known to have failed."""

    def incidents(self, *, active_only: bool = False, days: int = 14) -> Sequence[IncidentFact]:
        return []

    def api_usage(self, customer_id: str, days: int = 7) -> Sequence[UsageFact]:
        return []


def status_port(ports: Ports) -> ServiceFacts:
    """The line's status page (technical's embedded board or a company's), or one that knows nothing."""
    found = ports.declared.get(STATUS)
    return found if found is not None else _NoStatusPage()  # type: ignore[return-value]
