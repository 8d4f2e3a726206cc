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
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import cached_property
from operator import methodcaller

from grandprix.language import _, count, decimal, ngettext, pgettext, short_date
from grandprix.players import PlayerKey
from grandprix.runtime import made_before_fork
from grandprix.scores import show
from grandprix.season.computed import Computed
from grandprix.season.history import History, kept_dates, running_totals
from grandprix.season.ineligible import unplaced
from grandprix.season.model import Line, Season, Tables
from grandprix.season.race import Outlook, remaining_events
from grandprix.season.standings import AwardMemo, deciding
from grandprix.site.chart import leaders_chart
from grandprix.site.event_view import EventView
from grandprix.site.list_view import DOWNLOAD_FILES as DOWNLOAD_FILES
from grandprix.site.list_view import DOWNLOADS as DOWNLOADS
from grandprix.site.list_view import EVENTS, HOME, ListView, players_file
from grandprix.site.list_view import MENU as MENU
from grandprix.site.list_view import PAGE_ROWS as PAGE_ROWS
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
from grandprix.site.parts import Block, Link, Table
from grandprix.site.player_view import PlayerView
from grandprix.site.words.common import place_span
from grandprix.site.words.season import (
    Sentence,
    race_assumptions,
    race_note,
    race_summary,
    tie_note,
)

Maker = Callable[["SiteViews"], Page]  # what makes one page, given the views
NO_RANK = "–"  # the rank shown for players level on no points (not '3637-17788')
TOP_ROWS = 100  # the rows shown of a longer table where it is not listed in full


class SiteViews(EventView, PlayerView, ListView):
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
            yield players_file(n), methodcaller("players_index", n)
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
