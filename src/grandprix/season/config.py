"""Reading a season folder: season.toml, the results files it names, and players.csv.

Every problem is collected and located; nothing is computed from a season with errors.
"""

from __future__ import annotations

import csv
import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, model_validator

from grandprix.errors import InputError
from grandprix.model import Location, Problem, Severity
from grandprix.readers import load_section
from grandprix.readers.text import decode
from grandprix.rules.load import TomlFile, load_rules, read_toml, validation_problems
from grandprix.rules.schema import Number, RuleSet, Strict, TieBreakRules
from grandprix.season.model import Alias, Season, SeasonEvent, SeasonPlayer, SeasonSection

SEASON_FILE = "season.toml"
ALIASES_FILE = "aliases.csv"
Format = Literal["trf", "csv", "chess-results"]


class SectionEntry(Strict):
    """A section of an event: its own results file and, optionally, its rate (UT-7)."""

    name: str = Field(description="Section name, e.g. 'Open' or 'Class A'.")
    results: str = Field(description="Results file, relative to the season folder.")
    weight: Number | None = Field(default=None, description="Section rate (UT-7).")
    format: Format | None = Field(default=None, description="Results format if not detected.")


class EventEntry(Strict):
    """An event of the season."""

    name: str = Field(description="Event name.")
    date: datetime.date = Field(description="Date (the last day, for a multi-day event).")
    results: str | None = Field(default=None, description="Results file of a one-section event.")
    sections: list[SectionEntry] = Field(default_factory=list, description="Sections, in order.")
    weight: Number = Field(default=Fraction(1), description="Event multiplier (UT-6).")
    prize_fund: Number | None = Field(default=None, description="Total prize money (ACF-6).")
    tiebreaks: str | None = Field(default=None, description="Tie-breaks for this event.")
    tiebreak_rules: TieBreakRules | None = Field(default=None, description="Their rule book.")
    format: Format | None = Field(default=None, description="Results format if not detected.")
    planned: bool = Field(
        default=False, description="In the calendar but not played yet (no results)."
    )

    @model_validator(mode="after")
    def _one_source(self) -> EventEntry:
        if self.planned and (self.results or self.sections):
            raise ValueError("a planned event has no results yet: remove 'planned' or the results")
        if not self.planned and not self.results and not self.sections:
            raise ValueError(
                "needs 'results = \"file\"' or [[events.sections]] (or 'planned = true')"
            )
        if self.results and self.sections:
            raise ValueError("give either 'results' or [[events.sections]], not both")
        return self


class RatingListEntry(Strict):
    """A rating list to keep in the season's store (imported once; again changes nothing)."""

    file: str = Field(description="The list file, relative to the season folder.")
    kind: str = Field(description="fide-standard, fide-rapid, fide-blitz or national(-NAME).")
    date: datetime.date = Field(description="The date the list is in force from.")


class SeasonFile(Strict):
    """season.toml."""

    name: str = Field(description="Season name.")
    start: datetime.date | None = Field(default=None, description="First day of the season.")
    end: datetime.date | None = Field(default=None, description="Last day of the season.")
    rules: str | dict[str, Any] = Field(
        description="A preset name or a rules file; or a [rules] table with 'preset' (or "
        "'file') and keys that override it."
    )
    players: str = Field(default="players.csv", description="The players file, if any.")
    ratings_store: str = Field(
        default="ratings.sqlite", description="The season's rating store (an SQLite file)."
    )
    rating_lists: list[RatingListEntry] = Field(
        default_factory=list, description="Rating lists the season's store must hold."
    )
    events: list[EventEntry] = Field(description="The events.")


def load_season(folder: str | Path) -> tuple[Season | None, list[Problem]]:
    """Read and check a whole season; the season is None when any error was found."""
    folder = Path(folder)
    problems: list[Problem] = []
    path = folder / SEASON_FILE
    if not path.exists():
        problems.append(
            Problem(Location(str(path)), f"no {SEASON_FILE} in {folder} (is this a season folder?)")
        )
        return None, problems
    toml = read_toml(path, problems)
    if toml is None:
        return None, problems
    try:
        config = SeasonFile.model_validate(toml.data)
    except ValidationError as exc:
        problems.extend(validation_problems(exc, SeasonFile, toml.where))
        return None, problems
    rules = _rules(config, toml, problems)
    events = _events(config, toml, folder, rules, problems)
    players = _players(folder / config.players, problems)
    aliases = _aliases(folder / ALIASES_FILE, problems)
    store = folder / config.ratings_store
    if config.rating_lists and not any(p.severity is Severity.ERROR for p in problems):
        _import_lists(store, config, toml, problems)
    if rules is not None and len(events) < rules.counting.min_events:
        problems.append(
            Problem(
                toml.where(("events",)),
                f"the rules plan at least {rules.counting.min_events} events (LUP-4) and the "
                f"calendar has {len(events)}; add the planned events ('planned = true')",
                Severity.WARNING,
            )
        )
    if any(p.severity is Severity.ERROR for p in problems) or rules is None:
        return None, problems
    season = Season(
        name=config.name,
        rules=rules,
        events=events,
        players=players,
        aliases=aliases,
        ratings_store=str(store),
        start=config.start,
        end=config.end,
        folder=str(folder),
    )
    return season, problems


def _rules(config: SeasonFile, toml: TomlFile, problems: list[Problem]) -> RuleSet | None:
    if isinstance(config.rules, str):
        return load_rules(config.rules, {}, toml, ("rules",), ("rules",), problems)
    overrides = dict(config.rules)
    base = overrides.pop("preset", None) or overrides.pop("file", None)
    if not isinstance(base, str):
        problems.append(
            Problem(
                toml.where(("rules",)),
                "the [rules] table needs 'preset = \"utah-2012\"' (or 'file = \"rules.toml\"') "
                "naming the rules it overrides",
            )
        )
        return None
    key = ("rules", "preset") if "preset" in config.rules else ("rules", "file")
    return load_rules(base, overrides, toml, key, ("rules",), problems)


