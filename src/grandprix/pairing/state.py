"""A Swiss tournament as it stands on the day: its players and finished rounds (a ``Section``),
its plan (``records.Plan``) and the round paired whose results are still coming in
(``Pairing``), read from and written to one TRF.

In the TRF, a round paired and not finished is the last round block of each player: a game
without a result has its opponent and colour and no result code (as the pairing programs'
in-tournament files write it, trf.md §2.1), a bye its code. Reading it back gives the same
boards in the same order (``board_order``, FIDE C.04.2 D.9: the higher score of the pair first,
then the sum of the scores, then the better pairing number).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

from grandprix.errors import InputError, UsageError
from grandprix.model import (
    Location,
    Player,
    Problem,
    ResultKind,
    Round,
    Scoring,
    Section,
    Severity,
    total_points,
)
from grandprix.pairing.records import Plan, absences, plan_records, read_plan
from grandprix.readers import trf
from grandprix.readers.bounds import file_bytes
from grandprix.readers.text import decode
from grandprix.readers.trf import read_trf
from grandprix.writers.trf import write_trf

K = ResultKind
# A board's result as it is entered, each with the kind of round it gives White and Black.
RESULTS: dict[str, tuple[ResultKind, ResultKind]] = {
    "1-0": (K.WIN, K.LOSS),
    "0-1": (K.LOSS, K.WIN),
    "½-½": (K.DRAW, K.DRAW),
    "+-": (K.FORFEIT_WIN, K.FORFEIT_LOSS),
    "-+": (K.FORFEIT_LOSS, K.FORFEIT_WIN),
    "--": (K.DOUBLE_FORFEIT, K.DOUBLE_FORFEIT),
}
# Other spellings of the same results.
SPELLINGS = {
    "1/2-1/2": "½-½",
    "=-=": "½-½",
    "0.5-0.5": "½-½",
    "1/2": "½-½",
    "=": "½-½",
    "1f-0f": "+-",
    "+/-": "+-",
    "0f-1f": "-+",
    "-/+": "-+",
    "0f-0f": "--",
    "-/-": "--",
}
_CODE = {K.WIN: "1", K.LOSS: "0", K.DRAW: "=", K.FORFEIT_WIN: "+", K.FORFEIT_LOSS: "-"}
_CODE[K.DOUBLE_FORFEIT] = "-"


def normal_result(text: str) -> str | None:
    """A result as typed ('1-0', '½-½', '1/2-1/2', '+-', '--', ...) in its one spelling, or
    None when it is not one."""
    key = text.strip().lower().replace(" ", "").replace("–", "-")
    key = SPELLINGS.get(key, key)
    return key if key in RESULTS else None


@dataclass(frozen=True)
class Board:
    """A board of a round: White's and Black's start numbers and the result ('' not in yet)."""

    number: int
    white: int
    black: int
    result: str = ""


@dataclass(frozen=True)
class Pairing:
    """One round's pairings: its boards, the player given the pairing-allocated bye, and the
    players not paired (each with the kind of round they get: a bye announced, or absent)."""

    number: int
    boards: tuple[Board, ...]
    bye: int | None = None
    unpaired: tuple[tuple[int, ResultKind], ...] = ()

    @property
    def finished(self) -> bool:
        return all(b.result for b in self.boards)

    def board_of(self, start_no: int) -> Board | None:
        return next((b for b in self.boards if start_no in (b.white, b.black)), None)

    def rounds(self, scoring: Scoring) -> dict[int, Round]:
        """Each player's round of this pairing as far as its results are in, scored by the
        tournament's ``scoring``."""
        out: dict[int, Round] = {}
        for b in self.boards:
            if not b.result:
                continue
            white, black = RESULTS[b.result]
            out[b.white] = _round(scoring, self.number, white, b.black, "w")
            out[b.black] = _round(scoring, self.number, black, b.white, "b")
        if self.bye is not None:
            out[self.bye] = _round(scoring, self.number, K.PAIRING_BYE, None, None)
        for start_no, kind in self.unpaired:
            out[start_no] = _round(scoring, self.number, kind, None, None)
        return out


