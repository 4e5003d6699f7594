"""Demo customers written on first run, dated relative to that moment so 'recent' stays true."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from callcenter.store.engine import Conn

PLANS = [
    ("starter", "Starter", 4900, 60, 100_000),
    ("pro", "Pro", 24900, 600, 2_000_000),
    ("enterprise", "Enterprise", 99900, 6000, 50_000_000),
]

# id, name, email, phone, zip, birth date, plan, locked, api key prefix
CUSTOMERS = [
    ("C1001", "Ada Lovelace", "ada@example.com", "+14155550101", "94107", "1985-12-10", "starter", 0, "sk_live_ada"),
    ("C1002", "Grace Hopper", "grace@example.com", "+14155550102", "10001", "1979-12-09", "pro", 0, "sk_live_grc"),
    ("C1003", "Alan Turing", "alan@example.com", "+14155550103", "60601", "1982-06-23", "enterprise", 0, "sk_live_aln"),
    ("C1004", "Katherine Johnson", "katherine@example.com", "+14155550104", "30301", "1990-08-26", "starter", 1, "sk_live_kat"),
    ("C1005", "Linus Pauling", "linus@example.com", "+14155550105", "97201", "1988-02-28", "pro", 0, "sk_live_lin"),
]


def _iso(t: datetime) -> str:
    return t.replace(microsecond=0).isoformat()


def seed(conn: Conn, now: datetime | None = None) -> None:
    now = now or datetime.now(UTC)
    day = timedelta(days=1)
    conn.executemany("INSERT INTO plans VALUES (?, ?, ?, ?, ?)", PLANS)
    for cid, name, email, phone, zip_code, dob, plan, locked, key in CUSTOMERS:
        conn.execute(
            "INSERT INTO customers (id, name, email, phone, zip_code, birth_date, locked, api_key_prefix, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (cid, name, email, phone, zip_code, dob, locked, key, _iso(now - 400 * day)),
        )
        conn.execute(
            "INSERT INTO subscriptions (customer_id, plan_id, started_at) VALUES (?, ?, ?)",
            (cid, plan, _iso(now - 400 * day)),
        )
    price = {p[0]: p[2] for p in PLANS}
    # Monthly charges and invoices for everyone; the last three months.
    for cid, *_rest in CUSTOMERS:
        plan = _rest[5]
        for m in range(3, 0, -1):
            at = now - (30 * m - 2) * day
            inv = f"INV-{cid[1:]}-{m}"
            status = "paid" if m > 1 else ("overdue" if cid == "C1004" else "paid")
            conn.execute(
                "INSERT INTO invoices VALUES (?, ?, ?, ?, ?, ?, ?)",
                (inv, cid, at.strftime("%Y-%m"), price[plan], status, _iso(at), _iso(at + 14 * day)),
            )
            conn.execute(
                "INSERT INTO charges VALUES (?, ?, ?, ?, ?, ?)",
                (f"CH-{cid[1:]}-{m}", cid, price[plan], f"{plan.title()} plan", _iso(at), inv),
            )
    # Duplicate charges: Ada's is under the auto-refund limit, Grace's is above it.
    conn.execute(
        "INSERT INTO charges VALUES (?, ?, ?, ?, ?, ?)",
        ("CH-1001-D", "C1001", 4900, "Starter plan", _iso(now - 28 * day + timedelta(minutes=3)), None),
    )
    conn.execute(
        "INSERT INTO charges VALUES (?, ?, ?, ?, ?, ?)",
        ("CH-1002-D", "C1002", 24900, "Pro plan", _iso(now - 28 * day + timedelta(minutes=1)), None),
    )
    # API usage for the last 7 days: Ada hits her rate limit, Grace uses a revoked key,
    # Alan sees server errors during an incident.
    for d in range(7):
        dd = (now - d * day).strftime("%Y-%m-%d")
        conn.execute(
            "INSERT INTO api_usage VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ("C1001", dd, 52_000, 0, 0, 3_100 if d < 3 else 40, 0, 140 if d < 3 else 55),
        )
        conn.execute(
            "INSERT INTO api_usage VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ("C1002", dd, 80_000, 1_900 if d < 2 else 0, 12, 0, 3, 300),
        )
        conn.execute(
            "INSERT INTO api_usage VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            ("C1003", dd, 900_000, 0, 0, 0, 4_200 if d == 0 else 20, 2_000),
        )
    conn.execute(
        "INSERT INTO incidents VALUES (?, ?, ?, ?, ?, ?)",
        ("INC-42", "api", "Elevated 5xx error rates on the REST API (us-east)", "investigating",
         _iso(now - timedelta(hours=2)), None),
    )
    conn.execute(
        "INSERT INTO incidents VALUES (?, ?, ?, ?, ?, ?)",
        ("INC-41", "webhooks", "Delayed webhook deliveries", "resolved",
         _iso(now - 6 * day), _iso(now - 6 * day + timedelta(hours=3))),
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
