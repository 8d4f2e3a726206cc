"""The pages of an event in progress (``in_progress`` in season.toml; a part of
``views.SiteViews``): the event's page, each section with its rounds, and a page for each round
paired of each section, finished or being played: its pairings and results so far, who has no
game and why, and the standings after it under the event's tie-breaks, provisional while a
result of it is missing. Nothing of the event counts in the season's standings yet; its pages
show the day as it stands in each section's TRF (``SeasonEvent.under_way``)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from operator import methodcaller

from grandprix.errors import UsageError
from grandprix.language import N_, _, decimal, ngettext, short_date
from grandprix.model import Player, ResultKind, Section
from grandprix.pairing.state import Board, Pairing, Tournament, round_pairing
from grandprix.placings import Placings, place
from grandprix.players import PlayerKey
from grandprix.rules.schema import RuleSet
from grandprix.scores import show, span_text
from grandprix.season.model import Season, SeasonEvent
from grandprix.season.places import event_placings
from grandprix.site.pages import (
    BoardRow,
    EventRow,
    EventSection,
    ListPage,
    RoundPage,
    Seat,
    TieBreakTerm,
    Unpaired,
    slug,
)
from grandprix.site.parts import Block, Link
from grandprix.site.words.common import tiebreak_meaning, tiebreak_name
from grandprix.tiebreaks import Rules

K = ResultKind
# A player's round without a game, in words (shown through ``_``).
KINDS = {
    K.PAIRING_BYE: N_("pairing-allocated bye"),
    K.HALF_BYE: N_("half-point bye"),
    K.FULL_BYE: N_("full-point bye"),
    K.ZERO_BYE: N_("zero-point bye"),
    K.ABSENT: N_("absent"),
    K.WITHDRAWN: N_("withdrawn"),
}
# The result of a finished round's board whose game the TRF gives as unrated (W, D, L) or in a
# code the day's results are not entered in: White's outcome.
OUTCOMES = {"win": "1-0", "draw": "½-½", "loss": "0-1"}
# The forfeit notations of a round's results, each with what it means (shown through ``_``).
FORFEITS = {
    "+-": N_("White won by forfeit: the game was not played"),
    "-+": N_("Black won by forfeit: the game was not played"),
    "--": N_("both players forfeited: a loss for each"),
}


@dataclass(frozen=True)
class _Round:
    """A round paired of a section: its pairing, and whether it is the current round and
    finished."""

    number: int
    pairing: Pairing
    current: bool
    finished: bool


class RoundView:
    """The pages of the events in progress of ``SiteViews``, which gives these values."""

    season: Season
    player_files: dict[PlayerKey, str]

    @cached_property
    def live(self) -> dict[int, SeasonEvent]:
        """The events in progress with a section read, by calendar index."""
        return {e.index: e for e in self.season.events if e.under_way}

    @cached_property
    def live_files(self) -> dict[int, str]:
        """The page of each event in progress, in ``events/``, named as a played event's page
        is (so that it stays the event's address once its results count)."""
        return {i: f"{i + 1:03d}-{slug(e.name)}.html" for i, e in self.live.items()}

    @cached_property
    def _section_files(self) -> dict[int, tuple[str, ...]]:
        """The part of each section's round pages' names after the event's: '' for an event of
        one section, else the section's name, made unique by a number."""
        found = {}
        for index, event in self.live.items():
            names: list[str] = []
            for name, _tournament in event.under_way:
                base = slug(name) if len(event.under_way) > 1 else ""
                shown, n = base, 1
                while shown in names:
                    n += 1
                    shown = f"{base}-{n}"
                names.append(shown)
            found[index] = tuple(names)
        return found

    def _round_file(self, index: int, part: int, number: int) -> str:
        """The page of round ``number`` of section ``part`` of the event at ``index``."""
        stem = self.live_files[index].removesuffix(".html")
        section = self._section_files[index][part]
        return f"{stem}-{section}-round-{number}.html" if section else f"{stem}-round-{number}.html"

    def live_pages(self) -> Iterator[tuple[str, methodcaller]]:
        """The path and the maker of every page of the events in progress: each event's page,
        then its sections' rounds (a maker is given the views: it holds none)."""
        for index, event in self.live.items():
            yield f"events/{self.live_files[index]}", methodcaller("live_event", index)
            for part, (_name, tournament) in enumerate(event.under_way):
                for r in _rounds(tournament):
                    path = f"events/{self._round_file(index, part, r.number)}"
                    yield path, methodcaller("round_page", index, part, r.number)

    def live_state(self, index: int) -> str:
        """Where the event at ``index`` stands, in words: 'round 2 of 4 under way', 'after
        round 3 of 4', 'no round paired yet' (its furthest section's)."""
        event = self.live[index]
        planned = max(t.plan.rounds for _name, t in event.under_way)
        latest = max((r for _n, t in event.under_way for r in _rounds(t)), default=None, key=_key)
        if latest is None:
            return _("no round paired yet")
        if latest.current and not latest.finished:
            return _("round {n} of {rounds} under way").format(n=latest.number, rounds=planned)
        return _("after round {n} of {rounds}").format(n=latest.number, rounds=planned)

    def live_event(self, index: int) -> ListPage:
        """The page of the event in progress at ``index``: each section with its rounds, each
        round paired linking to its page."""
        event = self.live[index]
        blocks = []
        single = len(event.under_way) == 1
        for part, (name, tournament) in enumerate(event.under_way):
            rounds = {r.number: r for r in _rounds(tournament)}
            entries = []
            for number in range(1, max(tournament.plan.rounds, max(rounds, default=0)) + 1):
                text = _("Round {n}").format(n=number)
                r = rounds.get(number)
                if r is None:
                    entries.append(Link(text, "", _("not paired yet")))
                    continue
                href = self._round_file(index, part, number)
                entries.append(Link(text, href, _round_note(r)))
            players = len(tournament.section.players)
            facts = (
                ngettext("{n} player", "{n} players", players).format(n=players)
                + ", "
                + ngettext("{n} round.", "{n} rounds.", tournament.plan.rounds).format(
                    n=tournament.plan.rounds
                ),
            )
            heading = "" if single and name == event.name else name
            blocks.append(Block(heading, slug(name) if heading else "", facts, tuple(entries)))
        intro = _(
            "Being played ({date}): {state}. Its results count in the season's standings once "
            "the event is over."
        ).format(date=short_date(event.date), state=self.live_state(index))
        path = f"events/{self.live_files[index]}"
        return ListPage(path, "events", event.name, intro, tuple(blocks))

    def round_page(self, index: int, part: int, number: int) -> RoundPage:
        """Round ``number`` of section ``part`` of the event in progress at ``index``; KeyError
        if that round is not paired."""
        event = self.live[index]
        name, tournament = event.under_way[part]
        rounds = {r.number: r for r in _rounds(tournament)}
        r = rounds[number]
        section = tournament.with_results()
        seats = self._seats(section, number)
        boards = tuple(
            BoardRow(b.number, seats[b.white], seats[b.black], b.result or _finished(b, r, section))
            for b in r.pairing.boards
        )
        unpaired = tuple(
            Unpaired(seats[start_no], _(KINDS.get(kind, N_("absent"))))
            for start_no, kind in (
                *(((r.pairing.bye, K.PAIRING_BYE),) if r.pairing.bye is not None else ()),
                *r.pairing.unpaired,
            )
        )
        used = {b.result for b in boards}
        legend = tuple((mark, _(meaning)) for mark, meaning in FORFEITS.items() if mark in used)
        missing = sum(1 for b in boards if not b.result)
        if missing:
            heading = _("Standings after round {n} (provisional)").format(n=number)
            provisional = ngettext(
                "Provisional: {missing} result of round {n} is not in yet; its players have no "
                "points for the round until it is.",
                "Provisional: {missing} results of round {n} are not in yet; their players have "
                "no points for the round until they are.",
                missing,
            ).format(missing=missing, n=number)
        else:
            heading, provisional = _("Standings after round {n}").format(n=number), ""
        standings = self._after_round(event, name, tournament.after(number))
        single = len(event.under_way) == 1 and name == event.name
        if single:
            title = _("{event}: round {n}").format(event=event.name, n=number)
            crumb = _("Round {n}").format(n=number)
        else:
            title = _("{event}, {section}: round {n}").format(
                event=event.name, section=name, n=number
            )
            crumb = _("{section}, round {n}").format(section=name, n=number)
        planned = max(tournament.plan.rounds, number)
        if r.current and not r.finished:
            entered = len(boards) - missing
            status = ngettext(
                "Round {n} of {rounds}, being played: {entered} of its {boards} result is in.",
                "Round {n} of {rounds}, being played: {entered} of its {boards} results are in.",
                len(boards),
            ).format(n=number, rounds=planned, entered=entered, boards=len(boards))
        else:
            status = _("Round {n} of {rounds}: finished, every result is in.").format(
                n=number, rounds=planned
            )
        around = [
            Link(_("Round {n}").format(n=n), self._round_file(index, part, n))
            if n in rounds
            else None
            for n in (number - 1, number + 1)
        ]
        return RoundPage(
            f"events/{self._round_file(index, part, number)}",
            "events",
            title,
            Link(event.name, self.live_files[index]),
            crumb,
            status,
            boards,
            unpaired,
            legend,
            heading,
            provisional,
            standings,
            *around,
        )

    def _seats(self, section: Section, number: int) -> dict[int, Seat]:
        """Every player of the section as a round's pairings show them: name, page, rating
        and the points scored before round ``number``."""
        seats = {}
        for player in section.players:
            before = sum((r.points for r in player.rounds if r.number < number), Fraction(0))
            seats[player.start_no] = Seat(
                player.name,
                self._href(player),
                "" if player.rating is None else str(player.rating),
                ngettext("{points} point", "{points} points", 1 if before == 1 else 2).format(
                    points=decimal(show(before))
                ),
            )
        return seats

    def _href(self, player: Player) -> str:
        """The page of a player who has one (a player of the season's standings)."""
        page = self.player_files.get(self.season.directory.entrant(player).key)
        return f"../players/{page}" if page else ""

    def _after_round(self, event: SeasonEvent, name: str, after: Section) -> EventSection:
        """The section's standings after a round, as an event's placings show them: place,
        player, score, rating and the event's tie-breaks (its own, else its category's in the
        season's rules), each explained under the table."""
        rules = self.season.rules
        placings = _placed(after, event, rules)
        points = rules.points.for_category(event.category)
        book = Rules(event.tiebreak_rules or points.tiebreak_rules)
        rows = tuple(
            EventRow(
                span_text(p.first, p.last),
                p.player.name,
                self._href(p.player),
                decimal(show(p.points)),
                ("" if p.player.rating is None else str(p.player.rating), *map(_number, p.values)),
                (),
            )
            for p in placings.rows
        )
        codes = tuple(spec.code for spec in placings.specs)
        return EventSection(
            name,
            ("Rating",),
            tuple(
                TieBreakTerm(c, tiebreak_name(c, book), tiebreak_meaning(c, book)) for c in codes
            ),
            (),
            rows,
            (),
            book=_(book.title) if codes else "",
        )


def _number(value: Fraction | None) -> str:
    """A tie-break's value as the language writes it ('1.5', '1,5')."""
    return decimal(show(value))


def _placed(after: Section, event: SeasonEvent, rules: RuleSet) -> Placings:
    """The section's placings after a round under the event's tie-breaks; by score alone when
    they cannot be read (season.toml's check names the codes)."""
    try:
        return event_placings(after, event, rules)
    except UsageError:
        return place(after)


def _rounds(tournament: Tournament) -> list[_Round]:
    """The rounds paired of a section: its finished rounds, then the current round."""
    found = [
        _Round(n, round_pairing(tournament.section, tournament.plan, n), False, True)
        for n in range(1, tournament.finished_rounds + 1)
    ]
    current = tournament.current
    if current is not None:
        found.append(_Round(current.number, current, True, current.finished))
    return found


def _key(r: _Round) -> tuple[int, bool]:
    """The furthest round of an event's sections: the highest number, one being played
    before one finished."""
    return (r.number, not r.finished)


def _round_note(r: _Round) -> str:
    """A round in the list of an event in progress: finished, or how many results are in."""
    if r.finished:
        return _("finished")
    boards = len(r.pairing.boards)
    entered = sum(1 for b in r.pairing.boards if b.result)
    return ngettext(
        "being played: {entered} of {boards} result in",
        "being played: {entered} of {boards} results in",
        boards,
    ).format(entered=entered, boards=boards)


def _finished(board: Board, r: _Round, section: Section) -> str:
    """The result of a finished round's board that the pairing gives none for (an unrated
    game: W, D, L), from White's round; '' while the round is being played."""
    if r.current:
        return ""
    white = section.player(board.white)
    played = next((x for x in white.rounds if x.number == r.number), None)
    if played is None:
        return ""
    return OUTCOMES.get(played.kind.outcome, "") if played.kind in _OUTCOME_KINDS else ""


_OUTCOME_KINDS = frozenset({K.WIN, K.DRAW, K.LOSS, K.WIN_UNRATED, K.DRAW_UNRATED, K.LOSS_UNRATED})
