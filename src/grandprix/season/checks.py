"""Contradictions inside a season's input that would otherwise change a total without a word:
one person twice in one event, ranks against points, aliases.csv decisions that disagree, one
id under two names."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from itertools import count, pairwise, repeat
from operator import ge, itemgetter
from pathlib import Path
from sys import intern
from typing import cast

from grandprix.model import Location, Player, Problem, Section, Severity, common_units, ordered
from grandprix.numbers import show
from grandprix.placings import parse_rank
from grandprix.players import birth_year, name_key
from grandprix.season.model import Alias, Season
from grandprix.tomlpos import Path as KeyPath


def _where(player: Player, section: Section) -> Location:
    return player.location or Location(section.source)


def _line(player: Player) -> str:
    return str(player.location.line) if player.location and player.location.line else "?"


def event_duplicates(sections: Sequence[Section]) -> list[Problem]:
    """Errors: the same person twice in the sections of one event, by id, or by name (and
    birth year) where neither row has an id. One of the rows is a typing mistake, and it
    would earn points a second time or take a place from someone else."""
    problems: list[Problem] = []
    by_id: dict[str, tuple[Section, int]] = {}
    by_name: dict[tuple[str, str], tuple[Section, int]] = {}
    for n, section in enumerate(sections, start=1):
        c = section.columns
        ids = c.fide_id
        if all(ids) and len(set(ids)) == len(ids) and by_id.keys().isdisjoint(ids):
            # Nobody twice: remembered without a loop over the rows (half a million of them),
            # for the sections after this one.
            if n < len(sections):
                by_id.update(zip(ids, zip(repeat(section), range(len(ids))), strict=True))
            continue
        for i, ident in enumerate(ids):
            if ident:
                first = by_id.setdefault(ident, (section, i))
            else:
                key = (name_key(c.name[i]), birth_year(c.birth_date[i]))
                first = by_name.setdefault(key, (section, i))
            if first[0] is section and first[1] == i:
                continue
            player, earlier = section.players[i], first[0].players[first[1]]
            what = f"id '{ident[:20]}'" if ident else f"name '{player.name[:60]}' (no id)"
            problems.append(
                Problem(
                    _where(player, section),
                    f"{what} appears twice in this event (also {earlier.name[:60]!r}, line "
                    f"{_line(earlier)}): one person cannot take two places; correct the id "
                    "or the name of one row",
                )
            )
    return problems


def rank_contradictions(section: Section) -> list[Problem]:
    """A warning where the file's ranks put a player above one with more points."""
    c = section.columns
    units, _ = common_units(c.points)
    if c.rank == _counting(len(c.rank)) and ordered(units, ge):
        return []  # ranked 1, 2, 3, ... down the rows, points never rising (C loops)
    spans = zip(map(parse_rank, c.rank), count())  # each row's span and row, ranked rows kept
    ranked = cast(list[tuple[tuple[int, int], int]], sorted(filter(itemgetter(0), spans)))
    in_order = list(map(units.__getitem__, map(itemgetter(1), ranked)))
    if ordered(in_order, ge):
        return []  # points never rise down the ranks (a C loop for the usual list)
    for (span, i), (below_span, j) in pairwise(ranked):
        if units[i] < units[j] and span[0] < below_span[0]:
            above, below = section.players[i], section.players[j]  # for the message
            return [
                Problem(
                    _where(below, section),
                    f"rank {below.declared_rank} with {show(below.points)} points is below rank "
                    f"{above.declared_rank} with {show(above.points)} (line {_line(above)}): the "
                    "ranks contradict the points; check the file",
                    Severity.WARNING,
                )
            ]
    return []


@functools.lru_cache(maxsize=1024)
def _counting(size: int) -> tuple[str, ...]:
    """The places '1', '2', ... of ``size`` rows, as the strings a reader interns."""
    return tuple(intern(str(place)) for place in range(1, size + 1))


def alias_contradictions(aliases: Iterable[Alias]) -> list[Problem]:
    """Errors: one pair of names decided both 'same' and 'different' in aliases.csv."""
    problems: list[Problem] = []
    seen: dict[frozenset[str], Alias] = {}
    for alias in aliases:
        pair = frozenset((name_key(alias.name), name_key(alias.other)))
        first = seen.setdefault(pair, alias)
        if first.same != alias.same:
            where = alias.location or Location("aliases.csv")
            line = first.location.line if first.location else "?"
            problems.append(
                Problem(
                    where,
                    f"'{alias.name[:60]}' and '{alias.other[:60]}' are decided both 'same' and "
                    f"'different' (line {line}); keep one decision",
                )
            )
    return problems


