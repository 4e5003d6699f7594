"""The service's status, as a port: incidents from the status page and a customer's API usage.

Declared here, beside the technical domain whose words these are; billing reads it too
(a refund for a service failure), by the name "status" and its own view of the fields
(domains/billing/service_facts.py), importing nothing from here. `CALLCENTER_ADAPTERS=status=module:factory` names a
company's status page and telemetry client (docs/adapters.md); without one the embedded
status board (`status.py`) keeps them in the line's database, in technical's own schema branch.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from callcenter.store.adapters import Ports, PortSpec
from domains.technical.records import ApiUsage, Incident
from domains.technical.status import embedded

NAME = "status"


@runtime_checkable
class ServiceStatus(Protocol):
    """What the company's status page and API telemetry know: incidents and a customer's usage."""

    def incidents(self, *, active_only: bool = False, days: int = 14) -> list[Incident]: ...
    def api_usage(self, customer_id: str, days: int = 7) -> list[ApiUsage]: ...


def status_port(ports: Ports) -> ServiceStatus:
    """The line's status system (the embedded board or a company's adapter)."""
    return ports.port(NAME)  # type: ignore[no-any-return]


PORTS = (PortSpec(NAME, ServiceStatus, embedded),)
