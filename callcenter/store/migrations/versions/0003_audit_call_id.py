"""The call id on audit rows: an approval's decision and effect point back to the call's trace.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Nullable: rows from before, and actions no call caused (an operator's own), have none.
    op.add_column("audit_log", sa.Column("call_id", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("audit_log") as batch:
        batch.drop_column("call_id")
