"""Each upload names the form it was sent from (a digest of the preview's token): the same form
sent twice, at once or again, makes one upload.

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
    with op.batch_alter_table("submissions") as table:
        table.add_column(sa.Column("form_key", sa.String(64), nullable=True))
        table.create_index("submissions_form_key", ["form_key"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("submissions") as table:
        table.drop_index("submissions_form_key")
        table.drop_column("form_key")
