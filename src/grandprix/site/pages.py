"""The records of the site's pages: plain, frozen data that a template (or a web application)
renders. Every page has its ``path`` in the site and a ``section`` (the menu entry it belongs
to); links inside a page are relative to that path.

The rows of a page (``StandingsRow``, ``Result``, ``EventRow``, ``PointsCell``) are named
tuples, frozen too: a large season makes about a million of them, and a frozen dataclass takes
five times as long to make (each field set through ``object.__setattr__``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import NamedTuple

from grandprix.site.parts import Block, Link
from grandprix.site.words.season import Sentence

# The names Windows keeps for its devices, whatever the extension ('con.html' is the console):
# a page must never be given one, or the site cannot be copied to, or opened on, Windows.
RESERVED = re.compile(r"con|prn|aux|nul|(com|lpt)[0-9\u00b9\u00b2\u00b3]", re.IGNORECASE)


SLUG_LIMIT = 80  # a page's file name stays far below the 255 bytes a file system allows


def slug(text: str) -> str:
    """Lower-case ASCII letters, digits and hyphens, at most ``SLUG_LIMIT`` characters."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")[:SLUG_LIMIT].rstrip("-") or "x"


def safe_file_name(name: str) -> str:
    """``name`` (a page's file name, 'con.html') as a name every file system accepts: one
    whose part before its first dot is a name Windows keeps for a device ('con', 'NUL',
    'com1', 'lpt9', trailing spaces and dots ignored) gets '_' after that part ('con_.html');
    any other name is returned as it is. (A name made of ASCII letters, digits and hyphens
    never ends in '_', so the new name is no other page's.)"""
    stem, dot, rest = name.partition(".")
    if RESERVED.fullmatch(stem.rstrip(" .")):
        return f"{stem}_{dot}{rest}"
    return name


class StandingsRow(NamedTuple):
    rank: str
    name: str
    href: str
    points: str
    events: int
    move: str  # '▲2', '▼1', '=', 'new' or '' (no earlier standings)
    move_class: str  # 'up', 'down' or ''
    move_label: str  # the move in words, for screen readers
    race: str = ""  # 'clinched 1st', 'can still win', ... ('' when nothing is left to say)
    tie: str = ""  # which season tie-break put the player above the next on the same total


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """A division's standings ('Standings' without divisions)."""

    title: str
    anchor: str
    rows: tuple[StandingsRow, ...]
    chart: str = ""  # SVG: the running totals of its top five
    race: str = ""  # what the race for 1st looks like, in a sentence
    downloads: tuple[Link, ...] = ()
    note: str = ""  # which rows are shown, when not all of them
    pages: tuple[Link, ...] = ()  # every page of the whole table (this one without a link)
    division: str = ""  # the division's name ('' without divisions: ``title`` says Standings)

    @property
    def moves(self) -> bool:
        """Whether a row has a move to show (none before a second event: no column then)."""
        return any(row.move for row in self.rows)


@dataclass(frozen=True, slots=True)
class HomePage:
    path: str
    section: str
    title: str
    tables: tuple[StandingsTable, ...]
    played: int
    calendar: int
    left_out: tuple[LeftOut, ...] = ()  # players in no standings (standings.ineligible)
    race_assumptions: tuple[str, ...] = ()  # what the race assumes of the events left


class LeftOut(NamedTuple):
    """A player of the season's events listed as in no standings: 0 points, and why."""

    name: str
    points: str
    events: int
    reason: str


class Result(NamedTuple):
    date: str
    event: str
    section: str
    href: str
    place: str
    points: str
    counted: bool
    sentence: Sentence


@dataclass(frozen=True, slots=True)
class PlayerPart:
    """The player's season in one division."""

    division: str
    key: str  # the division's name in the standings ('' without divisions)
    anchor: str
    rank: str
    total: str
    results: tuple[Result, ...]
    summary: Sentence  # which results count, the bonus, the total
    race: str  # the player's race in a sentence ('' when nothing is left to say)
    rank_chart: str  # SVG of the rank after each event ('' without a history)


@dataclass(frozen=True, slots=True)
class PlayerPage:
    path: str
    section: str
    title: str
    name: str
    parts: tuple[PlayerPart, ...]
    prizes: tuple[str, ...]  # the season prizes won, in words
    prizes_heading: str = "Prizes won"  # "Prizes on the standings so far" while provisional
    divisions: tuple[str, ...] = ()  # the rating used, and each division in or out and why


class PointsCell(NamedTuple):
    """What a player earned in one division from one section of an event."""

    division: str
    points: str  # '' when none: ``note`` says why, or the player is not in the division
    note: str  # the Grand Prix place when it differs from the event's, or why no points
    member: bool = True  # False: not in this division (a dash, explained in the caption)


