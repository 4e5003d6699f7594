"""The embedded ledger: billing's records in the line's own database (SQLite or PostgreSQL).

The default behind the billing port when no company adapter is named. Its tables are
billing's schema branch (`schema.py`), checked (and upgraded, where the store may) on the
ledger's first use in a process, as the foundation's are when the store opens: a database
that fails then fails that call, like any other read, not the line's start.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from callcenter.redact import mask
from callcenter.store import Store
from callcenter.store.own_tables import OwnTables
from callcenter.store.repository import now_iso
from domains.billing.records import Charge, Invoice, Plan, Refund
from domains.billing.schema import SCHEMA


class Ledger(OwnTables):
    """Every method of the billing port over the line's database."""

    schema = SCHEMA

    # --- plans -----------------------------------------------------------------------
    def list_plans(self) -> list[Plan]:
        return self._db.fetch_all(Plan, "SELECT * FROM plans ORDER BY monthly_price_cents")

    def get_plan(self, plan_id: str) -> Plan | None:
        return self._db.fetch_one(Plan, "SELECT * FROM plans WHERE id = ?", plan_id.lower())

    def current_plan(self, customer_id: str) -> Plan | None:
        return self._db.fetch_one(
            Plan,
            "SELECT p.* FROM plans p JOIN subscriptions s ON s.plan_id = p.id"
            " WHERE s.customer_id = ? AND s.ended_at IS NULL ORDER BY s.id DESC LIMIT 1",
            customer_id,
        )

    def change_plan(self, customer_id: str, plan_id: str) -> None:
        at = now_iso()
        with self._db.transaction() as conn:
            conn.execute("UPDATE subscriptions SET ended_at = ? WHERE customer_id = ? AND ended_at IS NULL", (at, customer_id))
            conn.execute("INSERT INTO subscriptions (customer_id, plan_id, started_at) VALUES (?, ?, ?)", (customer_id, plan_id, at))

    def account_closed(self, customer_id: str) -> None:
        """The account was closed (`Ports.close_account`): its subscription ends; nothing is billed after."""
        self._db.execute("UPDATE subscriptions SET ended_at = ? WHERE customer_id = ? AND ended_at IS NULL",
                         (now_iso(), customer_id))

    # --- charges, invoices, refunds --------------------------------------------------
    def get_charge(self, charge_id: str) -> Charge | None:
        return self._db.fetch_one(Charge, "SELECT * FROM charges WHERE id = ?", charge_id.upper())

    def list_charges(self, customer_id: str, since_days: int = 365) -> list[Charge]:
        since = (datetime.now(UTC) - timedelta(days=since_days)).isoformat()
        return self._db.fetch_all(
            Charge, "SELECT * FROM charges WHERE customer_id = ? AND charged_at >= ? ORDER BY charged_at DESC", customer_id, since
        )

    def list_invoices(self, customer_id: str) -> list[Invoice]:
        return self._db.fetch_all(Invoice, "SELECT * FROM invoices WHERE customer_id = ? ORDER BY issued_at DESC", customer_id)

    def balance_due_cents(self, customer_id: str) -> int:
        return self._sum("SELECT COALESCE(SUM(amount_cents), 0) FROM invoices WHERE customer_id = ? AND status != 'paid'", customer_id)

    def refunded_cents(self, charge_id: str) -> int:
        return self._sum("SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE charge_id = ?", charge_id)

    def refunded_since(self, customer_id: str, since: str) -> int:
        return self._sum("SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE customer_id = ? AND created_at >= ?", customer_id, since)

    def auto_refunded_since(self, customer_id: str, since: str) -> int:
        """Refunds paid without an operator's approval since `since`."""
        return self._sum(
            "SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE customer_id = ? AND created_at >= ? AND approved_by IS NULL",
            customer_id, since,
        )

    def list_refunds(self, customer_id: str | None = None) -> list[Refund]:
        if customer_id is None:
            return self._db.fetch_all(Refund, "SELECT * FROM refunds ORDER BY id")
        return self._db.fetch_all(Refund, "SELECT * FROM refunds WHERE customer_id = ? ORDER BY id", customer_id)

    def record_refund(
        self, *, charge_id: str, amount_cents: int, reason: str, idempotency_key: str, approved_by: str | None = None,
    ) -> tuple[Refund, bool]:
        """Write a refund once per idempotency key; returns (refund, created_now).

        The charge's remaining refundable amount is checked inside the same transaction,
        so two racing callers cannot refund more than was charged.
        """
        with self._db.transaction() as conn:
            # The charge's row lock (PostgreSQL) or the file's write lock (SQLite) makes every
            # refund of one charge take its turn, across processes and pods.
            charge = conn.execute("SELECT * FROM charges WHERE id = ?" + self._db.for_update, (charge_id,)).fetchone()
            existing = conn.execute("SELECT * FROM refunds WHERE idempotency_key = ?", (idempotency_key,)).fetchone()
            if existing:
                return Refund(**dict(existing)), False
            if charge is None:
                raise ValueError("unknown charge")
            done = conn.execute("SELECT COALESCE(SUM(amount_cents), 0) FROM refunds WHERE charge_id = ?", (charge_id,)).fetchone()[0]
            if amount_cents <= 0 or amount_cents + int(done) > charge["amount_cents"]:
                raise ValueError("refund exceeds the refundable amount")
            row = conn.execute(
                "INSERT INTO refunds (charge_id, customer_id, amount_cents, reason, idempotency_key,"
                " approved_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                (charge_id, charge["customer_id"], amount_cents, mask(reason), idempotency_key, approved_by, now_iso()),
            ).fetchone()
            return Refund(**dict(row)), True

    def _sum(self, sql: str, *args: Any) -> int:
        return int(self._db.execute(sql, args).fetchone()[0])


def embedded(store: Store, settings: Any) -> Ledger:
    """The billing port's stand-in (PortSpec.default): built once per process."""
    return Ledger(store)
