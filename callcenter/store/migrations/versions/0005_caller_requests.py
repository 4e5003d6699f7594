"""What callers filed, per call, customer and calling line: the caps on tickets, pending
changes and call-backs count these rows (`SafetyStoreMixin.claim_request`).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "caller_requests",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),  # ticket | pending_change | callback
        sa.Column("call_id", sa.Text(), nullable=False),
        sa.Column("customer_id", sa.Text(), nullable=True),  # None: an unverified caller
        sa.Column("line", sa.Text(), nullable=True),  # a digest of the calling number, when known
    )
    op.create_index("caller_requests_by_call", "caller_requests", ["call_id", "kind"])
    op.create_index("caller_requests_by_customer", "caller_requests", ["customer_id", "kind", "at"])
    op.create_index("caller_requests_by_line", "caller_requests", ["line", "kind", "at"])


def downgrade() -> None:
    op.drop_table("caller_requests")
