"""The TRF records a pairing reads besides the players' rounds (FIDE TRF-2026, trf.md §3):
the number of rounds (142, ``XXR``), the initial colour (152, ``XXC white1|black1``), byes
announced for a round (240: half-point ``H``, full-point ``F``, zero-point ``Z``; ``XXZ`` for
an absence in the round to pair), accelerated rounds (250) and forbidden pairs (260,
``XXP``). Read with located problems, written back in the columns TRF-2026 gives them.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from grandprix.model import Location, Problem, ResultKind
from grandprix.readers.text import excerpt
from grandprix.scores import parse_score, show_points

K = ResultKind
BYE_KINDS: dict[str, ResultKind] = {"H": K.HALF_BYE, "F": K.FULL_BYE, "Z": K.ZERO_BYE}
BYE_CODES = {kind: code for code, kind in BYE_KINDS.items()}
# The records this module owns: a reading of a section drops them (they are written again).
CODES = frozenset({"142", "XXR", "152", "XXC", "240", "XXZ", "250", "260", "XXP"})
_ID = re.compile(r"\d{1,4}")


@dataclass(frozen=True)
class Acceleration:
    """Record 250: players ``first``..``last`` (start numbers) count ``points`` more for the
    pairing of rounds ``first_round``..``last_round`` (virtual points, never scored)."""

    points: Fraction
    first_round: int
    last_round: int
    first: int
    last: int

    def covers(self, start_no: int, number: int) -> bool:
        return self.first <= start_no <= self.last and self.first_round <= number <= self.last_round


@dataclass(frozen=True)
class Forbidden:
    """Record 260: none of ``players`` may meet another of them in rounds
    ``first_round``..``last_round`` (players of one family or club)."""

    first_round: int
    last_round: int
    players: tuple[int, ...]

    def forbids(self, a: int, b: int, number: int) -> bool:
        return (
            self.first_round <= number <= self.last_round
            and a in self.players
            and b in self.players
        )


@dataclass(frozen=True)
class Plan:
    """What the pairing of the coming rounds is told besides the results: the rounds, the
    initial colour ('w' or 'b'; '' not drawn yet), the byes announced (start number and round
    to the kind of bye), the accelerated rounds and the forbidden pairs."""

    rounds: int = 0
    initial_colour: str = ""
    byes: dict[tuple[int, int], ResultKind] = field(default_factory=dict)
    accelerations: tuple[Acceleration, ...] = ()
    forbidden: tuple[Forbidden, ...] = ()

    def byes_in(self, number: int) -> dict[int, ResultKind]:
        """Start number -> announced bye, for round ``number``."""
        return {no: kind for (no, rnd), kind in self.byes.items() if rnd == number}

    def withdrawn_from(self, start_no: int) -> int | None:
        """The round from which a player is absent to the end (a zero-point bye announced for
        every round from it to the last), or None."""
        first = None
        for number in range(self.rounds, 0, -1):
            if self.byes.get((start_no, number)) is not K.ZERO_BYE:
                break
            first = number
        return first


def read_plan(
    lines: Sequence[str], path: str, players: Iterable[int] | None = None
) -> tuple[Plan, list[str], list[Problem]]:
    """The plan in a TRF's lines, the lines that are not part of it, and the problems of its
    records (each located, with what to write instead). With ``players`` (the file's start
    numbers), a record naming a start number not among them is a problem too."""
    problems: list[Problem] = []
    rest: list[str] = []
    rounds = 0
    colour = ""
    byes: dict[tuple[int, int], ResultKind] = {}
    accelerations: list[Acceleration] = []
    forbidden: list[Forbidden] = []
    for number, line in enumerate(lines, start=1):
        code = line[:3]
        where = Location(path, number)
        if code not in CODES:
            rest.append(line)
            continue
        text = line[4:].rstrip()
        if code in ("142", "XXR"):
            rounds = _whole(text, where.at(5), "number of rounds", problems) or rounds
        elif code == "152":
            colour = _colour(text, where, problems) or colour
        elif code == "XXC":
            colour = _xxc_colour(text, where, problems) or colour
        elif code == "240":
            _read_byes(line, where, byes, problems)
        elif code == "XXZ":
            continue  # the round to pair's absences: ``absences``
        elif code == "250":
            found = _read_acceleration(line, where, problems)
            if found is not None:
                accelerations.append(found)
        else:  # 260, XXP
            found_pair = _read_forbidden(code, line, where, problems)
            if found_pair is not None:
                forbidden.append(found_pair)
        if players is not None:
            problems += _strangers(code, line, where, set(players))
    plan = Plan(rounds, colour, byes, tuple(accelerations), tuple(forbidden))
    return plan, rest, problems


def _named(code: str, line: str) -> list[int]:
    """The start numbers a plan record names (players of a bye, an absence, an accelerated
    group's first and last, a forbidden group)."""
    if code in ("XXZ", "XXP"):
        words = line[4:].split()
    elif code == "240":
        words = [line[c : c + 4] for c in range(10, len(line.rstrip()), 5)]
    elif code == "250":
        words = [line[22:26], line[27:31]]
    elif code == "260":
        words = [line[c : c + 4] for c in range(12, len(line.rstrip()), 5)]
    else:
        return []
    return [int(w) for w in words if w.strip().isdecimal() and int(w)]


def _strangers(code: str, line: str, where: Location, players: set[int]) -> list[Problem]:
    """A problem for each start number a plan record names that no player of the file has."""
    top = max(players, default=0)
    return [
        Problem(
            where,
            f"record {code} names player {n}, but the file has no player {n} (start numbers "
            f"1 to {top}, the 001 records): correct the number or remove it from the record",
        )
        for n in dict.fromkeys(_named(code, line))
        if n not in players
    ]


def _xxc_colour(text: str, where: Location, problems: list[Problem]) -> str | None:
    """XXC (JaVaFo): 'white1' or 'black1', the colour of the first player in round 1;
    'rank' asks to number players by rating, which the file's order already is."""
    colour = None
    for word in text.lower().split():
        if word in ("white1", "black1"):
            colour = word[0]
        elif word != "rank":
            problems.append(
                Problem(
                    where.at(5),
                    f"XXC {excerpt(word)} is not white1 or black1 (the initial colour: write "
                    "'XXC white1' or '152 W')",
                )
            )
    return colour


def absences(lines: Sequence[str]) -> list[int]:
    """The start numbers an ``XXZ`` record lists (absent from the round to pair)."""
    return [
        int(w) for line in lines if line[:3] == "XXZ" for w in line[4:].split() if w.isdecimal()
    ]


def _whole(text: str, where: Location, what: str, problems: list[Problem]) -> int | None:
    if text.strip().isdecimal() and 0 < int(text) <= 199:
        return int(text)
    problems.append(Problem(where, f"{what} {excerpt(text)} is not a whole number from 1 to 199"))
    return None


def _colour(text: str, where: Location, problems: list[Problem]) -> str | None:
    value = text.strip().upper()[:1]
    if value in ("W", "B"):
        return value.lower()
    problems.append(
        Problem(where.at(5), f"initial colour {excerpt(text)} is not W or B (write '152 W')")
    )
    return None


def _read_byes(
    line: str, where: Location, byes: dict[tuple[int, int], ResultKind], problems: list[Problem]
) -> None:
    """240: the kind at column 5, the round at 7-9, start numbers at 11-14, 16-19, ..."""
    kind = BYE_KINDS.get(line[4:5].upper())
    if kind is None:
        problems.append(
            Problem(
                where.at(5),
                f"bye kind {line[4:5]!r} in record 240 is not H, F or Z (write e.g. "
                "'240 H   3    7   12': a half-point bye in round 3 for players 7 and 12)",
            )
        )
        return
    number = line[6:9].strip()
    if not number.isdecimal() or not 0 < int(number) <= 199:
        problems.append(
            Problem(where.at(7), f"round {excerpt(number)} in columns 7-9 of 240 is not 1-199")
        )
        return
    for column in range(10, len(line.rstrip()), 5):
        text = line[column : column + 4].strip()
        if not text:
            continue
        if not _ID.fullmatch(text) or int(text) == 0:
            problems.append(
                Problem(
                    where.at(column + 1),
                    f"start number {excerpt(text)} in columns {column + 1}-{column + 4} of 240 "
                    "is not a number 1-9999 (each in 4 columns, one blank between)",
                )
            )
            continue
        byes[(int(text), int(number))] = kind


def _read_acceleration(line: str, where: Location, problems: list[Problem]) -> Acceleration | None:
    """250: points at 10-13 (game points; 5-8 match points for teams), rounds at 15-17 and
    19-21, players at 23-26 and 28-31."""
    points = parse_score(line[9:13]) if line[9:13].strip() else parse_score(line[4:8])
    cells = [line[14:17], line[18:21], line[22:26], line[27:31]]
    numbers = [int(c) if c.strip().isdecimal() else 0 for c in cells]
    if points is None or numbers[0] == 0 or numbers[2] == 0:
        problems.append(
            Problem(
                where,
                f"record 250 {excerpt(line)} is not 'points, first round, last round, first "
                "player, last player' in columns 10-13, 15-17, 19-21, 23-26, 28-31 (write e.g. "
                "'250      1.0   1   2    1   16')",
            )
        )
        return None
    first_round, last_round, first, last = numbers
    return Acceleration(points, first_round, last_round or first_round, first, last or first)


def _read_forbidden(
    code: str, line: str, where: Location, problems: list[Problem]
) -> Forbidden | None:
    """260: rounds at 5-7 and 9-11, players at 13-16, 18-21, ...; ``XXP`` (JaVaFo): players
    only, kept apart in every round."""
    if code == "XXP":
        players = tuple(int(w) for w in line[4:].split() if w.isdecimal())
        return Forbidden(1, 199, players) if len(players) > 1 else None
    first, last = line[4:7].strip(), line[8:11].strip()
    players = tuple(
        int(line[c : c + 4])
        for c in range(12, len(line.rstrip()), 5)
        if line[c : c + 4].strip().isdecimal()
    )
    if not first.isdecimal() or len(players) < 2:
        problems.append(
            Problem(
                where,
                f"record 260 {excerpt(line)} is not 'first round, last round, players' in "
                "columns 5-7, 9-11, then 4 columns a player (write e.g. '260   1   7    3    9')",
            )
        )
        return None
    # A blank (or 0) last round is the first round only, as FIDE's reference program reads it.
    return Forbidden(
        int(first), int(last) if last.isdecimal() and int(last) else int(first), players
    )


def plan_records(plan: Plan) -> list[str]:
    """The plan as TRF-2026 records (and ``XXR`` beside 142, for engines of TRF-16)."""
    lines = []
    if plan.rounds:
        lines += [f"142 {plan.rounds}", f"XXR {plan.rounds}"]
    if plan.initial_colour:
        lines.append(f"152 {plan.initial_colour.upper()}")
    grouped: dict[tuple[int, str], list[int]] = defaultdict(list)
    for (start_no, number), kind in plan.byes.items():
        grouped[(number, BYE_CODES[kind])].append(start_no)
    for (number, code), players in sorted(grouped.items()):
        lines.append(f"240 {code} {number:>3} " + " ".join(f"{n:>4}" for n in sorted(players)))
    for a in plan.accelerations:
        # Match points (columns 5-8) are a team event's; an individual's are game points.
        points = f"{show_points(a.points):>4}"
        lines.append(
            f"250      {points} {a.first_round:>3} {a.last_round:>3} {a.first:>4} {a.last:>4}"
        )
    for f in plan.forbidden:
        last = min(f.last_round, 199)
        lines.append(f"260 {f.first_round:>3} {last:>3} " + " ".join(f"{n:>4}" for n in f.players))
    return lines


def renumbered(plan: Plan, new: dict[int, int]) -> Plan:
    """The plan with every start number ``n`` written as ``new[n]`` (a late entry inserted)."""
    return Plan(
        plan.rounds,
        plan.initial_colour,
        {(new[no], rnd): kind for (no, rnd), kind in plan.byes.items()},
        tuple(
            Acceleration(a.points, a.first_round, a.last_round, new[a.first], new[a.last])
            for a in plan.accelerations
        ),
        tuple(
            Forbidden(f.first_round, f.last_round, tuple(new[n] for n in f.players))
            for f in plan.forbidden
        ),
    )


def listed(numbers: Iterable[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))
