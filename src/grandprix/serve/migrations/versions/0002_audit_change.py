"""Each audit entry names the change it settles (``journal.Intent.ident``), so that a change
finished after a crash is recorded once.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("audit") as table:
        table.add_column(sa.Column("change", sa.String(32), nullable=True))
        table.create_index("audit_change", ["change"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("audit") as table:
        table.drop_index("audit_change")
        table.drop_column("change")
