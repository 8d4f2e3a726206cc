"""Domain records: sections, players, rounds and where each came from.

Everything here is a frozen dataclass. Scores are exact ``Fraction`` values, never floats.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import NamedTuple


class Location(NamedTuple):
    """Where a record came from: file, 1-based line and 1-based column (0 = whole line)."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        text = self.path
        if self.line:
            text += f":{self.line}"
            if self.column:
                text += f":{self.column}"
        return text

    def at(self, column: int) -> Location:
        """The same line, another column."""
        return Location(self.path, self.line, column)


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input, located so that a person can find and fix it."""

    location: Location
    message: str
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        prefix = "" if self.severity is Severity.ERROR else "warning: "
        return f"{self.location}: {prefix}{self.message}"


class ResultKind(enum.Enum):
    """One kind for each meaning a TRF round block can carry (FIDE C.04 Annex 2)."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    WIN_UNRATED = "W"  # game lasted less than one move
    DRAW_UNRATED = "D"
    LOSS_UNRATED = "L"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    DOUBLE_FORFEIT = "--"  # both players forfeited: each has '-' against the other
    PAIRING_BYE = "U"  # pairing-allocated bye
    FULL_BYE = "F"
    HALF_BYE = "H"
    ZERO_BYE = "Z"
    ABSENT = " "  # not paired, no result code
    WITHDRAWN = "X"  # every round after the player left the event

    @property
    def played(self) -> bool:
        """A game between two players took place (including games of less than one move)."""
        return self in _PLAYED

    @property
    def rated(self) -> bool:
        """A game that counts for rating (played, at least one move)."""
        return self in (ResultKind.WIN, ResultKind.DRAW, ResultKind.LOSS)

    @property
    def has_opponent(self) -> bool:
        """A scheduled opponent exists (games and forfeits)."""
        return self in _PLAYED or self in _FORFEITS

    @property
    def is_forfeit(self) -> bool:
        return self in _FORFEITS

    @property
    def voluntary_unplayed(self) -> bool:
        """FIDE C.07 art. 16.1: requested byes, forfeit losses and rounds after a withdrawal."""
        return self in _VUR

    @property
    def outcome(self) -> str:
        """'win', 'draw' or 'loss': the result this round scores as."""
        return _OUTCOME[self]


_PLAYED = frozenset(
    {
        ResultKind.WIN,
        ResultKind.DRAW,
        ResultKind.LOSS,
        ResultKind.WIN_UNRATED,
        ResultKind.DRAW_UNRATED,
        ResultKind.LOSS_UNRATED,
    }
)
_FORFEITS = frozenset({ResultKind.FORFEIT_WIN, ResultKind.FORFEIT_LOSS, ResultKind.DOUBLE_FORFEIT})
_TOOK_PART = _PLAYED | {ResultKind.FORFEIT_WIN, ResultKind.PAIRING_BYE}
_VUR = frozenset(
    {
        ResultKind.FORFEIT_LOSS,
        ResultKind.DOUBLE_FORFEIT,
        ResultKind.HALF_BYE,
        ResultKind.ZERO_BYE,
        ResultKind.ABSENT,
        ResultKind.WITHDRAWN,
    }
)
_OUTCOME = {
    ResultKind.WIN: "win",
    ResultKind.DRAW: "draw",
    ResultKind.LOSS: "loss",
    ResultKind.WIN_UNRATED: "win",
    ResultKind.DRAW_UNRATED: "draw",
    ResultKind.LOSS_UNRATED: "loss",
    ResultKind.FORFEIT_WIN: "win",
    ResultKind.FORFEIT_LOSS: "loss",
    ResultKind.DOUBLE_FORFEIT: "loss",
    ResultKind.PAIRING_BYE: "win",
    ResultKind.FULL_BYE: "win",
    ResultKind.HALF_BYE: "draw",
    ResultKind.ZERO_BYE: "loss",
    ResultKind.ABSENT: "loss",
    ResultKind.WITHDRAWN: "loss",
}


@dataclass(frozen=True)
class Scoring:
    """Points for each kind of result; the default is 1 / ½ / 0 with a PAB worth a win."""

    win: Fraction = Fraction(1)
    draw: Fraction = Fraction(1, 2)
    loss: Fraction = Fraction(0)
    forfeit_win: Fraction = Fraction(1)
    forfeit_loss: Fraction = Fraction(0)
    pairing_bye: Fraction = Fraction(1)
    full_bye: Fraction = Fraction(1)
    half_bye: Fraction = Fraction(1, 2)
    zero_bye: Fraction = Fraction(0)

    def points(self, kind: ResultKind) -> Fraction:
        """The points a round of this kind is worth."""
        return getattr(self, _SCORING_FIELD[kind])  # type: ignore[no-any-return]

    @property
    def is_default(self) -> bool:
        return self == Scoring()


