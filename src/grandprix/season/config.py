"""Reading a season folder: season.toml, the results files it names, and players.csv.

Every problem is collected and located; nothing is computed from a season with errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from grandprix.errors import GrandprixError, InputError
from grandprix.model import Location, Problem, Severity
from grandprix.players import (
    read_players,
)
from grandprix.ratings.store import RatingStore
from grandprix.readers import read_ahead
from grandprix.readers.text import csv_file, excerpt
from grandprix.rules.load import TomlFile, load_rules, read_toml, validation_problems
from grandprix.rules.schema import RuleSet
from grandprix.season.checks import (
    alias_contradictions,
    identity_problems,
    rank_contradictions,
)
from grandprix.season.identity import Alias
from grandprix.season.model import Season
from grandprix.season.season_events import SeasonFiles, read_events, results_files
from grandprix.season.season_file import SeasonFile

SEASON_FILE = "season.toml"
ALIASES_FILE = "aliases.csv"


def load_season(folder: str | Path) -> tuple[Season | None, list[Problem]]:
    """Read and check a whole season; the season is None when any error was found. Each
    problem is listed once (a rule-set mistake found for every event is one problem)."""
    season, problems = _load_season(Path(folder))
    return season, list(dict.fromkeys(problems))


def read_season_toml(folder: Path) -> dict[str, Any]:
    """The folder's season.toml as ``load_season`` reads it (``read_toml``: UTF-8 with or
    without a BOM, floats kept as ``TomlFloat``), unchecked: for a quick look at a few keys.
    ``InputError`` with the located problem when the file is missing, unreadable or not TOML."""
    problems: list[Problem] = []
    toml = read_toml(folder / SEASON_FILE, problems)
    if toml is None:
        raise InputError(problems)
    return toml.data


def _load_season(folder: Path) -> tuple[Season | None, list[Problem]]:
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
    files = SeasonFiles(folder, config, toml, problems)
    _check_dates(config, toml, problems)
    rules = _rules(config, toml, files, problems)
    results = results_files(config, files)
    with read_ahead(results, rank_contradictions) as ahead:  # partly by another process
        events = read_events(config, toml, files, rules, problems, ahead)
    players = read_players(files.optional(config.players, ("players",)), problems)
    aliases = _aliases(files.optional(ALIASES_FILE, ()), problems)
    ratings = None
    if not any(p.severity is Severity.ERROR for p in problems):
        ratings = _ratings(config, toml, files, problems)
    calendar = sum(e.counts for e in events)
    if rules is not None and calendar < rules.counting.min_events:
        problems.append(
            Problem(
                toml.where(("events",)),
                f"the rules plan at least {rules.counting.min_events} events (LUP-4) and the "
                f"calendar has {calendar}; add the planned events ('planned = true')",
                Severity.WARNING,
            )
        )
    if any(p.severity is Severity.ERROR for p in problems) or rules is None:
        if ratings is not None:
            ratings.close()
        return None, problems
    season = Season(
        name=config.name,
        rules=rules,
        events=events,
        players=players,
        aliases=aliases,
        ratings=ratings,
        start=config.start,
        end=config.end,
        folder=str(folder),
        language=config.language,
    )
    problems.extend(identity_problems(season, toml.where))
    if any(p.severity is Severity.ERROR for p in problems):
        return None, problems
    return season, problems


def _check_dates(config: SeasonFile, toml: TomlFile, problems: list[Problem]) -> None:
    if said := config.days_problem():
        problems.append(Problem(toml.where(("end",)), said))


def _rules(
    config: SeasonFile, toml: TomlFile, files: SeasonFiles, problems: list[Problem]
) -> RuleSet | None:
    if isinstance(config.rules, str):
        return load_rules(config.rules, {}, toml, ("rules",), ("rules",), problems, files.inside)
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
    return load_rules(base, overrides, toml, key, ("rules",), problems, files.inside)


def _aliases(path: Path | None, problems: list[Problem]) -> tuple[Alias, ...]:
    """aliases.csv, if present: ``name,other,decision`` with decision ``same`` or ``different``;
    the header may be left out (a file of the lines ``players --review`` prints)."""
    if path is None:
        return ()
    rows = csv_file(path, problems)
    header = [cell.strip().lower() for cell in rows[0]] if rows else []
    first = [cell.strip().lower() for cell in rows[0][:3]] if rows else []
    start = 2
    if len(first) == 3 and first[2] in ("same", "different"):
        start = 1  # the decisions alone, as review prints them
    elif header[:3] != ["name", "other", "decision"]:
        problems.append(
            Problem(
                Location(str(path), 1, 1),
                "aliases.csv needs the columns name,other,decision (decision: same or different)",
            )
        )
        return ()
    aliases = []
    for number, row in enumerate(rows[start - 1 :], start=start):
        if not any(cell.strip() for cell in row):
            continue
        cells = [cell.strip() for cell in row] + ["", "", ""]
        name, other, decision = cells[:3]
        if not name or not other or decision.lower() not in ("same", "different"):
            problems.append(
                Problem(
                    Location(str(path), number, 1),
                    f"expected 'name,other,same' or 'name,other,different', got "
                    f"{excerpt(','.join(row), 60)}",
                )
            )
            continue
        aliases.append(Alias(name, other, decision.lower() == "same", Location(str(path), number)))
    del rows  # (each row's text is its alias's now: the rows need not stay for the check)
    problems.extend(alias_contradictions(aliases))
    return tuple(aliases)


def _ratings(
    config: SeasonFile, toml: TomlFile, files: SeasonFiles, problems: list[Problem]
) -> RatingStore | None:
    """The season's ratings: a prepared store opened read-only, or the season's rating lists
    read into a store in memory. Nothing is written anywhere."""
    if config.ratings_store is not None:
        if config.rating_lists:
            problems.append(
                Problem(
                    toml.where(("ratings_store",)),
                    "give 'ratings_store' (a prepared store) or [[rating_lists]], not both",
                )
            )
            return None
        path = files.inside(config.ratings_store, ("ratings_store",))
        if path is None:
            return None
        try:
            return RatingStore(path, read_only=True)
        except GrandprixError as exc:
            problems.append(Problem(toml.where(("ratings_store",)), str(exc)))
            return None
    if not config.rating_lists:
        return None
    store = RatingStore(":memory:")
    for i, entry in enumerate(config.rating_lists):
        path = files.inside(entry.file, ("rating_lists", i, "file"))
        if path is None:
            continue
        try:
            store.import_list(path, entry.kind, entry.date)
        except InputError as exc:
            problems.extend(exc.problems)
        except GrandprixError as exc:
            problems.append(Problem(toml.where(("rating_lists", i, "kind")), str(exc)))
    return store
