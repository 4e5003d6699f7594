"""The ports every line has, whatever its domains: who the caller is, and tickets for people.

The SQL `Store` is the default adapter and implements both structurally (no base class). A
company whose tickets live in its own system writes a class with the `Tickets` methods that
calls that system's API; see docs/adapters.md. A domain's own system (billing's ledger,
technical's status page) is a port declared in its folder (`PortSpec`). Values are the
dataclasses of `callcenter.store.models`.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from callcenter.store import models as m


@runtime_checkable
class Customers(Protocol):
    """Customers and identity: who is calling, and the account changes a verified caller asks for."""

    def get_customer(self, customer_id: str) -> m.Customer | None: ...
    def find_customer_by_email(self, email: str) -> m.Customer | None: ...
    def find_customer_by_phone(self, phone: str) -> m.Customer | None: ...
    def update_email(self, customer_id: str, email: str) -> None: ...
    def update_phone(self, customer_id: str, phone: str) -> None: ...
    def set_locked(self, customer_id: str, locked: bool) -> None: ...
    def recent_logins(self, customer_id: str, days: int = 7) -> list[m.LoginEvent]: ...
    # Approved durable actions (the Temporal worker calls these once an operator decided):
    # idempotent, and ValueError for an unknown customer.
    def close_account(self, customer_id: str) -> None: ...
    def reset_two_factor(self, customer_id: str) -> None: ...


@runtime_checkable
class Tickets(Protocol):
    """Tickets for people: call backs, escalations, reviews (each domain names its kinds).

    `create_ticket` with a given `ticket_id` is idempotent (the existing ticket comes back).
    """

    def create_ticket(
        self, *, customer_id: str | None, kind: str, summary: str, ticket_id: str | None = None
    ) -> m.Ticket: ...
    def get_ticket(self, ticket_id: str) -> m.Ticket | None: ...
    def list_tickets(self, customer_id: str | None = None, kind: str | None = None) -> list[m.Ticket]: ...
    def set_ticket_status(self, ticket_id: str, status: str) -> None: ...


PORTS: tuple[type, ...] = (Customers, Tickets)
