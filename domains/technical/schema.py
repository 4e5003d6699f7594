"""Technical's own tables in the line's database: its Alembic branch and its demo rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from callcenter.store.migrate import SchemaBranch

if TYPE_CHECKING:
    from callcenter.store.engine import Conn

DEMO_CUSTOMERS = ("C1001", "C1002", "C1003")  # the foundation's demo customers with API traffic


def _iso(t: datetime) -> str:
    return t.replace(microsecond=0).isoformat()


def seed(conn: Conn, now: datetime | None = None) -> None:
    """API usage for the last 7 days (Ada hits her rate limit, Grace uses a revoked key, Alan
    sees server errors during an incident) and two incidents, one still open; only into a
    database that has the demo customers."""
    present = {r[0] for r in conn.execute("SELECT id FROM customers").fetchall()}
    if not present.issuperset(DEMO_CUSTOMERS):
        return
    now = now or datetime.now(UTC)
    day = timedelta(days=1)
    for d in range(7):
        dd = (now - d * day).strftime("%Y-%m-%d")
        rows = [
            ("C1001", dd, 52_000, 0, 0, 3_100 if d < 3 else 40, 0, 140 if d < 3 else 55),
            ("C1002", dd, 80_000, 1_900 if d < 2 else 0, 12, 0, 3, 300),
            ("C1003", dd, 900_000, 0, 0, 0, 4_200 if d == 0 else 20, 2_000),
        ]
        conn.executemany("INSERT INTO api_usage VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.execute("INSERT INTO incidents VALUES (?, ?, ?, ?, ?, ?)",
                 ("INC-42", "api", "Elevated 5xx error rates on the REST API (us-east)", "investigating",
                  _iso(now - timedelta(hours=2)), None))
    conn.execute("INSERT INTO incidents VALUES (?, ?, ?, ?, ?, ?)",
                 ("INC-41", "webhooks", "Delayed webhook deliveries", "resolved",
                  _iso(now - 6 * day), _iso(now - 6 * day + timedelta(hours=3))))


SCHEMA = SchemaBranch(
    name="technical", versions=Path(__file__).parent / "migrations" / "versions", head="t0001",
    seed=seed, marker="incidents",
)
