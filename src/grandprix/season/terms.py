"""The value of each kind of term of an event's points (``points.terms``): ``TERM_VALUES``,
entry for entry with ``rules/terms.TERM_KINDS`` (which says each kind in words): its value for
one result, with the note ``explain`` prints; the player's own figure it reads from the results
file (a percentage, the games' points), by row; the problems of a results file it cannot value,
said, located, before any work starts. ``season/points.Valuations`` adds the terms up.

Each value is a pure function of the rule that defines it."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from grandprix.model import Location, Problem, ResultKind, Section, Severity
from grandprix.rules.event_points import PointsBase, Term
from grandprix.rules.schema import RuleSet
from grandprix.scores import show
from grandprix.season.place_values import from_bottom, place_points, split_points
from grandprix.tiebreaks import TIEBREAKS, Context, Rules
from grandprix.tiebreaks.codes import parse_code

K = ResultKind


@dataclass(frozen=True)
class TermResult:
    """What a term can read of one result: its place span, the section's size, the player's
    score and own figure (``PointTerm.own``), the place table and the rules."""

    term: Term
    span: tuple[int, int]
    size: int
    score: Fraction
    own: Fraction | None  # the player's figure the kind reads (``PointTerm.own``), if any
    order: tuple[int, int] | None  # the player's tie-break place inside a tie (FC-4 split)
    table: Sequence[Fraction]
    points: PointsBase
    rules: RuleSet


@dataclass(frozen=True)
class Worked:
    """A term's value for one result, the place table's values it shared (a place term) and
    the notes ``explain`` prints."""

    value: Fraction
    values: tuple[Fraction, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TermValue:
    """How one kind of term is worked out."""

    value: Callable[[TermResult], Worked]
    # Each player's own figure the kind reads from the results file, row by row; None for a
    # kind that reads only the place and the score.
    own: Callable[[Term, Section], list[Fraction | None]] | None = None
    problems: Callable[[Section], list[Problem]] | None = None  # rows it cannot value
    # A term that bounds the sum of the terms before it: the sum it leaves, from that sum and
    # the term's value (``rules/terms.TermKind.bound``); None for a term that adds.
    bound: Callable[[Fraction, Fraction], Fraction] | None = None


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


def percent_of(term: Term, section: Section) -> list[Fraction | None]:
    """Each player's score as a percentage of the most they could have scored (D-DWS-1): the
    file's ``percent`` column as the organiser's program printed it, else 100 x the score over
    the section's rounds (a win a point); None when neither is known."""
    c, rounds = section.columns, section.rounds
    out = []
    for extra, points in zip(c.extra, c.points, strict=True):
        found = parse_percent(dict(extra).get("percent", ""))
        out.append(found if found is not None else 100 * points / rounds if rounds else None)
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


def games_of(term: Term, section: Section) -> list[Fraction | None]:
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


def performance_of(term: Term, section: Section) -> list[Fraction | None]:
    """Each player's performance rating (KEN-2): the file's ``performance`` column (Rp, TPR) as
    the pairing program published it; without one, worked out from the crosstable as FIDE's
    tie-break rules define it (C.07 art. 10.2: the opponents' average rating, rounded half up,
    plus the rating difference of the percentage score, B.02 table 8.1.1, over the games
    played over the board; None for a player with no such game, or opponents unrated)."""
    cells = [dict(extra).get("performance", "") for extra in section.columns.extra]
    if any(cell.strip() for cell in cells) or not section.has_crosstable:
        return [parse_rating(cell) for cell in cells]
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
    worked = performance_of(Term(kind="performance"), section)
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


TERM_VALUES: dict[str, TermValue] = {
    "place": TermValue(_place),
    "score": TermValue(_score),
    "from-bottom": TermValue(_from_bottom),
    "fixed": TermValue(_fixed),
    "percent": TermValue(_percent, percent_of, percent_problems),
    "games": TermValue(_games, games_of, games_problems),
    "performance": TermValue(_performance, performance_of, performance_problems),
    "at-most": TermValue(_fixed, bound=min),
}
