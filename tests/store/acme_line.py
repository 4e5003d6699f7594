"""A company's own systems, as a test stands them in: Acme keeps customers, billing, tickets
and its status page in memory, with none of the SQL store's demo data.

Plugged in with CALLCENTER_ADAPTERS="customers=tests.store.acme_line:systems,billing=...";
the factory returns one object for all four ports, as a company with one CRM/ERP would.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

from callcenter.store import models as m
from domains.billing import records as b
from domains.technical import records as t


def _iso(t: datetime) -> str:
    return t.replace(microsecond=0).isoformat()


class AcmeSystems:
    """Every port's methods over plain dicts; exactly-once refunds under a lock, as a payment API would."""

    def __init__(self) -> None:
        now = datetime.now(UTC)
        day = timedelta(days=1)
        self._lock = threading.Lock()
        self.calls: list[str] = []  # which port methods the line called, in order
        self.plans = {"starter": b.Plan("starter", "Starter", 4900, 60, 100_000), "pro": b.Plan("pro", "Pro", 24900, 600, 2_000_000)}
        self.customers = {
            "C7001": m.Customer("C7001", "Mae Jemison", "mae@acme.test", "+16175550177", "02139", "1956-10-17",
                                False, False, True, "sk_live_mae", _iso(now - 300 * day)),
        }
        self.subscriptions = {"C7001": "starter"}
        self.invoices: dict[str, b.Invoice] = {}
        self.charges: dict[str, b.Charge] = {}
        for k in (3, 2, 1):
            at = now - (30 * k - 2) * day
            inv = b.Invoice(f"INV-7001-{k}", "C7001", at.strftime("%Y-%m"), 4900, "paid", _iso(at), _iso(at + 14 * day))
            self.invoices[inv.id] = inv
            self.charges[f"CH-7001-{k}"] = b.Charge(f"CH-7001-{k}", "C7001", 4900, "Starter plan", _iso(at), inv.id)
        # Taken twice, three minutes apart: the duplicate the caller rings about.
        self.charges["CH-7001-D"] = b.Charge("CH-7001-D", "C7001", 4900, "Starter plan", _iso(now - 28 * day + timedelta(minutes=3)), None)
        self.refunds: list[b.Refund] = []
        self.tickets: dict[str, m.Ticket] = {}
        self.incident = t.Incident("ACME-INC-9", "dashboard", "Acme dashboard loads slowly", "investigating", _iso(now - timedelta(hours=2)), None)

    def _note(self, name: str) -> None:
        self.calls.append(name)

    # --- Customers ---------------------------------------------------------------------
    def get_customer(self, customer_id: str) -> m.Customer | None:
        self._note("get_customer")
        return self.customers.get(customer_id.strip().upper())

    def find_customer_by_email(self, email: str) -> m.Customer | None:
        self._note("find_customer_by_email")
        return next((c for c in self.customers.values() if c.email == email.strip().lower()), None)

    def find_customer_by_phone(self, phone: str) -> m.Customer | None:
        return next((c for c in self.customers.values() if c.phone == phone), None)

    def update_email(self, customer_id: str, email: str) -> None:
        raise NotImplementedError("Acme changes contact details only in its own portal")

    def update_phone(self, customer_id: str, phone: str) -> None:
        raise NotImplementedError("Acme changes contact details only in its own portal")

    def set_locked(self, customer_id: str, locked: bool) -> None:
        self._set(customer_id, locked=locked)

    def close_account(self, customer_id: str) -> None:
        self._note("close_account")
        self._set(customer_id, closed=True)

    def reset_two_factor(self, customer_id: str) -> None:
        self._set(customer_id, two_factor=False)

    def _set(self, customer_id: str, **values: object) -> None:
        c = self.customers.get(customer_id.upper())
        if c is None:
            raise ValueError("unknown customer")
        self.customers[c.id] = m.Customer(**{**{f: getattr(c, f) for f in c.__dataclass_fields__}, **values})

    def recent_logins(self, customer_id: str, days: int = 7) -> list[m.LoginEvent]:
        return []

    # --- Billing -----------------------------------------------------------------------
    def list_plans(self) -> list[b.Plan]:
        return list(self.plans.values())

    def get_plan(self, plan_id: str) -> b.Plan | None:
        return self.plans.get(plan_id.lower())

    def current_plan(self, customer_id: str) -> b.Plan | None:
        self._note("current_plan")
        return self.plans.get(self.subscriptions.get(customer_id, ""))

    def change_plan(self, customer_id: str, plan_id: str) -> None:
        self.subscriptions[customer_id] = plan_id

    def get_charge(self, charge_id: str) -> b.Charge | None:
        return self.charges.get(charge_id.strip().upper())

    def list_charges(self, customer_id: str, since_days: int = 365) -> list[b.Charge]:
        self._note("list_charges")
        since = _iso(datetime.now(UTC) - timedelta(days=since_days))
        return sorted((c for c in self.charges.values() if c.customer_id == customer_id and c.charged_at >= since), key=lambda c: c.charged_at)

    def list_invoices(self, customer_id: str) -> list[b.Invoice]:
        return sorted((i for i in self.invoices.values() if i.customer_id == customer_id), key=lambda i: i.issued_at, reverse=True)

    def balance_due_cents(self, customer_id: str) -> int:
        return sum(i.amount_cents for i in self.invoices.values() if i.customer_id == customer_id and i.status != "paid")

    def refunded_cents(self, charge_id: str) -> int:
        return sum(r.amount_cents for r in self.refunds if r.charge_id == charge_id)

    def list_refunds(self, customer_id: str | None = None) -> list[b.Refund]:
        return [r for r in self.refunds if customer_id is None or r.customer_id == customer_id]

    def record_refund(
        self, *, charge_id: str, amount_cents: int, reason: str, idempotency_key: str, approved_by: str | None = None,
    ) -> tuple[b.Refund, bool]:
        self._note("record_refund")
        with self._lock:
            done = next((r for r in self.refunds if r.idempotency_key == idempotency_key), None)
            if done is not None:
                return done, False
            charge = self.charges.get(charge_id)
            if charge is None:
                raise ValueError("unknown charge")
            if amount_cents <= 0 or amount_cents + self.refunded_cents(charge_id) > charge.amount_cents:
                raise ValueError("refund exceeds the refundable amount")
            refund = b.Refund(len(self.refunds) + 1, charge_id, charge.customer_id, amount_cents, reason, idempotency_key,
                              approved_by, _iso(datetime.now(UTC)))
            self.refunds.append(refund)
            return refund, True

    # --- Tickets -----------------------------------------------------------------------
    def create_ticket(self, *, customer_id: str | None, kind: str, summary: str, ticket_id: str | None = None) -> m.Ticket:
        self._note("create_ticket")
        with self._lock:
            if ticket_id and ticket_id in self.tickets:
                return self.tickets[ticket_id]
            tid = ticket_id or f"ACME-{len(self.tickets) + 100}"
            at = _iso(datetime.now(UTC))
            self.tickets[tid] = m.Ticket(tid, customer_id, kind, summary, "open", at, at)
            return self.tickets[tid]

    def get_ticket(self, ticket_id: str) -> m.Ticket | None:
        return self.tickets.get(ticket_id)

    def list_tickets(self, customer_id: str | None = None, kind: str | None = None) -> list[m.Ticket]:
        return [t for t in self.tickets.values() if customer_id in (None, t.customer_id) and kind in (None, t.kind)]

    def set_ticket_status(self, ticket_id: str, status: str) -> None:
        t = self.tickets[ticket_id]
        self.tickets[ticket_id] = m.Ticket(t.id, t.customer_id, t.kind, t.summary, status, t.created_at, _iso(datetime.now(UTC)))

    # --- ServiceStatus -----------------------------------------------------------------
    def incidents(self, *, active_only: bool = False, days: int = 14) -> list[t.Incident]:
        self._note("incidents")
        return [self.incident]

    def api_usage(self, customer_id: str, days: int = 7) -> list[t.ApiUsage]:
        return []


SYSTEMS: AcmeSystems | None = None


def systems(store: Any, settings: Any) -> AcmeSystems:
    """The factory CALLCENTER_ADAPTERS names: one Acme connection per process, for every port."""
    del store, settings  # Acme needs nothing of the line's own database
    global SYSTEMS
    if SYSTEMS is None:
        SYSTEMS = AcmeSystems()
    return SYSTEMS


def billing_without_refunds(store: Any, settings: Any) -> object:
    """A broken adapter: a billing system missing `record_refund` must stop the start."""

    class Partial:
        def __getattr__(self, name: str) -> Any:
            if name == "record_refund":
                raise AttributeError(name)
            return getattr(AcmeSystems(), name)

    return Partial()
