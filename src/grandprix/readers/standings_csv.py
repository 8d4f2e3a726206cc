"""Standings CSV: one row a player, for events known only by their final scores.

Required columns: ``name`` and ``points``. Optional: ``rank`` (the official order; ``2-3`` or a
repeated number is a shared place), ``id``, ``rating``, ``title``, ``federation``,
``birth_date``, ``sex``; any further column is kept with the player.
"""

from __future__ import annotations

import csv
from pathlib import Path

from grandprix.model import Location, Player, Problem, Section
from grandprix.numbers import parse_score
from grandprix.placings import parse_rank
from grandprix.readers.text import decode

REQUIRED = ("name", "points")
KNOWN = ("rank", "id", "rating", "title", "federation", "birth_date", "sex", *REQUIRED)
_ALIASES = {"fed": "federation", "fide_id": "id", "elo": "rating", "pts": "points",
            "score": "points", "place": "rank", "birthdate": "birth_date"}  # fmt: skip


def read_standings_csv(
    path: str | Path, data: bytes | None = None
) -> tuple[Section | None, list[Problem]]:
    """Read a standings CSV (comma or semicolon separated, UTF-8 or Latin-1)."""
    name = str(path)
    if data is None:
        data = Path(path).read_bytes()
    lines, problems = decode(data, name)
    if not lines:
        problems.append(Problem(Location(name), "the file is empty (expected a header row)"))
        return None, problems
    delimiter = ";" if lines[0].count(";") > lines[0].count(",") else ","
    rows = list(csv.reader(lines, delimiter=delimiter))
    header = [_column_name(cell) for cell in rows[0]]
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        problems.append(
            Problem(
                Location(name, 1, 1),
                f"missing column(s) {', '.join(missing)} in the header row "
                f"(found: {', '.join(rows[0])}; required: name, points)",
            )
        )
        return None, problems
    players: list[Player] = []
    seen_ids: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        player = _read_row(name, number, header, row, len(players) + 1, problems)
        if player is None:
            continue
        if player.fide_id:
            if player.fide_id in seen_ids:
                problems.append(
                    Problem(
                        Location(name, number, header.index("id") + 1),
                        f"id '{player.fide_id}' is listed twice (first on line "
                        f"{seen_ids[player.fide_id]}); remove the duplicate row",
                    )
                )
                continue
            seen_ids[player.fide_id] = number
        players.append(player)
    section = Section(
        name=Path(name).stem,
        players=tuple(players),
        has_crosstable=False,
        source=name,
    )
    return section, problems


def _column_name(cell: str) -> str:
    key = cell.strip().lower().replace(" ", "_").replace("-", "_").lstrip("\ufeff")
    return _ALIASES.get(key, key)


def _read_row(
    path: str,
    number: int,
    header: list[str],
    row: list[str],
    start_no: int,
    problems: list[Problem],
) -> Player | None:
    if len(row) != len(header):
        problems.append(
            Problem(
                Location(path, number, 1),
                f"row has {len(row)} fields but the header has {len(header)} "
                "(check for a missing or extra separator)",
            )
        )
        return None
    cells = {key: value.strip() for key, value in zip(header, row, strict=True)}

    def where(key: str) -> Location:
        return Location(path, number, header.index(key) + 1)

    ok = True
    if not cells["name"]:
        problems.append(Problem(where("name"), "field 'name' is empty (every row needs a name)"))
        ok = False
    points = parse_score(cells["points"])
    if points is None:
        problems.append(
            Problem(
                where("points"),
                f"field 'points' = '{cells['points']}' is not a number (write e.g. 4.5)",
            )
        )
        ok = False
    rating = None
    if cells.get("rating"):
        if cells["rating"].isdigit():
            rating = int(cells["rating"]) or None
        else:
            problems.append(
                Problem(where("rating"), f"field 'rating' = '{cells['rating']}' is not a number")
            )
            ok = False
    rank = cells.get("rank", "")
    if rank and parse_rank(rank) is None:
        problems.append(
            Problem(
                where("rank"),
                f"field 'rank' = '{rank}' is not a place (write e.g. 3, or 2-3 for a shared place)",
            )
        )
        ok = False
    if not ok:
        return None
    extra = tuple((k, v) for k, v in cells.items() if k not in KNOWN)
    return Player(
        start_no=start_no,
        name=cells["name"],
        rating=rating,
        title=cells.get("title", ""),
        sex=cells.get("sex", "").lower(),
        federation=cells.get("federation", ""),
        fide_id=cells.get("id", ""),
        birth_date=cells.get("birth_date", ""),
        declared_points=points,
        declared_rank=rank,
        extra=extra,
        location=Location(path, number),
    )
