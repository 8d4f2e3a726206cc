"""The entries CSV of an event: who registered, with what rating, grade, payment and byes.

Columns: ``name`` (required), ``id``, ``rating`` (from the rating supplement), ``grade`` (for
unrated juniors: K, 1-12, or blank for adults), ``resident`` (yes/no), ``town``,
``registered_on``, ``paid_on``, ``arrived``, ``byes`` (rounds, each optionally with the time it
was asked: ``3@2026-08-15T11:00``), ``section`` and ``reason`` (a director's placement),
``unpublished_rating``; more columns are kept.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from pathlib import Path

from grandprix.errors import InputError
from grandprix.model import Location, Problem
from grandprix.readers.bounds import Bound, MiB, file_bytes
from grandprix.readers.text import csv_rows, decode, excerpt
from grandprix.scores import is_rating

KNOWN = (
    "name",
    "id",
    "rating",
    "grade",
    "resident",
    "town",
    "registered_on",
    "paid_on",
    "arrived",
    "byes",
    "section",
    "reason",
    "unpublished_rating",
)


@dataclass(frozen=True)
class ByeRequest:
    round: int
    asked: datetime.datetime | None
    location: Location


@dataclass(frozen=True)
class Entry:
    name: str
    id: str
    rating: int | None
    grade: int | None  # 0 = kindergarten; None = adult or not given
    resident: bool
    town: str
    registered_on: datetime.datetime | None
    paid_on: datetime.datetime | None
    arrived: datetime.datetime | None
    byes: tuple[ByeRequest, ...]
    section: str  # the director's placement, '' if none
    reason: str
    unpublished_rating: int | None
    extra: tuple[tuple[str, str], ...] = ()
    location: Location = field(default_factory=lambda: Location(""), compare=False)


def _when(text: str) -> datetime.datetime | None:
    text = text.strip()
    if not text:
        return None
    try:
        return datetime.datetime.fromisoformat(text)
    except ValueError:
        return datetime.datetime.combine(datetime.date.fromisoformat(text), datetime.time())


ENTRIES = Bound(
    32 * MiB,
    "an entries file",
    "an event of 10,000 entries takes about 1 MB",
    "Name the event's entries.csv",
    lines=1_000_000,
)


def read_entries(path: Path, rounds: int) -> list[Entry]:
    """Every entry; raise InputError with every located problem (nothing is kept then)."""
    name = str(path)
    refused: list[Problem] = []
    data = file_bytes(path, ENTRIES, refused)
    if data is None:
        raise InputError(refused)
    lines, problems = decode(data, name)
    try:
        rows = csv_rows(lines, name, delimiter=",")
    except InputError as exc:  # a field longer than any entry's
        raise InputError([*problems, *exc.problems]) from None
    if not rows or "name" not in [c.strip().lower() for c in rows[0]]:
        raise InputError([Problem(Location(name, 1, 1), "the entries need a 'name' column")])
    header = [c.strip().lower() for c in rows[0]]
    entries: list[Entry] = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(header, [c.strip() for c in row], strict=False))
        entry = _entry(name, number, header, cells, rounds, problems)
        if entry is None:
            continue
        key = entry.id or entry.name.casefold()
        if key in seen:
            column = header.index("id" if entry.id else "name") + 1
            problems.append(
                Problem(
                    Location(name, number, column),
                    f"duplicate player '{entry.id or entry.name}' (first on line {seen[key]}); "
                    "remove one of the two rows",
                )
            )
            continue
        seen[key] = number
        entries.append(entry)
    if problems:
        raise InputError(problems)
    return entries


def _entry(
    path: str,
    number: int,
    header: list[str],
    cells: dict[str, str],
    rounds: int,
    problems: list[Problem],
) -> Entry | None:
    def where(key: str) -> Location:
        return Location(path, number, header.index(key) + 1 if key in header else 1)

    start = len(problems)
    ratings: dict[str, int | None] = {}
    for key in ("rating", "unpublished_rating"):
        text = cells.get(key, "")
        if text and not is_rating(text):
            problems.append(Problem(where(key), f"{key} {excerpt(text)} is not a rating (0-9999)"))
        ratings[key] = int(text) if is_rating(text) else None
    grade_text = cells.get("grade", "").upper()
    short = grade_text.isdecimal() and len(grade_text) <= 2
    grade = 0 if grade_text == "K" else int(grade_text) if short else None
    if grade_text and grade_text not in ("ADULT",) and (grade is None or grade > 12):
        problems.append(
            Problem(
                where("grade"), f"grade {excerpt(grade_text)} is out of range (K, 1-12, or blank)"
            )
        )
    byes = []
    for part in filter(
        None, (p.strip() for p in cells.get("byes", "").replace(",", ";").split(";"))
    ):
        text, _, asked = part.partition("@")
        if not text.isdecimal() or len(text) > 3 or not 1 <= int(text) <= rounds:
            problems.append(
                Problem(
                    where("byes"),
                    f"bye asked for round {excerpt(text)}, which does not exist "
                    f"(rounds 1-{rounds})",
                )
            )
            continue
        byes.append(ByeRequest(int(text), _when(asked) if asked else None, where("byes")))
    dates = {}
    for key in ("registered_on", "paid_on", "arrived"):
        try:
            dates[key] = _when(cells.get(key, ""))
        except ValueError:
            problems.append(Problem(where(key), f"{key} '{cells[key]}' is not a date (YYYY-MM-DD)"))
            dates[key] = None
    if not cells.get("name"):
        problems.append(Problem(where("name"), "the name is empty"))
    if len(problems) > start:
        return None
    return Entry(
        name=cells["name"],
        id=cells.get("id", ""),
        rating=ratings["rating"],
        grade=grade,
        resident=cells.get("resident", "").lower() in ("yes", "y", "true", "1"),
        town=cells.get("town", ""),
        registered_on=dates["registered_on"],
        paid_on=dates["paid_on"],
        arrived=dates["arrived"],
        byes=tuple(byes),
        section=cells.get("section", ""),
        reason=cells.get("reason", ""),
        unpublished_rating=ratings["unpublished_rating"],
        extra=tuple((k, v) for k, v in cells.items() if k not in KNOWN),
        location=Location(path, number),
    )
