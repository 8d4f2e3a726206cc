"""An event's page in the season's site: each section's placings with the players' title,
federation and rating, their tie-breaks (each code named and explained) and every division's
points, or why a player has none; and, for a section read with its rounds, its crosstable (a
part of ``views.SiteViews``)."""

from __future__ import annotations

import datetime
import functools
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from grandprix.language import ENGLISH, N_, _, decimal, ngettext, pgettext, short_date, spoken
from grandprix.model import Columns, ResultKind, Round, Section
from grandprix.players import PlayerKey
from grandprix.scores import show, span_text
from grandprix.season.identity import Entrant
from grandprix.season.ineligible import not_eligible
from grandprix.season.model import Award, Season, SeasonEvent, Tables, section_awards
from grandprix.season.places import placed_rows
from grandprix.season.points import earning_sections, table_for
from grandprix.site.pages import (
    CrossRow,
    Crosstable,
    EventPage,
    EventRow,
    EventSection,
    PointsCell,
    TieBreakTerm,
)
from grandprix.site.parts import Link
from grandprix.site.words.common import place_span, tiebreak_meaning, tiebreak_name
from grandprix.site.words.event import event_has_more, event_points_facts, short_of_rounds
from grandprix.site.words.points import terms_in_words
from grandprix.tiebreaks import Rules

# An event page's points column of the season without divisions (shown through ``_``).
DIVISION_HEADS = {"": N_("Points")}


