"""Standings CSV: one row a player, for events known only by their final scores.

Required columns: ``name`` and ``points``. Optional: ``rank`` (the official order; ``2-3`` or a
repeated number is a shared place; dense ranks, 1, 2, 2, 3, read as the places they mean, as
``placings.read_ranks`` reads every format's), ``id``, ``rating``, ``title``, ``federation``,
``birth_date``, ``sex``, ``start_rank`` (the seed, for rules on places gained) and ``played``
(rounds the player took part in, for rules on rounds played; the event's rounds are then the
most anyone played); any further column is kept with the player.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction
from itertools import repeat
from operator import is_
from pathlib import Path
from sys import intern
from typing import Any, Final, cast

from grandprix.errors import InputError
from grandprix.model import Columns, ListedSection, Location, Problem, Section
from grandprix.placings import parse_rank
from grandprix.readers.bounds import Bound, MiB, within
from grandprix.readers.text import csv_rows, decode, delimiter_of, excerpt
from grandprix.scores import is_rating, parse_score

REQUIRED = ("name", "points")
MAX_SCORE = 1000  # game points of one player in one event
MAX_ROUNDS = 1000
BOUND = Bound(
    32 * MiB,
    "a standings CSV",
    "a list of 100,000 players is about 5 MB",
    "Export the standings from the pairing program or the spreadsheet again",
    lines=1_000_000,
)
KNOWN = (
    "rank",
    "id",
    "rating",
    "title",
    "federation",
    "birth_date",
    "sex",
    "start_rank",
    "played",
    *REQUIRED,
)
_ALIASES = {
    "fed": "federation",
    "fide_id": "id",
    "elo": "rating",
    "pts": "points",
    "score": "points",
    "place": "rank",
    "birthdate": "birth_date",
    "seed": "start_rank",
    "sno": "start_rank",
    "%": "percent",
    "perc": "percent",
    "rp": "performance",
    "tpr": "performance",
    "perf": "performance",
    # Dutch, as the Belgian club programs head their lists (Dworp): name, total, start number.
    # Their "stand" (place) is not read as the rank: the club's program does not check it, and
    # its tables hold places that contradict the scores (Snelschaak 2018-19, May).
    "naam": "name",
    "totaal": "points",
    "nr": "start_rank",
}


def recognise(suffix: str, head: bytes) -> bool:
    """A standings list: any other .csv file (tried after the crosstable formats)."""
    return suffix == ".csv"


def read_standings_csv(
    path: str | Path, data: bytes | None = None
) -> tuple[Section | None, list[Problem]]:
    """Read a standings CSV (comma or semicolon separated, UTF-8 or Latin-1)."""
    name = str(path)
    refused: list[Problem] = []
    data = within(path, data, BOUND, refused)
    if data is None:
        return None, refused
    lines, problems = decode(data, name)
    if not lines:
        problems.append(Problem(Location(name), "the file is empty (expected a header row)"))
        return None, problems
    delimiter = delimiter_of(lines[0])
    plain = b'"' not in data  # no quoted field: every line splits at its delimiters
    try:
        rows = None if plain else csv_rows(lines, name)
    except InputError as exc:  # a field past the bound: located
        return None, [*problems, *exc.problems]
    head = lines[0].split(delimiter) if rows is None else rows[0]
    header = [_column_name(cell) for cell in head]
    twice = _twice(name, head, header)
    if twice is not None:
        return None, [*problems, twice]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        problems.append(
            Problem(
                Location(name, 1, 1),
                f"missing column(s) {', '.join(missing)} in the header row "
                f"(found: {excerpt(', '.join(head), 80)}; required: name, points)",
            )
        )
        return None, problems
    columns = _Header(header)
    cells: Sequence[Sequence[str]] | None = None
    if rows is None:
        cells = _split_columns(lines[1:], delimiter, columns.width)
    elif set(map(len, rows[1:])) == {columns.width}:
        cells = list(zip(*rows[1:], strict=True))
    listed = _read_columns(name, columns, cells) if cells else None
    if listed is None:
        try:
            body = (rows or csv_rows(lines, name))[1:]
        except InputError as exc:
            return None, [*problems, *exc.problems]
        listed = _read_rows(name, columns, body, problems)
    return listed, problems


def _twice(name: str, head: list[str], header: list[str]) -> Problem | None:
    """A known column given twice (``points`` and ``score``, or ``points`` repeated): which
    one is meant cannot be told."""
    for key in (*REQUIRED, *KNOWN):
        at = [i for i, column in enumerate(header) if column == key]
        if len(at) > 1:
            first, second = at[:2]
            return Problem(
                Location(name, 1, second + 1),
                f"columns {first + 1} ({excerpt(head[first].strip(), 30)}) and {second + 1} "
                f"({excerpt(head[second].strip(), 30)}) are both read as '{key}': keep one of "
                "them, or rename the other",
            )
    return None


def _split_columns(body: list[str], delimiter: str, width: int) -> list[list[str]] | None:
    """The cells of each column of unquoted lines, when every line has ``width`` cells (one
    split of the whole text, each column a slice); else None."""
    if not body or set(map(str.count, body, repeat(delimiter))) != {width - 1}:
        return None
    flat = delimiter.join(body).split(delimiter)
    return [flat[k::width] for k in range(width)]


def _column_name(cell: str) -> str:
    key = cell.strip().lower().replace(" ", "_").replace("-", "_").lstrip("\ufeff")
    return _ALIASES.get(key, key)


class _Header:
    """Where each known column is, and the further ones kept with the player."""

    def __init__(self, header: list[str]):
        self.header = header
        self.width = len(header)
        self.at = {key: header.index(key) for key in KNOWN if key in header}
        self.extra = [(i, key) for i, key in enumerate(header) if key not in KNOWN]
        self.name, self.points = self.at["name"], self.at["points"]
        self.rank, self.rating = self.at.get("rank"), self.at.get("rating")
        self.seed, self.played = self.at.get("start_rank"), self.at.get("played")
        self.optional = tuple(
            self.at.get(key) for key in ("title", "sex", "federation", "id", "birth_date")
        )


# A row read: the fields of ``Columns`` in order, then the ``played`` cell (None without one).
_Row = tuple[
    int,
    str,
    int | None,
    str,
    str,
    str,
    str,
    str,
    tuple[tuple[str, str], ...],
    Fraction,
    str,
    int,
    int,
    int | None,
]
_SEED: Final = 0  # Columns.start_no
_ID: Final = 6  # Columns.fide_id


def _read_rows(
    name: str, columns: _Header, body: list[list[str]], problems: list[Problem]
) -> ListedSection:
    """The list read row by row, each problem located (blank lines skipped)."""
    rows_read: list[_Row] = []
    seen_ids: dict[str, int] = {}
    seen_seeds: dict[int, int] = {}
    for number, row in enumerate(body, start=2):
        if len(row) != columns.width and (not any(row) or not "".join(row).strip()):
            continue  # a blank line
        read = _read_row(name, number, columns, row, len(rows_read) + 1, problems)
        if read is None:
            continue
        ident = read[_ID]
        if ident:
            if ident in seen_ids:
                problems.append(
                    Problem(
                        Location(name, number, columns.header.index("id") + 1),
                        f"id '{ident}' is listed twice (first on line {seen_ids[ident]}); "
                        "remove the duplicate row",
                    )
                )
                continue
            seen_ids[ident] = number
        if columns.seed is not None:
            seed = read[_SEED]
            if seed in seen_seeds:
                problems.append(
                    Problem(
                        Location(name, number, columns.seed + 1),
                        f"start_rank {seed} is listed twice (first on line "
                        f"{seen_seeds[seed]}); every player has their own seed",
                    )
                )
                continue
            seen_seeds[seed] = number
        rows_read.append(read)
    width = len(Columns._fields)
    table = list(zip(*rows_read, strict=True)) or [()] * (width + 1)
    return ListedSection.of(Path(name).stem, Columns(*table[:width]), table[width], name)


def _read_columns(
    path: str, columns: _Header, cells: Sequence[Sequence[str]]
) -> ListedSection | None:
    """The list read column by column (``cells``: each column's cells, one a row; a map over each
    column instead of a loop over the rows: a large season's files hold half a million rows);
    None when any row has a problem, and the row-by-row reader then reads the file and says
    what is wrong."""
    size = len(cells[0])

    def stripped(column: int | None) -> tuple[str, ...]:
        return tuple(map(str.strip, cells[column])) if column is not None else _same("", size)

    def interned(column: int | None) -> tuple[str, ...]:  # names, ids and places recur
        return (
            tuple(map(intern, map(str.strip, cells[column])))
            if column is not None
            else (_same("", size))
        )

    names = interned(columns.name)
    points = tuple(map(_points, cells[columns.points]))
    ranks, ratings = interned(columns.rank), stripped(columns.rating)
    title, sex, federation, _, born = map(stripped, columns.optional)
    ident = interned(columns.optional[3])
    if (
        not all(names)
        or any(map(is_, points, repeat(None)))  # (``None in`` would call Fraction.__eq__)
        or None in map(parse_rank, filter(None, ranks))
        or not all(map(is_rating, filter(None, ratings)))
    ):
        return None
    seeds = _counts(cells, columns.seed, 1, 1_000_000) or _numbers(1, size)
    declared = _counts(cells, columns.played, 0, MAX_ROUNDS) or _same(None, size)
    ids = [i for i in ident if i]
    if (
        any(n is False for n in seeds)  # (0 == False: a test by identity)
        or any(n is False for n in declared)
        or len(set(ids)) != len(ids)
        or (columns.seed is not None and len(set(seeds)) != size)
    ):
        return None
    extra: tuple[tuple[tuple[str, str], ...], ...] = _same((), size)
    if columns.extra:
        keys = [key for _, key in columns.extra]
        values = zip(*(stripped(i) for i, _ in columns.extra), strict=True)
        extra = tuple(tuple(zip(keys, row, strict=True)) for row in values)
    listed = Columns(
        start_no=seeds,  # whole numbers: no False left
        name=names,
        rating=tuple((int(r) or None) if r else None for r in ratings)
        if columns.rating is not None
        else _same(None, size),
        title=title,
        sex=tuple(map(str.lower, sex)) if columns.optional[1] is not None else sex,
        federation=federation,
        fide_id=ident,
        birth_date=born,
        extra=extra,
        points=cast(tuple[Fraction, ...], points),
        rank=ranks,
        played=tuple(n or 0 for n in declared) if columns.played is not None else _same(0, size),
        line=_numbers(2, size),
    )
    return ListedSection.of(Path(path).stem, listed, cast(tuple[int | None, ...], declared), path)


@functools.lru_cache(maxsize=1024)
def _same(value: object, size: int) -> tuple[Any, ...]:
    """``size`` times ``value``: a column the file does not have, one tuple for all the lists of
    that size (a season of 10,000 lists would otherwise hold 70,000 such tuples)."""
    return (value,) * size


@functools.lru_cache(maxsize=1024)
def _numbers(start: int, size: int) -> tuple[int, ...]:
    """``start``, ``start + 1``, ... (``size`` numbers): seeds and line numbers of a list, one
    tuple for all the lists of that size."""
    return tuple(range(start, start + size))


def _counts(
    cells: Sequence[Sequence[str]], column: int | None, low: int, high: int
) -> tuple[int | bool, ...]:
    """``_whole`` of every cell of an optional column; () without the column."""
    if column is None:
        return ()
    return tuple(_whole(text, low, high) for text in cells[column])


def _read_row(
    path: str,
    number: int,
    columns: _Header,
    row: list[str],
    start_no: int,
    problems: list[Problem],
) -> _Row | None:
    if len(row) != columns.width:
        problems.append(
            Problem(
                Location(path, number, 1),
                f"row has {len(row)} fields but the header has {columns.width} "
                "(check for a missing or extra separator)",
            )
        )
        return None
    name = row[columns.name].strip()
    points = _points(row[columns.points])
    rank = row[columns.rank].strip() if columns.rank is not None else ""
    rating = row[columns.rating].strip() if columns.rating is not None else ""
    seed = _count(row, columns.seed, 1, 1_000_000)
    played = _count(row, columns.played, 0, MAX_ROUNDS)
    if (
        not name
        or points is None
        or (rating and not is_rating(rating))
        or (rank and parse_rank(rank) is None)
        or seed is False
        or played is False
    ):
        cells = dict(zip(columns.header, map(str.strip, row), strict=True))
        _report_row(path, number, columns.header, cells, problems)
        return None
    declared = played if isinstance(played, int) else None
    extra = tuple((key, row[i].strip()) for i, key in columns.extra) if columns.extra else ()
    title, sex, federation, ident, born = (
        row[i].strip() if i is not None else "" for i in columns.optional
    )
    # Names, ids and places recur from file to file: one string each for the whole season.
    return (
        seed if isinstance(seed, int) else start_no,
        intern(name),
        (int(rating) or None) if rating else None,
        title,
        sex.lower(),
        federation,
        intern(ident),
        born,
        extra,
        points,
        intern(rank),
        declared or 0,
        number,
        declared,
    )


@functools.lru_cache(maxsize=4096)
def _points(text: str) -> Fraction | None:
    """A score from 0 to MAX_SCORE, else None; parsed once per distinct text (scores repeat
    from row to row, and a Fraction from a decimal costs microseconds)."""
    points = parse_score(text)
    return points if points is not None and _score_in_range(points) else None


def _count(row: list[str], column: int | None, low: int, high: int) -> int | bool | None:
    """A whole number from ``low`` to ``high`` in an optional column: None when the column is
    absent, False when the cell is not such a number."""
    if column is None:
        return None
    return _whole(row[column], low, high)


def _whole(text: str, low: int, high: int) -> int | bool:
    """A whole number from ``low`` to ``high`` (leading zeros allowed), else False."""
    digits = text.strip().lstrip("0") or ("0" if text.strip() else "")
    if digits.isdecimal() and len(digits) <= 7 and low <= int(digits) <= high:
        return int(digits)
    return False


def _score_in_range(points: Fraction) -> bool:
    """0 <= points <= MAX_SCORE, on integers (Fraction comparisons cost a million rows)."""
    return 0 <= points.numerator <= MAX_SCORE * points.denominator


def _report_row(
    path: str, number: int, header: list[str], cells: dict[str, str], problems: list[Problem]
) -> None:
    """Every problem of a row that did not read."""

    def where(key: str) -> Location:
        return Location(path, number, header.index(key) + 1)

    if not cells["name"]:
        problems.append(Problem(where("name"), "field 'name' is empty (every row needs a name)"))
    points = parse_score(cells["points"])
    if points is None or not _score_in_range(points):
        problems.append(
            Problem(
                where("points"),
                f"field 'points' = {excerpt(cells['points'])} is not a score from 0 to "
                f"{MAX_SCORE} (write e.g. 4.5)",
            )
        )
    rating = cells.get("rating", "")
    if rating and not is_rating(rating):
        problems.append(
            Problem(
                where("rating"), f"field 'rating' = {excerpt(rating)} is not a rating (0 to 9999)"
            )
        )
    for key, low, high in (("start_rank", 1, 1_000_000), ("played", 0, MAX_ROUNDS)):
        if key in cells and _whole(cells[key], low, high) is False:
            problems.append(
                Problem(
                    where(key),
                    f"field '{key}' = {excerpt(cells[key])} is not a whole number from {low} to "
                    f"{high:,}",
                )
            )
    rank = cells.get("rank", "")
    if rank and parse_rank(rank) is None:
        problems.append(
            Problem(
                where("rank"),
                f"field 'rank' = {excerpt(rank)} is not a place (write e.g. 3, or 2-3 for a "
                "shared place)",
            )
        )