def identity_problems(season: Season, where: Callable[[KeyPath], Location]) -> list[Problem]:
    """Across the season: an id under two names (warning, unless aliases.csv says they are one
    person), aliases.csv 'same' for names with different ids (error), players missing from
    players.csv when eligibility needs its columns (warning with the count), and divisions by
    rating with nothing to rate players (warning)."""
    problems: list[Problem] = []
    same = {frozenset((name_key(a.name), name_key(a.other))) for a in season.aliases if a.same}
    # The distinct (id, spelling) pairs, each with where it first appears (its section and
    # row): a set difference per section keeps this cheap on a season of half a million rows.
    first_seen: dict[tuple[str, str], tuple[Section, int]] = {}
    name_of: dict[str, str] = {}  # each id's first spelling
    for event in season.events:
        for section in event.sections:
            c = section.section.columns
            if tuple(map(name_of.get, c.fide_id)) == c.name:
                continue  # every row an id under its first spelling: nothing new (C loops)
            pairs = list(zip(c.fide_id, c.name, strict=True))
            new = {pair for pair in set(pairs).difference(first_seen) if pair[0]}
            for i, pair in enumerate(pairs if new else ()):
                if pair in new:
                    first_seen[pair] = (section.section, i)
                    name_of.setdefault(*pair)
    ids_of_name: dict[str, set[str]] = defaultdict(set)
    spellings: dict[str, list[tuple[str, Section, int]]] = defaultdict(list)
    for (ident, name), (results, row) in first_seen.items():
        key = name_key(name)
        ids_of_name[key].add(ident)
        spellings[ident].append((key, results, row))
    for ident, seen in spellings.items():
        first_key, first_section, first_row = seen[0]
        for key, results, row in seen[1:]:
            if key == first_key or frozenset((first_key, key)) in same:
                continue
            player, first = results.players[row], first_section.players[first_row]
            problems.append(
                Problem(
                    _where(player, results),
                    f"id '{ident[:20]}' is under two names: {player.name[:60]!r} here and "
                    f"{first.name[:60]!r} in {first_section.source}, line {_line(first)}; if "
                    "they are one person, say so in aliases.csv (name,other,same), else "
                    "correct the id",
                    Severity.WARNING,
                )
            )
            break  # one warning an id
    for alias in season.aliases:
        ids = ids_of_name.get(name_key(alias.name), set())
        others = ids_of_name.get(name_key(alias.other), set())
        if alias.same and ids and others and not ids & others:
            problems.append(
                Problem(
                    alias.location or Location("aliases.csv"),
                    f"'{alias.name[:60]}' and '{alias.other[:60]}' are decided 'same' but have "
                    f"different ids ({min(ids)[:20]} and {min(others)[:20]}): different ids are "
                    "different people; correct the id in the results or remove this line",
                )
            )
    problems.extend(_missing_players(season, where))
    rated = [d.name for d in season.rules.divisions if d.rating_below or d.rating_at_least]
    if rated and (not season.rules.ratings.sources or season.ratings is None):
        why = (
            "the rules name no rating source"
            if not season.rules.ratings.sources
            else ("the season lists no rating lists")
        )
        problems.append(
            Problem(
                where(("rules",)),
                f"divisions by rating ({', '.join(rated[:5])}) but {why}: every player counts "
                "as unrated; add [[rating_lists]] (and [ratings] sources)",
                Severity.WARNING,
            )
        )
    return problems


def _missing_players(season: Season, where: Callable[[KeyPath], Location]) -> list[Problem]:
    required = list(season.rules.eligibility.require)
    if not required:
        return []
    missing: dict[str, Player] = {}
    by_id = {p.id for p in season.players if p.id}
    distinct: dict[tuple[str, str, str], None] = {}  # (id, name, birth date), in order
    for event in season.events:
        for section in event.sections:
            c = section.section.columns
            if by_id.issuperset(c.fide_id):
                continue  # everyone listed by id: found (Directory.find's first rule)
            rows = zip(c.fide_id, c.name, c.birth_date, strict=True)
            distinct.update(dict.fromkeys(row for row in rows if row[0] not in by_id))
    if not distinct:
        return []  # everyone listed by id (the directory of the season is not needed)
    directory = season.directory
    for ident, name, born in distinct:
        player = Player(start_no=0, name=name, fide_id=ident, birth_date=born)  # who it is
        if directory.find(player) is None:
            missing.setdefault(directory.key(player)[0], player)
    if not missing:
        return []
    examples = ", ".join(sorted(p.name[:40] for p in missing.values())[:3])
    return [
        Problem(
            where(("players",)),
            f"{len(missing)} player(s) of the results are not in players.csv (e.g. {examples}); "
            f"eligibility needs its column(s) {', '.join(required)}, so they are not eligible",
            Severity.WARNING,
        )
    ]


def undecided_names(season: Season) -> list[Problem]:
    """A warning when similar names are neither joined nor kept apart in aliases.csv (they
    are two people until decided; ``grandprix players --review`` lists them). Run by
    ``check`` only: comparing every pair of names is the one slow check."""
    from grandprix.season.people import near_matches, people

    uncertain = [m for m in near_matches(season, people(season)) if m.uncertain]
    if not uncertain:
        return []
    pairs = "; ".join(f"{m.first.name[:40]} ~ {m.second.name[:40]}" for m in uncertain[:3])
    return [
        Problem(
            Location(str(Path(season.folder) / "aliases.csv")),
            f"{len(uncertain)} pair(s) of similar names are undecided and count as different "
            f"people (e.g. {pairs}); decide each in aliases.csv (grandprix players DIR --review)",
            Severity.WARNING,
        )
    ]