_SCORING_FIELD = {
    ResultKind.WIN: "win",
    ResultKind.WIN_UNRATED: "win",
    ResultKind.DRAW: "draw",
    ResultKind.DRAW_UNRATED: "draw",
    ResultKind.LOSS: "loss",
    ResultKind.LOSS_UNRATED: "loss",
    ResultKind.FORFEIT_WIN: "forfeit_win",
    ResultKind.FORFEIT_LOSS: "forfeit_loss",
    ResultKind.DOUBLE_FORFEIT: "forfeit_loss",
    ResultKind.PAIRING_BYE: "pairing_bye",
    ResultKind.FULL_BYE: "full_bye",
    ResultKind.HALF_BYE: "half_bye",
    ResultKind.ZERO_BYE: "zero_bye",
    ResultKind.ABSENT: "zero_bye",
    ResultKind.WITHDRAWN: "zero_bye",
}


@dataclass(frozen=True)
class Round:
    """One player's round: what happened, against whom, with which colour, worth how much."""

    number: int
    kind: ResultKind
    points: Fraction
    opponent: int | None = None  # the opponent's start number
    colour: str | None = None  # 'w', 'b' or None
    inferred: bool = field(default=False, compare=False)  # deduced from the declared total
    location: Location | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Player:
    """A participant of one section, as the results file lists them."""

    start_no: int
    name: str
    rounds: tuple[Round, ...] = ()
    rating: int | None = None
    title: str = ""
    sex: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    declared_points: Fraction | None = None
    declared_rank: str = ""  # as the file gives it: '3', '2-3', ''
    declared_played: int | None = None  # rounds taken part in, as a standings list gives it
    extra: tuple[tuple[str, str], ...] = ()  # further columns of a standings file
    location: Location | None = field(default=None, compare=False)

    @property
    def points(self) -> Fraction:
        """The player's score: the sum of the rounds, or the declared total for standings files."""
        if self.rounds:
            return total_points(r.points for r in self.rounds)
        return self.declared_points if self.declared_points is not None else Fraction(0)

    @property
    def rounds_played(self) -> int:
        """Rounds the player took part in: a game (of any length), a forfeit win or a
        pairing-allocated bye, none of which the player chose to miss; a standings list's
        ``played`` column otherwise."""
        if self.rounds:
            return sum(1 for r in self.rounds if r.kind in _TOOK_PART)
        return self.declared_played or 0

    @property
    def id(self) -> str:
        """The best identifier the file gives: the FIDE (or national) id, else ''."""
        return self.fide_id


_PLAYER_DEFAULTS: dict[str, object] = {}


def quick_player(**values: object) -> Player:
    """A ``Player`` built in one step instead of a checked assignment per field.

    Frozen dataclasses set each field through ``object.__setattr__``; a standings file of half a
    million rows spends seconds there. The record is the same and stays frozen afterwards.
    """
    if not _PLAYER_DEFAULTS:
        _PLAYER_DEFAULTS.update({f.name: f.default for f in fields(Player)})
    player = object.__new__(Player)
    player.__dict__.update(_PLAYER_DEFAULTS)
    player.__dict__.update(values)
    return player


def total_points(values: Iterable[Fraction]) -> Fraction:
    """Exact sum of round points, summed as integers over a common denominator (fast)."""
    pairs = [(v.numerator, v.denominator) for v in values]
    scale = math.lcm(*(d for _, d in pairs))
    return Fraction(sum(n * (scale // d) for n, d in pairs), scale)


@dataclass(frozen=True)
class Section:
    """One crosstable or standings list: a group of players who played each other."""

    name: str
    players: tuple[Player, ...]
    rounds: int = 0
    scoring: Scoring = Scoring()
    round_robin: bool = False
    has_crosstable: bool = True
    date: str = ""
    headers: tuple[tuple[str, str], ...] = ()  # raw header records, in file order
    extra_records: tuple[str, ...] = ()  # unknown records kept for round-trip
    source: str = field(default="", compare=False)

    def player(self, start_no: int) -> Player:
        for p in self.players:
            if p.start_no == start_no:
                return p
        raise KeyError(start_no)