class EventView:
    """The event pages of ``SiteViews``, which gives these values."""

    season: Season
    tables: Tables
    decimals: int
    events: dict[int, SeasonEvent]  # played, by calendar index
    event_files: dict[int, str]
    player_files: dict[PlayerKey, str]
    dated: set[datetime.date]  # the event dates with a "standings after" page
    _reasons: dict[PlayerKey, str]  # why a player earns no points, once each
    _points: dict[int, str]  # an award's points shown, by id() of its Valuation
    _scores: dict[tuple[int, int], str]  # a score shown, by its two integers

    @cached_property
    def _awards(self) -> dict[tuple[int, str], dict[str, dict[PlayerKey, Award]]]:
        """Every award of every table, by (event, section), then table (in the tables' order),
        then player."""
        found: dict[tuple[int, str], dict[str, dict[PlayerKey, Award]]] = defaultdict(dict)
        for name, lines in self.tables:
            for origin, awards in section_awards(lines):
                found[origin.event, origin.section].setdefault(name, {}).update(awards)
        return dict(found)

    @cached_property
    def _members(self) -> dict[str, set[PlayerKey]]:
        return {name: {ln.player for ln in lines} for name, lines in self.tables}

    def event(self, index: int) -> EventPage:
        """The page of the event played at ``index`` in the calendar; KeyError if not played."""
        event = self.events[index]
        rules = self.season.rules
        rates = {id(s): w for s, w in earning_sections(event, rules)}
        sections = []
        points_rules = rules.points.for_category(event.category)
        book = Rules(event.tiebreak_rules or points_rules.tiebreak_rules)
        book_name = _(book.title)
        for s in event.sections:
            results = s.section
            codes, placed = placed_rows(results, event, rules)
            columns = results.columns
            entrants = self.season.directory.entrants(results)
            earned = {
                name: awards
                for name, awards in self._awards.get((index, s.name), {}).items()
                if any(e.key in awards for e in entrants)
            }
            rows = []
            tables, names, files = list(earned.items()), columns.name, self.player_files
            cell, shown = self._points_cell, self._score
            number: Callable[[Fraction | None], str] = (
                show if spoken() == ENGLISH else _shown_number
            )
            took_part = results.rounds_played(points_rules.played)
            details = _details(columns, self.season.ratings is not None)
            for first, last, i, score, values in placed:  # (50 rows an event, 10,000 events)
                entrant = entrants[i]
                key, span = entrant.key, (first, last)
                page = files.get(key)
                played = (took_part[i], results.rounds)
                cells = tuple(
                    [
                        cell(name, awards.get(key), span, entrant, results, i, played)
                        for name, awards in tables
                    ]
                )
                values_shown = tuple(map(number, values))
                if details:
                    values_shown = tuple(d[i] for _, d in details) + values_shown
                rows.append(
                    EventRow(
                        span_text(first, last),
                        names[i],
                        f"../players/{page}" if page else "",
                        shown(score),
                        values_shown,
                        cells,
                    )
                )
            facts = _section_facts(results.rounds, dict(results.headers))
            if not event.counts:  # DWS-3
                facts += (
                    _(
                        "This event is outside the competition: its results earn no points and "
                        "it counts as no event played."
                    ),
                )
            elif not earned:
                facts += (_("This section earns no Grand Prix points."),)
            elif id(s) in rates and rates[id(s)] != 1:
                facts += (
                    _("Its points count {factor} times.").format(
                        factor=_shown_number(rates[id(s)])
                    ),
                )
            heads = tuple(
                _(DIVISION_HEADS[name]) if name in DIVISION_HEADS else name for name in earned
            )
            crosstable = None
            if results.has_crosstable and any(p.rounds for p in results.players):
                crosstable = crosstable_of(results, [i for _, _, i, _, _ in placed], rows)
            sections.append(
                EventSection(
                    s.name,
                    tuple(label for label, _ in details),
                    tuple(_term(code, book, spoken()) for code in codes),
                    heads,
                    tuple(rows),
                    facts,
                    crosstable,
                    book_name if codes else "",
                )
            )
        path = f"events/{self.event_files[index]}"
        after = None
        if event.date in self.dated:
            together = sum(1 for e in self.events.values() if e.date == event.date) > 1
            words = (
                _("The standings after the events of {date}").format(date=short_date(event.date))
                if together
                else _("The standings after this event")
            )
            after = Link(words, self._after_file(index))
        order = sorted(self.events)  # the events played, in the calendar's order
        at = order.index(index)
        around = [
            self._link_to(order[at - 1]) if at else None,
            self._link_to(order[at + 1]) if at + 1 < len(order) else None,
        ]
        return EventPage(
            path,
            "events",
            event.name,
            short_date(event.date),
            self._event_facts(event),
            tuple(sections),
            after,
            *around,
        )

    def _link_to(self, index: int) -> Link:
        """A link from an event's page to the page of the event at ``index``."""
        event = self.events[index]
        return Link(event.name, self.event_files[index], short_date(event.date))

    def _points_cell(
        self,
        division: str,
        award: Award | None,
        span: tuple[int, int],
        entrant: Entrant,
        results: Section,
        row: int,
        played: tuple[int, int],
    ) -> PointsCell:
        """A player's points in one division (``span``: their places in the section, ``row``
        their row in its columns, ``played`` the rounds they took part in of the section's),
        or why none."""
        if award is not None:
            if (award.first, award.last) == span:
                return PointsCell(division, self._points_text(award), "")
            note = _("{place} in {division}").format(
                place=place_span(award.place), division=division or _("Grand Prix")
            )
            return PointsCell(division, self._points_text(award), note)
        if entrant.eligible:
            label = division or _("Grand Prix")
            short = short_of_rounds(*played, self.season)
            if short:
                return PointsCell(division, "", short)
            if entrant.key not in self._members[division]:
                return PointsCell(
                    division, "", _("not in {division}").format(division=label), member=False
                )
            return PointsCell(
                division, "", _("no {division} points from this section").format(division=label)
            )
        reason = self._reasons.get(entrant.key)
        if reason is None:
            require = self.season.rules.eligibility.require
            attributes = self.season.directory.key(results.columns.record(row))[2]
            reason = not_eligible(lambda n: attributes.get(n, ""), require)
            self._reasons[entrant.key] = reason
        return PointsCell(division, "", reason)

    def _score(self, score: Fraction) -> str:
        """A score shown, remembered by its numerator and denominator."""
        key = (score.numerator, score.denominator)
        shown = self._scores.get(key)
        if shown is None:
            shown = self._scores[key] = decimal(show(score))
        return shown

    def _event_facts(self, event: SeasonEvent) -> tuple[str, ...]:
        rules = self.season.rules
        facts = []
        headers = dict(event.sections[0].section.headers) if event.sections else {}
        place = event.place or headers.get("022", "").strip()  # season.toml, else TRF 022
        if place:
            facts.append(_("Played in {place}.").format(place=place))
        if event.weight != 1:
            facts.append(
                _("Points count {factor} times the normal rate.").format(
                    factor=_shown_number(event.weight)
                )
            )
        points = rules.points.for_category(event.category)
        if points.terms:
            facts.append(terms_in_words(points))
        if points.from_score:
            facts.append(
                _("Points are the score times {factor}.").format(
                    factor=_shown_number(points.score_factor)
                )
            )
        elif points.by_place and not event_has_more(points):
            table, name = table_for(event, points)
            values = ", ".join(_shown_number(v) for v in table)
            if name:
                said = _("Points for 1st, 2nd, ... places (a class {name} tournament): {values}.")
            else:
                said = _("Points for 1st, 2nd, ... places: {values}.")
            facts.append(said.format(name=name, values=values))
        facts.extend(event_points_facts(event, points, rules))
        return tuple(facts)

    def _after_file(self, index: int) -> str:
        return f"after-{index + 1:03d}.html"

    def _points_text(self, award: Award) -> str:
        """The award's points shown, made once for each valuation (awards share them; hashing
        the Fraction to look it up costs more than this)."""
        shown = self._points.get(id(award.valuation))
        if shown is None:
            shown = self._points[id(award.valuation)] = decimal(show(award.points, self.decimals))
        return shown


