"""Technical's tables: a customer's API usage per day, and the status page's incidents.

Release 0.1 created them in the foundation's baseline, so every database made before 0.2
has them already (with their data): here they are created only where missing. From now on
their schema changes are revisions of this branch.

Revision ID: t0001
Revises:
"""

from __future__ import annotations

from alembic import op

from callcenter.store.schema import statements

revision = "t0001"
down_revision = None
branch_labels = ("technical",)
depends_on = None

TABLES = """
    CREATE TABLE IF NOT EXISTS api_usage (
        customer_id TEXT NOT NULL REFERENCES customers(id),
        day TEXT NOT NULL,
        requests INTEGER NOT NULL,
        errors_401 INTEGER NOT NULL DEFAULT 0,
        errors_403 INTEGER NOT NULL DEFAULT 0,
        errors_429 INTEGER NOT NULL DEFAULT 0,
        errors_5xx INTEGER NOT NULL DEFAULT 0,
        peak_per_min INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (customer_id, day)
    );
    CREATE TABLE IF NOT EXISTS incidents (
        id TEXT PRIMARY KEY,
        service TEXT NOT NULL,
        title TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('investigating', 'monitoring', 'resolved')),
        started_at TEXT NOT NULL,
        resolved_at TEXT
    );
"""


def upgrade() -> None:
    bind = op.get_bind()
    for sql in statements(TABLES):  # the same DDL on SQLite and PostgreSQL
        bind.exec_driver_sql(sql)


def downgrade() -> None:
    raise NotImplementedError("technical's first revision is not reversible: restore a backup instead")
