"""The events a season.toml lists, read: the files it names checked to lie inside the season's
folders (``SeasonFiles``), each section's results file found, read and checked (its format, its
date, the rule set's categories and tie-breaks), an event being played read as its tournament.
``config.load_season`` reads the rest of the folder.
"""

from __future__ import annotations

import datetime
import difflib
import os
import stat
from collections import Counter
from dataclasses import replace
from pathlib import Path

from grandprix.errors import InputError, UsageError
from grandprix.model import Location, Problem, Severity
from grandprix.pairing.state import Tournament, read_tournament
from grandprix.paths import Folders, OutsideError, shared_folders
from grandprix.players import (
    hidden_characters,
    normalise,
    shown,
    with_normal_ids,
)
from grandprix.readers import FORMATS, Ahead, detect_format, load_section
from grandprix.rules.event_points import most_specific
from grandprix.rules.load import TomlFile
from grandprix.rules.schema import RuleSet
from grandprix.rules.terms import TERM_KINDS
from grandprix.season.checks import (
    event_duplicates,
    forfeit_problems,
    rank_contradictions,
)
from grandprix.season.copies import Copies, Listed, copy_problem
from grandprix.season.model import SeasonEvent, SeasonSection
from grandprix.season.season_file import EventEntry, SeasonFile, SectionEntry
from grandprix.tiebreaks import Rules, parse
from grandprix.tomlpos import Path as KeyPath


def _category_problems(
    entry: EventEntry, rules: RuleSet, toml: TomlFile, key: KeyPath
) -> list[Problem]:
    """An event whose category the rules do not know: an error when it would earn no points
    (the rules give points only by category), else a warning (a misspelt category escapes its
    limits and keeps the rules' own points)."""
    known = sorted({*rules.points.categories, *rules.counting.per_category})
    if not known:
        return []
    base = rules.points
    pays = base.pays
    category = entry.category
    under = most_specific(category, known) is not None
    broader = bool(category) and any(k.startswith(category + "/") for k in known)
    if under or (broader and pays):
        return []
    listed = ", ".join(f"'{k}'" for k in (known if pays else sorted(base.categories)))
    what = f"category '{category[:60]}'" if category else "no category"
    where = toml.where((*key, "category"))
    if not pays:
        return [
            Problem(
                where,
                f"event '{entry.name}' has {what}: the rules give points only "
                f"to events of their categories ({listed}); write one as 'category'",
            )
        ]
    if not category:
        return []
    return [
        Problem(
            where,
            f"event '{entry.name}' has {what}, which the rules do not name "
            f"({listed}): it earns the rules' own points with no category limit; "
            "correct the spelling if that is not meant",
            Severity.WARNING,
        )
    ]


class SeasonFiles:
    """The files a season.toml names, each checked to lie inside the season folder or one of
    the shared folders it names (after symbolic links), before anything is read."""

    def __init__(self, folder: Path, config: SeasonFile, toml: TomlFile, problems: list[Problem]):
        self.folder = folder
        self.toml = toml
        self.problems = problems
        allowed, bad = shared_folders(folder, config.shared_folders)
        self.folders = Folders(folder, allowed)
        self.resolved: dict[Path, Path] = {}  # each file checked, after symbolic links
        self._checked: dict[str, Path | OutsideError] = {}
        self._named: dict[str, Path] = {}
        for message in bad:
            problems.append(Problem(toml.where(("shared_folders",)), message))

    def check(self, name: str) -> Path:
        """``Folders.check`` of ``name``, done once for the run (the results files are checked
        before they are read ahead, and again as their events are read)."""
        found = self._checked.get(name)
        if found is None:
            try:
                found = self.folders.check(name)
            except OutsideError as exc:
                found = exc
            self._checked[name] = found
        if isinstance(found, OutsideError):
            raise found
        return found

    def named(self, name: str) -> Path:
        """The file ``name`` in the folder, as the user wrote it (for the messages about it):
        one object a name, whose text and hash are made once (paths are keys of dictionaries
        here and in the read-ahead, and pathlib makes each in microseconds)."""
        found = self._named.get(name)
        if found is None:
            found = self._named[name] = self.folder / name
        return found

    def inside(self, name: str, key: KeyPath) -> Path | None:
        """The file ``name`` of the key ``key``, or None (with a located problem) if it is
        outside the allowed folders."""
        try:
            path = self.named(name)
            self.resolved[path] = self.check(name)
            return path
        except OutsideError as exc:
            self.problems.append(Problem(self.toml.where(key), str(exc)))
            return None

    def optional(self, name: str, key: KeyPath) -> Path | None:
        """A file that may be missing (players.csv, aliases.csv): None when it is."""
        if not (self.folder / name).exists() and not (self.folder / name).is_symlink():
            return None
        return self.inside(name, key)


