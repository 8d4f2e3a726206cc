"""A temporary PostgreSQL cluster for the tests of the server's store: Debian's
server binaries (``apt install postgresql``; ``.ci/run`` installs them), a data folder and a
socket in a temporary folder, no TCP port, started once per test process and stopped at its
end. As root (CI), the cluster runs as Debian's ``postgres`` user, as PostgreSQL requires."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

USER = "grandprix"


def binaries() -> Path | None:
    """The folder of Debian's PostgreSQL server binaries, the newest version."""
    versions = [p for p in Path("/usr/lib/postgresql").glob("*") if p.name.isdigit()]
    found = [p / "bin" for p in sorted(versions, key=lambda p: int(p.name))]
    found = [b for b in found if (b / "postgres").is_file()]
    return found[-1] if found else None


def _as_owner(command: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return command
    return ["runuser", "-u", "postgres", "--", *command]


@contextmanager
def cluster() -> Iterator[str]:
    """A running cluster; the URL of its maintenance database (``postgresql://...``)."""
    bin_dir = binaries()
    if bin_dir is None:
        raise FileNotFoundError(
            "Debian's PostgreSQL server is not installed (apt install postgresql)"
        )
    folder = Path(tempfile.mkdtemp(prefix="grandprix-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
    data, log = folder / "data", folder / "log"
    try:
        subprocess.run(
            _as_owner(
                [
                    str(bin_dir / "initdb"),
                    "-D",
                    str(data),
                    "-A",
                    "trust",
                    "-U",
                    USER,
                    "-E",
                    "UTF8",
                    "--no-sync",
                ]
            ),
            check=True,
            capture_output=True,
        )
        options = f"-k {folder} -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        subprocess.run(
            _as_owner(
                [
                    str(bin_dir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(log),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
        )
        try:
            yield f"postgresql://{USER}@/postgres?host={folder}"
        finally:
            subprocess.run(
                _as_owner(
                    [str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]
                ),
                capture_output=True,
            )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(maintenance: str, name: str) -> str:
    """A new empty database in the cluster; its URL."""
    import psycopg

    with psycopg.connect(maintenance, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return maintenance.replace("/postgres?", f"/{name}?", 1)
