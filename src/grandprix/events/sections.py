"""Placing entries in sections (UCC-1 to UCC-4, UCC-9)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from grandprix.conditions import us_class
from grandprix.events.config import EventFile
from grandprix.events.entries import Entry
from grandprix.model import Problem

CLASS_ORDER = ("X", "A", "B", "C", "D", "E", "F", "G", "H", "J/I")


def grade_class(grade: int | None) -> str:
    """UCC-2: unrated adults E; grades 7-12 F; 4-6 G; 2-3 H; 1 and younger J/I."""
    if grade is None:
        return "E"
    if grade >= 7:
        return "F"
    if grade >= 4:
        return "G"
    if grade >= 2:
        return "H"
    return "J/I"


@dataclass(frozen=True)
class Placed:
    entry: Entry
    klass: str  # the player's own class: their prizes (UCC-9)
    section: str
    note: str


def player_class(entry: Entry) -> str:
    """UCC-1 by the supplement rating, UCC-2 by grade for the unrated."""
    return us_class(entry.rating) if entry.rating is not None else grade_class(entry.grade)


def place_entries(event: EventFile, entries: list[Entry]) -> tuple[list[Placed], list[Problem]]:
    """Each entry's class and section; every violation of UCC-3 is a problem."""
    home = {klass: s.name for s in event.sections for klass in s.classes}
    names = [s.name for s in event.sections]
    placed, problems = [], []
    for entry in entries:
        klass = player_class(entry)
        section = home.get(klass, klass)
        note = "by rating" if entry.rating is not None else "unrated, by grade (UCC-2)"
        if entry.section and entry.section != section:
            wanted = entry.section
            if wanted not in names and wanted not in CLASS_ORDER:
                problems.append(
                    Problem(entry.location, f"{entry.name}: no section '{wanted}' in the event")
                )
                continue
            up = _rank(wanted, event) < _rank(section, event)
            if entry.rating is not None and up:
                higher = us_class(entry.unpublished_rating) if entry.unpublished_rating else ""
                if not higher or _rank(home.get(higher, higher), event) > _rank(wanted, event):
                    problems.append(
                        Problem(
                            entry.location,
                            f"{entry.name} ({entry.rating}, class {klass}) may not play up in "
                            f"{wanted} without a higher unpublished rating (UCC-3)",
                        )
                    )
                    continue
                note = f"plays up on an unpublished rating of {entry.unpublished_rating} (UCC-3)"
            elif entry.rating is not None:
                problems.append(
                    Problem(
                        entry.location,
                        f"{entry.name} ({entry.rating}) may not play down in {wanted} (UCC-3)",
                    )
                )
                continue
            else:
                note = f"placed by the director: {entry.reason or 'no reason given'} (UCC-2)"
            section = wanted
        placed.append(Placed(entry, klass, section, note))
    return placed, problems


def _rank(section: str, event: EventFile) -> int:
    """A section's height: the best class it holds (X highest)."""
    for s in event.sections:
        if s.name == section and s.classes:
            return min(CLASS_ORDER.index(c) for c in s.classes if c in CLASS_ORDER)
    return CLASS_ORDER.index(section) if section in CLASS_ORDER else len(CLASS_ORDER)


def suggestions(event: EventFile, placed: list[Placed]) -> list[str]:
    """UCC-4: sections under the minimum, and which neighbour to combine them with."""
    sizes = Counter(p.section for p in placed)
    out = []
    for section, size in sorted(sizes.items(), key=lambda kv: _rank(kv[0], event)):
        if size >= event.min_section:
            continue
        rank = _rank(section, event)
        neighbours = [s for s in sizes if s != section and abs(_rank(s, event) - rank) == 1]
        best = min(neighbours, key=lambda s: sizes[s], default="")
        hint = f"; combine with {best} ({sizes[best]})" if best else ""
        out.append(f"section {section} has {size} players, fewer than {event.min_section}{hint}")
    return out
