"""What technical reads from the caller's plan: its name and API rate limit (a 429 diagnosis).

Plans are billing's records, in the port named "billing" (billing's embedded ledger or a
company's billing system). Technical imports no other domain: it declares here the few
fields it reads and asks the line's ports for the port by its configured name. A line
without a billing port diagnoses 429s without naming a plan or its limit.
"""

from __future__ import annotations

from typing import Protocol

from callcenter.store.adapters import Ports

BILLING = "billing"  # the port's name, as CALLCENTER_ADAPTERS and its declaring domain give it


class PlanFact(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def api_rate_limit_per_min(self) -> int: ...


def current_plan(ports: Ports, customer_id: str) -> PlanFact | None:
    """The caller's plan from the line's billing port; None without one (or without a plan)."""
    billing = ports.declared.get(BILLING)
    return billing.current_plan(customer_id) if billing is not None else None  # type: ignore[attr-defined, no-any-return]
