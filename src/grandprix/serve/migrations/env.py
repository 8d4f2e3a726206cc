"""Alembic's entry for the server's store: migrations run on the connection that
``database.migrate`` gives (never from a URL in a file), all in its one transaction, DDL
included (SQLite's too: ``database.open_engine`` begins its transactions itself), so that an
upgrade killed or failing half-way leaves the database as it was before it."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes["connection"]
context.configure(
    connection=connection, target_metadata=None, render_as_batch=True, transactional_ddl=True
)
with context.begin_transaction():
    context.run_migrations()
