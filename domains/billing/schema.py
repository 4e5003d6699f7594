"""Billing's own tables in the line's database: its Alembic branch and its demo rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from callcenter.store.migrate import SchemaBranch

if TYPE_CHECKING:
    from callcenter.store.engine import Conn

PLANS = [
    ("starter", "Starter", 4900, 60, 100_000),
    ("pro", "Pro", 24900, 600, 2_000_000),
    ("enterprise", "Enterprise", 99900, 6000, 50_000_000),
]
# The plan of each of the foundation's demo customers (callcenter/store/seed.py).
DEMO_PLANS = {"C1001": "starter", "C1002": "pro", "C1003": "enterprise", "C1004": "starter", "C1005": "pro"}


def _iso(t: datetime) -> str:
    return t.replace(microsecond=0).isoformat()


def _months_back(now: datetime, m: int) -> str:
    """The billing month ``m`` calendar months before ``now`` ("2026-10" for m=1 in November):
    each demo invoice its own month, whatever the day (charges 28 and 58 days back both fall in
    October on the 28th to the 31st, which gave two October invoices and no September one)."""
    month, year = now.month - m, now.year
    while month < 1:
        month, year = month + 12, year - 1
    return f"{year:04d}-{month:02d}"


def seed(conn: Conn, now: datetime | None = None) -> None:
    """Plans, subscriptions, three months of invoices and charges, and two duplicate charges
    (Ada's under the auto-refund limit, Grace's above it), for the demo customers present:
    a database made without demo customers gets no demo money either."""
    present = {r[0] for r in conn.execute("SELECT id FROM customers").fetchall()} & DEMO_PLANS.keys()
    if not present:
        return
    now = now or datetime.now(UTC)
    day = timedelta(days=1)
    conn.executemany("INSERT INTO plans VALUES (?, ?, ?, ?, ?)", PLANS)
    price = {p[0]: p[2] for p in PLANS}
    for cid in sorted(present):
        plan = DEMO_PLANS[cid]
        conn.execute("INSERT INTO subscriptions (customer_id, plan_id, started_at) VALUES (?, ?, ?)",
                     (cid, plan, _iso(now - 400 * day)))
        for m in range(3, 0, -1):
            at = now - (30 * m - 2) * day
            inv = f"INV-{cid[1:]}-{m}"
            status = "paid" if m > 1 else ("overdue" if cid == "C1004" else "paid")
            conn.execute("INSERT INTO invoices VALUES (?, ?, ?, ?, ?, ?, ?)",
                         (inv, cid, _months_back(now, m), price[plan], status, _iso(at), _iso(at + 14 * day)))
            conn.execute("INSERT INTO charges VALUES (?, ?, ?, ?, ?, ?)",
                         (f"CH-{cid[1:]}-{m}", cid, price[plan], f"{plan.title()} plan", _iso(at), inv))
    for cid, minutes in (("C1001", 3), ("C1002", 1)):
        if cid in present:
            plan = DEMO_PLANS[cid]
            conn.execute("INSERT INTO charges VALUES (?, ?, ?, ?, ?, ?)",
                         (f"CH-{cid[1:]}-D", cid, price[plan], f"{plan.title()} plan", _iso(now - 28 * day + timedelta(minutes=minutes)), None))


SCHEMA = SchemaBranch(
    name="billing", versions=Path(__file__).parent / "migrations" / "versions", head="b0001",
    seed=seed, marker="plans",
)
