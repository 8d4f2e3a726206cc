"""The site's pages of which it has one (its menu: ``MENU``) and the lists among them: the
events, the players, the prizes, the rules and the downloads, as ``SiteViews`` (``views.py``)
makes them from the season it computed."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import cached_property
from operator import methodcaller
from typing import Any, NamedTuple

from grandprix.language import N_, _, count, decimal, money, ngettext, short_date
from grandprix.players import PlayerKey, normalise
from grandprix.prizes.season import PrizeList
from grandprix.reports.exports import column_dictionary
from grandprix.scores import show
from grandprix.season.history import ROWS_KEPT
from grandprix.season.model import Line, SeasonEvent, Tables
from grandprix.site.pages import ListPage, Page, slug
from grandprix.site.parts import Block, Cell, Code, Link, Table
from grandprix.site.player_view import PLAYERS_SECTION
from grandprix.site.round_view import RoundView
from grandprix.site.words.common import RULES_PAGE, place_span
from grandprix.site.words.points import category_words
from grandprix.site.words.rules import rules_intro, rules_page

DOWNLOAD_FILES = {  # file -> (who it is for, what it holds: shown through _)
    "season.xlsx": ("everyone", N_("The standings and every result as a spreadsheet (Excel)")),
    "standings.csv": ("everyone", N_("The standings as a table (CSV, opens in any spreadsheet)")),
    "results.csv": ("everyone", N_("Every result behind the standings (CSV)")),
    "season.json": ("developers", N_("The standings and every result as JSON")),
    "season.schema.json": ("developers", N_("The JSON Schema that describes season.json")),
}
PAGE_ROWS = ROWS_KEPT  # the most rows of a standings table, or of the players' list, on one page


class ListView(RoundView):
    """The list pages of ``SiteViews``, which gives these values (an event in progress is
    listed with where it stands: ``RoundView``)."""

    tables: Tables
    decimals: int
    played: list[SeasonEvent]
    lines: dict[PlayerKey, list[tuple[str, Line]]]  # each player's (division, line)
    event_files: dict[int, str]
    left: int  # the competition's events still to play
    counted: int  # the competition's events played

    def events_index(self) -> ListPage:
        """The calendar: each event played with its date, field, winner and rate; then those
        still to come, an event in progress linking to its page and saying where it stands."""
        rows = []
        for e in self.played:
            field = sum(s.section.size for s in e.sections)
            rate = [f"x {decimal(show(e.weight))}"] if e.weight != 1 else []
            kind = [category_words(e.category)] if e.category else []
            if not e.counts:  # DWS-3: shown, never counted
                kind.append(_("outside the competition"))
            rows.append(
                (
                    short_date(e.date),
                    Link(e.name, f"events/{self.event_files[e.index]}"),
                    str(field),
                    _winner(e),
                    ", ".join(kind + rate),
                )
            )
        table = Table(
            _("Events played: date, field, winner (the first section's first place) and rate"),
            (_("Date"), _("Event"), _("Players"), _("Winner"), _("Kind and rate")),
            tuple(rows),
            numeric=(2,),
        )
        planned = tuple(
            Link(
                e.name,
                f"events/{self.live_files[e.index]}",
                _("{date}, being played: {state}").format(
                    date=short_date(e.date), state=self.live_state(e.index)
                ),
            )
            if e.index in self.live
            else Link(e.name, "", _("{date}, planned").format(date=short_date(e.date)))
            for e in self.season.events
            if e.planned
        )
        blocks = [Block(tables=(table,))]
        if planned:
            blocks.append(Block(_("Still to come"), "planned", entries=planned))
        return ListPage(EVENTS.path, EVENTS.section, _("Events"), "", tuple(blocks))

    def players_index(self, number: int = 1) -> ListPage:
        """Every player of the standings by name, ``PAGE_ROWS`` a page: what search finds,
        without JavaScript too."""
        entries = self._players_listed
        listed = len(entries)
        start = (number - 1) * PAGE_ROWS
        shown = entries[start : start + PAGE_ROWS]
        path = players_file(number)
        if listed <= PAGE_ROWS:
            intro = ngettext(
                "All {n} players in the standings, by name.",
                "All {n} players in the standings, by name.",
                listed,
            ).format(n=listed)
            return ListPage(path, PLAYERS.section, _("Players"), intro, (Block(entries=shown),))
        between = _("{first} to {last}")
        pages = tuple(
            Link(
                between.format(first=shown[0].text, last=shown[-1].text)
                if n == number
                else between.format(
                    first=entries[(n - 1) * PAGE_ROWS].text,
                    last=entries[min(listed, n * PAGE_ROWS) - 1].text,
                ),
                "" if n == number else players_file(n),
            )
            for n in range(1, self._players_pages + 1)
        )
        intro = _(
            "All {n} players in the standings, by name, {rows} a page: {first}-{last} here."
        ).format(n=count(listed), rows=PAGE_ROWS, first=start + 1, last=start + len(shown))
        title = _("Players") if number == 1 else _("Players, page {n}").format(n=number)
        blocks = (Block(entries=shown), Block(_("Every page"), "pages", entries=pages))
        return ListPage(path, PLAYERS.section, title, intro, blocks)

    @cached_property
    def _players_listed(self) -> tuple[Link, ...]:
        return tuple(
            Link(name, href, note)
            for name, href, note in sorted(self._index(), key=lambda e: (normalise(e[0]), e[1]))
        )

    @cached_property
    def _players_pages(self) -> int:
        return max(1, math.ceil(len(self.lines) / PAGE_ROWS))

    def _index(self) -> Iterator[tuple[str, str, str]]:
        for key, lines in self.lines.items():
            division, line = lines[0]
            place, points = place_span(line.rank), decimal(show(line.total, self.decimals))
            note = (
                _("{division}: {place}, {points} points").format(
                    division=division, place=place, points=points
                )
                if division
                else _("{place}, {points} points").format(place=place, points=points)
            )
            yield line.name, f"players/{self.player_files[key]}", note

    def search_index(self) -> list[tuple[str, str]]:
        """(name, page from the site's root) of every player, for the search box."""
        return sorted(
            ((name, href) for name, href, _note in self._index()), key=lambda e: normalise(e[0])
        )

    @cached_property
    def _prizes(self) -> PrizeList | None:
        if not self.season.rules.prizes.prize:
            return None
        from grandprix.prizes.season import season_prizes

        return season_prizes(self.season)

    def _money(self, amount: Fraction) -> str:
        return money(self.season.rules.prizes.currency, show(amount, 2))

    def prizes(self) -> ListPage:
        result = self._prizes
        if result is None:
            return ListPage(
                PRIZES.path,
                PRIZES.section,
                _("Prizes"),
                _("These rules list no season prizes."),
                (),
            )
        by_table: dict[str, list[tuple[tuple[int, int], tuple[Cell, ...]]]] = {}
        for n, w in enumerate(result.won):
            value = self._money(w.amount) if w.amount is not None else w.title or ""
            name = Link(w.name, f"players/{self.player_files[w.key]}")
            first = int(w.place.split("-")[0]) if w.place.split("-")[0].isdigit() else 0
            by_table.setdefault(w.ranking, []).append(
                ((first, n), (w.prize, name, f"{place_span(w.place)}", value, w.reason))
            )
        blocks = []
        head = (_("Prize"), _("Player"), _("Place"), _("Value"), _("Why"))
        for ranking, rows in by_table.items():  # each table's prizes, by the place they went to
            named = ranking or ("Overall" if len(by_table) > 1 else "")  # the anchor's words
            heading = ranking or (_("Overall") if len(by_table) > 1 else "")
            caption = (
                _("Prizes of {table} and why each went where it did").format(table=heading)
                if heading
                else _("Season prizes and why each went where it did")
            )
            table = Table(caption, head, tuple(row for _order, row in sorted(rows)), numeric=(3,))
            blocks.append(Block(heading, f"prizes-{slug(named)}" if named else "", tables=(table,)))
        missed = tuple(Link(f"{m.prize}: {m.reason}") for m in result.missed)
        if missed:
            blocks.append(Block(_("Not awarded"), "not-awarded", entries=missed))
        left = self.left
        played, total = self.counted, self.season.calendar
        if left:
            intro = ngettext(
                "Provisional: on the standings after {played} of {total} events; final once the "
                "last planned event is in.",
                "Provisional: on the standings after {played} of {total} events; final once the "
                "last planned event is in.",
                total,
            ).format(played=played, total=total)
        else:
            intro = ngettext(
                "Final: all {n} events of the season are in.",
                "Final: all {n} events of the season are in.",
                played,
            ).format(n=played)
        return ListPage(PRIZES.path, PRIZES.section, _("Prizes"), intro, tuple(blocks))

    def rules(self) -> ListPage:
        intro = rules_intro(self.season)
        return ListPage(
            RULES.path, RULES.section, _("Rules"), intro, rules_page(self.season, self.tables)
        )

    def downloads(self, files: Sequence[str]) -> ListPage:
        """The page describing the exports ``files`` (names in the site's folder)."""
        blocks = []
        for who in ("everyone", "developers"):
            entries = tuple(
                Link(_(DOWNLOAD_FILES[f][1]), f, f)
                for f in files
                if DOWNLOAD_FILES.get(f, ("", ""))[0] == who
            )
            developers = who == "developers"
            heading = _("For developers") if developers else ""
            if entries:
                blocks.append(
                    Block(heading, slug("For developers") if developers else "", entries=entries)
                )
        other = tuple(Link(f, f) for f in files if f not in DOWNLOAD_FILES)
        if other:
            blocks.append(Block(_("Other files"), "other", entries=other))
        head = (_("Column"), _("What it holds"))
        columns = tuple(
            Table(caption, head, tuple((Code(name), meaning) for name, meaning in rows))
            for caption, rows in column_dictionary(self.season)
        )
        blocks.append(Block(_("What each column holds"), "columns", tables=columns))
        intro = _("The standings and every result, to keep or to reuse.")
        return ListPage(DOWNLOADS.path, DOWNLOADS.section, _("Downloads"), intro, tuple(blocks))


class MenuPage(NamedTuple):
    """A page of which the site has one, in its menu: where it is, its menu item, what makes
    it."""

    path: str
    section: str  # the menu item's id: the ``section`` of this page and of the pages under it
    label: str  # the menu item's words, shown through ``_``
    # None for the downloads page, which lists the files the writer wrote (``downloads``)
    make: Callable[[Any], Page] | None  # given the views (``views.SiteViews``)


# The site's pages of which it has one, in the menu's order; the pages of which it has many (a
# player's, an event's, ...) follow them in ``views.SiteViews._every_page``.
HOME = MenuPage("index.html", "standings", N_("Standings"), methodcaller("home"))
PLAYERS = MenuPage("players.html", PLAYERS_SECTION, N_("Players"), methodcaller("players_index"))
EVENTS = MenuPage("events.html", "events", N_("Events"), methodcaller("events_index"))
PRIZES = MenuPage("prizes.html", "prizes", N_("Prizes"), methodcaller("prizes"))
RULES = MenuPage(RULES_PAGE, "rules", N_("Rules"), methodcaller("rules"))
DOWNLOADS = MenuPage("downloads.html", "downloads", N_("Downloads"), None)
MENU = (HOME, PLAYERS, EVENTS, PRIZES, RULES, DOWNLOADS)


def players_file(number: int) -> str:
    """The path of page ``number`` (from 1) of the players' list."""
    return PLAYERS.path if number == 1 else f"players-{number}.html"


def _winner(event: SeasonEvent) -> str:
    """The first place of the event's first section: its rank column's 1st (several when they
    share it), else the best score; with the score."""
    if not event.sections:
        return ""
    columns = event.sections[0].section.columns
    if not columns.name:
        return ""
    firsts = [i for i, rank in enumerate(columns.rank) if rank.strip() in ("1", "1-1")]
    if not firsts or (len(firsts) > 1 and len(set(columns.points[i] for i in firsts)) > 1):
        best = max(columns.points)
        firsts = [i for i, points in enumerate(columns.points) if points == best]
    names = "; ".join(columns.name[i] for i in firsts)  # names hold commas ("Abbey, Nina")
    score = decimal(show(columns.points[firsts[0]]))
    if len(firsts) > 1:
        return _("{names} ({score} each)").format(names=names, score=score)
    return f"{names} ({score})"
