"""Accounts, sessions, directors' events, failed logins, kept files, the audit trail and the
uploads waiting for approval.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_table(
        "assignments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("season", sa.String(100), nullable=False),
        sa.Column("event", sa.String(200), nullable=False),
        sa.UniqueConstraint("user_id", "season", "event"),
    )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, index=True),
        sa.Column("address", sa.String(100), nullable=False, index=True),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_table(
        "files",
        sa.Column("sha256", sa.String(64), primary_key=True),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("data", sa.LargeBinary, nullable=False),
        sa.Column("kept_at", sa.Float, nullable=False),
    )
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("season", sa.String(100), nullable=False, index=True),
        sa.Column("user_name", sa.String(100), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("what", sa.Text, nullable=False),
        sa.Column("files", sa.Text, nullable=False),
        sa.Column("moves", sa.Text, nullable=False),
    )
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("season", sa.String(100), nullable=False, index=True),
        sa.Column("user_name", sa.String(100), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("event", sa.String(200), nullable=False),
        sa.Column("fields", sa.Text, nullable=False),
        sa.Column("file_sha256", sa.String(64), sa.ForeignKey("files.sha256"), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("decided_by", sa.String(100), nullable=False, server_default=""),
        sa.Column("decided_at", sa.Float, nullable=True),
    )


def downgrade() -> None:
    for table in (
        "submissions",
        "audit",
        "files",
        "login_failures",
        "assignments",
        "sessions",
        "users",
    ):
        op.drop_table(table)
