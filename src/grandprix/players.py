"""The people of the files: a person's key, their name as a key, and players.csv.

Used alike by the season (who is who across events), the single event's prizes and the site:
``PlayerKey`` is how every one of them knows a person, ``name_key`` how two spellings of one name
agree, ``read_players`` the one reader of players.csv (every problem located).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from grandprix.model import Location, Problem
from grandprix.numbers import parse_birth
from grandprix.readers.text import csv_file, excerpt
from grandprix.runtime.files import FileCache

_SPACES = re.compile(r"\s+")
_SEPARATORS = re.compile(r"[,.;]")


class PlayerKey(str):
    """How a person is known across files: ``id:<FIDE or national id>`` when an id is known,
    else ``name:<name key>`` (with ``|<birth year>`` when two people share the name)."""

    __slots__ = ()

    @classmethod
    def of(cls, ident: str, name: str) -> PlayerKey:
        """The key by id when there is one, else by the name's key (``name_key`` of it)."""
        return cls(f"id:{ident}") if ident else cls(f"name:{name}")

    @property
    def id(self) -> str:
        """The id in the key, '' for a key by name."""
        return self[3:] if self.startswith("id:") else ""

    @property
    def label(self) -> str:
        """The key without its kind: the id, or the name key."""
        return self.split(":", 1)[-1]


@dataclass(frozen=True)
class ListedPlayer:
    """A row of players.csv: the person and their attributes (region, member, ...)."""

    id: str
    name: str
    attributes: tuple[tuple[str, str], ...] = ()
    location: Location | None = field(default=None, compare=False)

    def attribute(self, name: str) -> str:
        return dict(self.attributes).get(name, "")


@lru_cache(maxsize=65536)
def normalise(name: str) -> str:
    """Case, accents and stray spaces removed: 'Dvořák,  Marek ' -> 'dvorak, marek'."""
    decomposed = unicodedata.normalize("NFKD", name)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.replace("ß", "ss").replace("ø", "o").replace("ł", "l").replace("đ", "d")
    return _SPACES.sub(" ", plain.casefold().replace(" ,", ",")).strip()


@lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """The name as a set of words: 'Arkadan, Adib', 'adib arkadan' and 'ARKADAN Adib' agree."""
    words = _SEPARATORS.sub(" ", normalise(name)).split()
    return " ".join(sorted(words))


def birth_year(text: str) -> str:
    match = re.match(r"^\s*(\d{4})", text or "")
    return match.group(1) if match and match.group(1) != "0000" else ""


def read_players(path: Path | None, problems: list[Problem]) -> tuple[ListedPlayer, ...]:
    """players.csv, if present: columns id, name, then any attributes."""
    if path is None:
        return ()
    try:
        key: tuple[object, ...] | None = FileCache.key(path.read_bytes(), path.stat())
    except OSError:
        key = None  # the reading says why
    known = _READ.get(key)
    if isinstance(known, tuple):
        return known
    found: list[Problem] = []
    players = _read_players(path, found)
    problems.extend(found)
    if not found:
        _READ.put(key, players)
    return players


_READ = FileCache(limit=64)  # players.csv files read without problems, by their contents


def _read_players(path: Path, problems: list[Problem]) -> tuple[ListedPlayer, ...]:
    rows = csv_file(path, problems)
    if not rows:
        return ()
    header = [cell.strip().lower() for cell in rows[0]]
    if "name" not in header and "id" not in header:
        problems.append(
            Problem(
                Location(str(path), 1, 1),
                f"players.csv needs an 'id' or a 'name' column (its first row reads "
                f"{excerpt(','.join(rows[0]), 60)})",
            )
        )
        return ()
    players = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            problems.append(
                Problem(
                    Location(str(path), number, 1),
                    f"row has {len(row)} fields but the header has {len(header)}",
                )
            )
            continue
        cells = {k: v.strip() for k, v in zip(header, row, strict=True)}
        ident = cells.get("id", "")
        if ident and ident in seen:
            problems.append(
                Problem(
                    Location(str(path), number, header.index("id") + 1),
                    f"id {excerpt(ident)} is listed twice (first on line {seen[ident]})",
                )
            )
            continue
        if ident:
            seen[ident] = number
        if cells.get("birth_date"):
            try:
                parse_birth(cells["birth_date"])
            except ValueError as exc:
                where = Location(str(path), number, header.index("birth_date") + 1)
                problems.append(Problem(where, f"field 'birth_date': {exc}"))
                continue
        attributes = tuple((k, v) for k, v in cells.items() if k not in ("id", "name"))
        players.append(
            ListedPlayer(ident, cells.get("name", ""), attributes, Location(str(path), number))
        )
    return tuple(players)
