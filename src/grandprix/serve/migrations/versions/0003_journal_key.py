"""The key of the change journals' seals (``journal``), made once, held only by the database:
a journal in a season folder is applied after a crash only when sealed with it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    keys = op.create_table(
        "server_keys",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.LargeBinary, nullable=False),
    )
    op.bulk_insert(keys, [{"name": "journal", "value": os.urandom(32)}])


def downgrade() -> None:
    op.drop_table("server_keys")
