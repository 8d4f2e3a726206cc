"""Contradictions inside a season's input that would otherwise change a total without a word:
one person twice in one event, ranks against points, aliases.csv decisions that disagree, one
id under two names (in the results, or against players.csv), and names holding characters that
hide or look like others."""

from __future__ import annotations

import functools
import unicodedata
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Sequence
from itertools import count, pairwise, repeat
from operator import ge, itemgetter
from pathlib import Path
from sys import intern
from typing import cast

from grandprix.model import (
    Columns,
    Location,
    Player,
    Problem,
    Section,
    Severity,
    common_units,
    ordered,
)
from grandprix.placings import Against, parse_rank, read_ranks
from grandprix.players import (
    PlayerKey,
    birth_year,
    hidden_characters,
    look_alike_key,
    look_alikes,
    name_key,
    shown,
)
from grandprix.readers import points_against_ranks
from grandprix.season.eligible import COUNT
from grandprix.season.identity import Alias
from grandprix.season.model import Season
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
            what = f"id '{shown(ident, 20)}'" if ident else f"name '{shown(player.name)}' (no id)"
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
    """A warning where the file's ranks put a player above one with more points, or give one
    place to players with different points (UT-4: a place is shared by equal scores; a rank
    column of all 1s would otherwise share one place among the whole field unremarked). Such
    a rank column is not read as places (``placings.read_ranks``): the players are placed by
    points, by every command alike. A column ranking every row is the reader's to check
    (``readers.rank_problems``, the same warning, which the season's problems keep once); a
    column ranking some rows only is checked here."""
    c = section.columns
    units, _ = common_units(c.points)
    if c.rank == _counting(len(c.rank)) and ordered(units, ge):
        return []  # ranked 1, 2, 3, ... down the rows, points never rising (C loops)
    reading = read_ranks(c)
    if reading.against is not None:
        return [points_against_ranks(section, reading.against)]
    spans = zip(map(parse_rank, c.rank), count())  # each row's span and row, ranked rows kept
    ranked = cast(list[tuple[tuple[int, int], int]], sorted(filter(itemgetter(0), spans)))
    if len(ranked) == len(c.rank):
        return []  # every row ranked: the reader's (the places agree with the points, here)
    in_order = list(map(units.__getitem__, map(itemgetter(1), ranked)))
    shared = {span for span, _ in ranked if span[0] != span[1]} | {
        span for (span, _), (other, _) in pairwise(ranked) if span == other
    }
    if ordered(in_order, ge) and not shared:
        return []  # points never rise down the ranks (a C loop for the usual list)
    for (span, i), (below_span, j) in pairwise(ranked):
        if units[i] < units[j] and span[0] < below_span[0]:
            return [points_against_ranks(section, Against(i, j, shared=False))]
        if span == below_span and units[i] != units[j]:
            return [points_against_ranks(section, Against(i, j, shared=True))]
    return []


@functools.lru_cache(maxsize=1024)
def _counting(size: int) -> tuple[str, ...]:
    """The places '1', '2', ... of ``size`` rows, as the strings a reader interns."""
    return tuple(intern(str(place)) for place in range(1, size + 1))


def alias_contradictions(aliases: Iterable[Alias]) -> list[Problem]:
    """Errors: one pair of names decided both 'same' and 'different' in aliases.csv, directly
    or through other names ('A same B', 'B same C' and 'A different C'): the season joins the
    'same' decisions as far as they reach (``identity.same_names``), so one of the decisions
    is wrong, and which one only the coordinator knows. Each name's key is made once; the
    pairs are ordered tuples of those keys, and the chains are found by joining the 'same'
    decisions (union-find) before any path is searched (a million decisions in a few hundred
    megabytes)."""
    decided = list(aliases)
    keys = [(name_key(a.name), name_key(a.other)) for a in decided]
    problems: list[Problem] = []
    first_of: dict[tuple[str, str], int] = {}
    both: set[tuple[str, str]] = set()  # the pairs decided both ways
    for i, (alias, pair) in enumerate(zip(decided, map(_ordered, keys), strict=True)):
        first = decided[first_of.setdefault(pair, i)]
        if first.same != alias.same:
            both.add(pair)
            where = alias.location or Location("aliases.csv")
            line = first.location.line if first.location else "?"
            problems.append(
                Problem(
                    where,
                    f"'{shown(alias.name)}' and '{shown(alias.other)}' are decided both 'same' "
                    f"and 'different' (line {line}); keep one decision",
                )
            )
    return problems + _chained_contradictions(decided, keys, both)


def _ordered(pair: tuple[str, str]) -> tuple[str, str]:
    return pair if pair[0] <= pair[1] else (pair[1], pair[0])


