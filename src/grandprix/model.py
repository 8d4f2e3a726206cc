"""Domain records: sections, players, rounds and where each came from.

Everything here is a frozen dataclass. Scores are exact ``Fraction`` values, never floats.
"""

from __future__ import annotations

import enum
import functools
import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING, dataclass, field, fields
from fractions import Fraction
from itertools import islice
from typing import Any, NamedTuple, TypeVar, cast


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
    def forfeit(self) -> bool:
        """A game won or lost by forfeit (both players forfeiting too)."""
        return self in _FORFEITS

    @property
    def opposite(self) -> ResultKind | None:
        """The opponent's round of this result (a win's is a loss, a forfeit win's a forfeit
        loss); None for a round without an opponent."""
        return _OPPOSITE.get(self)

    @property
    def has_opponent(self) -> bool:
        """A scheduled opponent exists (games and forfeits)."""
        return self in _PLAYED or self in _FORFEITS

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
_OPPOSITE = {
    ResultKind.WIN: ResultKind.LOSS,
    ResultKind.LOSS: ResultKind.WIN,
    ResultKind.DRAW: ResultKind.DRAW,
    ResultKind.WIN_UNRATED: ResultKind.LOSS_UNRATED,
    ResultKind.LOSS_UNRATED: ResultKind.WIN_UNRATED,
    ResultKind.DRAW_UNRATED: ResultKind.DRAW_UNRATED,
    ResultKind.FORFEIT_WIN: ResultKind.FORFEIT_LOSS,
    ResultKind.FORFEIT_LOSS: ResultKind.FORFEIT_WIN,
}
# The kinds of round a rule set may count as played (``points.played``), each with the results
# it covers; the default (a game, a forfeit win, a pairing-allocated bye) is ``_TOOK_PART``.
ROUND_KINDS: dict[str, frozenset[ResultKind]] = {
    "game": _PLAYED,
    "forfeit-win": frozenset({ResultKind.FORFEIT_WIN}),
    "forfeit-loss": frozenset({ResultKind.FORFEIT_LOSS, ResultKind.DOUBLE_FORFEIT}),
    "pairing-bye": frozenset({ResultKind.PAIRING_BYE}),
    "full-bye": frozenset({ResultKind.FULL_BYE}),
    "half-bye": frozenset({ResultKind.HALF_BYE}),
    "zero-bye": frozenset({ResultKind.ZERO_BYE}),
    "unpaired": frozenset({ResultKind.ABSENT}),
}
TOOK_PART = ("game", "forfeit-win", "pairing-bye")  # the kinds of ``_TOOK_PART``
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


_DEFAULTS: dict[type, dict[str, object]] = {}  # each record type's fields with their defaults
_Record = TypeVar("_Record")


def made(cls: type[_Record], **values: object) -> _Record:
    """A frozen dataclass record built in one step instead of a checked assignment per field:
    its defaults, then ``values`` (which must give every field without a default).

    Frozen dataclasses set each field through ``object.__setattr__``; a standings file of half a
    million rows spends seconds there. The record is the same and stays frozen afterwards.
    """
    defaults = _DEFAULTS.get(cls)
    if defaults is None:
        every = fields(cast(Any, cls))
        defaults = _DEFAULTS[cls] = {f.name: f.default for f in every if f.default is not MISSING}
    record = object.__new__(cls)
    record.__dict__.update(defaults)
    record.__dict__.update(values)
    return record


def quick_player(**values: object) -> Player:
    """A ``Player`` made in one step (``made``)."""
    return made(Player, **values)


def total_points(values: Iterable[Fraction]) -> Fraction:
    """Exact sum of round points, summed as integers over a common denominator (fast)."""
    units, scale = common_units(values)
    return Fraction(sum(units), scale)


