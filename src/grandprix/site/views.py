"""What every page of the season's site shows, as plain data (UT-8).

``SiteViews(season)`` computes the standings once; each method gives one page as frozen records
of strings and numbers: no files, no templates (the chart is an SVG string). The static writer
(``build.py``) renders them with the templates; a web server could serve the same pages from the
same records. Every view has its ``path`` in the site, and its links are relative to that path.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from grandprix.numbers import show
from grandprix.players import PlayerKey
from grandprix.rules.schema import Counting
from grandprix.season.divisions import division_counting
from grandprix.season.identity import Directory
from grandprix.season.model import Award, Line, Season, SeasonEvent
from grandprix.season.points import event_placings
from grandprix.season.report import Tables, explain
from grandprix.season.standings import division_standings, player_line, rerank, season_directory
from grandprix.site.chart import leaders_chart
from grandprix.site.parts import Block, Link, Table
from grandprix.site.rules_text import rules_intro, rules_page

SLUG_LIMIT = 80  # a page's file name stays far below the 255 bytes a file system allows


def slug(text: str) -> str:
    """Lower-case ASCII letters, digits and hyphens, at most ``SLUG_LIMIT`` characters."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:SLUG_LIMIT].rstrip("-") or "x"


@dataclass(frozen=True, slots=True)
class StandingsRow:
    rank: str
    name: str
    href: str
    points: str
    events: int
    move: str  # '▲2', '▼1', '=', 'new' or '' (no earlier standings)
    move_class: str  # 'up', 'down' or ''
    move_label: str  # the move in words


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """A division's standings ('Standings' without divisions), as on the home page."""

    title: str
    anchor: str
    rows: tuple[StandingsRow, ...]


@dataclass(frozen=True, slots=True)
class HomePage:
    path: str
    title: str
    tables: tuple[StandingsTable, ...]
    played: int
    calendar: int
    last_event: str
    chart: str  # SVG


@dataclass(frozen=True, slots=True)
class Result:
    date: str
    event: str
    href: str
    place: str
    score: str
    points: str
    counted: str  # 'counted' or 'dropped'


@dataclass(frozen=True, slots=True)
class PlayerPart:
    """The player's season in one division."""

    division: str
    rank: str
    total: str
    bonus: str
    awards: tuple[Result, ...]
    explanation: str


@dataclass(frozen=True, slots=True)
class PlayerPage:
    path: str
    title: str
    name: str
    parts: tuple[PlayerPart, ...]


@dataclass(frozen=True, slots=True)
class EventRow:
    place: str
    name: str
    href: str  # '' for a player without a page
    score: str
    cells: tuple[str, ...]  # the tie-break values
    points: str  # Grand Prix points; '' for none


@dataclass(frozen=True, slots=True)
class EventSection:
    name: str
    codes: tuple[str, ...]  # the tie-breaks
    rows: tuple[EventRow, ...]


@dataclass(frozen=True, slots=True)
class EventPage:
    path: str
    title: str
    date: str
    weight: str
    sections: tuple[EventSection, ...]


@dataclass(frozen=True, slots=True)
class ListPage:
    """The events, prizes, rules and downloads pages."""

    path: str
    title: str
    intro: str
    blocks: tuple[Block, ...]


Page = HomePage | PlayerPage | EventPage | ListPage
DOWNLOADS_INTRO = "The standings and every result, to reuse. season.schema.json describes the JSON."