def _chained_contradictions(
    decided: list[Alias], keys: list[tuple[str, str]], both: set[tuple[str, str]]
) -> list[Problem]:
    """The 'different' decisions whose two names 'same' decisions join through other names
    (a pair decided 'same' directly is ``alias_contradictions``' own)."""
    parent: dict[str, str] = {}

    def root(key: str) -> str:
        while (up := parent.get(key, key)) != key:
            parent[key] = parent.get(up, up)  # (halved on the way)
            key = up
        return key

    for alias, (name, other) in zip(decided, keys, strict=True):
        if alias.same and name != other:
            a, b = root(name), root(other)
            if a != b:
                parent[a] = b
    apart = [
        i
        for i, (alias, (name, other)) in enumerate(zip(decided, keys, strict=True))
        if not alias.same
        and name != other
        and _ordered((name, other)) not in both
        and root(name) == root(other)
    ]
    if not apart:
        return []
    links: dict[str, list[tuple[str, Alias]]] = defaultdict(list)
    for alias, (name, other) in zip(decided, keys, strict=True):
        if alias.same and name != other:
            links[name].append((other, alias))
            links[other].append((name, alias))
    problems: list[Problem] = []
    for i in apart:
        alias = decided[i]
        chain = _joined(links, *keys[i])
        if not chain:
            continue
        steps = "; ".join(
            f"line {_alias_line(step)} '{shown(step.name)}' same '{shown(step.other)}'"
            for step in chain
        )
        problems.append(
            Problem(
                alias.location or Location("aliases.csv"),
                f"'{shown(alias.name)}' and '{shown(alias.other)}' are decided 'different' here, "
                f"but the 'same' decisions join them ({steps}): 'same' holds through every name "
                "it links, so these decisions contradict; remove the 'same' line that is wrong, "
                "or this line if they are one person",
            )
        )
    return problems


def _joined(links: dict[str, list[tuple[str, Alias]]], start: str, goal: str) -> list[Alias]:
    """The 'same' decisions leading from name key ``start`` to ``goal`` (fewest first), or []."""
    came: dict[str, tuple[str, Alias] | None] = {start: None}
    queue = deque([start])
    while queue and goal not in came:
        key = queue.popleft()
        for other, alias in links[key]:
            if other not in came:
                came[other] = (key, alias)
                queue.append(other)
    chain: list[Alias] = []
    step = came.get(goal)
    while step is not None:
        chain.append(step[1])
        step = came[step[0]]
    return chain[::-1]


def _alias_line(alias: Alias) -> str:
    return str(alias.location.line) if alias.location and alias.location.line else "?"


def identity_problems(season: Season, where: Callable[[KeyPath], Location]) -> list[Problem]:
    """Across the season: an id under two names (warning, unless aliases.csv says they are one
    person), aliases.csv 'same' for names with different ids (error), players missing from
    players.csv when eligibility needs its columns (warning with the count), and divisions by
    rating with nothing to rate players (warning); and ``same_id_other_name``,
    ``one_person_twice`` and ``name_characters``."""
    problems: list[Problem] = []
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
            if key == first_key or season.directory.alike(first_key, key):
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
                    f"'{shown(alias.name)}' and '{shown(alias.other)}' are decided 'same' but "
                    f"have different ids ({shown(min(ids), 20)} and {shown(min(others), 20)}): "
                    "different ids are different people; correct the id in the results or remove "
                    "this line",
                )
            )
    problems.extend(same_id_other_name(season, first_seen))
    problems.extend(one_person_twice(season))
    problems.extend(name_characters(season))
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


def same_id_other_name(
    season: Season, first_seen: dict[tuple[str, str], tuple[Section, int]]
) -> list[Problem]:
    """Warnings: an id that players.csv lists under another name than a results file gives it
    (``first_seen``: each distinct id and spelling of the results, with where it is first),
    unless the names agree (``name_key``) or aliases.csv makes them one. The id decides who the
    player is, and the standings show players.csv's name (the season's register of its
    people): a wrong id there would give one person's points to another under their name."""
    by_id = {p.id: p for p in season.players if p.id}  # (the directory's, if ever needed)
    problems: list[Problem] = []
    warned: set[str] = set()
    for (ident, name), (results, row) in first_seen.items():
        listed = by_id.get(ident)
        if listed is None or listed.name == name or not listed.name or ident in warned:
            continue
        if season.directory.alike(listed.name, name):
            continue
        warned.add(ident)
        there = listed.location or Location("players.csv")
        problems.append(
            Problem(
                _row(results, row),
                f"id '{shown(ident, 20)}' is '{shown(name)}' here but '{shown(listed.name)}' in "
                f"{there} (field 'name'); the standings show '{shown(listed.name)}', "
                "players.csv's name: if they are one person, correct the name in players.csv "
                "or say so in aliases.csv (name,other,same); if not, correct the id in one of "
                "the files",
                Severity.WARNING,
            )
        )
    return problems


