"""The server's database opened: its address (``--database``, or the SQLite file in the folder
served), the engine (SQLite's connections set up so that every transaction, DDL included, is
whole or absent) and the schema brought to the newest migration (``serve/migrations``). What is
kept in it is ``store.Store``'s."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from grandprix.errors import UsageError

STORE_FILE = ".grandprix-server.sqlite3"  # in the folder served: hidden, so not a season file


def database_url(url: str | None, folder: Path) -> str:
    """The SQLAlchemy URL of ``url`` (``postgresql://`` goes through psycopg 3), or the
    default SQLite file in ``folder``."""
    if not url:
        return f"sqlite:///{(folder / STORE_FILE).resolve()}"
    for scheme in ("postgresql://", "postgres://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    if url.startswith(("sqlite:///", "postgresql+psycopg://")):
        return url
    raise UsageError(f"--database {url[:60]!r}: give postgresql://USER@HOST/DB (or sqlite:///FILE)")


def shown_url(url: str) -> str:
    """``url`` without its password, for messages."""
    return sa.engine.make_url(url).render_as_string(hide_password=True)


def open_engine(url: str) -> Engine:
    """The engine of the database at ``url``; a new SQLite file readable by its owner only, its
    connections in WAL mode with foreign keys, each transaction begun by the engine itself."""
    try:
        engine = sa.create_engine(url, pool_pre_ping=True)
    except Exception as exc:  # a malformed URL, a missing driver
        raise UsageError(f"database {shown_url(url)}: {exc}") from exc
    if engine.dialect.name == "sqlite":
        _private(engine.url.database)

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _: Any) -> None:
            # The driver's own transactions are off: it would begin none before a CREATE or
            # ALTER, so that a migration killed half-way stayed half-made. Each transaction
            # is begun below, DDL included, and is whole or absent.
            connection.isolation_level = None
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")  # readers do not wait for the writer
            cursor.execute("PRAGMA busy_timeout=10000")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _begin(connection: Connection) -> None:
            connection.exec_driver_sql("BEGIN")

    return engine


def _private(path: str | None) -> None:
    """A new SQLite file made readable by its owner only (it holds password hashes); SQLite
    gives its -wal and -shm files the same permissions."""
    if not path or path == ":memory:" or os.path.exists(path):
        return
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError as exc:
        raise UsageError(
            f"database {path}: cannot make it ({exc.strerror}); check the folder "
            "exists and may be written"
        ) from exc


def migrate(engine: Engine) -> None:
    """Bring the database's schema to the newest migration (``serve/migrations``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except sa.exc.OperationalError as exc:
        raise UsageError(
            f"database {shown_url(str(engine.url))}: cannot open it ({exc.orig}); check the "
            "address, that the server runs and that the user may create tables"
        ) from exc
