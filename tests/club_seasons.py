"""A season folder made from a club's published files, as a coordinator would write it: each
event's results file copied into the test's own folder (never into the repository) and named
in a season.toml with its date."""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from pathlib import Path

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
