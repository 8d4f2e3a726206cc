"""Alembic's entry for the server's store: migrations run on the connection that
``store.migrate`` gives (never from a URL in a file)."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
