"""The kinds of term an event's points can add up (``points.terms``): ``TERM_KINDS``, one entry a
kind, holds everything done or said with it, once: the rule-set reference's description, its
value for one result (with the note ``explain`` prints), the figure of the player's own it reads
from the results file (a percentage, the games' points, a performance rating) and the problems
of a file it cannot value (said, located, before any work starts), what its points are for in
an award's sentence, its meaning on the rules page, what of an event still to play the race
cannot bound when a rule set uses it, and, for a kind that bounds the sum of the terms before it
(a cap), its bound. The rule-set schema (``event_points.Term``), ``season/points.Valuations``,
the race and the pages read it: a new kind of term is one entry (its words then reach the
catalogs by ``make messages``).

Each value is a pure function of the rule that defines it, reading the rules through the few
keys it needs (``TermLike``, ``place_points.PlaceRules``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from pydantic import Field

from grandprix.language import N_
from grandprix.model import Location, Problem, ResultKind, Section, Severity
from grandprix.rules.fields import PointValue, Strict
from grandprix.rules.place_points import (
    Citing,
    PlaceRules,
    from_bottom,
    place_points,
    split_points,
)
from grandprix.scores import show
from grandprix.tiebreaks import TIEBREAKS, Context, Rules
from grandprix.tiebreaks.codes import parse_code

K = ResultKind


class PerGame(Strict):
    """What each kind of round is worth to a ``games`` term (Dworp Open: 3 a win, 2 a draw, 1 a
    loss, 2 a bye). A game of less than one move counts as the result it gives."""

    win: PointValue = Field(default=Fraction(1), description="A game won.", examples=[3])
    draw: PointValue = Field(default=Fraction(1, 2), description="A game drawn.", examples=[2])
    loss: PointValue = Field(default=Fraction(0), description="A game lost.", examples=[1])
    forfeit_win: PointValue | None = Field(
        default=None, description="A game won by forfeit; none: as `win`."
    )
    forfeit_loss: PointValue = Field(
        default=Fraction(0), description="A game lost by forfeit (both players forfeiting too)."
    )
    bye: PointValue | None = Field(
        default=None,
        description="The bye the pairing gave (an odd number of players); none: as `win`.",
        examples=[2],
    )
    full_bye: PointValue | None = Field(
        default=None, description="A full-point bye asked for; none: as `win`."
    )
    half_bye: PointValue | None = Field(
        default=None, description="A half-point bye asked for; none: as `draw`."
    )
    zero_bye: PointValue = Field(default=Fraction(0), description="A zero-point bye asked for.")
    absent: PointValue = Field(
        default=Fraction(0), description="A round not played: not paired, or after withdrawing."
    )


class TermLike(Protocol):
    """The keys of a rule set's term (``event_points.Term``) that its value reads."""

    @property
    def kind(self) -> str: ...

    @property
    def factor(self) -> Fraction: ...

    @property
    def amount(self) -> Fraction: ...

    @property
    def below(self) -> Fraction | None: ...

    @property
    def per_game(self) -> PerGame: ...

    @property
    def weighted(self) -> bool: ...

    @property
    def words(self) -> str: ...


@dataclass(frozen=True)
class TermResult:
    """What a term can read of one result: its place span, the section's size, the player's
    score and own figure (``TermKind.own``), the place table and the rules."""

    term: TermLike
    span: tuple[int, int]
    size: int
    score: Fraction
    own: Fraction | None  # the player's figure the kind reads (``TermKind.own``), if any
    order: tuple[int, int] | None  # the player's tie-break place inside a tie (FC-4 split)
    table: Sequence[Fraction]
    points: PlaceRules
    rules: Citing


@dataclass(frozen=True)
class Worked:
    """A term's value for one result, the place table's values it shared (a place term) and
    the notes ``explain`` prints."""

    value: Fraction
    values: tuple[Fraction, ...] = ()
    notes: tuple[str, ...] = ()


def _times(factor: Fraction) -> str:
    return f" x {show(factor)}" if factor != 1 else ""


def _place(r: TermResult) -> Worked:
    """The points table of the place (UT-3), shared by a tie as ``ties`` says (UT-4, FC-4),
    places below it worth the term's ``below`` (POM-1), else as ``overflow`` says (UT-5)."""
    first, last = r.span
    table = r.table
    if r.term.below is not None and last > len(table):  # POM-1: every place below the table
        table = (*table, *[r.term.below] * (last - len(table)))
    if r.points.ties == "split" and r.order is not None:
        value, values, notes = split_points(r.order, r.span, table, r.points)
    else:
        value, values, notes = place_points(first, last, table, r.rules, r.points)
    return Worked(value, values, tuple(notes))


