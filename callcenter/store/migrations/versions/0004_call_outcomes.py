"""Call outcomes: one row per call and one per need it handled, so the line's KPIs
(containment, first-contact resolution, transfer, call-back and abandonment rates, handle
time) survive restarts and read the same in Prometheus and the operators' console.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "call_outcomes",
        sa.Column("call_id", sa.Text(), primary_key=True),
        sa.Column("started_at", sa.Text(), nullable=False),
        sa.Column("ended_at", sa.Text(), nullable=False),
        # The verified caller at the end of the call, for repeat contacts; none if never verified.
        sa.Column("customer_id", sa.Text(), nullable=True),
        # resolved | pending_approval | callback | transferred | abandoned
        sa.Column("outcome", sa.Text(), nullable=False),
        sa.Column("handle_s", sa.Float(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        # A bounded category (asked_for_person, service_unavailable, ...), never caller words.
        sa.Column("callback_reason", sa.Text(), nullable=True),
    )
    op.create_index("call_outcomes_by_end", "call_outcomes", ["ended_at"])
    op.create_index("call_outcomes_by_customer", "call_outcomes", ["customer_id", "ended_at"])
    op.create_table(
        "call_needs",
        sa.Column("call_id", sa.Text(), sa.ForeignKey("call_outcomes.call_id"), primary_key=True),
        sa.Column("need", sa.Text(), primary_key=True),  # the specialist: billing.refund
        sa.Column("domain", sa.Text(), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=False),
        # The same caller raised the same need in an earlier call within the FCR window.
        sa.Column("is_repeat", sa.Boolean(), nullable=False),
        sa.Column("callback_reason", sa.Text(), nullable=True),  # as on the call, for this need
    )


def downgrade() -> None:
    op.drop_table("call_needs")
    op.drop_index("call_outcomes_by_customer", "call_outcomes")
    op.drop_index("call_outcomes_by_end", "call_outcomes")
    op.drop_table("call_outcomes")
