"""Event prizes: ``event.toml`` names the sections' results and the prize list (UCC-6 to UCC-12).

Each section is a ranking: players on equal scores share a span (for pooled money, UCC-10), and
the section's tie-breaks order them inside it (for titles, UCC-12).
"""

from __future__ import annotations

import datetime
from pathlib import Path

from grandprix.conditions import Profile, belongs, meets
from grandprix.dates import birth_or_none
from grandprix.errors import InputError
from grandprix.events.config import EventFile, EventSection, read_event_rules
from grandprix.model import Player, Problem, Severity
from grandprix.placings import place, share_places
from grandprix.players import PlayerKey, name_key, read_players
from grandprix.prizes.allocate import Ranked, allocate
from grandprix.prizes.offers import offers
from grandprix.prizes.season import PrizeList
from grandprix.ratings.store import Rated
from grandprix.readers import load_section
from grandprix.rules.federation import ClassRules
from grandprix.rules.schema import DateRef, Prize
from grandprix.tiebreaks import Rules, parse


def event_rankings(
    path: Path,
) -> tuple[EventFile, dict[str, list[Ranked]], dict[PlayerKey, Profile]]:
    """Read event.toml and its results; raise InputError with every problem found."""
    problems: list[Problem] = []
    config, toml, rules = read_event_rules(path)
    if config.last_day is None:
        raise InputError([Problem(toml.where(("name",)), "the event needs a 'date'")])
    day = config.last_day
    attributes = _players(path.parent / config.players_file, problems)
    for key, klass in _entry_classes(config, path, rules.classes).items():
        attributes.setdefault(key, {})["class"] = klass  # UCC-9: each player's own class
    rankings: dict[str, list[Ranked]] = {}
    people: dict[PlayerKey, Profile] = {}
    for i, entry in enumerate(config.sections):
        if entry.results is None:
            where = toml.where(("sections", i, "name"))
            problems.append(Problem(where, f"section '{entry.name}' has no results yet"))
            continue
        section, found = load_section(path.parent / entry.results)
        problems.extend(found)
        if section is None:
            problems.append(Problem(toml.where(("sections", i, "results")), "no results"))
            continue
        specs = parse(entry.tiebreaks, Rules(entry.tiebreak_rules)) if entry.tiebreaks else []
        rows = (
            place(section, specs, Rules(entry.tiebreak_rules))
            if section.has_crosstable
            else (place(section, official_order=False))
        )
        ranking = []
        points = [row.points for row in rows.rows]
        for first, last, members in share_places(list(range(len(points))), points.__getitem__):
            for row in (rows.rows[i] for i in members):  # UCC-10: equal scores share a span
                key = PlayerKey.of(row.player.id, name_key(row.player.name))
                people[key] = _profile(key, row.player, attributes, entry, day)
                ranking.append(Ranked(key, row.player.name, first, last))
        rankings[entry.name] = ranking
    if any(p.severity is Severity.ERROR for p in problems):
        raise InputError(problems)
    top = config.sections[0].name if config.sections else ""
    rankings[""] = rankings.get(top, [])
    return config, rankings, people


def _entry_classes(config: EventFile, path: Path, classes: ClassRules) -> dict[PlayerKey, str]:
    """The class of every entry (UCC-1 by rating, UCC-2 by grade), when the event has entries."""
    if not config.entries:
        return {}
    from grandprix.events.entries import read_entries
    from grandprix.events.sections import player_class

    out = {}
    for entry in read_entries(path.parent / config.entries, config.rounds):
        key = PlayerKey.of(entry.id, name_key(entry.name))
        out[key] = player_class(entry, classes)
    return out


def _players(path: Path, problems: list[Problem]) -> dict[PlayerKey, dict[str, str]]:
    """players.csv beside event.toml, read as a season's is (located problems), by key."""
    if not path.exists():
        return {}
    out = {}
    for player in read_players(path, problems):
        cells = {"id": player.id, "name": player.name, **dict(player.attributes)}
        if player.id:
            out[PlayerKey.of(player.id, "")] = cells
        if player.name:
            out[PlayerKey.of("", name_key(player.name))] = cells
    return out


def _profile(
    key: PlayerKey,
    player: Player,
    attributes: dict[PlayerKey, dict[str, str]],
    section: EventSection,
    day: datetime.date,
) -> Profile:
    known = {**dict(player.extra), **attributes.get(key, {})}
    known.setdefault("sex", player.sex)
    known.setdefault("federation", player.federation)
    if player.rating is None and not known.get("class") and section.classes:
        known["class"] = section.classes[0]  # an unrated player plays in their section's class
    rated = Rated(player.rating, "event", day) if player.rating else None
    birth = birth_or_none(known.get("birth_date", "") or player.birth_date)
    return Profile(key, rated, birth, tuple(sorted(known.items())))


def event_prizes(path: Path) -> PrizeList:
    """Who wins each prize of the event, and why."""
    config, rankings, people = event_rankings(path)
    policy = config.prizes

    day = config.last_day
    assert day is not None  # event_rankings checked it

    def on(_: DateRef) -> datetime.date:
        return day

    def qualifies(prize: Prize, key: PlayerKey) -> bool:
        return key in people and belongs(people[key], prize, on)

    def eligible(prize: Prize, key: PlayerKey) -> bool:
        return meets(people[key].attribute, policy.require) and qualifies(prize, key)

    offered, dropped = offers(list(policy.prize), rankings, qualifies, policy.based_on)
    won, missed = allocate(
        offered, rankings, eligible, policy.ties, lambda k, n: people[k].attribute(n)
    )
    return PrizeList(config.name, won, dropped + missed)
