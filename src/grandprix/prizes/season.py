"""Season prizes: the rule set's prize list over the season's standings and divisions."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from grandprix.conditions import belongs, meets
from grandprix.players import PlayerKey
from grandprix.prizes.allocate import NotAwarded, Ranked, Won, allocate
from grandprix.prizes.offers import offers
from grandprix.rules.schema import Prize
from grandprix.season.divisions import profiles, season_dates
from grandprix.season.model import Line, Season, Tables
from grandprix.season.standings import division_standings, standings


@dataclass(frozen=True)
class PrizeList:
    title: str
    won: list[Won]
    missed: list[NotAwarded]
    offered: int | None = None  # the prizes the rules give (None: not counted)


def rows(lines: list[Line]) -> list[Ranked]:
    return [Ranked(ln.player, ln.name, ln.rank_first, ln.rank_last) for ln in lines]


def season_prizes(
    season: Season,
    as_of: datetime.date | None = None,
    tables: Tables | None = None,
) -> PrizeList:
    """Who wins each season prize, and why (ACF-8 to ACF-10, LUP-5 to LUP-7). ``tables``: the
    division standings as of the same day, when the caller has them."""
    rules = season.rules
    if tables is None:
        tables = division_standings(season, as_of) if rules.divisions else []
    if rules.divisions:
        rankings = {"": rows(standings(season, as_of))}
        rankings.update({name: rows(lines) for name, lines in tables})
    else:
        rankings = {"": rows(tables[0][1] if tables else standings(season, as_of))}
    people = profiles(season, season.directory)
    played = season.counted_events(as_of)
    directory = season.directory
    last = {
        directory.key(p)[0]
        for s in (played[-1].sections if played else ())
        for p in s.section.players
    }

    dates = season_dates(season)

    def qualifies(prize: Prize, key: PlayerKey) -> bool:
        return key in people and belongs(people[key], prize, dates)

    def eligible(prize: Prize, key: PlayerKey) -> bool:
        if rules.prizes.played_last_event and key not in last:
            return False  # LUP-7: only players of the final event
        if key not in people or not meets(people[key].attribute, rules.prizes.require):
            return False
        return qualifies(prize, key)

    offered, dropped = offers(list(rules.prizes.prize), rankings, qualifies, rules.prizes.based_on)
    won, missed = allocate(
        offered,
        rankings,
        eligible,
        rules.prizes.ties,
        lambda key, name: people[key].attribute(name) if key in people else "",
    )
    return PrizeList(season.name, won, dropped + missed, len(season.rules.prizes.prize))