class SiteViews:
    """The pages of a season's site; the standings and the pages' file names computed once."""

    def __init__(self, season: Season) -> None:
        self.season = season
        self.season_name = season.name
        self.decimals = season.rules.standings.decimals
        self.tables: Tables = division_standings(season)
        self.played = [e for e in season.events if not e.planned]
        self.before = previous_ranks(season, self.tables, self.played)
        by_player: dict[str, list[tuple[str, Line]]] = defaultdict(list)
        for division, lines in self.tables:
            for line in lines:
                by_player[line.player].append((division, line))
        self.lines = dict(by_player)  # each player's (division, line), in the tables' order
        self.player_files = _player_files(self.tables)
        self.events = {e.index: e for e in self.played}  # by calendar index
        self.event_files = {i: f"{i + 1:03d}-{slug(e.name)}.html" for i, e in self.events.items()}

    def pages(self) -> Iterator[Page]:
        """Every page but the downloads (which lists the files the writer wrote)."""
        yield self.home()
        yield from (self.player(key) for key in self.lines)
        yield from (self.event(event.index) for event in self.played)
        yield self.events_index()
        yield self.prizes()
        yield self.rules()

    def home(self) -> HomePage:
        played = self.played
        return HomePage(
            path="index.html",
            title=f"{self.season_name}: standings",
            tables=tuple(self._standings(name, lines) for name, lines in self.tables),
            played=len(played),
            calendar=len(self.season.events),
            last_event=f"{played[-1].name} ({played[-1].date})" if played else "none yet",
            chart=self._chart(),
        )

    def division(self, name: str) -> StandingsTable:
        """The standings of division ``name`` ('' without divisions); KeyError if none."""
        return self._standings(name, dict(self.tables)[name])

    def _standings(self, name: str, lines: list[Line]) -> StandingsTable:
        before = self.before.get(name) if self.before else None
        rows = tuple(
            StandingsRow(line.rank, line.name, f"players/{self.player_files[line.player]}",
                         show(line.total, self.decimals), line.events, *_move(before, line))
            for line in lines
        )  # fmt: skip
        title = name or "Standings"
        return StandingsTable(title, slug(title), rows)

    def _chart(self) -> str:
        """Running totals of the first table's top five after each event."""
        names = [e.name for e in self.played]
        if not self.tables:
            return leaders_chart(names, [])
        division, lines = self.tables[0]
        return leaders_chart(
            names,
            [(ln.name, running_totals(self.season, division, ln, self.played)) for ln in lines[:5]],
        )

    def player(self, key: str) -> PlayerPage:
        """The page of the player with season key ``key``; KeyError if not in the standings."""
        lines = self.lines[key]
        name = lines[0][1].name
        parts = tuple(self._part(division, line) for division, line in lines)
        return PlayerPage(f"players/{self.player_files[key]}", name, name, parts)

    def _part(self, division: str, line: Line) -> PlayerPart:
        decimals = self.decimals
        results = []
        for a in sorted(line.awards, key=lambda a: (a.date, a.event_name)):
            event = a.event_name if a.section == a.event_name else f"{a.event_name}, {a.section}"
            href = f"../events/{self.event_files[a.event]}"
            counted = "counted" if a in line.counted else "dropped"
            points = show(a.points, decimals)
            results.append(
                Result(a.date.isoformat(), event, href, a.place, show(a.score), points, counted)
            )
        total, bonus = show(line.total, decimals), show(line.bonus, decimals)
        explanation = explain(self.season, line, division)
        return PlayerPart(
            division or "Standings", line.rank, total, bonus, tuple(results), explanation
        )

    @cached_property
    def _awards(self) -> dict[tuple[int, str, str], Award]:
        """The overall (first table's) award of every player in every event section."""
        if not self.tables:
            return {}
        return {(a.event, a.section, a.player): a for ln in self.tables[0][1] for a in ln.awards}

    @cached_property
    def _directory(self) -> Directory:
        return season_directory(self.season)

    def event(self, index: int) -> EventPage:
        """The page of the event played at ``index`` in the calendar; KeyError if not played."""
        event = self.events[index]
        rules = self.season.rules
        sections = []
        for s in event.sections:
            standing = event_placings(s.section, event, rules)
            rows = []
            for row in standing.rows:
                key = self._directory.entrant(row.player).key
                award = self._awards.get((event.index, s.name, key))
                page = self.player_files.get(key)
                href = f"../players/{page}" if page is not None else ""
                points = show(award.points, self.decimals) if award else ""
                cells = tuple(show(v) for v in row.values)
                rows.append(
                    EventRow(row.place, row.player.name, href, show(row.points), cells, points)
                )
            codes = tuple(spec.code for spec in standing.specs)
            sections.append(EventSection(s.name, codes, tuple(rows)))
        path = f"events/{self.event_files[index]}"
        date, weight = event.date.isoformat(), show(event.weight)
        return EventPage(path, event.name, date, weight, tuple(sections))

    def events_index(self) -> ListPage:
        entries = tuple(
            Link(e.name, f"events/{self.event_files[e.index]}", e.date.isoformat())
            for e in self.played
        )
        return ListPage("events.html", "Events", "", (Block(entries=entries),))

    def prizes(self) -> ListPage:
        if not self.season.rules.prizes.prize:
            return ListPage("prizes.html", "Prizes", "These rules list no season prizes.", ())
        from grandprix.prizes.season import season_prizes

        result = season_prizes(self.season)
        rows = []
        for w in result.won:
            value = show(w.amount, 2) if w.amount is not None else w.title or ""
            rows.append((w.prize, w.name, value, w.reason))
        missed = tuple(Link(f"{m.prize}: {m.reason}") for m in result.missed)
        table = Table("Season prizes and why each went where it did",
                      ("Prize", "Player", "Value", "Why"), tuple(rows))  # fmt: skip
        blocks = (
            Block(tables=(table,)),
            Block("Not awarded", entries=missed) if missed else Block(),
        )
        intro = "On the standings as they are now; final when the season ends."
        return ListPage("prizes.html", "Prizes", intro, blocks)

    def rules(self) -> ListPage:
        intro = rules_intro(self.season)
        return ListPage("rules.html", "Rules", intro, rules_page(self.season, self.tables))

    def downloads(self, files: Sequence[str]) -> ListPage:
        """The page listing the exports ``files`` (names in the site's folder)."""
        entries = tuple(Link(f, f) for f in files)
        return ListPage("downloads.html", "Downloads", DOWNLOADS_INTRO, (Block(entries=entries),))


