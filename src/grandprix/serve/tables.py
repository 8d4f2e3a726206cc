"""The tables of the server's database as SQLAlchemy declares them, for ``store.Store``'s
queries; the migrations in ``migrations/versions`` make them in the database."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()
USERS = sa.Table(
    "users",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(100), nullable=False, unique=True),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
SESSIONS = sa.Table(
    "sessions",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("seen_at", sa.Float, nullable=False),
)
ASSIGNMENTS = sa.Table(
    "assignments",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    sa.Column("season", sa.String(100), nullable=False),
    sa.Column("event", sa.String(200), nullable=False),
    sa.UniqueConstraint("user_id", "season", "event"),
)
LOGIN_FAILURES = sa.Table(
    "login_failures",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(100), nullable=False, index=True),
    sa.Column("address", sa.String(100), nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False),
)
FILES = sa.Table(
    "files",
    metadata,
    sa.Column("sha256", sa.String(64), primary_key=True),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("data", sa.LargeBinary, nullable=False),
    sa.Column("kept_at", sa.Float, nullable=False),
)
AUDIT = sa.Table(
    "audit",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("at", sa.Float, nullable=False),
    sa.Column("season", sa.String(100), nullable=False, index=True),
    sa.Column("user_name", sa.String(100), nullable=False),
    sa.Column("action", sa.String(40), nullable=False),
    sa.Column("what", sa.Text, nullable=False),
    sa.Column("files", sa.Text, nullable=False),  # JSON: [{name, sha256, size, replaced}]
    sa.Column("moves", sa.Text, nullable=False),  # JSON: the standings' difference
    sa.Column("change", sa.String(32), nullable=True, unique=True),  # journal.Intent.ident
)
SUBMISSIONS = sa.Table(
    "submissions",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("season", sa.String(100), nullable=False, index=True),
    sa.Column("user_name", sa.String(100), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),  # "event" or "results"
    sa.Column("event", sa.String(200), nullable=False),
    sa.Column("fields", sa.Text, nullable=False),  # JSON: what the form said
    sa.Column("file_sha256", sa.String(64), sa.ForeignKey("files.sha256"), nullable=False),
    sa.Column("status", sa.String(20), nullable=False),
    sa.Column("decided_by", sa.String(100), nullable=False, server_default=""),
    sa.Column("decided_at", sa.Float, nullable=True),
    sa.Column("form_key", sa.String(64), nullable=True, unique=True),  # the form sent, hashed
)
SERVER_KEYS = sa.Table(
    "server_keys",
    metadata,
    sa.Column("name", sa.String(40), primary_key=True),  # "journal": the journals' seal
    sa.Column("value", sa.LargeBinary, nullable=False),
)
