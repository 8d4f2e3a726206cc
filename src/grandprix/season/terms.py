"""The value of each kind of term of an event's points (``points.terms``): ``TERM_VALUES``,
entry for entry with ``rules/terms.TERM_KINDS`` (which says each kind in words): its value for
one result, with the note ``explain`` prints; the player's own figure it reads from the results
file (a percentage, the games' points), by row; the problems of a results file it cannot value,
said, located, before any work starts. ``season/points.Valuations`` adds the terms up.

Each value is a pure function of the rule that defines it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from grandprix.model import Location, Problem, ResultKind, Section
from grandprix.rules.event_points import PointsBase, Term
from grandprix.rules.schema import RuleSet
from grandprix.scores import show
from grandprix.season.place_values import from_bottom, place_points, split_points

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
    # The player's own figure the kind reads from the results file, by row; None for a kind
    # that reads only the place and the score.
    own: Callable[[Term, Section, int], Fraction | None] | None = None
    problems: Callable[[Section], list[Problem]] | None = None  # rows it cannot value


def _times(factor: Fraction) -> str:
    return f" x {show(factor)}" if factor != 1 else ""


def _place(r: TermResult) -> Worked:
    """The points table of the place (UT-3), shared by a tie as ``ties`` says (UT-4, FC-4),
    places below it as ``overflow`` says (UT-5)."""
    first, last = r.span
    if r.points.ties == "split" and r.order is not None:
        value, values, notes = split_points(r.order, r.span, r.table, r.points)
    else:
        value, values, notes = place_points(first, last, r.table, r.rules, r.points)
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
    """``amount`` for taking part (CAWA-2's 2 points); one added after the multipliers is said
    with the bonuses."""
    said = (f"{show(r.term.amount)} for {r.term.words}",) if r.term.weighted else ()
    return Worked(r.term.amount, notes=said)


def _percent(r: TermResult) -> Worked:
    """The player's percentage score x ``factor`` (DWS-1)."""
    percent = r.own if r.own is not None else Fraction(0)
    factor = r.term.factor
    return Worked(percent * factor, notes=(f"percentage score {show(percent)}%{_times(factor)}",))


def parse_percent(cell: str) -> Fraction | None:
    """A percentage as a results file prints it ('86.36%', '86,36', '100'), or None."""
    text = cell.strip().removesuffix("%").strip().replace(",", ".")
    try:
        return Fraction(text) if text else None
    except (ValueError, ZeroDivisionError):
        return None


def percent_of(term: Term, section: Section, i: int) -> Fraction | None:
    """Player ``i``'s score as a percentage of the most they could have scored (D-DWS-1): the
    file's ``percent`` column as the organiser's program printed it, else 100 x the score over
    the section's rounds (a win a point); None when neither is known."""
    c = section.columns
    found = parse_percent(dict(c.extra[i]).get("percent", ""))
    if found is not None:
        return found
    return 100 * c.points[i] / section.rounds if section.rounds else None


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
                    "number such as 86.36% (or 86,36)",
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


def games_of(term: Term, section: Section, i: int) -> Fraction:
    """The points of player ``i``'s rounds, each as ``per_game`` values its kind (DWO-1: 3 a
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
    return sum((values[r.kind] for r in section.players[i].rounds), Fraction(0))


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


TERM_VALUES: dict[str, TermValue] = {
    "place": TermValue(_place),
    "score": TermValue(_score),
    "from-bottom": TermValue(_from_bottom),
    "fixed": TermValue(_fixed),
    "percent": TermValue(_percent, percent_of, percent_problems),
    "games": TermValue(_games, games_of, games_problems),
}