def _round(
    scoring: Scoring, number: int, kind: ResultKind, opponent: int | None, colour: str | None
) -> Round:
    return Round(number, kind, scoring.points(kind), opponent, colour)


@dataclass(frozen=True)
class Tournament:
    """A Swiss tournament on the day: its players and finished rounds, its plan, and the round
    paired whose results are still coming in (None between rounds)."""

    section: Section
    plan: Plan
    current: Pairing | None = None

    @property
    def finished_rounds(self) -> int:
        return max((len(p.rounds) for p in self.section.players), default=0)

    @property
    def next_round(self) -> int:
        """The round the next pairing is for."""
        return self.finished_rounds + 1 + (self.current is not None)

    def with_results(self) -> Section:
        """The section with the current round's results entered so far (a player whose board
        has no result yet has one round fewer)."""
        if self.current is None:
            return self.section
        entered = self.current.rounds(self.section.scoring)
        players = tuple(
            _with_rounds(p, p.rounds + ((entered[p.start_no],) if p.start_no in entered else ()))
            for p in self.section.players
        )
        rounds = self.current.number if self.current.finished else self.section.rounds
        return replace(self.section, players=players, rounds=rounds)

    def after(self, number: int) -> Section:
        """The section after round ``number`` (each player's rounds up to it), for the
        standings after that round. While the current round is being played, a player whose
        result is not in yet has that round as unplayed (absent): a provisional table."""
        section = self.with_results()
        current = self.current
        if current is not None and number >= current.number:
            entered = current.rounds(section.scoring)
            waiting = _round(section.scoring, current.number, K.ABSENT, None, None)
            players = tuple(
                p if p.start_no in entered else _with_rounds(p, (*p.rounds, waiting))
                for p in section.players
            )
            section = replace(section, players=players)
        players = tuple(
            p if len(p.rounds) <= number else _with_rounds(p, p.rounds[:number])
            for p in section.players
        )
        return replace(section, players=players, rounds=number)


def _with_rounds(player: Player, rounds: Sequence[Round]) -> Player:
    rounds = tuple(rounds)
    return replace(player, rounds=rounds, declared_points=total_points(r.points for r in rounds))


def read_tournament(path: str | Path, data: bytes | None = None) -> Tournament:
    """The tournament in a TRF: its plan records, its players and finished rounds, the round
    paired and not finished. ``InputError`` with every located problem otherwise."""
    name = str(path)
    if data is None:
        refused: list[Problem] = []
        data = file_bytes(path, trf.BOUND, refused)
        if data is None:
            raise InputError(refused)
    lines, problems = decode(data, name)
    start_numbers = [
        int(line[4:8]) for line in lines if line[:3] == "001" and line[4:8].strip().isdecimal()
    ]
    plan, rest, plan_problems = read_plan(lines, name, start_numbers)
    problems += plan_problems
    kept = set(map(id, rest))
    # The plan's lines become blank lines, so that every other line keeps its number.
    text_lines = [line if id(line) in kept else "" for line in lines]
    number, open_games = _open_games(text_lines)
    section, read_problems = read_trf(name, "\n".join(text_lines).encode("utf-8"))
    # The reader decodes the text again: a problem of its bytes is said once.
    problems += [p for p in read_problems if not _declared_more(p) and p not in problems]
    if section is None or not section.players:
        problems = [p for p in problems if not p.message.startswith("no player records")]
        problems.append(
            Problem(
                Location(name),
                "no player records (lines starting with 001): a tournament to pair is a TRF "
                "with a 001 record for each player",
            )
        )
    if section is None or any(p.severity is Severity.ERROR for p in problems):
        raise InputError(problems)
    if not plan.rounds:
        plan = replace(plan, rounds=max(section.rounds, 1))
    finished = max((len(p.rounds) for p in section.players), default=0)
    for start_no in absences(lines):
        plan.byes.setdefault((start_no, finished + 1), K.ZERO_BYE)
    if not open_games:
        return Tournament(section, plan)
    missing = [p for p in section.players if len(p.rounds) < number]
    if missing:
        raise InputError(
            [
                Problem(
                    p.location or Location(name),
                    f"round {number} is paired, but player {p.start_no} has no block for it; "
                    "give the player a bye or an absence in that round",
                )
                for p in missing
            ]
        )
    current = round_pairing(section, plan, number)
    current = replace(
        current,
        boards=tuple(replace(b, result="") if b.white in open_games else b for b in current.boards),
    )
    players = tuple(
        p if len(p.rounds) < number else _with_rounds(p, p.rounds[: number - 1])
        for p in section.players
    )
    return Tournament(replace(section, players=players, rounds=number - 1), plan, current)