def _events(
    config: SeasonFile,
    toml: TomlFile,
    folder: Path,
    rules: RuleSet | None,
    problems: list[Problem],
) -> tuple[SeasonEvent, ...]:
    order = sorted(range(len(config.events)), key=lambda i: (config.events[i].date, i))
    events = []
    for index, i in enumerate(order):
        entry = config.events[i]
        key = ("events", i)
        _check_date(config, entry, toml.where((*key, "date")), problems)
        if rules is not None and rules.points.classes and entry.prize_fund is None:
            problems.append(
                Problem(
                    toml.where((*key, "name")),
                    f"event '{entry.name}' needs 'prize_fund': the rules choose points tables "
                    "by tournament class (ACF-6)",
                )
            )
        entries = (
            [SectionEntry(name=entry.name, results=entry.results, format=entry.format)]
            if entry.results
            else entry.sections
        )
        sections = []
        for j, sub in enumerate(entries):
            sub_key = (*key, "results") if entry.results else (*key, "sections", j, "results")
            loaded = _section(folder, sub, toml.where(sub_key), entry.name, problems)
            if loaded is not None:
                sections.append(loaded)
        events.append(
            SeasonEvent(
                index=index,
                name=entry.name,
                date=entry.date,
                sections=tuple(sections),
                weight=entry.weight,
                prize_fund=entry.prize_fund,
                tiebreaks=entry.tiebreaks,
                tiebreak_rules=entry.tiebreak_rules,
                planned=entry.planned,
                location=toml.where(key),
            )
        )
    return tuple(events)


def _check_date(
    config: SeasonFile, entry: EventEntry, where: Location, problems: list[Problem]
) -> None:
    if (config.start and entry.date < config.start) or (config.end and entry.date > config.end):
        problems.append(
            Problem(
                where,
                f"event '{entry.name}' is dated {entry.date}, outside the season "
                f"({config.start or '...'} to {config.end or '...'}); correct the date or the "
                "season's start and end",
            )
        )


def _section(
    folder: Path, entry: SectionEntry, where: Location, event: str, problems: list[Problem]
) -> SeasonSection | None:
    path = folder / entry.results
    if not path.is_file():
        problems.append(
            Problem(
                where, f"results file '{entry.results}' of event '{event}' not found in {folder}"
            )
        )
        return None
    section, found = load_section(path, entry.format)
    problems.extend(found)
    if section is None:
        return None
    if not section.players:
        problems.append(
            Problem(where, f"section '{entry.name}' of event '{event}' has no results in its file")
        )
        return None
    return SeasonSection(entry.name, section, entry.weight, where)


def _players(path: Path, problems: list[Problem]) -> tuple[SeasonPlayer, ...]:
    """players.csv, if present: columns id, name, then any attributes."""
    if not path.exists():
        return ()
    lines, found = decode(path.read_bytes(), str(path))
    problems.extend(found)
    rows = list(csv.reader(lines))
    if not rows:
        return ()
    header = [cell.strip().lower() for cell in rows[0]]
    if "name" not in header and "id" not in header:
        problems.append(
            Problem(Location(str(path), 1, 1), "players.csv needs an 'id' or a 'name' column")
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
                    f"id '{ident}' is listed twice (first on line {seen[ident]})",
                )
            )
            continue
        if ident:
            seen[ident] = number
        attributes = tuple((k, v) for k, v in cells.items() if k not in ("id", "name"))
        players.append(
            SeasonPlayer(ident, cells.get("name", ""), attributes, Location(str(path), number))
        )
    return tuple(players)


def _aliases(path: Path, problems: list[Problem]) -> tuple[Alias, ...]:
    """aliases.csv, if present: ``name,other,decision`` with decision ``same`` or ``different``."""
    if not path.exists():
        return ()
    lines, found = decode(path.read_bytes(), str(path))
    problems.extend(found)
    rows = list(csv.reader(lines))
    header = [cell.strip().lower() for cell in rows[0]] if rows else []
    if header[:3] != ["name", "other", "decision"]:
        problems.append(
            Problem(
                Location(str(path), 1, 1),
                "aliases.csv needs the columns name,other,decision (decision: same or different)",
            )
        )
        return ()
    aliases = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        cells = [cell.strip() for cell in row] + ["", "", ""]
        name, other, decision = cells[:3]
        if not name or not other or decision.lower() not in ("same", "different"):
            problems.append(
                Problem(
                    Location(str(path), number, 1),
                    f"expected 'name,other,same' or 'name,other,different', got {','.join(row)!r}",
                )
            )
            continue
        aliases.append(Alias(name, other, decision.lower() == "same", Location(str(path), number)))
    return tuple(aliases)


def _import_lists(store: Path, config: SeasonFile, toml: TomlFile, problems: list[Problem]) -> None:
    """Bring the season's store up to date with its rating lists (each import all or nothing)."""
    from grandprix.errors import GrandprixError
    from grandprix.ratings.store import RatingStore

    with RatingStore(store) as ratings:
        for i, entry in enumerate(config.rating_lists):
            try:
                ratings.import_list(store.parent / entry.file, entry.kind, entry.date)
            except InputError as exc:
                problems.extend(exc.problems)
            except GrandprixError as exc:
                problems.append(Problem(toml.where(("rating_lists", i, "kind")), str(exc)))
