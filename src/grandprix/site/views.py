"""What every page of the season's site shows, as plain data (UT-8).

``SiteViews(season)`` computes the standings once; each method gives one page as the frozen
records of ``pages.py``: no files, no templates (charts are SVG strings). The static writer
(``build.py``) renders them with the templates; a web server could serve the same pages from the
same records. Every view has its ``path`` in the site, and its links are relative to that path.
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from functools import cached_property
from operator import methodcaller
from typing import NamedTuple

from grandprix.language import N_, _, count, decimal, money, ngettext, pgettext, short_date
from grandprix.players import PlayerKey, normalise
from grandprix.prizes.season import PrizeList
from grandprix.reports.exports import column_dictionary
from grandprix.runtime import made_before_fork
from grandprix.scores import show
from grandprix.season.computed import Computed
from grandprix.season.history import ROWS_KEPT, History, kept_dates, running_totals
from grandprix.season.ineligible import unplaced
from grandprix.season.model import Line, Season, SeasonEvent, Tables
from grandprix.season.race import Outlook, remaining_events
from grandprix.season.standings import AwardMemo, deciding
from grandprix.site.chart import leaders_chart
from grandprix.site.event_view import EventView
from grandprix.site.pages import (
    HomePage,
    LeftOut,
    ListPage,
    Page,
    StandingsRow,
    StandingsTable,
    safe_file_name,
    slug,
)
from grandprix.site.parts import Block, Cell, Code, Link, Table
from grandprix.site.player_view import PLAYERS_SECTION, PlayerView
from grandprix.site.round_view import RoundView
from grandprix.site.words.common import RULES_PAGE, place_span
from grandprix.site.words.points import category_words
from grandprix.site.words.rules import rules_intro, rules_page
from grandprix.site.words.season import (
    Sentence,
    race_assumptions,
    race_note,
    race_summary,
    tie_note,
)

DOWNLOAD_FILES = {  # file -> (who it is for, what it holds: shown through _)
    "season.xlsx": ("everyone", N_("The standings and every result as a spreadsheet (Excel)")),
    "standings.csv": ("everyone", N_("The standings as a table (CSV, opens in any spreadsheet)")),
    "results.csv": ("everyone", N_("Every result behind the standings (CSV)")),
    "season.json": ("developers", N_("The standings and every result as JSON")),
    "season.schema.json": ("developers", N_("The JSON Schema that describes season.json")),
}
PAGE_ROWS = ROWS_KEPT  # the most rows of a standings table on one page
Maker = Callable[["SiteViews"], Page]  # what makes one page, given the views
NO_RANK = "–"  # the rank shown for players level on no points (not '3637-17788')
TOP_ROWS = 100  # the rows shown of a longer table where it is not listed in full


class SiteViews(EventView, PlayerView, RoundView):
    """The pages of a season's site; the standings and the pages' file names computed once."""

    def __init__(
        self, season: Season, previous: SiteViews | None = None, memo: AwardMemo | None = None
    ) -> None:
        """``previous``: the season's views before a change, whose history these take what is
        still the same of; ``memo``: the events' awards kept from earlier computations of the
        same folder (the server's)."""
        self.season = season
        earlier: Computed | None = previous.computed if previous is not None else None
        self.computed: Computed = Computed(season, memo, earlier)
        self.season_name = season.name
        self.decimals = season.rules.standings.decimals
        self.tables: Tables = self.computed.tables
        self.played = [e for e in season.events if not e.planned]
        by_player: dict[PlayerKey, list[tuple[str, Line]]] = defaultdict(list)
        for division, lines in self.tables:
            for line in lines:
                by_player[line.player].append((division, line))
        self.lines = dict(by_player)  # each player's (division, line), in the tables' order
        self.player_files = _player_files(self.tables)
        self.events = {e.index: e for e in self.played}  # by calendar index
        self.event_files = {i: f"{i + 1:03d}-{slug(e.name)}.html" for i, e in self.events.items()}
        self.dated = kept_dates(season)  # the event dates with a "standings after" page
        self.left = len(remaining_events(season))  # the competition's events still to play
        # The events of the competition played, of all it has (an event outside it is shown,
        # never counted: DWS-3).
        self.counted = sum(e.counts for e in self.played)
        self._reasons: dict[PlayerKey, str] = {}  # why a player earns no points, once each
        # A result's date, event, section and event page, by id() of its section's Origin
        # (kept by the awards of the tables); its place, points and sentence, shared by the
        # awards of one valuation (by id(): the season keeps it), span, place among all, class
        # table and (when points go by score) score.
        self._heads: dict[int, tuple[str, str, str, str]] = {}
        self._said: dict[tuple[object, ...], tuple[str, str, Sentence]] = {}
        self._points: dict[int, str] = {}  # by id() of the Valuation, which the season keeps
        self._scores: dict[tuple[int, int], str] = {}  # a Fraction by its two integers
        last = self.played[-1] if self.played else None
        self.updated = (
            ngettext(
                "Standings after {played} of {total} events; the latest: {event}, {date}.",
                "Standings after {played} of {total} events; the latest: {event}, {date}.",
                season.calendar,
            ).format(
                played=self.counted,
                total=season.calendar,
                event=last.name,
                date=short_date(last.date),
            )
            if last
            else _("No event has been played yet.")
        )

    def pages(self) -> Iterator[Page]:
        """Every page but the downloads (which lists the files the writer wrote)."""
        return (make() for make in self.makers())

    def makers(self) -> list[Callable[[], Page]]:
        """What makes each page of ``pages()``, in its order; a page is made when its maker is
        called (the static writer shares them out between two processes)."""
        return [functools.partial(make, self) for _path, make in self._every_page()]

    def _every_page(self) -> Iterator[tuple[str, Maker]]:
        """The path and the maker of every page but the downloads, in the order of ``pages()``:
        the menu's pages (``MENU``), then the pages of which the site has many. A maker is given
        the views (it holds none: the views kept by a server, ``_paths``, make no reference
        cycle, and an earlier season's are freed as soon as it is no longer served)."""
        for listed in MENU:
            if listed.make is not None:
                yield listed.path, listed.make
        for key, name in self.player_files.items():
            yield f"players/{name}", methodcaller("player", key)
        for event in self.played:
            yield f"events/{self.event_files[event.index]}", methodcaller("event", event.index)
        for event in self.played:
            if event.date in self.dated:
                yield f"events/{self._after_file(event.index)}", methodcaller("after", event.index)
        for name, n in self.standings_pages:
            yield self._standings_file(name, n), methodcaller("standings_page", name, n)
        for n in range(2, self._players_pages + 1):
            yield _players_file(n), methodcaller("players_index", n)
        yield from self.live_pages()

    def share(self) -> None:
        """Compute every value the pages share (the cached properties, the computed season's
        too) now: a process forked afterwards has them, and does not compute them again."""
        made_before_fork(self.computed)
        made_before_fork(self)

    def page(self, path: str) -> Page | None:
        """The page at ``path`` (one that ``pages()`` yields), computed alone; None if the site
        has no such page. A web server renders one page a request with it."""
        make = self._paths.get(path)
        return make(self) if make is not None else None

    @cached_property
    def _paths(self) -> dict[str, Maker]:
        """What makes the page at each path of ``pages()``, without making it."""
        return dict(self._every_page())

    # The home page and the standings.

    @cached_property
    def before(self) -> dict[str, dict[PlayerKey, int]]:
        """Each table's ranks before the last event date (the movement column); made when the
        standings are first shown, not before: the site's exports start without waiting."""
        return self.history.before()

    def home(self) -> HomePage:
        """Each table's standings: whole while it is one page long (``PAGE_ROWS``), else its
        top ``TOP_ROWS`` with links to its pages (``standings_page``)."""
        tables = tuple(self.division(name) for name, _lines in self.tables)
        title = _("{season}: standings").format(season=self.season_name)
        left_out: tuple[LeftOut, ...] = ()
        if self.season.rules.standings.ineligible == "listed":
            zero = decimal(show(Fraction(0), self.decimals))
            left_out = tuple(
                LeftOut(u.name, zero, u.events, u.reason)
                for u in unplaced(self.season, self.tables)
            )
        assumed = tuple(race_assumptions(self.season)) if self._race else ()
        return HomePage(
            HOME.path,
            HOME.section,
            title,
            tables,
            self.counted,
            self.season.calendar,
            left_out,
            assumed,
        )

    def division(self, name: str) -> StandingsTable:
        """The standings of division ``name`` ('' without divisions) as the home page shows
        them; KeyError if none."""
        lines = dict(self.tables)[name]
        if len(lines) <= PAGE_ROWS:
            return self._standings(name, lines)
        return self._standings(name, lines, 0, TOP_ROWS)

    def standings_page(self, name: str, number: int) -> HomePage:
        """Page ``number`` (from 1) of the standings of a table longer than one page."""
        lines = dict(self.tables)[name]
        start = (number - 1) * PAGE_ROWS
        stop = min(len(lines), start + PAGE_ROWS)
        table = self._standings(name, lines, start, stop, number)
        path = self._standings_file(name, number)
        title = _("{season}: {table}, players {first}-{last}").format(
            season=self.season_name, table=table.title, first=start + 1, last=stop
        )
        return HomePage(path, HOME.section, title, (table,), self.counted, self.season.calendar)

    def _standings_file(self, name: str, number: int) -> str:
        return f"standings/{slug(name or 'standings')}-{number}.html"

    @cached_property
    def standings_pages(self) -> list[tuple[str, int]]:
        """(table, page number) of every page of the tables longer than one page (in the
        folder ``standings/``)."""
        return [
            (name, n)
            for name, lines in self.tables
            if len(lines) > PAGE_ROWS
            for n in range(1, math.ceil(len(lines) / PAGE_ROWS) + 1)
        ]

    @property
    def _race(self) -> dict[str, dict[PlayerKey, Outlook]]:
        """Each table's race (nothing once no planned event is left: the ranks are final)."""
        return self.computed.race

    def _standings(
        self,
        name: str,
        lines: list[Line],
        start: int = 0,
        stop: int | None = None,
        number: int = 0,
    ) -> StandingsTable:
        """The table's rows ``start`` to ``stop`` (all by default): on the home page, or on
        its page ``number`` (its links one folder down)."""
        before = self.before.get(name) if self.before else None
        outlooks = self._race.get(name, {})
        notes = {key: race_note(o) for key, o in outlooks.items()}
        if len(set(notes.values())) == 1:
            notes = {}  # the same for everyone: the table's sentence says it once
        up = "../" if number else ""
        stop = len(lines) if stop is None else stop
        rows = tuple(
            StandingsRow(
                line.rank if line.total or "-" not in line.rank else NO_RANK,
                line.name,
                f"{up}players/{self.player_files[line.player]}",
                decimal(show(line.total, self.decimals)),
                line.events,
                *_move(before, line),
                race=notes.get(line.player, ""),
                tie=self._tie(lines, i),
            )
            for i, line in enumerate(lines[start:stop], start)
        )
        summary = race_summary(list(outlooks.values()), self.left) if outlooks else ""
        title, anchor = name or _("Standings"), slug(name or "Standings")
        downloads = (
            Link(_("spreadsheet (Excel)"), f"{up}season.xlsx"),
            Link(_("table (CSV)"), f"{up}standings.csv"),
        )
        chart = "" if number else self._chart(name, lines)
        if len(rows) == len(lines):
            return StandingsTable(title, anchor, rows, chart, summary, downloads, division=name)
        pages = tuple(
            Link(
                f"{(n - 1) * PAGE_ROWS + 1}-{min(n * PAGE_ROWS, len(lines))}",
                "" if n == number else up + self._standings_file(name, n),
            )
            for table, n in self.standings_pages
            if table == name
        )
        if number:
            note = _("Players {first}-{last} of the {total} in the table; every page:").format(
                first=count(start + 1), last=count(stop), total=count(len(lines))
            )
        else:
            note = _(
                "The top {top} of the {total} players in the table; all of them, page by page:"
            ).format(top=count(stop), total=count(len(lines)))
        return StandingsTable(title, anchor, rows, chart, summary, downloads, note, pages, name)

    def _tie(self, lines: list[Line], i: int) -> str:
        """Why line ``i`` ranks above the next one on the same total, if it does (LUP-6)."""
        if i + 1 >= len(lines):
            return ""
        line, below = lines[i], lines[i + 1]
        if line.total != below.total or line.rank_first == below.rank_first:
            return ""
        last = max((e.index for e in self.played if e.counts), default=-1)
        criterion = deciding(line, below, self.season.rules, last)
        return tie_note(line, below, criterion, self.decimals, last)

    def _chart(self, division: str, lines: list[Line]) -> str:
        """Running totals of the table's top five after each event."""
        names = [e.name for e in self.played]
        series = [
            (ln.name, running_totals(self.season, division, ln, self.played)) for ln in lines[:5]
        ]
        title = (
            _("Points of the top five of {division} after each event").format(division=division)
            if division
            else _("Points of the top five after each event")
        )
        return leaders_chart(names, series, title, f"chart-{slug(division or 'standings')}")

    @property
    def history(self) -> History:
        """The tables as they stood after each of the latest event dates (rank charts, the
        "standings after" pages)."""
        return self.computed.history

    def after(self, index: int) -> ListPage:
        """The standings as they stood after the event at ``index`` (and any of the same day):
        each table whole while it is one page long (``PAGE_ROWS``), else its top part."""
        event = self.events[index]
        blocks = []
        for name, stood in self.history.after(event.date):
            lines = stood.top_lines()
            lines = lines if stood.players <= PAGE_ROWS else lines[:TOP_ROWS]
            rows = tuple(
                (
                    place_span(ln.rank),
                    Link(ln.name, f"../players/{self.player_files[ln.player]}"),
                    decimal(show(ln.total, self.decimals)),
                    str(ln.events),
                )
                for ln in lines
            )
            title = name or _("Standings")
            caption = _("{table} after {date}").format(table=title, date=short_date(event.date))
            head = (_("Rank"), _("Player"), _("Points"), _("Events"))
            table = Table(caption, head, rows, numeric=(2, 3))
            part = (
                ()
                if len(lines) == stood.players
                else (
                    _("The top {top} of the {total} players then in the table.").format(
                        top=count(len(lines)), total=count(stood.players)
                    ),
                )
            )
            blocks.append(Block(title, slug(name or "Standings"), part, tables=(table,)))
        same_day = [e.name for e in self.played if e.date == event.date]
        day = short_date(event.date)
        if len(same_day) > 1:  # the standings of a date hold every event of that date
            intro = _("As the standings stood after the events of {date}: {events}.").format(
                date=day, events="; ".join(same_day)
            )
            title = _("Standings after the events of {date}").format(date=day)
        else:
            intro = _("As the standings stood after {event} on {date}.").format(
                event=event.name, date=day
            )
            title = _("Standings after {event}").format(event=event.name)
        path = f"events/{self._after_file(index)}"
        return ListPage(path, EVENTS.section, title, intro, tuple(blocks))

    # The list pages.

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
        path = _players_file(number)
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
                "" if n == number else _players_file(n),
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
    make: Callable[[SiteViews], Page] | None


# The site's pages of which it has one, in the menu's order; the pages of which it has many (a
# player's, an event's, ...) follow them in ``SiteViews._every_page``.
HOME = MenuPage("index.html", "standings", N_("Standings"), SiteViews.home)
PLAYERS = MenuPage("players.html", PLAYERS_SECTION, N_("Players"), SiteViews.players_index)
EVENTS = MenuPage("events.html", "events", N_("Events"), SiteViews.events_index)
PRIZES = MenuPage("prizes.html", "prizes", N_("Prizes"), SiteViews.prizes)
RULES = MenuPage(RULES_PAGE, "rules", N_("Rules"), SiteViews.rules)
DOWNLOADS = MenuPage("downloads.html", "downloads", N_("Downloads"), None)
MENU = (HOME, PLAYERS, EVENTS, PRIZES, RULES, DOWNLOADS)


def _players_file(number: int) -> str:
    """The path of page ``number`` (from 1) of the players' list."""
    return PLAYERS.path if number == 1 else f"players-{number}.html"


def _player_files(tables: Tables) -> dict[PlayerKey, str]:
    """The page file name of every player, from their key, made unique by a number."""
    players: dict[PlayerKey, str] = {}
    used: set[str] = set()
    for _division, lines in tables:
        for line in lines:
            if line.player in players:
                continue
            base = slug(line.player.label)
            name, n = base, 1
            while name in used:
                n += 1
                name = f"{base}-{n}"
            used.add(name)
            players[line.player] = safe_file_name(f"{name}.html")  # never 'con.html'
    return players


def _move(before: dict[PlayerKey, int] | None, line: Line) -> tuple[str, str, str]:
    if before is None:
        return "", "", _("no earlier standings")
    if line.player not in before:
        return pgettext("in the standings", "new"), "", _("new in the standings")
    change = before[line.player] - line.rank_first
    if change > 0:
        return f"▲{change}", "up", _("up {n} since the previous event").format(n=change)
    if change < 0:
        return f"▼{-change}", "down", _("down {n} since the previous event").format(n=-change)
    return "=", "", _("no change since the previous event")


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
