"""A season folder made from a club's published files, as a coordinator would write it: each
event's results file copied into the test's own folder (never into the repository) and named
in a season.toml with its date."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from fractions import Fraction
from pathlib import Path

from grandprix.season.model import Line

# An event: its name, its date, the club's results file, further lines of its [[events]] entry.
Event = tuple[str, datetime.date, Path, tuple[str, ...]]


def club_season(folder: Path, head: str, events: Iterable[Event], tail: str = "") -> Path:
    """season.toml with ``head`` (name and rules), an [[events]] entry for each event whose
    file exists, then ``tail``; the files copied beside it."""
    blocks = [head, ""]
    for name, day, source, extra in events:
        if not source.exists():
            continue
        (folder / source.name).write_bytes(source.read_bytes())
        blocks += [
            "[[events]]",
            f'name = "{name}"',
            f"date = {day}",
            f'results = "{source.name}"',
            *extra,
            "",
        ]
    (folder / "season.toml").write_text("\n".join(blocks) + "\n" + tail, encoding="utf-8")
    return folder


def row_differences(
    line: Line, events: Sequence[str], theirs: dict[str, Fraction], total: Fraction, rank: str
) -> str:
    """What a line of our standings gives otherwise than a club's row: each event's points (in
    the order of ``events``), the total, the rank (a blank rank is the row above's, shared)."""
    ours = {a.event_name: a.points for a in line.awards}
    what = [f"{e} {ours.get(e)} vs {theirs.get(e)}" for e in events if ours.get(e) != theirs.get(e)]
    if line.total != total:
        what.append(f"total {line.total} vs {total}")
    if rank and line.rank_first != int(rank):
        what.append(f"rank {line.rank_first} vs {rank}")
    return "; ".join(what)
