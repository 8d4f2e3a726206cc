"""Divisions: who belongs to each (ratings on a date, age, sex, region, rating origin), and
the points each division awards inside every event (ACF-1, ACF-8, ACF-11 to ACF-14, LUP-5).
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from fractions import Fraction

from grandprix.conditions import DateOf, Profile, belongs, in_band, reasons
from grandprix.dates import birth_or_none
from grandprix.language import _
from grandprix.model import Player
from grandprix.placings import Span, share_places
from grandprix.players import PlayerKey
from grandprix.ratings.store import Rated
from grandprix.rules.schema import Counting, DateRef, Division, RuleSet
from grandprix.season.eligible import plays_enough
from grandprix.season.identity import Directory
from grandprix.season.model import Award, AwardRows, Line, Origin, Season, SeasonEvent
from grandprix.season.places import renumber, section_spans
from grandprix.season.points import Valuations, earning_sections, section_scale

UNRATED = "unrated"


def resolve(on: DateRef, season: Season) -> datetime.date:
    """A date of the rule set: a date, or the season's start or end, or its last event."""
    if isinstance(on, datetime.date):
        return on
    dates = [e.date for e in season.events] or [datetime.date.today()]
    if on == "season-start":
        return season.start or datetime.date(min(dates).year, 1, 1)
    if on == "season-end":
        return season.end or max(dates)
    return max(dates)  # last-event: the last event of the calendar (LUP-5)


def profiles(season: Season, directory: Directory) -> dict[PlayerKey, Profile]:
    """Every person of the season with their rating from the chain of lists (ACF-11)."""
    people: dict[PlayerKey, tuple[Player, dict[str, str]]] = {}
    for event in season.events:
        for section in event.sections:
            for player in section.section.players:
                key, _, attributes = directory.key(player)
                people.setdefault(key, (player, attributes))
    ratings: dict[str, Rated] = {}
    sources = [(s.kind, resolve(s.on, season)) for s in season.rules.ratings.sources]
    store = season.ratings
    for kind, on in sources if store else []:  # ACF-11: the first list that rates a player
        ids = {
            key: list_id(key, attributes, kind)
            for key, (_, attributes) in people.items()
            if key not in ratings
        }
        found = store.ratings_on([i for i in ids.values() if i], kind, on) if store else {}
        ratings.update({k: found[i] for k, i in ids.items() if i in found})
    return {
        key: Profile(
            key,
            ratings.get(key),
            birth_or_none(attributes.get("birth_date", "") or player.birth_date),
            tuple(sorted(attributes.items())),
        )
        for key, (player, attributes) in people.items()
    }


def list_id(key: PlayerKey, attributes: dict[str, str], kind: str) -> str:
    """The id a person has on a list of this kind: players.csv's ``fide_id`` for FIDE lists
    (``national_id`` for national ones), else the id the season knows them by."""
    column = "fide_id" if kind.startswith("fide") else "national_id"
    if attributes.get(column):
        return attributes[column]
    return key.id


def season_dates(season: Season) -> DateOf:
    """The rule set's dates as days of this season (for ``belongs``)."""
    return lambda ref: resolve(ref, season)


def divisions_of(profile: Profile, rules: RuleSet, season: Season) -> set[str]:
    """The divisions a person is in, after the limits by rating origin (ACF-12)."""
    dates = season_dates(season)
    found = {d.name for d in rules.divisions if belongs(profile, d, dates)}
    rating = profile.rating.rating if profile.rating else None
    origin = profile.rating.kind if profile.rating else UNRATED
    for limit in rules.restrictions:
        if limit.source != origin:
            continue
        if not in_band(rating, limit.rating_at_least, limit.rating_below):
            continue
        found &= set(limit.only)
    return found