def _shown_number(value: Fraction | int | None) -> str:
    """A number of an event's page as the language writes it ('1.5', '1,5')."""
    return decimal(show(value))


def _section_facts(rounds: int, headers: dict[str, str]) -> tuple[str, ...]:
    """Rounds and time control, when the results file gives them (its rounds; TRF 122)."""
    facts = []
    if rounds:
        facts.append(ngettext("{n} round.", "{n} rounds.", rounds).format(n=rounds))
    control = headers.get("122", "").strip()
    if control:
        facts.append(_("Time control: {control}.").format(control=control))
    return tuple(facts)


@functools.lru_cache(maxsize=256)
def _term(code: str, book: Rules, language: str) -> TieBreakTerm:
    """A tie-break code of a rule book with its name and meaning in ``language``, the one spoken
    now (events share a few codes)."""
    return TieBreakTerm(code, tiebreak_name(code, book), tiebreak_meaning(code, book))


def _details(columns: Columns, listed: bool = False) -> list[tuple[str, tuple[str, ...]]]:
    """The player's columns of a section's placings that some player has a value in: title,
    federation and rating, each with its values by row of the columns (none for a standings
    list that gives none, as most do: counted without a loop in Python). ``listed``: the season
    rates its players from its own rating lists, so the file's rating is the 'Event rating'."""
    found = []
    if any(columns.title):
        found.append(("Title", columns.title))
    if any(columns.federation):
        found.append(("Fed", columns.federation))
    ratings = columns.rating
    if ratings.count(None) != len(ratings):
        label = "Event rating" if listed else "Rating"
        found.append((label, tuple("" if r is None else str(r) for r in ratings)))
    return found


# The mark of a round's result in a crosstable's cell: the outcome of a game or a forfeit, as
# crosstables print it; a bye is named, with the points it scored.
_OUTCOME_MARK = {"win": "1", "draw": "½", "loss": "0"}
_FORFEIT_MARK = {
    ResultKind.FORFEIT_WIN: "+",
    ResultKind.FORFEIT_LOSS: "-",
    ResultKind.DOUBLE_FORFEIT: "--",
}
_BYES = {ResultKind.FULL_BYE, ResultKind.HALF_BYE, ResultKind.ZERO_BYE}
NOT_PAIRED = "–"
# What each notation means, in the order the legend under a crosstable lists those used: an
# example ({white}, {black}, {pab} and {bye} the language's marks, ``_Marks``) and its meaning.
LEGEND = {
    "game": (
        "12{white}1",
        N_("against No. 12 with White: won (1), drawn (½) or lost (0); {black}: with Black"),
    ),
    "forfeit": (
        "12{black}+",
        N_("won (+) or lost (-) by forfeit against No. 12, the game not played"),
    ),
    "double": ("12{white}--", N_("both players forfeited: a loss for each")),
    "pab": (
        "{pab} 1",
        N_("a pairing-allocated bye (no opponent was left), with the points it scored"),
    ),
    "bye": ("{bye} ½", N_("a bye the player asked for, with the points it scored")),
    "none": (NOT_PAIRED, N_("not paired (absent, or after withdrawing)")),
}