def _score(r: TermResult) -> Worked:
    """The player's game score in the event x ``factor`` (UT-2's score, Poznań's game points)."""
    factor = r.term.factor
    return Worked(r.score * factor, notes=(f"event score {show(r.score)} x {show(factor)}",))


def _from_bottom(r: TermResult) -> Worked:
    """The place counted from the bottom, N - place + 1 for N players (Poznań)."""
    counted, words = from_bottom(*r.span, r.size, r.points)
    factor = r.term.factor
    return Worked(counted * factor, notes=(f"places from the bottom: {words}{_times(factor)}",))


def _fixed(r: TermResult) -> Worked:
    """``amount``: for taking part (CAWA-2's 2 points; one added after the multipliers is said
    with the bonuses), or the bound a term of an ``at-most`` kind sets."""
    said = (f"{show(r.term.amount)} for {r.term.words}",) if r.term.kind == "fixed" else ()
    return Worked(r.term.amount, notes=said if r.term.weighted else ())


def _percent(r: TermResult) -> Worked:
    """The player's percentage score x ``factor`` (DWS-1)."""
    percent = r.own if r.own is not None else Fraction(0)
    factor = r.term.factor
    return Worked(percent * factor, notes=(f"percentage score {show(percent)}%{_times(factor)}",))


_PERCENT = re.compile(r"([0-9]{1,3})(?:[.,]([0-9]{1,6}))?")


def parse_percent(cell: str) -> Fraction | None:
    """A percentage as a results file prints it ('86.36%', '86,36', '100'), 0 to 100, or None."""
    found = _PERCENT.fullmatch(cell.strip().removesuffix("%").strip())
    if found is None:
        return None
    whole, part = found[1], found[2] or ""
    value = Fraction(int(whole + part), 10 ** len(part))
    return value if value <= 100 else None


def percent_of(term: TermLike, section: Section) -> list[Fraction | None]:
    """Each player's score as a percentage of the most they could have scored (D-DWS-1): the
    file's ``percent`` column as the organiser's program printed it, else 100 x the score over
    a win in every round (no more than 100: a bye worth more than a win counts as a win); None
    when neither is known."""
    c, most = section.columns, section.rounds * section.scoring.win  # a win each round
    out = []
    for extra, points in zip(c.extra, c.points, strict=True):
        found = parse_percent(dict(extra).get("percent", ""))
        if found is None and most:
            found = min(100 * points / most, Fraction(100))
        out.append(found)
    return out


def percent_problems(section: Section) -> list[Problem]:
    """An error for each player whose percentage cannot be known: a ``percent`` cell that is
    no number, or none where the file gives no rounds to work it out from."""
    c = section.columns
    out = []
    for i, extra in enumerate(c.extra):
        cell = dict(extra).get("percent", "").strip()
        where = Location(section.source, c.line[i])
        who = f"'{c.name[i][:60]}'"
        if cell and parse_percent(cell) is None:
            out.append(
                Problem(
                    where,
                    f"field 'percent' = '{cell[:20]}' of {who} is not a percentage: write a "
                    "number from 0 to 100 such as 86.36% (or 86,36)",
                )
            )
        elif not cell and not section.rounds:
            out.append(
                Problem(
                    where,
                    f"field 'percent' of {who} is empty and the file gives no rounds to work it "
                    "out from: write the percentage score the program printed, or a 'played' "
                    "column",
                )
            )
    return out


def games_of(term: TermLike, section: Section) -> list[Fraction | None]:
    """The points of each player's rounds, each as ``per_game`` values its kind (DWO-1: 3 a
    win, 2 a draw, 1 a loss, 2 a bye)."""
    each = term.per_game
    win = each.win
    values = {
        K.WIN: win,
        K.WIN_UNRATED: win,
        K.DRAW: each.draw,
        K.DRAW_UNRATED: each.draw,
        K.LOSS: each.loss,
        K.LOSS_UNRATED: each.loss,
        K.FORFEIT_WIN: win if each.forfeit_win is None else each.forfeit_win,
        K.FORFEIT_LOSS: each.forfeit_loss,
        K.DOUBLE_FORFEIT: each.forfeit_loss,
        K.PAIRING_BYE: win if each.bye is None else each.bye,
        K.FULL_BYE: win if each.full_bye is None else each.full_bye,
        K.HALF_BYE: each.draw if each.half_bye is None else each.half_bye,
        K.ZERO_BYE: each.zero_bye,
        K.ABSENT: each.absent,
        K.WITHDRAWN: each.absent,
    }
    return [sum((values[r.kind] for r in p.rounds), Fraction(0)) for p in section.players]