def membership(profile: Profile, rules: RuleSet, season: Season) -> list[tuple[str, bool, str]]:
    """Each division with whether the person is in it and why, in words: its conditions met or
    not (``conditions.reasons``), and the limits by rating origin (ACF-12)."""
    dates = season_dates(season)
    rating = profile.rating.rating if profile.rating else None
    origin = profile.rating.kind if profile.rating else UNRATED
    limits = [
        limit
        for limit in rules.restrictions
        if limit.source == origin and in_band(rating, limit.rating_at_least, limit.rating_below)
    ]
    out = []
    for division in rules.divisions:
        said = reasons(profile, division, dates)
        member = all(ok for ok, _text in said)
        words = "; ".join(text for _ok, text in said) or _("every player")
        barred = [limit for limit in limits if division.name not in limit.only]
        if member and barred:
            member = False
            if origin == UNRATED:
                but = _("but players with no rating may only be in {divisions}")
            else:
                but = _(
                    "but players with a rating from the {origin} list may only be in {divisions}"
                )
            words += "; " + but.format(origin=origin, divisions=", ".join(barred[0].only))
        out.append((division.name, member, words))
    return out


def division_spans(
    event: SeasonEvent, division: Division, rules: RuleSet
) -> list[tuple[int, Span]]:
    """Where a division's points come from in one event: (section position, span) pairs.

    ACF-13.2: a section played as the division awards inside that section. ACF-13.3 and
    D-ACF-3: a cascading division goes down the sections in order. Otherwise the sections that
    earn overall points are used (ACF-13.4: from 1st down).
    """
    sections = list(event.sections)
    own = [i for i, s in enumerate(sections) if division.section and s.name == division.section]
    if own:
        chosen = own
    elif division.cascade:
        chosen = list(range(len(sections)))
    else:
        earning = {id(s) for s, _ in earning_sections(event, rules)}
        chosen = [i for i, s in enumerate(sections) if id(s) in earning]
    out: list[tuple[int, Span]] = []
    for i in chosen:
        out.extend((i, span) for span in section_spans(sections[i], event, rules))
    return out


def division_awards(
    event: SeasonEvent,
    division: Division,
    rules: RuleSet,
    directory: Directory,
    members: set[PlayerKey],
    valuations: Valuations,
) -> AwardRows:
    """The division's players placed again inside the event and awarded its table."""
    weights = {id(s): w for s, w in earning_sections(event, rules)}
    awards = AwardRows()
    position = 1
    by_section: dict[int, list[Span]] = {}
    for index, span in division_spans(event, division, rules):
        by_section.setdefault(index, []).append(span)
    for index, spans_ in by_section.items():
        section = event.sections[index]
        columns = section.section.columns
        rounds = section.section.rounds
        scale = section_scale(event, section.section, rules, valuations)
        keys = directory.entrants(section.section)
        kept = renumber(
            spans_,
            [
                k.eligible and k.key in members and plays_enough(played, rounds, rules)
                for k, played in zip(keys, columns.played, strict=True)
            ],
        )
        weight = weights.get(id(section), section.weight or Fraction(1))
        if not division.cascade:
            position = 1  # each section is its own ranking; only a cascade runs on
        origin = Origin(
            event.index, event.name, event.date, section.name, scale.name, event.category
        )
        for first, last, who in kept:
            first, last = first + position - 1, last + position - 1
            value = None
            for i in who:
                score = columns.points[i]
                if value is None or scale.points.by_score:
                    value = valuations.get(scale, (first, last), score, (event.weight, weight))
                awards.add(Award(origin, keys[i].key, keys[i].name, first, last, score, value))
        position += sum(len(who) for _, _, who in kept)
    return awards


def division_counting(division: Division, rules: RuleSet) -> Counting:
    if division.best is None:
        return rules.counting
    update = {"mode": "best", "best": division.best, "changes": []}  # its own N, always
    return rules.counting.model_copy(update=update)


def filtered(lines: list[Line], members: set[PlayerKey]) -> list[Line]:
    """The overall lines of the division's players, ranked again among themselves."""
    kept = [line for line in lines if line.player in members]
    keys = [(line.rank_first, line.rank_last) for line in kept]
    return [
        replace(kept[i], rank_first=first, rank_last=last)
        for first, last, group in share_places(list(range(len(kept))), keys.__getitem__)
        for i in group
    ]