def one_person_twice(season: Season) -> list[Problem]:
    """Errors: two rows of one event that the season takes for one person (a name without an
    id taking the id its name has elsewhere, names that aliases.csv makes one): one person
    cannot take two places in one event, and both places would earn points.
    (``event_duplicates`` finds the rows of one id or of one name without ids, before the
    season's people are known.)"""
    # Rows with ids are distinct people in one event (``event_duplicates``) unless players.csv
    # lists someone without an id, whose name rows of other ids may then find (``find``).
    by_id_only = all(p.id for p in season.players)
    problems: list[Problem] = []
    for event in season.events:
        sections = [s.section for s in event.sections]
        if by_id_only and all(all(section.columns.fide_id) for section in sections):
            continue  # (C loops: every row of the event has its id)
        directory = season.directory
        keyed = [[e.key for e in directory.entrants(section)] for section in sections]
        every = [key for keys in keyed for key in keys]
        if len(set(every)) == len(every):
            continue  # (C loops: the usual event)
        first: dict[PlayerKey, tuple[Section, int]] = {}
        for section, keys in zip(sections, keyed, strict=True):
            for i, key in enumerate(keys):
                earlier, j = first.setdefault(key, (section, i))
                if earlier is section and j == i:
                    continue
                c, e = section.columns, earlier.columns
                there = f"on line {e.line[j]}" if earlier is section else f"at {_row(earlier, j)}"
                if bool(c.fide_id[i]) != bool(e.fide_id[j]):
                    why = (
                        f"the row without an id takes id {shown(key.id, 20)}, the only id the "
                        "season knows for its name"
                    )
                elif name_key(c.name[i]) != name_key(e.name[j]):
                    why = "aliases.csv decides their names 'same'"
                else:
                    why = "the same name"
                problems.append(
                    Problem(
                        _row(section, i),
                        f"{_who(c, i)} here and {_who(e, j)} {there} are one person to the season "
                        f"({why}): one person cannot take two places in one event; if they are "
                        "two people, give each row its own id (field 'id'), else remove the row "
                        "that is wrong",
                    )
                )
    return problems


def forfeit_problems(section: Section) -> list[Problem]:
    """A standings list's ``forfeits`` cells that are no count of games (KEN-6 reads them)."""
    if section.has_crosstable:
        return []
    c = section.columns
    out = []
    for i, extra in enumerate(c.extra):
        cell = dict(extra).get("forfeits", "").strip()
        if cell and not COUNT.fullmatch(cell):
            out.append(
                Problem(
                    _row(section, i),
                    f"field 'forfeits' = '{shown(cell, 20)}' of {_who(c, i)} is not a number of "
                    "games: write how many games the player won or lost by forfeit (0 for none)",
                )
            )
    return out


def _row(section: Section, i: int) -> Location:
    return Location(section.source, section.columns.line[i])


def _who(c: Columns, i: int) -> str:
    ident = f"id {shown(c.fide_id[i], 20)}" if c.fide_id[i] else "no id"
    return f"'{shown(c.name[i])}' ({ident})"


def name_characters(season: Season) -> list[Problem]:
    """Warnings: a name (of a results file, players.csv or aliases.csv) holding a character that
    shows nothing or turns the text around (``players.hidden_characters``: a right-to-left
    override shows 'Alice' as 'ecilA'; ``name_key`` ignores them), or a letter of another
    script drawn like the Latin one it stands for (``players.look_alikes``: a Cyrillic 'А' in
    'Аdams', which keeps the name from matching its Latin spelling). A reader of the standings
    cannot see either. One warning for each name in each file, at its first row."""
    named: dict[tuple[str, str], Location] = {}  # (file, name) -> first row
    for event in season.events:
        for results in event.sections:
            c = results.section.columns
            if "".join(c.name).isascii():
                continue  # (C loops: the usual file)
            for i, name in enumerate(c.name):
                if not name.isascii():
                    named.setdefault((results.section.source, name), _row(results.section, i))
    for player in season.players:
        if player.location is not None and not player.name.isascii():
            named.setdefault((player.location.path, player.name), player.location)
    for alias in season.aliases:
        for name in (alias.name, alias.other):
            if alias.location is not None and not name.isascii():
                named.setdefault((alias.location.path, name), alias.location)
    problems: list[Problem] = []
    latin: dict[str, tuple[str, Location]] | None = None  # names of Latin letters, by key
    for (_, name), where in named.items():
        hidden = hidden_characters(name)
        if hidden:
            problems.append(
                Problem(
                    where,
                    f"name '{shown(name)}' holds {_characters(hidden)}, which shows nothing or "
                    "turns the text around: the name shows wrong wherever it is printed (the "
                    "matching of names ignores it); retype the name in the file (field 'name') "
                    "without it",
                    Severity.WARNING,
                )
            )
        mixed = look_alikes(name)
        if mixed:
            if latin is None:
                latin = _latin_names(season)
            twin = latin.get(look_alike_key(name))
            like = f"'{shown(twin[0])}' (as at {twin[1]})" if twin else "a name of Latin letters"
            problems.append(
                Problem(
                    where,
                    f"name '{shown(name)}' has {_characters(mixed)} among Latin letters: it reads "
                    f"as {like} but does not match it; retype the letter in the file (field "
                    "'name')",
                    Severity.WARNING,
                )
            )
    return problems


