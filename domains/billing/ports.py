"""Billing's system of record, as a port: plans, charges, invoices and refunds.

Declared here, beside the domain: the line's foundation knows nothing of money records.
`CALLCENTER_ADAPTERS=billing=module:factory` names a company's billing client (see
docs/adapters.md); without one the embedded ledger (`ledger.py`) keeps them in the line's
database, in tables of billing's own schema branch.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from callcenter.store.adapters import Ports, PortSpec
from domains.billing.ledger import embedded
from domains.billing.records import Charge, Invoice, Plan, Refund

NAME = "billing"


@runtime_checkable
class Billing(Protocol):
    """Plans, charges, invoices and refunds.

    `record_refund` must be exactly-once per `idempotency_key` (a retry returns the first
    refund and False) and must refuse (ValueError) to refund more than was charged, even
    when two callers ask at the same moment.
    """

    def list_plans(self) -> list[Plan]: ...
    def get_plan(self, plan_id: str) -> Plan | None: ...
    def current_plan(self, customer_id: str) -> Plan | None: ...
    def change_plan(self, customer_id: str, plan_id: str) -> None: ...
    def get_charge(self, charge_id: str) -> Charge | None: ...
    def list_charges(self, customer_id: str, since_days: int = 365) -> list[Charge]: ...
    def list_invoices(self, customer_id: str) -> list[Invoice]: ...
    def balance_due_cents(self, customer_id: str) -> int: ...
    def refunded_cents(self, charge_id: str) -> int: ...
    def list_refunds(self, customer_id: str | None = None) -> list[Refund]: ...
    def record_refund(
        self, *, charge_id: str, amount_cents: int, reason: str, idempotency_key: str,
        approved_by: str | None = None,
    ) -> tuple[Refund, bool]: ...


def billing_port(ports: Ports) -> Billing:
    """The line's billing system (the embedded ledger or a company's adapter)."""
    return ports.port(NAME)  # type: ignore[no-any-return]


PORTS = (PortSpec(NAME, Billing, embedded),)
