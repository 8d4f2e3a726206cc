"""Shared test helpers: paths to real data (skipped with a reason when absent) and tiny events."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ROOT = Path(__file__).resolve().parents[1]
# The MIT-licensed real data sets, copied into the repository with their SOURCE.txt and LICENSE.
TEST_DATA = Path(__file__).resolve().parent / "data"
# Every set, including the GPL-licensed ones that stay out of this MIT repository; the variable
# points it elsewhere (GRANDPRIX_SHARED_DATA=/nonexistent runs the tests as a fresh clone would).
SHARED_DATA = Path(os.environ.get("GRANDPRIX_SHARED_DATA") or ROOT.parent / "shared" / "data")
FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXAMPLES = ROOT / "examples" / "events"


def real_data(*parts: str) -> Path | None:
    """A file or folder of the real data: tests/data first, then ../shared/data; None if neither."""
    for base in (TEST_DATA, SHARED_DATA):
        path = base.joinpath(*parts)
        if path.exists():
            return path
    return None


def shared(*parts: str) -> Path:
    """A file of the real data (see real_data); the test is skipped when it is in neither place."""
    path = real_data(*parts)
    if path is None:
        pytest.skip(
            f"real tournament data {'/'.join(parts)} is neither in tests/data nor at {SHARED_DATA}"
            " (../shared/data, which holds the GPL-licensed sets, is not checked out)"
        )
    return path


def real_files(pattern: str) -> list[Any]:
    """Parameters for every file of tests/data and ../shared/data matching the glob pattern, once
    each: the path relative to them, for shared() (which prefers the in-repository copy), with the
    file name as id. Without ../shared/data, one more parameter skips for the files found there."""
    found = {
        path.relative_to(base).as_posix()
        for base in (TEST_DATA, SHARED_DATA)
        for path in base.glob(pattern)
        if path.is_file()
    }
    params = [pytest.param(rel, id=PurePosixPath(rel).name) for rel in sorted(found)]
    if not SHARED_DATA.is_dir():
        reason = f"the {pattern} files of {SHARED_DATA} (GPL-licensed sets) are not checked out"
        params.append(
            pytest.param(pattern, id="shared-data-missing", marks=pytest.mark.skip(reason=reason))
        )
    return params


CHROMIUM = Path("/usr/bin/chromium")  # Debian's; .ci/run installs it
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One headless Chromium for the whole session (Playwright's sync API allows one per
    process). Skipped without Debian's chromium, except in CI, where it must be there."""
    if not CHROMIUM.exists():
        reason = "Debian's chromium is not installed (.ci/run installs it: apt install chromium)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[str]:
    """A temporary PostgreSQL cluster for this test process (tests/databases.py). Skipped
    without Debian's postgresql, except in CI, where it must be there."""
    from databases import binaries, cluster

    if binaries() is None:
        reason = (
            "Debian's postgresql is not installed (.ci/run installs it: apt install postgresql)"
        )
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    with cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database for the server's store: each test runs on SQLite and
    on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    from databases import fresh_database

    maintenance: str = request.getfixturevalue("postgres_cluster")
    return fresh_database(maintenance, f"t_{os.urandom(6).hex()}")
