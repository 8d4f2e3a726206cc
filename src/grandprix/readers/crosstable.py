"""Checks and assembly shared by every crosstable reader (TRF, chess-results).

A reader turns its lines into ``RawPlayer`` rows; ``assemble`` then checks what only the whole
table can tell (opponents in range, pairings mirrored, totals adding up), deduces the value of
blank result codes from the declared totals, marks double forfeits and withdrawals, and builds the
frozen ``Section``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

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
from grandprix.scores import show_points

K = ResultKind

# The result the opponent must have for each result with an opponent.
_MIRROR: dict[ResultKind, frozenset[ResultKind]] = {
    K.WIN: frozenset({K.LOSS}),
    K.LOSS: frozenset({K.WIN}),
    K.DRAW: frozenset({K.DRAW}),
    K.WIN_UNRATED: frozenset({K.LOSS_UNRATED}),
    K.LOSS_UNRATED: frozenset({K.WIN_UNRATED}),
    K.DRAW_UNRATED: frozenset({K.DRAW_UNRATED}),
    K.FORFEIT_WIN: frozenset({K.FORFEIT_LOSS}),
    K.FORFEIT_LOSS: frozenset({K.FORFEIT_WIN, K.FORFEIT_LOSS}),
}


@dataclass
class RawRound:
    number: int
    kind: ResultKind
    opponent: int | None
    colour: str | None
    location: Location
    blank: bool = False  # no result code: its value may be told by the declared total
    damaged: bool = False  # unreadable (already reported): later checks leave it alone


@dataclass
class RawPlayer:
    start_no: int
    name: str
    location: Location
    rounds: list[RawRound] = field(default_factory=list)
    rating: int | None = None
    title: str = ""
    sex: str = ""
    federation: str = ""
    fide_id: str = ""
    birth_date: str = ""
    declared_points: Fraction | None = None
    points_location: Location | None = None
    declared_rank: str = ""
    damaged: bool = False  # the line could not be read whole (already reported)


@dataclass
class SectionInfo:
    """What a reader knows of the section besides its players."""

    name: str
    source: str
    rounds: int | None = None  # declared number of rounds, if any
    rounds_location: Location | None = None
    scoring: Scoring = field(default_factory=Scoring)
    round_robin: bool | None = None  # None: decide from the pairings
    date: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    extra_records: tuple[str, ...] = ()


def assemble(info: SectionInfo, raw: list[RawPlayer], problems: list[Problem]) -> Section:
    """Check the table as a whole and build the section; problems are appended to ``problems``."""
    by_no: dict[int, RawPlayer] = {}
    for player in raw:
        if player.start_no in by_no:
            first = by_no[player.start_no].location
            problems.append(
                Problem(
                    player.location.at(5),
                    f"start number {player.start_no} is used twice (first on line {first.line}); "
                    "give every player a different number",
                )
            )
            continue
        by_no[player.start_no] = player
    rounds = _number_of_rounds(info, raw, problems)
    for player in by_no.values():
        _fill_missing_rounds(player, rounds)
    _check_pairings(by_no, problems)
    _mark_double_forfeits(by_no)
    players = tuple(_build_player(p, info.scoring, problems) for p in by_no.values())
    round_robin = info.round_robin
    if round_robin is None:
        round_robin = _looks_like_round_robin(by_no)
    return Section(
        name=info.name,
        players=players,
        rounds=rounds,
        scoring=info.scoring,
        round_robin=round_robin,
        has_crosstable=True,
        date=info.date,
        headers=info.headers,
        extra_records=info.extra_records,
        source=info.source,
    )


def _number_of_rounds(info: SectionInfo, raw: list[RawPlayer], problems: list[Problem]) -> int:
    played = max((len(p.rounds) for p in raw), default=0)
    if info.rounds is None:
        return played
    if info.rounds < played and info.rounds_location is not None:
        problems.append(
            Problem(
                info.rounds_location,
                f"the file declares {info.rounds} rounds but has results for {played} "
                "(correct the number of rounds)",
            )
        )
        return played
    if info.rounds > played and info.rounds_location is not None:
        problems.append(
            Problem(
                info.rounds_location,
                f"the file declares {info.rounds} rounds but has results for {played} only; "
                f"placings are those after round {played}",
                Severity.WARNING,
            )
        )
        return played
    return info.rounds


def _fill_missing_rounds(player: RawPlayer, rounds: int) -> None:
    """Rounds after a player's last round block: the player had withdrawn (C.07 art. 16.1)."""
    for number in range(len(player.rounds) + 1, rounds + 1):
        player.rounds.append(RawRound(number, K.WITHDRAWN, None, None, player.location))