def _declared_more(problem: Problem) -> bool:
    """The reader's warning that the file declares more rounds than it has results for: what
    a tournament under way always does."""
    return problem.severity is Severity.WARNING and "declares" in problem.message


def _open_games(lines: list[str]) -> tuple[int, set[int]]:
    """The round paired and not finished (the file's last round, when a game of it has no
    result code) and the players of its games without a result. Their blocks are given the
    code of a forfeit loss, worth no points as the game without its result, so that the
    reader checks the round like any other; ``round_pairing`` then takes it apart."""
    last = 0
    for line in lines:
        if line[:3] == "001":
            last = max(last, (len(line.rstrip()) - 89 + 9) // 10)
    if last == 0:
        return 0, set()
    at = 91 + 10 * (last - 1)  # the block's first column (its opponent), 0-based
    found: set[int] = set()
    for i, line in enumerate(lines):
        block = line[at : at + 8].ljust(8) if line[:3] == "001" else ""
        opponent, code = block[:4].strip(), block[7:8]
        if opponent.isdecimal() and int(opponent) and code == " " and line[4:8].strip().isdecimal():
            found.add(int(line[4:8]))
            lines[i] = line.ljust(at + 8)[: at + 7] + "-" + line[at + 8 :]
    return last, found


def board_order(
    section: Section, plan: Plan, number: int, pairs: Iterable[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The pairs in board order (FIDE C.04.2 D.9, as the Dutch engine numbers its boards): the
    higher score of the two (with the round's virtual points of an acceleration) first, then
    the higher sum, then the better (lower) pairing number of the two."""
    scores = {p.start_no: p.points + _virtual(plan, p.start_no, number) for p in section.players}

    def key(pair: tuple[int, int]) -> tuple[Fraction, Fraction, int]:
        a, b = scores[pair[0]], scores[pair[1]]
        return (-max(a, b), -(a + b), min(pair))

    return sorted(pairs, key=key)


def _virtual(plan: Plan, start_no: int, number: int) -> Fraction:
    return sum(
        (a.points for a in plan.accelerations if a.covers(start_no, number)), start=Fraction(0)
    )


def tournament_text(tournament: Tournament) -> str:
    """The tournament as TRF: the header records, the plan's records, every player with the
    finished rounds and the current round (a game without its result: no result code)."""
    section = tournament.with_results()
    plan = tournament.plan
    players = tuple(_with_rounds(p, p.rounds) for p in section.players)
    headers = tuple(h for h in section.headers if h[0] not in ("142", "152"))
    extras = tuple(line for line in section.extra_records if line[:3] not in ("240", "250", "260"))
    written = replace(
        section, players=players, rounds=plan.rounds, headers=headers, extra_records=extras
    )
    lines = write_trf(written).splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("XXR ")), len(lines))
    lines[at : at + 1] = plan_records(plan)
    current = tournament.current
    if current is not None:
        open_blocks = {}
        for b in current.boards:
            if not b.result:
                open_blocks[b.white] = f"  {b.black:>4} w"
                open_blocks[b.black] = f"  {b.white:>4} b"
        for i, line in enumerate(lines):
            if line[:3] == "001" and int(line[4:8]) in open_blocks:
                lines[i] = line.ljust(89 + 10 * (current.number - 1)) + open_blocks[int(line[4:8])]
    return "\n".join(lines) + "\n"


# Changes of the day: each returns the new tournament, or raises a UsageError saying why not.


def enter_result(
    tournament: Tournament, board: int, result: str, number: int | None = None
) -> Tournament:
    """The result of a board of the current round (or of round ``number``, finished: a
    correction). A board of the current round that has a result already keeps it unless
    the same result is given (``UsageError`` naming both: correct it with ``number``)."""
    value = normal_result(result)
    if value is None:
        raise UsageError(
            f"result {result!r} is not one of {', '.join(RESULTS)} (1/2-1/2 and = are a draw; "
            "+- and -+ a forfeit, -- a double forfeit)"
        )
    current = tournament.current
    if number is None or (current is not None and number == current.number):
        if current is None:
            raise UsageError(
                f"no round is paired; to correct a finished round give its number "
                f"(round {tournament.finished_rounds} is the last)"
            )
        found = _board(current, board)
        if found.result and found.result != value and number is None:
            raise UsageError(
                f"board {board} of round {current.number} has {found.result} already, not "
                f"{value}: nothing was changed (to correct it, give the round's number)"
            )
        boards = tuple(replace(b, result=value) if b.number == board else b for b in current.boards)
        return replace(tournament, current=replace(current, boards=boards))
    if not 1 <= number <= tournament.finished_rounds:
        raise UsageError(f"round {number} is not a finished round of the tournament")
    past = round_pairing(tournament.section, tournament.plan, number)
    found = _board(past, board)
    white, black = RESULTS[value]
    changed = {
        found.white: _round(tournament.section.scoring, number, white, found.black, "w"),
        found.black: _round(tournament.section.scoring, number, black, found.white, "b"),
    }
    players = tuple(
        _with_rounds(
            p,
            tuple(
                changed[p.start_no] if r.number == number and p.start_no in changed else r
                for r in p.rounds
            ),
        )
        for p in tournament.section.players
    )
    return replace(tournament, section=replace(tournament.section, players=players))


def _board(pairing: Pairing, number: int) -> Board:
    found = next((b for b in pairing.boards if b.number == number), None)
    if found is None:
        raise UsageError(
            f"round {pairing.number} has no board {number} (boards 1 to {len(pairing.boards)})"
        )
    return found


def round_pairing(section: Section, plan: Plan, number: int) -> Pairing:
    """A finished round's pairing as its results show it, boards in the order they had."""
    before = tuple(_with_rounds(p, p.rounds[: number - 1]) for p in section.players)
    games: dict[tuple[int, int], str] = {}
    bye = None
    unpaired: list[tuple[int, ResultKind]] = []
    codes = {value: key for key, value in RESULTS.items()}
    for p in section.players:
        if len(p.rounds) < number:
            continue
        r = p.rounds[number - 1]
        if r.opponent is not None and r.kind.has_opponent:
            if r.colour == "w" or (r.colour is None and p.start_no < r.opponent):
                other = section.player(r.opponent).rounds[number - 1]
                games[(p.start_no, r.opponent)] = codes.get((r.kind, other.kind), "")
        elif r.kind is K.PAIRING_BYE:
            bye = p.start_no
        else:
            unpaired.append((p.start_no, r.kind))
    order = board_order(replace(section, players=before), plan, number, games)
    boards = tuple(Board(i, w, b, games[(w, b)]) for i, (w, b) in enumerate(order, start=1))
    return Pairing(number, boards, bye, tuple(sorted(unpaired)))


def undo_pairing(tournament: Tournament) -> Tournament:
    """The tournament without its current round's pairing, while no result of it is in."""
    current = tournament.current
    if current is None:
        raise UsageError("no round is paired and unfinished: there is no pairing to undo")
    entered = [b.number for b in current.boards if b.result]
    if entered:
        raise UsageError(
            f"round {current.number} has results on board(s) {', '.join(map(str, entered))}: "
            "a pairing is undone only while no result is in"
        )
    return replace(tournament, current=None)


def announce_bye(
    tournament: Tournament, start_no: int, number: int, kind: ResultKind
) -> Tournament:
    """A bye asked for a round not paired yet (half-point, full-point or zero-point; a
    zero-point bye is also how an absence is written), or taken back with ``ABSENT``."""
    _known(tournament, start_no)
    if number < tournament.next_round or number > tournament.plan.rounds:
        raise UsageError(
            f"round {number} is paired already or not in the tournament: byes are given for "
            f"rounds {tournament.next_round} to {tournament.plan.rounds} (undo the pairing of "
            "the current round first to change its byes)"
        )
    byes = dict(tournament.plan.byes)
    if kind is K.ABSENT:
        byes.pop((start_no, number), None)
    else:
        byes[(start_no, number)] = kind
    return replace(tournament, plan=replace(tournament.plan, byes=byes))


def withdraw(tournament: Tournament, start_no: int, first: int | None = None) -> Tournament:
    """A player absent from round ``first`` (the next round to pair) to the end: a zero-point
    bye announced for each of those rounds (TRF-2026 record 240)."""
    first = tournament.next_round if first is None else first
    for number in range(first, tournament.plan.rounds + 1):
        tournament = announce_bye(tournament, start_no, number, K.ZERO_BYE)
    return tournament


def add_player(
    tournament: Tournament, player: Player, missed: ResultKind = K.ZERO_BYE
) -> Tournament:
    """A late entry: the player gets ``missed`` (a zero- or half-point bye) for every round
    paired before, and a pairing number by rating among the others, the numbers after it moved
    down by one (C.04.2: pairing numbers are assigned again for a late entry)."""
    if tournament.current is not None and not tournament.current.finished:
        raise UsageError(
            f"round {tournament.current.number} is paired and not finished: enter a late entry "
            "between rounds"
        )
    tournament = closed(tournament)
    done = tournament.finished_rounds
    others = list(tournament.section.players)
    rating = player.rating or 0
    at = next((i for i, p in enumerate(others) if (p.rating or 0) < rating), len(others))
    new = {p.start_no: (i + 1 if i < at else i + 2) for i, p in enumerate(others)}
    scoring = tournament.section.scoring
    rounds = tuple(_round(scoring, n, missed, None, None) for n in range(1, done + 1))
    entrant = _with_rounds(replace(player, start_no=at + 1), rounds)
    moved = [_renumbered(p, new) for p in others]
    moved.insert(at, entrant)
    from grandprix.pairing.records import renumbered

    new_plan = renumbered(tournament.plan, new)
    return Tournament(replace(tournament.section, players=tuple(moved)), new_plan, None)


def closed(tournament: Tournament) -> Tournament:
    """The tournament with a finished current round made part of its results."""
    if tournament.current is None or not tournament.current.finished:
        return tournament
    return Tournament(tournament.with_results(), tournament.plan, None)


def _renumbered(player: Player, new: Mapping[int, int]) -> Player:
    rounds = tuple(
        replace(r, opponent=new[r.opponent]) if r.opponent is not None else r for r in player.rounds
    )
    return replace(player, start_no=new[player.start_no], rounds=rounds)


def _known(tournament: Tournament, start_no: int) -> None:
    if start_no not in {p.start_no for p in tournament.section.players}:
        raise UsageError(
            f"no player {start_no} in the tournament (start numbers 1 to "
            f"{len(tournament.section.players)})"
        )