def _calendar(config: SeasonFile) -> list[int]:
    """The indices of the season file's events in calendar order: by date, then as listed."""
    return sorted(range(len(config.events)), key=lambda i: (config.events[i].date, i))


def results_files(config: SeasonFile, files: SeasonFiles) -> list[tuple[Path, str | None]]:
    """The results files of the events, in calendar order, with their formats: those inside
    the allowed folders (the others are reported when the events are read)."""
    found = []
    for i in _calendar(config):
        entry = config.events[i]
        if entry.in_progress:
            continue  # read as a tournament under way (``_under_way``)
        if entry.results:
            named = [(entry.results, entry.format)]
        else:
            named = [(sub.results, sub.format) for sub in entry.sections]
        for name, fmt in named:
            try:
                files.check(name)
            except OutsideError:
                continue
            found.append((files.named(name), fmt))
    return found


def read_events(
    config: SeasonFile,
    toml: TomlFile,
    files: SeasonFiles,
    rules: RuleSet | None,
    problems: list[Problem],
    ahead: Ahead | None = None,
) -> tuple[SeasonEvent, ...]:
    order = _calendar(config)
    events = []
    seen_events: dict[tuple[str, datetime.date], int] = {}
    shared_dates = {d for d, n in Counter(e.date for e in config.events).items() if n > 1}
    seen_files: dict[Path, int] = {}  # each results file listed: its first line
    seen_parts: dict[Path, dict[str | None, int]] = {}  # and the sections read of it
    copies = Copies()
    normal_ids: set[str] = {""}  # the ids met that ``normal_id`` leaves as they are
    dates_known = not (config.start and config.end and config.end < config.start)
    for index, i in enumerate(order):
        entry = config.events[i]
        key = ("events", i)
        if dates_known:
            _check_date(config, entry, toml, key, problems)
        hidden = hidden_characters(entry.name)
        if hidden:
            problems.append(
                Problem(
                    toml.where((*key, "name")),
                    f"event name '{shown(entry.name)}' holds {shown(hidden)}, which shows "
                    "nothing or breaks the line on the pages and in the terminal: write the "
                    "name on one line, without it",
                    Severity.WARNING,
                )
            )
        # An event listed twice has its date twice: only such dates' names are compared.
        first = i
        if entry.date in shared_dates:
            first = seen_events.setdefault((normalise(entry.name), entry.date), i)
        if first != i:
            problems.append(
                Problem(
                    toml.where((*key, "name")),
                    f"event '{entry.name}' of {entry.date} is listed twice (also at line "
                    f"{toml.where(('events', first, 'name')).line}); its points would count "
                    "twice: remove one",
                )
            )
        if (
            rules is not None
            and rules.points.for_category(entry.category).classes
            and entry.prize_fund is None
        ):
            problems.append(
                Problem(
                    toml.where((*key, "name")),
                    f"event '{entry.name}' needs 'prize_fund': the rules choose points tables "
                    "by tournament class (ACF-6)",
                )
            )
        if rules is not None:
            problems.extend(_category_problems(entry, rules, toml, key))
        if entry.in_progress:
            under_way = _under_way(entry, key, files, toml, problems)
            if rules is not None:
                _check_tiebreaks(entry, rules, toml, key, problems)
            events.append(
                SeasonEvent(
                    index=index,
                    name=entry.name,
                    date=entry.date,
                    weight=entry.weight,
                    prize_fund=entry.prize_fund,
                    based_on=entry.based_on,
                    category=entry.category,
                    tiebreaks=entry.tiebreaks,
                    tiebreak_rules=entry.tiebreak_rules,
                    planned=True,
                    place=entry.place,
                    location=toml.where(key),
                    under_way=under_way,
                )
            )
            continue
        entries = entry.sections
        if entry.results:  # its fields are the event's, checked already: not checked again
            entries = [
                SectionEntry.model_construct(
                    name=entry.name, results=entry.results, format=entry.format
                )
            ]
        sections = []
        names: dict[str, int] = {}
        for j, sub in enumerate(entries):
            if names.setdefault(sub.name, j) != j:
                problems.append(
                    Problem(
                        toml.where((*key, "sections", j, "name")),
                        f"section '{sub.name}' is listed twice in event '{entry.name}'; give "
                        "each section its own name",
                    )
                )
            sub_key = (*key, "results") if entry.results else (*key, "sections", j, "results")
            path = files.inside(sub.results, sub_key)
            if path is None:
                continue
            where = toml.where(sub_key)
            real = files.resolved[path]
            # A file of several sections (a US Chess report) is listed once a section, each
            # [[events.sections]] entry reading the section of its name.
            part = sub.name if entry.sections else None
            parts = seen_parts.setdefault(real, {})
            again = real in seen_files
            if again and part is not None and part not in parts and None not in parts:
                again = not _in_parts(path, sub.format)
            parts.setdefault(part, where.line)
            if again:
                problems.append(
                    Problem(
                        where,
                        f"results file '{sub.results}' is listed twice (also at line "
                        f"{seen_files[real]}); its points would count twice: remove one",
                    )
                )
                continue
            seen_files.setdefault(real, where.line)
            try:
                found = os.stat(path)
            except OSError:
                found = None
            loaded = _section(path, found, sub, where, entry.name, problems, ahead, part)
            if loaded is None or found is None:
                continue
            listed = Listed(sub.results, entry.name, where.line, i)
            copied = copies.first(path, found, loaded.section, listed)
            if copied is not None:
                problem = copy_problem(listed, where, *copied)
                problems.append(problem)
                if problem.severity is Severity.ERROR:
                    continue
            normal = with_normal_ids(loaded.section, normal_ids)
            sections.append(loaded if normal is loaded.section else replace(loaded, section=normal))
        problems.extend(event_duplicates([s.section for s in sections]))
        if rules is not None:
            _check_tiebreaks(entry, rules, toml, key, problems)
        if rules is not None and entry.counts:  # an event outside the competition earns nothing
            if rules.eligibility.void_forfeits:  # KEN-6 reads a standings list's forfeits
                problems.extend(p for s in sections for p in forfeit_problems(s.section))
            for term in rules.points.for_category(entry.category or "").terms:
                check = TERM_KINDS[term.kind].problems  # rows a term cannot value
                if check is not None:
                    problems.extend(p for s in sections for p in check(s.section))
        events.append(
            SeasonEvent(
                index=index,
                name=entry.name,
                date=entry.date,
                sections=tuple(sections),
                weight=entry.weight,
                prize_fund=entry.prize_fund,
                based_on=entry.based_on,
                category=entry.category,
                tiebreaks=entry.tiebreaks,
                tiebreak_rules=entry.tiebreak_rules,
                planned=entry.planned,
                place=entry.place,
                counts=entry.counts,
                location=toml.where(key),
            )
        )
    return tuple(events)