def _characters(text: str) -> str:
    """'U+202E (RIGHT-TO-LEFT OVERRIDE)' for each character, joined."""
    return ", ".join(
        f"U+{ord(ch):04X} ({unicodedata.name(ch, 'a control character')})" for ch in text
    )


def _latin_names(season: Season) -> dict[str, tuple[str, Location]]:
    """The names of the season's files written in Latin letters only, by ``name_key``, each
    with where it first appears (what a look-alike name may be mistaken for)."""
    found: dict[str, tuple[str, Location]] = {}
    for event in season.events:
        for results in event.sections:
            c = results.section.columns
            for i, name in enumerate(c.name):
                if not look_alikes(name):
                    found.setdefault(name_key(name), (name, _row(results.section, i)))
    for player in season.players:
        if player.location is not None and not look_alikes(player.name):
            found.setdefault(name_key(player.name), (player.name, player.location))
    return found


def _missing_players(season: Season, where: Callable[[KeyPath], Location]) -> list[Problem]:
    """A warning naming players whom eligibility cannot judge: not in players.csv, and with no
    value of a required attribute in their results either (a results file's own column, such
    as its federation, is read where players.csv does not list the player)."""
    required = list(season.rules.eligibility.require)
    if not required:
        return []
    missing: dict[str, Player] = {}
    by_id = {p.id for p in season.players if p.id}
    distinct: dict[tuple[str, str, str], Player] = {}  # (id, name, birth date) -> a row of it
    for event in season.events:
        for section in event.sections:
            c = section.section.columns
            if by_id.issuperset(c.fide_id):
                continue  # everyone listed by id: found (Directory.find's first rule)
            rows = zip(c.fide_id, c.name, c.birth_date, strict=True)
            for i, row in enumerate(rows):
                if row[0] not in by_id and row not in distinct:
                    distinct[row] = c.record(i)
    if not distinct:
        return []  # everyone listed by id (the directory of the season is not needed)
    directory = season.directory
    for player in distinct.values():
        if directory.find(player) is not None:
            continue
        key, _, attributes = directory.key(player)
        if not all(attributes.get(name, "").strip() for name in required):
            missing.setdefault(key, player)
    if not missing:
        return []
    examples = "; ".join(sorted(shown(p.name, 40) for p in missing.values())[:3])
    people = {directory.key(p)[0] for p in distinct.values()}
    listed = any(
        ident in by_id
        for e in season.events
        for s in e.sections
        for ident in s.section.columns.fide_id
    )
    if set(missing) == people and not listed:  # nobody can earn a point: empty standings
        return [
            Problem(
                where(("players",)),
                f"no player can earn points: the rules require {', '.join(required)} of every "
                f"player, and neither players.csv nor the results give it to any (e.g. "
                f"{examples}); write players.csv with the columns id, name, "
                f"{', '.join(required)} (docs/season.md, 'Players')",
            )
        ]
    return [
        Problem(
            where(("players",)),
            f"{len(missing)} player(s) of the results are not in players.csv and their results "
            f"give no {', '.join(required)} (e.g. {examples}): eligibility needs it, so they "
            "are not eligible; list them in players.csv with it",
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
    pairs = "; ".join(
        f"{shown(m.first.name, 40)} ~ {shown(m.second.name, 40)}" for m in uncertain[:3]
    )
    return [
        Problem(
            Location(str(Path(season.folder) / "aliases.csv")),
            f"{len(uncertain)} pair(s) of similar names are undecided and count as different "
            f"people (e.g. {pairs}); decide each in aliases.csv (grandprix players DIR --review)",
            Severity.WARNING,
        )
    ]