class EventRow(NamedTuple):
    place: str
    name: str
    href: str  # '' for a player without a page
    score: str
    cells: tuple[str, ...]  # one per ``EventSection.codes``: the player's details, tie-breaks
    points: tuple[PointsCell, ...]  # one per division column of the section


class TieBreakTerm(NamedTuple):
    """A tie-break column explained: its code as the event gives it, its full name, and what it
    measures in a sentence."""

    code: str  # 'BH/C1'
    name: str  # 'Buchholz less the lowest 1'
    meaning: str


class CrossRow(NamedTuple):
    """A player's row of a crosstable, in the final order."""

    number: int  # the row's number in the table, which the other rows' cells name
    name: str
    href: str  # '' for a player without a page
    title: str  # 'GM', '' (shown when ``Crosstable.titles``)
    federation: str  # 'NOR', '' (shown when ``Crosstable.federations``)
    rating: str  # '2450', '' (shown when ``Crosstable.ratings``)
    score: str
    rounds: tuple[str, ...]  # a cell a round: '12w1', '5b½', '14b+', 'bye ½', 'PAB 1', '–'


@dataclass(frozen=True, slots=True)
class Crosstable:
    """A section's rounds, player by player: each cell names the opponent by their row's
    number, the colour and the result."""

    rounds: int
    rows: tuple[CrossRow, ...]
    legend: tuple[tuple[str, str], ...]  # each notation the cells use, and what it means
    titles: bool = False  # a column for each detail some player has
    federations: bool = False
    ratings: bool = False


@dataclass(frozen=True, slots=True)
class EventSection:
    name: str
    details: tuple[str, ...]  # the player's columns some player has: 'Title', 'Fed', 'Rating'
    tiebreaks: tuple[TieBreakTerm, ...]
    divisions: tuple[str, ...]  # the points columns ('Grand Prix' for the overall table)
    rows: tuple[EventRow, ...]
    facts: tuple[str, ...]  # rounds, time control, the section's rate
    crosstable: Crosstable | None = None  # for a section read with its rounds
    book: str = ""  # the rule book of its tie-breaks, in words: "FIDE's 2024 rules"

    @property
    def codes(self) -> tuple[str, ...]:
        """The labels of the columns between the score and the points, one per value of a
        row's ``cells``: the details, then the tie-breaks' codes."""
        return self.details + tuple(t.code for t in self.tiebreaks)


@dataclass(frozen=True, slots=True)
class EventPage:
    path: str
    section: str
    title: str
    date: str
    facts: tuple[str, ...]  # place, the rate of the event, the points table used
    sections: tuple[EventSection, ...]
    after: Link | None  # the standings as they stood after this event
    previous: Link | None = None  # the event played before it, in the calendar's order
    next: Link | None = None  # and the one after it


class Seat(NamedTuple):
    """A player of a round's pairings: their name, page, rating and the points they had before
    the round."""

    name: str
    href: str  # '' for a player without a page
    rating: str  # '' unrated
    points: str  # in words: '1 point', '1.5 points'


class BoardRow(NamedTuple):
    """A board of a round: White, Black and the result ('' while it is not in)."""

    number: int
    white: Seat
    black: Seat
    result: str  # '1-0', '0-1', '½-½', '+-', '-+', '--'


class Unpaired(NamedTuple):
    """A player without a game in a round: the pairing-allocated bye, a bye asked for, absent."""

    seat: Seat
    kind: str  # in words: 'pairing-allocated bye', 'half-point bye', 'absent', ...


@dataclass(frozen=True, slots=True)
class RoundPage:
    """A round of a section of an event in progress: its pairings and results so far, who has
    no game, and the standings after it (provisional while a result of it is missing)."""

    path: str
    section: str
    title: str
    event: Link  # the page of the event in progress
    crumb: str  # this page in the breadcrumb: 'X, round 2'
    status: str  # the round in a sentence: which round of how many, how many results are in
    boards: tuple[BoardRow, ...]
    unpaired: tuple[Unpaired, ...]  # the pairing-allocated bye first, then by start number
    legend: tuple[tuple[str, str], ...]  # each forfeit notation the results use, explained
    heading: str  # 'Standings after round 2' ('(provisional)' while a result is missing)
    provisional: str  # what is missing, in a sentence ('' once every result is in)
    standings: EventSection  # as an event's placings: place, player, score, rating, tie-breaks
    previous: Link | None = None  # the round before it, of the same section
    next: Link | None = None  # and the one after it, once paired


@dataclass(frozen=True, slots=True)
class ListPage:
    """The events, prizes, rules, downloads, players and standings-after pages, and the page of
    an event in progress."""

    path: str
    section: str
    title: str
    intro: str
    blocks: tuple[Block, ...]


Page = HomePage | PlayerPage | EventPage | RoundPage | ListPage
