"""A player's page of ``SiteViews``: each of their tables with their results in date order, the
sentence of each result and of the total, their rank chart, their part in the race, their prizes
and the divisions they are in or not, with why."""

from __future__ import annotations

import datetime
import operator
from collections.abc import Callable
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

from grandprix.conditions import Profile
from grandprix.language import _, decimal, short_date
from grandprix.players import PlayerKey
from grandprix.prizes.season import PrizeList
from grandprix.scores import show
from grandprix.season.divisions import membership, profiles
from grandprix.season.history import History, counting_of
from grandprix.season.model import Award, Line, Season, SeasonEvent, Tables
from grandprix.season.race import Outlook
from grandprix.site.chart import rank_chart
from grandprix.site.pages import PlayerPage, PlayerPart, Result, slug
from grandprix.site.words.common import place_span, rating_list
from grandprix.site.words.season import Sentence, race_sentence, result_sentence, total_sentence

PLAYERS_SECTION = "players"  # the menu item a player's page belongs to


class PlayerView:
    """The player pages of ``SiteViews``, which gives these values."""

    season: Season
    tables: Tables
    decimals: int
    left: int  # planned events still to play
    lines: dict[PlayerKey, list[tuple[str, Line]]]  # each player's (division, line)
    events: dict[int, SeasonEvent]
    event_files: dict[int, str]
    player_files: dict[PlayerKey, str]
    dated: set[datetime.date]  # the event dates with a "standings after" page
    _heads: dict[int, tuple[str, str, str, str]]
    _said: dict[tuple[object, ...], tuple[str, str, Sentence]]

    _money: Callable[[Fraction], str]  # an amount in the season's currency
    _points_text: Callable[[Award], str]  # an award's points as its result shows them

    if TYPE_CHECKING:  # computed by ``SiteViews``

        @property
        def history(self) -> History: ...

        @property
        def _race(self) -> dict[str, dict[PlayerKey, Outlook]]: ...

        @property
        def _prizes(self) -> PrizeList | None: ...

    def player(self, key: PlayerKey) -> PlayerPage:
        """The page of the player with season key ``key``; KeyError if not in the standings."""
        lines = self.lines[key]
        name = lines[0][1].name
        parts = tuple(self._part(division, line) for division, line in lines)
        heading = _("Prizes on the standings so far") if self.left else _("Prizes won")
        return PlayerPage(
            f"players/{self.player_files[key]}",
            PLAYERS_SECTION,
            name,
            name,
            parts,
            self._prizes_won.get(key, ()),
            heading,
            self._division_words(key),
        )

    @cached_property
    def _profiles(self) -> dict[PlayerKey, Profile]:
        return profiles(self.season, self.season.directory) if self.season.rules.divisions else {}

    def _division_words(self, key: PlayerKey) -> tuple[str, ...]:
        """The rating the divisions go by (its list and date), then each division: in or not,
        and why."""
        profile = self._profiles.get(key)
        if profile is None:
            return ()
        rated = profile.rating
        out = [
            _("Rating used: {rating}, from the {list} of {date}.").format(
                rating=rated.rating, list=rating_list(rated.kind), date=short_date(rated.date)
            )
            if rated
            else _("Rating used: none (no list the rules name rates this player).")
        ]
        for name, member, why in membership(profile, self.season.rules, self.season):
            said = _("In {division}: {why}.") if member else _("Not in {division}: {why}.")
            out.append(said.format(division=name, why=why))
        return tuple(out)

    @cached_property
    def _prizes_won(self) -> dict[PlayerKey, tuple[str, ...]]:
        """Each winner's prizes as their page lists them, in the prize list's order (looked up
        by each of the season's player pages)."""
        money = self._money
        won: dict[PlayerKey, tuple[str, ...]] = {}
        for w in self._prizes.won if self._prizes else ():
            shown = money(w.amount) if w.amount is not None else w.title or ""
            won[w.key] = (*won.get(w.key, ()), f"{w.prize}: {shown} ({w.reason})")
        return won

    def _part(self, division: str, line: Line) -> PlayerPart:
        rules, decimals = self.season.rules, self.decimals
        results = []
        heads, texts = self._heads, self._said
        kinds = (rules.points, *rules.points.categories.values())
        by_score = any(p.by_score for p in kinds)
        own = {d.name for d in rules.divisions if d.award != "filter" and not d.everyone}
        label = division if division in own else ""
        for a, counted in sorted(line.results(), key=_by_date):
            origin = a.origin
            head = heads.get(id(origin))
            if head is None:
                head = heads[id(origin)] = self._head(a)
            key = (
                id(a.valuation),
                a.first,
                a.last,
                a.overall,
                origin.table_name,
                a.score if by_score else None,
                label,
            )
            words = texts.get(key)
            if words is None:
                words = texts[key] = (
                    place_span(a.place),
                    decimal(self._points_text(a)),
                    result_sentence(a, rules, decimals, "../", label),
                )
            place, shown, sentence = words
            results.append(Result(*head, place, shown, counted, sentence))
        counting = counting_of(self.season, division)
        summary = total_sentence(
            line, counting, self.season.calendar, rules, decimals, "../", self._most[division]
        )
        title, anchor = division or _("Standings"), slug(division or "Standings")
        chart = ""
        if len(self.dated) > 1:
            ranks = self.history.ranks(division, line.player)
            days = [short_date(day) for day in self.history.dates]
            chart = rank_chart(days, ranks, f"rank-{anchor}", self.history.earlier)
        outlook = self._race.get(division, {}).get(line.player)
        said = race_sentence(outlook, self.left, decimals) if outlook else ""
        return PlayerPart(
            title,
            division,
            anchor,
            place_span(line.rank) if line.total or "-" not in line.rank else _("no points yet"),
            decimal(show(line.total, decimals)),
            tuple(results),
            summary,
            said,
            chart,
        )

    def _head(self, a: Award) -> tuple[str, str, str, str]:
        """The date, the event's name (with its section's), the section and the event page of a
        result."""
        event = a.event_name if a.section == a.event_name else f"{a.event_name}, {a.section}"
        return short_date(a.date), event, a.section, f"../events/{self.event_files[a.event]}"

    @cached_property
    def _most(self) -> dict[str, int]:
        """The most events any player of each table has played (KC-2)."""
        return {name: max((ln.events for ln in lines), default=0) for name, lines in self.tables}


# A player's results in order (by the Origin's fields: no property of Award called)
_ORIGIN_ORDER = operator.attrgetter("origin.date", "origin.event_name", "origin.section")


def _by_date(result: tuple[Award, bool]) -> tuple[object, ...]:
    """A line's result (its award, whether it counts) in date order."""
    found: tuple[object, ...] = _ORIGIN_ORDER(result[0])
    return found