def games_problems(section: Section) -> list[Problem]:
    """A file without games (a standings list) cannot give a ``games`` term its rounds."""
    if section.has_crosstable:
        return []
    return [
        Problem(
            Location(section.source),
            "the event's points add up its games (a 'games' term) but this file lists final "
            "scores only: give its crosstable (TRF, a chess-results crosstable) or its list of "
            "games (white, black, result)",
        )
    ]


def _games(r: TermResult) -> Worked:
    """The player's rounds, each worth what ``per_game`` gives its kind (DWO-1)."""
    total = r.own if r.own is not None else Fraction(0)
    return Worked(total, notes=(f"games: {show(total)}",))


_RATING = re.compile(r"[0-9]{1,5}")


def parse_rating(cell: str) -> Fraction | None:
    """A rating as a results file prints it ('2075', '2,075' with a thousands mark), or None."""
    text = cell.strip().replace(",", "").replace(" ", "")
    return Fraction(int(text)) if _RATING.fullmatch(text) else None


def performance_of(term: TermLike, section: Section) -> list[Fraction | None]:
    """Each player's performance rating (KEN-2): the file's ``performance`` column (Rp, TPR) as
    the pairing program published it; without one, worked out from the crosstable as FIDE's
    tie-break rules define it (C.07 art. 10.2: the opponents' average rating, rounded half up,
    plus the rating difference of the percentage score, B.02 table 8.1.1, over the games
    played over the board; None for a player with no such game, or opponents unrated)."""
    cells = [dict(extra).get("performance", "") for extra in section.columns.extra]
    if any(cell.strip() for cell in cells) or not section.has_crosstable:
        return [parse_rating(cell) for cell in cells]
    return _tpr(section)


def _tpr(section: Section) -> list[Fraction | None]:
    """FIDE's tournament performance rating of each player of a crosstable (C.07 art. 10.2)."""
    book = TIEBREAKS[Rules.FIDE_2024]
    compute = book["TPR"].compute
    assert compute is not None
    return list(compute(Context(section, Rules.FIDE_2024), parse_code("TPR", book)))


def performance_problems(section: Section) -> list[Problem]:
    """A ``performance`` cell that is empty or no rating, a standings list without the column,
    and, from a crosstable, a player whose rating cannot be worked out (no game against a rated
    opponent: the result earns nothing) or a crosstable without ratings at all."""
    c = section.columns
    cells = [dict(extra).get("performance", "").strip() for extra in c.extra]
    if not any(cells) and not section.has_crosstable:
        return [
            Problem(
                Location(section.source),
                "the event's points are the players' performance ratings (a 'performance' "
                "term) but this file has no 'performance' column (Rp, TPR) and no crosstable to "
                "work them out from: add the column the pairing program printed",
            )
        ]
    if any(cells):
        return [
            Problem(
                Location(section.source, c.line[i]),
                f"field 'performance' = '{cell[:20]}' of '{c.name[i][:60]}' is not a rating: "
                "write a whole number such as 2075"
                if cell
                else f"field 'performance' of '{c.name[i][:60]}' is empty: write the player's "
                "performance rating as the pairing program printed it",
            )
            for i, cell in enumerate(cells)
            if parse_rating(cell) is None
        ]
    if not any(c.rating):
        return [
            Problem(
                Location(section.source),
                "the event's points are the players' performance ratings, but its crosstable "
                "gives no ratings to work them out from: add the players' ratings or a "
                "'performance' column (Rp)",
            )
        ]
    unrated = [i for i, rating in enumerate(c.rating) if rating is None]
    if unrated:  # C.07 art. 10.2 averages every opponent's rating: none may be missing
        i = unrated[0]
        return [
            Problem(
                Location(section.source, c.line[i]),
                f"'{c.name[i][:60]}' has no rating ({len(unrated)} player(s) of the crosstable "
                "have none), and a performance rating averages every opponent's: add their "
                "ratings or a 'performance' column (Rp)",
            )
        ]
    worked = _tpr(section)
    return [
        Problem(
            Location(section.source, c.line[i]),
            f"'{c.name[i][:60]}' has no performance rating (no game against a rated opponent, "
            "C.07 art. 10.2): this result earns nothing",
            Severity.WARNING,
        )
        for i, value in enumerate(worked)
        if value is None
    ]


def _performance(r: TermResult) -> Worked:
    """The player's performance rating x ``factor`` (KEN-2)."""
    rating = r.own if r.own is not None else Fraction(0)
    factor = r.term.factor
    return Worked(rating * factor, notes=(f"performance rating {show(rating)}{_times(factor)}",))


