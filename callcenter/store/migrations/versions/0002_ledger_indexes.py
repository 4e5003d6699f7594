"""Indexes for the money ledger's hot reads under concurrent callers.

`record_refund` sums a charge's refunds while it holds that charge's row lock, and the refund
policy sums a customer's pending approvals on every refund turn: both scanned whole tables.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("refunds_by_charge", "refunds", ["charge_id"])
    op.create_index("work_by_customer", "work_requests", ["customer_id", "kind"])


def downgrade() -> None:
    op.drop_index("work_by_customer", "work_requests")
    op.drop_index("refunds_by_charge", "refunds")
