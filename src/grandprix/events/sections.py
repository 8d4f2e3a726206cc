"""Placing entries in sections (UCC-1 to UCC-4, UCC-9).

The classes come from the class rules that event.toml names (``class_rules``; by default the
bundled rules/federations/us-chess.toml).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from grandprix.events.config import EventFile
from grandprix.events.entries import Entry
from grandprix.model import Problem
from grandprix.rules.federation import ClassRules, bundled_rules, cite, rating_class


def grade_class(grade: int | None, classes: ClassRules | None = None) -> str:
    """UCC-2: unrated adults E; grades 7-12 F; 4-6 G; 2-3 H; 1 and younger J/I (by default the
    US Chess classes)."""
    classes = classes or bundled_rules().classes
    if grade is None or not classes.grades:
        return classes.adults
    lowest = list(classes.grades)[-1]
    return next((name for name, low in classes.grades.items() if grade >= low), lowest)


@dataclass(frozen=True)
class Placed:
    entry: Entry
    klass: str  # the player's own class: their prizes (UCC-9)
    section: str
    note: str


def player_class(entry: Entry, classes: ClassRules | None = None) -> str:
    """UCC-1 by the supplement rating, UCC-2 by grade for the unrated (by default the US Chess
    classes)."""
    classes = classes or bundled_rules().classes
    if entry.rating is None:
        return grade_class(entry.grade, classes)
    return rating_class(entry.rating, classes)


def _classes(event: EventFile, classes: ClassRules | None) -> ClassRules:
    """The given class rules, or those of the bundled federation the event names."""
    return classes or bundled_rules(class_rules=event.class_rules).classes


def place_entries(
    event: EventFile, entries: list[Entry], classes: ClassRules | None = None
) -> tuple[list[Placed], list[Problem]]:
    """Each entry's class and section; every violation of UCC-3 is a problem."""
    classes = _classes(event, classes)
    rank = _ranking(event, classes)
    home = {klass: s.name for s in event.sections for klass in s.classes}
    names = [s.name for s in event.sections]
    placed, problems = [], []
    for entry in entries:
        klass = player_class(entry, classes)
        section = home.get(klass, klass)
        unrated = cite(classes.unrated_rule)
        note = "by rating" if entry.rating is not None else f"unrated, by grade{unrated}"
        if entry.section and entry.section != section:
            wanted = entry.section
            if wanted not in names and wanted not in classes.order:
                problems.append(
                    Problem(entry.location, f"{entry.name}: no section '{wanted}' in the event")
                )
                continue
            up = rank(wanted) < rank(section)
            if entry.rating is not None and up:
                unpublished = entry.unpublished_rating
                higher = rating_class(unpublished, classes) if unpublished else ""
                if not higher or rank(home.get(higher, higher)) > rank(wanted):
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
                reason = entry.reason or "no reason given"
                note = f"placed by the director: {reason}{unrated}"
            section = wanted
        placed.append(Placed(entry, klass, section, note))
    return placed, problems


def _ranking(event: EventFile, classes: ClassRules) -> Callable[[str], int]:
    """A section's height: the best class it holds (the top class highest, 0)."""
    order = classes.order

    def rank(section: str) -> int:
        for s in event.sections:
            if s.name == section and s.classes:
                return min(order.index(c) for c in s.classes if c in order)
        return order.index(section) if section in order else len(order)

    return rank


def suggestions(
    event: EventFile, placed: list[Placed], classes: ClassRules | None = None
) -> list[str]:
    """UCC-4: sections under the minimum, and which neighbour to combine them with."""
    rank = _ranking(event, _classes(event, classes))
    sizes = Counter(p.section for p in placed)
    out = []
    for section, size in sorted(sizes.items(), key=lambda kv: rank(kv[0])):
        if size >= event.min_section:
            continue
        neighbours = [s for s in sizes if s != section and abs(rank(s) - rank(section)) == 1]
        best = min(neighbours, key=lambda s: sizes[s], default="")
        hint = f"; combine with {best} ({sizes[best]})" if best else ""
        out.append(f"section {section} has {size} players, fewer than {event.min_section}{hint}")
    return out