@dataclass(frozen=True)
class TermKind:
    """One kind of term: its value, and everything said of it."""

    doc: str  # the rule-set reference's words for the kind
    value: Callable[[TermResult], Worked]
    words: str  # what the points are for, in an award's sentence: '2.00 for the score'
    # On the rules page: '{factor}' the term's factor, '{points}' its amount, '{games}' what each
    # kind of round is worth to it.
    meaning: str
    meaning_times: str = ""  # the same with a factor other than 1 ('' when it has none)
    depends: str = ""  # what of an event left the race cannot bound ('': its place table)
    by_size: bool = False  # reads the size of the section
    # Each player's own figure the kind reads from the results file, row by row (a percentage,
    # the games' points); None for a kind that reads only the place and the score.
    own: Callable[[TermLike, Section], list[Fraction | None]] | None = None
    problems: Callable[[Section], list[Problem]] | None = None  # rows it cannot value
    # A kind whose value bounds the sum of the terms before it (the points of an event capped
    # at N: recorded, where it binds, as what it changes) rather than adding to it: the sum it
    # leaves, from that sum and the term's value; None for a kind that adds.
    bound: Callable[[Fraction, Fraction], Fraction] | None = None
    # The most a term of the kind gives in one event, for the race's bounds; None when the
    # rules alone cannot tell (``depends`` then says what it depends on) or for the place
    # (the table's, which the race reads) and a bound.
    most: Callable[[TermLike], Fraction] | None = None


def _most_amount(term: TermLike) -> Fraction:
    return term.amount


TERM_KINDS: dict[str, TermKind] = {
    "place": TermKind(
        "the points table of the player's place, with `ties` and the other place keys",
        _place,
        N_("the place"),
        N_("the points of the player's place (below)"),
    ),
    "score": TermKind(
        "the player's game score in the event x `factor`",
        _score,
        N_("the score"),
        N_("the player's score in the event"),
        N_("{factor} x the player's score in the event"),
        depends=N_("the scores its players make"),
    ),
    "from-bottom": TermKind(
        "the place counted from the bottom, N - place + 1 for N players of the section, x "
        "`factor` (tied players as `ties` says: the mean of their places', or the best "
        "place's for `full` and `best`)",
        _from_bottom,
        N_("the places below"),
        N_(
            "their place counted from the bottom of the field (the last player 1, the one "
            "above 2, and so on)"
        ),
        N_(
            "{factor} x their place counted from the bottom of the field (the last player 1, "
            "the one above 2, and so on)"
        ),
        depends=N_("the size of its field"),
        by_size=True,
    ),
    "fixed": TermKind(
        "`amount` for taking part",
        _fixed,
        N_("taking part"),
        N_("{points} for taking part"),
        most=_most_amount,
    ),
    "percent": TermKind(
        "the player's score as a percentage of the most they could have scored, x `factor`: "
        "the results file's `percent` column (`%`) where the program printed it, else 100 x "
        "the score / the section's rounds (DWS-1, D-DWS-1)",
        _percent,
        N_("the percentage score"),
        N_("the player's percentage score in the event"),
        N_("{factor} x the player's percentage score in the event"),
        depends=N_("the scores its players make"),
        own=percent_of,
        problems=percent_problems,
    ),
    "games": TermKind(
        "the player's rounds added up, each worth what `per_game` gives its kind: a win, a "
        "draw, a loss, a forfeit, a bye, a round not played (DWO-1: 3, 2, 1, and 2 a bye); "
        "the event's file must give its games (a crosstable or a list of games)",
        _games,
        N_("the games"),
        N_("the player's games in the event ({games})"),
        depends=N_("the games its players play"),
        own=games_of,
        problems=games_problems,
    ),
    "performance": TermKind(
        "the player's performance rating in the event x `factor`: the results file's "
        "`performance` column (Rp, TPR) as the pairing program published it, else worked out "
        "from the crosstable as FIDE's tie-break rules define it (C.07 art. 10.2) (KEN-2)",
        _performance,
        N_("the performance rating"),
        N_("the player's performance rating in the event"),
        N_("{factor} x the player's performance rating in the event"),
        depends=N_("the games its players play"),
        own=performance_of,
        problems=performance_problems,
    ),
    "at-most": TermKind(
        "the terms before it capped: their sum is at most `amount` (a player's points in an "
        "event capped at N); recorded, where it binds, as the points it takes away",
        _fixed,
        N_("the cap of {points}"),
        N_("A player's points in an event are at most {points}."),
        bound=min,
    ),
}