def _check_pairings(by_no: dict[int, RawPlayer], problems: list[Problem]) -> None:
    for player in by_no.values():
        for rnd in player.rounds:
            if rnd.opponent is None or not rnd.kind.has_opponent or rnd.damaged:
                continue
            where = f"round {rnd.number}"
            other = by_no.get(rnd.opponent)
            if other is not None and (other.damaged or _damaged_round(other, rnd.number)):
                continue
            if other is None or rnd.opponent == player.start_no:
                problems.append(
                    Problem(
                        rnd.location,
                        f"opponent {rnd.opponent} in {where} is out of range: no player has "
                        f"that start number (expected one of 1-{max(by_no)} other than "
                        f"{player.start_no})",
                    )
                )
                continue
            mirror = other.rounds[rnd.number - 1] if rnd.number <= len(other.rounds) else None
            if mirror is None or mirror.opponent != player.start_no:
                listed = (
                    "no opponent"
                    if mirror is None or mirror.opponent is None
                    else (f"opponent {mirror.opponent}")
                )
                problems.append(
                    Problem(
                        rnd.location,
                        f"pairing not mirrored: player {player.start_no} has opponent "
                        f"{rnd.opponent} in {where}, but player {rnd.opponent} has {listed} "
                        f"there (line {other.location.line}); correct one of the two lines",
                    )
                )
                continue
            if player.start_no > other.start_no:
                continue  # each pair is checked once
            if mirror.kind not in _MIRROR.get(rnd.kind, frozenset()):
                problems.append(
                    Problem(
                        rnd.location,
                        f"results do not match in {where}: player {player.start_no} has "
                        f"'{rnd.kind.value}' and opponent {rnd.opponent} has "
                        f"'{mirror.kind.value}' (a win needs a loss, a draw a draw, "
                        "a forfeit win a forfeit loss)",
                    )
                )
            elif rnd.colour is not None and rnd.colour == mirror.colour:
                problems.append(
                    Problem(
                        rnd.location,
                        f"both players of {where} ({player.start_no} and {rnd.opponent}) have "
                        f"colour '{rnd.colour}'; one of them must have the other colour",
                    )
                )


def _damaged_round(player: RawPlayer, number: int) -> bool:
    return number <= len(player.rounds) and player.rounds[number - 1].damaged


def _mark_double_forfeits(by_no: dict[int, RawPlayer]) -> None:
    for player in by_no.values():
        for rnd in player.rounds:
            if rnd.kind is K.FORFEIT_LOSS and rnd.opponent in by_no:
                other = by_no[rnd.opponent].rounds
                if (
                    rnd.number <= len(other)
                    and other[rnd.number - 1].kind in (K.FORFEIT_LOSS, K.DOUBLE_FORFEIT)
                    and other[rnd.number - 1].opponent == player.start_no
                ):
                    rnd.kind = K.DOUBLE_FORFEIT


