"""A results file listed twice in a season: under another name of the same file (a hard link,
another spelling of its name on a case-insensitive file system), or as a copy of another's
bytes. ``Copies`` finds it as the season's files are read, reading no file twice in the usual
season; ``copy_problem`` says what it means."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from grandprix.model import Location, Problem, Section, Severity
from grandprix.runtime.files import read_bytes


class Listed(NamedTuple):
    """A results file as season.toml lists it: its name there, its event's name, its line, and
    its event's position in season.toml."""

    results: str
    event: str
    line: int
    entry: int


class Copies:
    """The results files read so far, each by its file (device and inode: a hard link, or a
    spelling of the name that a case-insensitive file system takes for the same file, is the
    file itself) and by its size and players (their names and ids in order, tuples the section
    holds already): a file whose size and players are another's is compared with it byte for
    byte, and no other file is read twice."""

    def __init__(self) -> None:
        self.files: dict[tuple[int, int, str], Listed] = {}
        self.seen: dict[tuple[object, ...], list[tuple[Path, Listed]]] = {}

    def first(
        self, path: Path, found: os.stat_result, section: Section, listed: Listed
    ) -> tuple[Listed, bool] | None:
        """The file listed before ``listed`` that ``path`` (``found``: its ``os.stat``; read as
        ``section``) is, or whose bytes it has, with whether it is the same file; None (and
        ``listed`` remembered) when there is none."""
        # (a file of several sections is listed once a section: each is a section of its own)
        same = self.files.setdefault((found.st_dev, found.st_ino, section.name), listed)
        if same is not listed:
            return same, True
        c = section.columns
        alike = self.seen.setdefault((found.st_size, c.name, c.fide_id), [])
        if alike:
            try:
                data = read_bytes(path)
                for known, first in alike:
                    if read_bytes(known) == data:
                        return first, False
            except OSError:
                return None
        alike.append((path, listed))
        return None


def copy_problem(listed: Listed, where: Location, first: Listed, same_file: bool) -> Problem:
    """A results file listed again under another name (an error: its points would count
    twice), or a file with another's bytes: an error in one event (every player would be in it
    twice), a warning across two (a copy listed by mistake, or two events that truly ended
    alike, as a small round robin of the same players may)."""
    what = f"results file '{listed.results}' of event '{listed.event}'"
    first_at = f"'{first.results}' of event '{first.event}' (line {first.line})"
    if same_file:
        return Problem(
            where,
            f"{what} is the same file as {first_at}, under another name (a hard link, or "
            "another spelling of the name): its points would count twice; remove one from "
            "season.toml, or give the event its own results file",
        )
    if first.entry == listed.entry:
        return Problem(
            where,
            f"{what} has the same contents as {first_at}, byte for byte: every player would "
            "be in the event twice; put the section's own results in its file",
        )
    return Problem(
        where,
        f"{what} has the same contents as {first_at}, byte for byte: if it is a copy listed "
        "by mistake, its points count twice, so put the event's own results in its file; if "
        "both events truly ended alike, nothing is wrong",
        Severity.WARNING,
    )