def _under_way(
    entry: EventEntry, key: KeyPath, files: SeasonFiles, toml: TomlFile, problems: list[Problem]
) -> tuple[tuple[str, Tournament], ...]:
    """Each section of an event in progress with its tournament as it stands: its results
    file read as a tournament (``pairing.state``: the round paired and not finished too)."""
    named = [(entry.name, entry.results, (*key, "results"))] if entry.results else []
    named += [
        (sub.name, sub.results, (*key, "sections", j, "results"))
        for j, sub in enumerate(entry.sections)
    ]
    found = []
    for name, results, sub_key in named:
        path = files.inside(results or "", sub_key)
        if path is None:
            continue
        if not path.is_file():
            problems.append(
                Problem(
                    toml.where(sub_key),
                    f"results file '{results}' of event '{entry.name}' (in progress) not found "
                    f"in {path.parent}: start the section's tournament with 'grandprix round "
                    "EVENT.toml pair' or 'grandprix export', or correct the name",
                )
            )
            continue
        try:
            found.append((name, read_tournament(path)))
        except InputError as exc:
            problems.extend(exc.problems)
    return tuple(found)


def _check_tiebreaks(
    entry: EventEntry, rules: RuleSet, toml: TomlFile, key: KeyPath, problems: list[Problem]
) -> None:
    """The tie-break codes an event is placed with when it names its own, checked now rather
    than when computing (the rule set's own codes are checked when it is read)."""
    if entry.tiebreaks is None and entry.tiebreak_rules is None:
        return
    points = rules.points.for_category(entry.category)
    codes = entry.tiebreaks if entry.tiebreaks is not None else points.tiebreaks
    book = entry.tiebreak_rules or points.tiebreak_rules
    try:
        parse(codes, Rules(book))
    except UsageError as exc:
        where = toml.where((*key, "tiebreaks" if entry.tiebreaks is not None else "tiebreak_rules"))
        problems.append(Problem(where, f"event '{entry.name}': {exc}"))


