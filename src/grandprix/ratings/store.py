"""The rating-list store: an embedded SQLite file holding dated lists and their ratings.

An import is one transaction: a corrupt list, or a process killed half-way, leaves the store
exactly as it was (SQLite's rollback journal undoes an unfinished transaction when the file is
next opened). Importing the same list twice changes nothing.

A store is ours by its marker (SQLite's ``application_id``, ``APPLICATION_ID``) or, for one
made before the marker, by holding our two tables and nothing else: any other SQLite file (a
database of another program) is refused and left untouched, never given our tables. A store
whose file is damaged says so in a ``StoreError`` naming the file, whichever query meets the
damage.
"""

from __future__ import annotations

import datetime
import hashlib
import itertools
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from grandprix.errors import UsageError
from grandprix.model import Location, Problem
from grandprix.ratings.formats import ListError, Row, read_rows

KINDS = ("fide-standard", "fide-rapid", "fide-blitz")
APPLICATION_ID = 0x47505253  # 'GPRS' in SQLite's header: a grandprix rating store
TABLES = frozenset({"lists", "ratings"})
SCHEMA = f"""
PRAGMA application_id = {APPLICATION_ID};
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


class StoreError(UsageError):
    """A rating store that cannot be used: not one of ours, damaged, or not writable there."""


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


def _store_error(path: Path, exc: sqlite3.Error, doing: str = "") -> StoreError:
    """What an SQLite error means for the store at ``path``: damaged (its file's contents are
    not a database, or not a whole one), or not usable as a store for another reason."""
    text = str(exc)
    if any(word in text for word in ("malformed", "not a database", "corrupt")):
        why = (
            f"the rating store is damaged ({text}); import its lists again into a new store "
            "('grandprix ratings import FILE --kind KIND --date DATE --store NEW.sqlite')"
        )
    elif doing:
        why = f"{doing} ({text})"
    else:
        why = (
            f"cannot be used as a rating store ({text}); give the store written by 'grandprix "
            "ratings import', or a new file name in a folder you can write"
        )
    return StoreError(f"{path}: {why}")


def _check_place(path: Path, read_only: bool) -> None:
    """A StoreError saying why ``path`` cannot hold a store, before SQLite tries: missing (to
    read), a folder, or in a folder that is missing or cannot be written (to write)."""
    if path.is_dir():
        raise StoreError(f"{path}: a folder, not a rating store; give the store's file name")
    if read_only:
        if not path.is_file():
            raise StoreError(
                f"{path}: no rating store there (create one with 'grandprix ratings "
                "import FILE --kind KIND --date DATE --store PATH')"
            )
        return
    folder = path.parent
    if not folder.is_dir():
        raise StoreError(
            f"{path}: the folder {folder} does not exist; create it first, or give a store in "
            "another folder"
        )
    writable = os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK)
    if not writable:
        where = path if path.exists() else folder
        raise StoreError(
            f"{path}: {where} cannot be written (read-only); give a store in a folder you "
            "can write (--store PATH)"
        )


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
        ``read_only`` an existing store is only read. UsageError (a ``StoreError``) when the
        file is missing (read-only), not a store of ours (another program's database: left as
        it was), damaged, or cannot be written where it is."""
        self.path = Path(path)
        memory = str(path) == ":memory:"
        if not memory:
            _check_place(self.path, read_only)
        try:
            if read_only:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                self.db = sqlite3.connect(uri, uri=True, isolation_level=None)
            else:
                self.db = sqlite3.connect(str(path), isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(
                f"{path}: cannot be used as a rating store ({exc}); give the store written by "
                "'grandprix ratings import', or a new file name in a folder you can write"
            ) from None
        try:
            with self._reading():
                empty = self._check_ours()
                if not read_only and empty:
                    self.db.executescript(SCHEMA)
                self.db.execute("SELECT id, kind, date, digest FROM lists LIMIT 1").fetchall()
                self.db.execute("SELECT list_id, player_id, rating FROM ratings LIMIT 1")
        except BaseException:
            self.db.close()
            raise

    def _check_ours(self) -> bool:
        """Whether the database is new (no table yet); a StoreError unless it is ours."""
        (marker,) = self.db.execute("PRAGMA application_id").fetchone()
        tables = {
            name
            for (name,) in self.db.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view', 'trigger')"
                " AND name NOT LIKE 'sqlite%'"
            )
        }
        if marker not in (0, APPLICATION_ID) or (tables and tables != TABLES):
            found = ", ".join(sorted(tables)[:5]) or "no tables"
            raise StoreError(
                f"{self.path}: an SQLite database of another program ({found}), not a rating "
                "store of grandprix; it was left as it was: give a new file name for the store "
                "(--store ratings.sqlite), or the store written by 'grandprix ratings import'"
            )
        return not tables

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """Any SQLite error of the block as a StoreError naming the file (``_store_error``)."""
        try:
            yield
        except sqlite3.Error as exc:
            raise _store_error(self.path, exc) from None

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
        with self._reading():
            found = self.db.execute(query + " ORDER BY kind, date", args).fetchall()
        out = []
        for i, k, d, s, f, n in found:
            try:
                out.append(ListInfo(i, k, datetime.date.fromisoformat(d), s, f, n))
            except (TypeError, ValueError):
                raise StoreError(
                    f"{self.path}: the rating store is damaged (list {i!r} is dated {d!r}): "
                    "import its lists again into a new store"
                ) from None
        return out

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
                raise _store_error(self.path, exc, "the list could not be stored") from None
            raise
        return ImportResult(self._info(list_id), new=True)

    def remove(self, kind: str, date: datetime.date) -> bool:
        """Take the ``kind`` list dated ``date`` out, in one transaction; False (and nothing
        changed) when the store holds no such list."""
        with self._reading():
            found = self.db.execute(
                "SELECT id FROM lists WHERE kind = ? AND date = ?", (kind, date.isoformat())
            ).fetchone()
            if found is None:
                return False
            try:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute("DELETE FROM ratings WHERE list_id = ?", found)
                self.db.execute("DELETE FROM lists WHERE id = ?", found)
                self.db.execute("COMMIT")
            except BaseException:
                if self.db.in_transaction:
                    self.db.execute("ROLLBACK")
                raise
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
            with self._reading():
                found = self.db.execute(query, (info.id, *chunk)).fetchall()
            for player_id, rating in found:
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