@dataclass(frozen=True)
class _Marks:
    """The letters and words of a crosstable's cells in the language spoken now: the colours
    ('w', 'b'), the pairing-allocated bye ('PAB') and the bye asked for ('bye')."""

    white: str
    black: str
    pab: str
    bye: str

    @classmethod
    def now(cls) -> _Marks:
        """The marks of the language spoken now."""
        return cls(
            pgettext("crosstable: playing White", "w"),
            pgettext("crosstable: playing Black", "b"),
            pgettext("crosstable: a pairing-allocated bye", "PAB"),
            pgettext("crosstable: a bye the player asked for", "bye"),
        )

    def colour(self, colour: str | None) -> str:
        """A round's colour ('w', 'b' or None) as a cell shows it."""
        if colour == "w":
            return self.white
        return self.black if colour == "b" else colour or ""

    def legend(self, key: str) -> tuple[str, str]:
        """The example and the meaning of a notation of ``LEGEND``."""
        example, meaning = LEGEND[key]
        marks = {"white": self.white, "black": self.black, "pab": self.pab, "bye": self.bye}
        return example.format(**marks), _(meaning).format(**marks)


def crosstable_of(results: Section, order: Sequence[int], rows: Sequence[EventRow]) -> Crosstable:
    """The crosstable of a section read with its rounds: its players (by their row ``order`` of
    the section's columns, which is the order of the placings ``rows``), each round a cell that
    names the opponent by their number in this table (the final order, as chess-results'
    'Rk.'), with the colour and the result."""
    players, columns = results.players, results.columns
    number = {columns.start_no[i]: n for n, i in enumerate(order, 1)}
    last = max((r.number for p in players for r in p.rounds), default=0)
    count = max(results.rounds, last)
    used: set[str] = set()
    marks = _Marks.now()
    out = []
    for n, (i, row) in enumerate(zip(order, rows, strict=True), 1):
        player = players[i]
        cells = [NOT_PAIRED] * count
        for r in player.rounds:
            if 1 <= r.number <= count:
                cells[r.number - 1] = _cell(r, number, used, marks)
        if len(player.rounds) < count:
            used.add("none")
        rating = "" if player.rating is None else str(player.rating)
        out.append(
            CrossRow(
                n,
                row.name,
                row.href,
                player.title,
                player.federation,
                rating,
                row.score,
                tuple(cells),
            )
        )
    return Crosstable(
        count,
        tuple(out),
        tuple(marks.legend(k) for k in LEGEND if k in used),
        titles=any(columns.title),
        federations=any(columns.federation),
        ratings=columns.rating.count(None) != len(columns.rating),
    )


def _cell(r: Round, number: dict[int, int], used: set[str], marks: _Marks) -> str:
    """One round of a player in a crosstable's cell ('12w1', '5b½', '14b+', 'bye ½', 'PAB 1',
    '–', with the ``marks`` of the language); the kind of notation it uses is added to
    ``used``."""
    kind = r.kind
    if kind.has_opponent:
        opponent = "" if r.opponent is None else str(number.get(r.opponent, ""))
        mark = _FORFEIT_MARK.get(kind)
        if mark is None:
            used.add("game")
            mark = _OUTCOME_MARK[kind.outcome]
        else:
            used.add("double" if kind is ResultKind.DOUBLE_FORFEIT else "forfeit")
        # Without a colour a space keeps the number apart from the result ('12 1', not '121').
        colour = marks.colour(r.colour) or (" " if opponent and mark[0] in "01½" else "")
        return f"{opponent}{colour}{mark}"
    if kind is ResultKind.PAIRING_BYE:
        used.add("pab")
        return f"{marks.pab} {_points(r.points)}"
    if kind in _BYES:
        used.add("bye")
        return f"{marks.bye} {_points(r.points)}"
    used.add("none")
    return NOT_PAIRED


def _points(value: Fraction) -> str:
    """Points as a crosstable shows them: '1', '½', '1½', '0'."""
    whole, rest = divmod(value, 1)
    if rest == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    return decimal(show(value))