def common_units(values: Iterable[Fraction]) -> tuple[list[int], int]:
    """Each value as a whole number of 1/scale, and the scale (the least common denominator):
    exact keys to sort, compare and add without Fraction arithmetic, which is slow."""
    pairs = list(map(Fraction.as_integer_ratio, values))
    scale = math.lcm(*{d for _, d in pairs})
    return [n * (scale // d) for n, d in pairs], scale


_Value = TypeVar("_Value")


def ordered(values: Sequence[_Value], relation: Callable[[_Value, _Value], bool]) -> bool:
    """Whether each value stands in ``relation`` to the next (``operator.ge``: never rising),
    checked by a C loop: the usual list is already in order and needs no sort."""
    return all(map(relation, values, islice(values, 1, None)))


class Columns(NamedTuple):
    """A section's players as columns, each a tuple in the players' order: what the season's
    computations read of every player, without a record per player (half a million
    results in a large season). ``points`` and ``played`` are ``Player.points`` and
    ``Player.rounds_played``; ``line`` the player's line in the file (0 when unknown)."""

    start_no: tuple[int, ...]
    name: tuple[str, ...]
    rating: tuple[int | None, ...]
    title: tuple[str, ...]
    sex: tuple[str, ...]
    federation: tuple[str, ...]
    fide_id: tuple[str, ...]
    birth_date: tuple[str, ...]
    extra: tuple[tuple[tuple[str, str], ...], ...]
    points: tuple[Fraction, ...]
    rank: tuple[str, ...]
    played: tuple[int, ...]
    line: tuple[int, ...]

    def record(self, i: int, **more: object) -> Player:
        """The ``Player`` of row ``i`` as far as the columns tell (no rounds, location or
        ``played`` cell unless ``more`` gives them): enough to say who the player is."""
        return quick_player(
            start_no=self.start_no[i],
            name=self.name[i],
            rating=self.rating[i],
            title=self.title[i],
            sex=self.sex[i],
            federation=self.federation[i],
            fide_id=self.fide_id[i],
            birth_date=self.birth_date[i],
            extra=self.extra[i],
            declared_points=self.points[i],
            declared_rank=self.rank[i],
            **more,
        )


def columns_of(players: Iterable[Player]) -> Columns:
    """The columns of player records."""
    rows = [
        (
            p.start_no,
            p.name,
            p.rating,
            p.title,
            p.sex,
            p.federation,
            p.fide_id,
            p.birth_date,
            p.extra,
            p.points,
            p.declared_rank,
            p.rounds_played,
            p.location.line if p.location is not None else 0,
        )
        for p in players
    ]
    return Columns(*zip(*rows, strict=True)) if rows else Columns(*((),) * len(Columns._fields))


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

    @functools.cached_property
    def columns(self) -> Columns:
        """The players as columns (made once; a standings list is read as columns)."""
        return columns_of(self.players)

    @property
    def size(self) -> int:
        """The number of players, without making their records."""
        return len(self.columns.start_no)

    def rounds_played(self, kinds: Sequence[str] = TOOK_PART) -> tuple[int, ...]:
        """Each player's rounds of the ``kinds`` (``ROUND_KINDS``) a rule set counts as played;
        a standings list, which has no rounds, gives its ``played`` column whatever the kinds."""
        if tuple(kinds) == TOOK_PART or not self.has_crosstable:
            return self.columns.played
        counted = frozenset().union(*(ROUND_KINDS[kind] for kind in kinds))
        return tuple(sum(1 for r in p.rounds if r.kind in counted) for p in self.players)


class ListedSection(Section):
    """A standings list kept as columns: its ``Player`` records are made the first time
    something asks for ``players`` (a report, a page of the event's players), not by the
    season's computations, which read ``columns``. Equal to the ``Section`` of the same
    players."""

    @classmethod
    def of(
        cls,
        name: str,
        columns: Columns,
        declared: tuple[int | None, ...],
        source: str,
        rounds: int | None = None,
    ) -> ListedSection:
        """The section of a standings list read as ``columns``; ``declared`` is each player's
        ``played`` cell (None where the file has no such column). ``rounds`` is the most played
        unless given (0 for an event without rounds, where players play as many games as they
        can)."""
        if rounds is None:
            rounds = max(filter(None, declared), default=0)
        # Made in one step (a large season reads 10,000 lists); ``players`` is the property's.
        return made(
            cls,
            name=name,
            rounds=rounds,
            has_crosstable=False,
            source=source,
            columns=columns,
            _players=None,
            _declared=declared,
        )

    @property
    def players(self) -> tuple[Player, ...]:
        found: tuple[Player, ...] | None = self.__dict__["_players"]
        if found is None:
            found = self.__dict__["_players"] = _listed_players(
                self.columns, self.__dict__["_declared"], self.source
            )
        return found

    @players.setter
    def players(self, value: tuple[Player, ...]) -> None:  # the dataclass's __init__, replace()
        self.__dict__["_players"] = value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Section):
            return NotImplemented
        if isinstance(other, ListedSection) and _same_lists(self, other):
            return True  # the same columns make the same players: none made to be compared
        return _fields(self) == _fields(other)

    def __hash__(self) -> int:
        return hash(_fields(self))


def _same_lists(one: ListedSection, other: ListedSection) -> bool:
    """Whether two standings lists have every compared field but ``players`` equal and the same
    columns and ``played`` cells, of which their players are made (a season read again compares
    its 500 lists with those it had: this, not half a million records made to be compared)."""
    d, e = one.__dict__, other.__dict__
    if "_declared" not in d or "_declared" not in e:
        return False  # made from its records (replace(), __init__): compared as they are
    return (
        d["_declared"] == e["_declared"]
        and one.columns == other.columns
        and all(
            getattr(one, f.name) == getattr(other, f.name)
            for f in fields(Section)
            if f.compare and f.name != "players"
        )
    )


def _fields(section: Section) -> tuple[object, ...]:
    """The compared fields of a section (every field but its source)."""
    return tuple(getattr(section, f.name) for f in fields(Section) if f.compare)


def _listed_players(
    columns: Columns, declared: tuple[int | None, ...], source: str
) -> tuple[Player, ...]:
    """The records of a standings list's rows, with their ``played`` cells and lines."""
    return tuple(
        columns.record(i, declared_played=played, location=Location(source, line))
        for i, (played, line) in enumerate(zip(declared, columns.line, strict=True))
    )