def _player_files(tables: Tables) -> dict[str, str]:
    """The page file name of every player, from their key, made unique by a number."""
    players: dict[str, str] = {}
    used: set[str] = set()
    for _, lines in tables:
        for line in lines:
            if line.player in players:
                continue
            base = slug(line.player.label)
            name, n = base, 1
            while name in used:
                n += 1
                name = f"{base}-{n}"
            used.add(name)
            players[line.player] = f"{name}.html"
    return players


def _move(before: dict[PlayerKey, int] | None, line: Line) -> tuple[str, str, str]:
    if before is None:
        return "", "", "no earlier standings"
    if line.player not in before:
        return "new", "", "new in the standings"
    change = before[line.player] - line.rank_first
    if change > 0:
        return f"▲{change}", "up", f"up {change}"
    if change < 0:
        return f"▼{-change}", "down", f"down {-change}"
    return "=", "", "no change"


def previous_ranks(
    season: Season, tables: Tables, played: list[SeasonEvent]
) -> dict[str, dict[PlayerKey, int]]:
    """Ranks before the last event date, by division, for the movement column."""
    if len(played) < 2:
        return {}
    last = played[-1].date
    earlier = [e for e in played if e.date < last]
    if not earlier:
        return {}
    as_of = max(e.date for e in earlier)
    last_event = max(e.index for e in earlier if e.date <= as_of)
    out = {}
    for name, lines in tables:
        counting = _counting(season, name)
        ranked = rerank(lines, season.rules, len(season.events), counting, as_of, last_event)
        out[name] = {line.player: line.rank_first for line in ranked}
    return out


def _counting(season: Season, division: str) -> Counting:
    """How the table of ``division`` ('' without divisions) counts a player's results."""
    rules = season.rules
    found = next((d for d in rules.divisions if d.name == division), None)
    if found is None or found.award == "filter":  # a filter keeps the overall totals
        return rules.counting
    return division_counting(found, rules)


def running_totals(
    season: Season, division: str, line: Line, played: list[SeasonEvent]
) -> list[Fraction]:
    """The line's total after each event played, counted as its table counts them."""
    counting = _counting(season, division)
    scale = math.lcm(
        counting.bonus_per_event.denominator, *{a.points.denominator for a in line.awards}
    )
    by_event: dict[int, list[tuple[int, Award]]] = defaultdict(list)
    for award in line.awards:
        units = award.points.numerator * (scale // award.points.denominator)
        by_event[award.event].append((units, award))
    so_far: list[tuple[int, Award]] = []
    totals = []
    for event in played:
        so_far.extend(by_event.get(event.index, []))
        if not so_far:
            totals.append(Fraction(0))
            continue
        sub, _ = player_line(line.player, so_far, counting, len(season.events), scale)
        totals.append(sub.total)
    return totals
