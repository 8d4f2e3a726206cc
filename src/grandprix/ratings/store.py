"""The rating-list store: an embedded SQLite file holding dated lists and their ratings.

An import is one transaction: a corrupt list, or a process killed half-way, leaves the store
exactly as it was (SQLite's rollback journal undoes an unfinished transaction when the file is
next opened). Importing the same list twice changes nothing.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from grandprix.errors import UsageError
from grandprix.model import Location, Problem
from grandprix.ratings.formats import ListError, Row, read_rows

KINDS = ("fide-standard", "fide-rapid", "fide-blitz")
SCHEMA = """
CREATE TABLE IF NOT EXISTS lists (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    date TEXT NOT NULL,
    digest TEXT NOT NULL,
    source TEXT NOT NULL,
    format TEXT NOT NULL,
    rows INTEGER NOT NULL,
    UNIQUE (kind, date)
);
CREATE TABLE IF NOT EXISTS ratings (
    list_id INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    name TEXT NOT NULL,
    federation TEXT NOT NULL,
    sex TEXT NOT NULL,
    title TEXT NOT NULL,
    birth_year INTEGER,
    rating INTEGER,
    PRIMARY KEY (list_id, player_id)
) WITHOUT ROWID;
"""


BATCH_ROWS = 200  # rows a statement of the import inserts


def _insert(db: sqlite3.Connection, list_id: int, rows: Iterable[Row]) -> int:
    """Insert the rows of a list; return how many went in.

    The rows go in ``BATCH_ROWS`` to a statement rather than one by one with ``executemany``: a
    third less work for a large list, because the statement runs once per batch instead of
    once per row, and its cursor stays on the row it last wrote, so that a list in id order is
    appended without a search of the table from its root for each row.
    """
    # The list id is an integer from SQLite itself, written into the statement so that the
    # parser's rows go in as they are.
    one = f"({list_id:d}, ?, ?, ?, ?, ?, ?, ?)"
    size = max(1, min(BATCH_ROWS, db.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // 7))
    many = f"INSERT OR REPLACE INTO ratings VALUES {', '.join([one] * size)}"
    width = 7 * size
    inserted = 0
    values = itertools.chain.from_iterable(rows)  # the statement takes the rows' values flat
    while batch := list(itertools.islice(values, width)):
        if len(batch) == width:
            inserted += db.execute(many, batch).rowcount
        else:  # the last rows, cut back into rows of 7 values
            rest = zip(*[iter(batch)] * 7, strict=True)
            inserted += db.executemany(
                f"INSERT OR REPLACE INTO ratings VALUES {one}", rest
            ).rowcount
    return inserted


def check_kind(kind: str) -> str:
    """fide-standard, fide-rapid, fide-blitz, or national / national-<name>."""
    if kind in KINDS or kind == "national" or kind.startswith("national-"):
        return kind
    raise UsageError(
        f"unknown list kind '{kind}' (expected {', '.join(KINDS)}, national or national-NAME)"
    )


@dataclass(frozen=True)
class ListInfo:
    id: int
    kind: str
    date: datetime.date
    source: str
    format: str
    rows: int


class Rated(NamedTuple):
    """A rating and the list it comes from."""

    rating: int
    kind: str
    date: datetime.date


@dataclass(frozen=True)
class ImportResult:
    list: ListInfo
    new: bool  # False: the same list was already in the store, nothing changed


class RatingStore:
    """Rating lists on disk; open it, use it, close it (or use ``with``)."""

    def __init__(self, path: str | Path, read_only: bool = False):
        """Open (or create) the store at ``path`` (':memory:' for one in memory); with
        ``read_only`` an existing store is only read. UsageError when the file is missing
        (read-only), not an SQLite database, or cannot be written."""
        self.path = Path(path)
        try:
            if read_only:
                if not self.path.is_file():
                    raise UsageError(
                        f"{path}: no rating store there (create one with 'grandprix ratings "
                        "import FILE --kind KIND --date DATE --store PATH')"
                    )
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, isolation_level=None)
                self.db.execute("SELECT id, kind, date, digest FROM lists LIMIT 1").fetchall()
                self.db.execute("SELECT list_id, player_id, rating FROM ratings LIMIT 1")
            else:
                self.db = sqlite3.connect(str(path), isolation_level=None)
                self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise UsageError(
                f"{path}: cannot be used as a rating store ({exc}); give the store written by "
                "'grandprix ratings import', or a new file name in a folder you can write"
            ) from None

    def __enter__(self) -> RatingStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def lists(self, kind: str | None = None) -> list[ListInfo]:
        query = "SELECT id, kind, date, source, format, rows FROM lists"
        args: tuple[str, ...] = ()
        if kind:
            query += " WHERE kind = ?"
            args = (kind,)
        return [
            ListInfo(i, k, datetime.date.fromisoformat(d), s, f, n)
            for i, k, d, s, f, n in self.db.execute(query + " ORDER BY kind, date", args)
        ]

    def import_list(
        self,
        path: str | Path,
        kind: str,
        date: datetime.date,
        progress: Callable[[int], None] | None = None,
    ) -> ImportResult:
        """Import a list file as the ``kind`` list dated ``date``, all or nothing."""
        path = Path(path)
        check_kind(kind)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise ListError(
                [Problem(Location(str(path)), f"cannot read: {exc.strerror}")]
            ) from None
        digest = hashlib.sha256(data).hexdigest()
        fmt, rows = read_rows(path, kind, data, progress)
        self.db.execute("PRAGMA cache_size = -262144")  # 256 MB: keeps the key B-tree in memory
        try:
            self.db.execute("BEGIN IMMEDIATE")  # from here on no other process writes the store
            same = self.db.execute(
                "SELECT id, digest FROM lists WHERE kind = ? AND date = ?",
                (kind, date.isoformat()),
            ).fetchone()
            if same is not None:
                self.db.execute("ROLLBACK")
                if same[1] == digest:
                    return ImportResult(self._info(same[0]), new=False)
                raise ListError(
                    [
                        Problem(
                            Location(str(path)),
                            f"the store already holds another {kind} list dated {date}; "
                            "remove it first (grandprix ratings remove)",
                        )
                    ]
                )
            cursor = self.db.execute(
                "INSERT INTO lists (kind, date, digest, source, format, rows)"
                " VALUES (?, ?, ?, ?, ?, 0)",
                (kind, date.isoformat(), digest, str(path), fmt),
            )
            list_id = cursor.lastrowid
            assert isinstance(list_id, int)
            inserted = _insert(self.db, list_id, rows)
            self.db.execute("UPDATE lists SET rows = ? WHERE id = ?", (inserted, list_id))
            self.db.execute("COMMIT")
        except BaseException as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise UsageError(f"{self.path}: the list could not be stored ({exc})") from None
            raise
        return ImportResult(self._info(list_id), new=True)

    def remove(self, kind: str, date: datetime.date) -> bool:
        found = self.db.execute(
            "SELECT id FROM lists WHERE kind = ? AND date = ?", (kind, date.isoformat())
        ).fetchone()
        if found is None:
            return False
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("DELETE FROM ratings WHERE list_id = ?", found)
        self.db.execute("DELETE FROM lists WHERE id = ?", found)
        self.db.execute("COMMIT")
        return True

    def _info(self, list_id: int) -> ListInfo:
        return next(info for info in self.lists() if info.id == list_id)

    def in_force(self, kind: str, on: datetime.date) -> ListInfo | None:
        """The newest ``kind`` list dated on or before ``on``."""
        found = [info for info in self.lists(kind) if info.date <= on]
        return found[-1] if found else None

    def ratings_on(self, ids: Iterable[str], kind: str, on: datetime.date) -> dict[str, Rated]:
        """The rating of each player on the ``kind`` list in force on ``on`` (rated ones only)."""
        info = self.in_force(kind, on)
        if info is None:
            return {}
        wanted = list(dict.fromkeys(ids))
        out: dict[str, Rated] = {}
        for start in range(0, len(wanted), 900):
            chunk = wanted[start : start + 900]
            marks = ",".join("?" * len(chunk))
            query = (
                "SELECT player_id, rating FROM ratings"
                f" WHERE list_id = ? AND player_id IN ({marks}) AND rating IS NOT NULL"
            )
            for player_id, rating in self.db.execute(query, (info.id, *chunk)):
                out[player_id] = Rated(rating, kind, info.date)
        return out

    def chain(
        self, ids: Iterable[str], sources: list[tuple[str, datetime.date]]
    ) -> dict[str, Rated]:
        """The first rating found along a chain of (kind, date) sources (ACF-11)."""
        wanted = list(dict.fromkeys(ids))
        out: dict[str, Rated] = {}
        for kind, on in sources:
            missing = [i for i in wanted if i not in out]
            if not missing:
                break
            out.update(self.ratings_on(missing, kind, on))
        return out
