"""Billing's tables: plans, subscriptions, charges, invoices and refunds.

Release 0.1 created them in the foundation's baseline, so every database made before 0.2
has them already (with their data): here they are created only where missing. From now on
billing's schema changes are revisions of this branch.

Revision ID: b0001
Revises:
"""

from __future__ import annotations

from alembic import op

from callcenter.store.schema import pg_ddl, statements

revision = "b0001"
down_revision = None
branch_labels = ("billing",)
depends_on = None

TABLES = """
    CREATE TABLE IF NOT EXISTS plans (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        monthly_price_cents INTEGER NOT NULL CHECK (monthly_price_cents >= 0),
        api_rate_limit_per_min INTEGER NOT NULL,
        api_monthly_quota INTEGER NOT NULL
    );
    CREATE TABLE IF NOT EXISTS subscriptions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        plan_id TEXT NOT NULL REFERENCES plans(id),
        started_at TEXT NOT NULL,
        ended_at TEXT
    );
    CREATE TABLE IF NOT EXISTS charges (
        id TEXT PRIMARY KEY,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        description TEXT NOT NULL,
        charged_at TEXT NOT NULL,
        invoice_id TEXT
    );
    CREATE TABLE IF NOT EXISTS invoices (
        id TEXT PRIMARY KEY,
        customer_id TEXT NOT NULL REFERENCES customers(id),
        period TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('paid', 'open', 'overdue')),
        issued_at TEXT NOT NULL,
        due_at TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS refunds (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        charge_id TEXT NOT NULL REFERENCES charges(id),
        customer_id TEXT NOT NULL REFERENCES customers(id),
        amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
        reason TEXT NOT NULL,
        idempotency_key TEXT NOT NULL UNIQUE,
        approved_by TEXT,
        created_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS charges_by_customer ON charges(customer_id, charged_at);
    CREATE INDEX IF NOT EXISTS refunds_by_charge ON refunds(charge_id);
"""


def upgrade() -> None:
    bind = op.get_bind()
    ddl = TABLES if bind.dialect.name == "sqlite" else pg_ddl(TABLES)
    for sql in statements(ddl):
        bind.exec_driver_sql(sql)


def downgrade() -> None:
    raise NotImplementedError("billing's first revision is not reversible: restore a backup instead")