def _build_player(raw: RawPlayer, scoring: Scoring, problems: list[Problem]) -> Player:
    kinds = [r.kind for r in raw.rounds]
    inferred = [False] * len(kinds)
    computed = total_points(scoring.points(k) for k in kinds)
    damaged = raw.damaged or any(r.damaged for r in raw.rounds)
    if raw.declared_points is not None and computed != raw.declared_points and not damaged:
        blanks = [i for i, r in enumerate(raw.rounds) if r.blank]
        fill = _infer_blanks(raw.declared_points - computed, len(blanks), scoring)
        where = raw.points_location or raw.location
        if fill is None:
            problems.append(
                Problem(
                    where,
                    f"points do not add up for player {raw.start_no}: the file declares "
                    f"{show_points(raw.declared_points)} but the rounds give "
                    f"{show_points(computed)} "
                    "(correct the result codes or the total)",
                )
            )
        else:
            for index, kind in zip(blanks, fill, strict=True):
                kinds[index] = kind
                inferred[index] = kind is not K.ABSENT
            told = ", ".join(
                f"round {raw.rounds[i].number} = {kinds[i].name.lower().replace('_', ' ')}"
                for i in blanks
                if inferred[i]
            )
            problems.append(
                Problem(
                    where,
                    f"player {raw.start_no}: blank result codes read from the declared total "
                    f"{show_points(raw.declared_points)}: {told}",
                    Severity.WARNING,
                )
            )
    rounds = tuple(
        Round(
            number=r.number,
            kind=kind,
            points=scoring.points(kind),
            opponent=r.opponent if kind.has_opponent else None,
            colour=r.colour if kind.has_opponent else None,
            inferred=flag,
            location=r.location,
        )
        for r, kind, flag in zip(raw.rounds, kinds, inferred, strict=True)
    )
    return Player(
        start_no=raw.start_no,
        name=raw.name,
        rounds=rounds,
        rating=raw.rating,
        title=raw.title,
        sex=raw.sex,
        federation=raw.federation,
        fide_id=raw.fide_id,
        birth_date=raw.birth_date,
        declared_points=raw.declared_points,
        declared_rank=raw.declared_rank,
        location=raw.location,
    )


def _infer_blanks(missing: Fraction, blanks: int, scoring: Scoring) -> list[ResultKind] | None:
    """Kinds for ``blanks`` blank codes worth ``missing`` points in all, full-point byes first.

    Several answers can fit (two blanks worth 1 are two half-point byes or a full and a zero);
    the one with the most half-point byes is taken, the commonest request in weekend events.
    """
    if blanks == 0:
        return None
    options = (
        (K.FULL_BYE, scoring.full_bye),
        (K.HALF_BYE, scoring.half_bye),
        (K.ABSENT, scoring.zero_bye),
    )
    best: tuple[int, list[ResultKind]] | None = None
    for combo in itertools.combinations_with_replacement(range(3), blanks):
        if sum(options[i][1] for i in combo) == missing:
            halves = combo.count(1)
            if best is None or halves > best[0]:
                best = (halves, [options[i][0] for i in combo])
    return None if best is None else best[1]


def _looks_like_round_robin(by_no: dict[int, RawPlayer]) -> bool:
    """Every player was paired with every other player: a round robin (all-play-all).

    A pair that never met is allowed when one of the two left the event (his rounds end
    without an opponent: the games after a withdrawal left unplayed) and the number of rounds
    is that of whole cycles of an all-play-all of this many players.
    """
    if len(by_no) < 3:
        return False
    everyone = set(by_no)
    cycle = len(by_no) - 1 + len(by_no) % 2
    rounds = max(len(p.rounds) for p in by_no.values())
    left = {
        no
        for no, p in by_no.items()
        if p.rounds and (p.rounds[-1].opponent is None or not p.rounds[-1].kind.has_opponent)
    }
    for player in by_no.values():
        met = {r.opponent for r in player.rounds if r.opponent is not None and r.kind.has_opponent}
        missing = everyone - {player.start_no} - met
        if not missing:
            continue
        if rounds % cycle or not (player.start_no in left or missing <= left):
            return False
    return True
