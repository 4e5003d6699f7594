"""Demo customers written on first run, dated relative to that moment so 'recent' stays true."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from callcenter.store.engine import Conn

# id, name, email, phone, zip, birth date, locked, api key prefix (a domain seeds its own rows
# for these ids: billing's plans and charges in domains/billing/schema.py, technical's API
# usage in domains/technical/schema.py)
CUSTOMERS = [
    ("C1001", "Ada Lovelace", "ada@example.com", "+14155550101", "94107", "1985-12-10", 0, "sk_live_ada"),
    ("C1002", "Grace Hopper", "grace@example.com", "+14155550102", "10001", "1979-12-09", 0, "sk_live_grc"),
    ("C1003", "Alan Turing", "alan@example.com", "+14155550103", "60601", "1982-06-23", 0, "sk_live_aln"),
    ("C1004", "Katherine Johnson", "katherine@example.com", "+14155550104", "30301", "1990-08-26", 1, "sk_live_kat"),
    ("C1005", "Linus Pauling", "linus@example.com", "+14155550105", "97201", "1988-02-28", 0, "sk_live_lin"),
]


def _iso(t: datetime) -> str:
    return t.replace(microsecond=0).isoformat()


def seed(conn: Conn, now: datetime | None = None) -> None:
    now = now or datetime.now(UTC)
    day = timedelta(days=1)
    for cid, name, email, phone, zip_code, dob, locked, key in CUSTOMERS:
        conn.execute(
            "INSERT INTO customers (id, name, email, phone, zip_code, birth_date, locked, api_key_prefix, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (cid, name, email, phone, zip_code, dob, locked, key, _iso(now - 400 * day)),
        )
    logins = [
        ("C1001", now - 1 * day, 1, "US"),
        ("C1004", now - timedelta(hours=5), 0, "US"),
        ("C1004", now - timedelta(hours=4), 0, "RO"),
        ("C1004", now - timedelta(hours=4, minutes=-1), 0, "RO"),
        ("C1004", now - timedelta(hours=4, minutes=-2), 0, "RO"),
        ("C1002", now - 2 * day, 1, "US"),
    ]
    conn.executemany(
        "INSERT INTO login_events (customer_id, at, success, country) VALUES (?, ?, ?, ?)",
        [(c, _iso(t), s, k) for c, t, s, k in logins],
    )