def _check_date(
    config: SeasonFile, entry: EventEntry, toml: TomlFile, key: KeyPath, problems: list[Problem]
) -> None:
    if (config.start and entry.date < config.start) or (config.end and entry.date > config.end):
        problems.append(
            Problem(
                toml.where((*key, "date")),
                f"event '{entry.name}' is dated {entry.date}, outside the season "
                f"({config.start or '...'} to {config.end or '...'}); correct the date or the "
                "season's start and end",
            )
        )


def _section(
    path: Path,
    found: os.stat_result | None,
    entry: SectionEntry,
    where: Location,
    event: str,
    problems: list[Problem],
    ahead: Ahead | None = None,
    part: str | None = None,
) -> SeasonSection | None:
    """The section of results file ``path`` (``found``: its ``os.stat``, None if it has none;
    ``part``: the section's name, for a file of several)."""
    if found is None or not stat.S_ISREG(found.st_mode):  # as ``Path.is_file``
        problems.append(
            Problem(
                where,
                f"results file '{entry.results}' of event '{event}' not found in "
                f"{path.parent}{_file_hint(path)}",
            )
        )
        return None
    # The ranks are checked as the read-ahead checks them (``config.load_season`` names it).
    check = ahead.check if ahead is not None and ahead.check else rank_contradictions
    section, read = load_section(path, entry.format, found, check, ahead, part)
    problems.extend(read)
    if section is None:
        return None
    if not section.size:
        problems.append(
            Problem(
                where,
                f"section '{entry.name}' of event '{event}' has no players in its file "
                f"'{entry.results}'; it earns no points (add the results, or mark the event "
                "'planned = true')",
                Severity.WARNING,
            )
        )
        return None
    return SeasonSection(entry.name, section, entry.weight, where)


def _file_hint(path: Path) -> str:
    """ "; did you mean 'Summer_Blitz.csv'?" for a file of the folder whose name is the one
    written but for its case, or close to it; '' for none."""
    try:
        names = [p.name for p in path.parent.iterdir() if p.is_file()][:10_000]
    except OSError:
        return ""
    by_case = {name.lower(): name for name in names}
    found = by_case.get(path.name.lower())
    if found is None:
        close = difflib.get_close_matches(path.name.lower(), list(by_case), n=1, cutoff=0.8)
        found = by_case[close[0]] if close else None
    return f"; did you mean '{found}'?" if found else ""


def _in_parts(path: Path, fmt: str | None) -> bool:
    """Whether the results file is of a format whose files hold several sections, each read by
    its name (``InputFormat.read_part``)."""
    if fmt is None:
        try:
            with path.open("rb") as stream:
                fmt = detect_format(path, stream.read(4096))
        except OSError:
            return False
    return FORMATS[fmt].read_part is not None
