"""Made-up Swiss tournaments and round robins with every kind of round, for tests and benchmarks.

The pairing is a plain score-group pairing that avoids rematches where it easily can; it is not
a FIDE pairing system and does not need to be: what matters is that every kind of result and
unplayed round occurs, consistently on both sides of every pairing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from grandprix.model import Player, ResultKind, Round, Scoring, Section

K = ResultKind


@dataclass(frozen=True)
class Mix:
    """How often each unusual round happens (probabilities per player-round or per pairing)."""

    half_bye: float = 0.04
    zero_bye: float = 0.02
    full_bye: float = 0.01
    absent: float = 0.01
    withdraw: float = 0.01  # per player and round: leaves the event for good
    forfeit: float = 0.03  # per pairing
    double_forfeit: float = 0.01
    short_game: float = 0.01  # less than one move (W/D/L)
    unrated: float = 0.0  # share of players without a rating


def generate(
    players: int,
    rounds: int,
    seed: int,
    mix: Mix | None = None,
    byes: dict[int, dict[int, ResultKind]] | None = None,
) -> Section:
    """A finished Swiss of ``players`` x ``rounds`` with mirrored pairings and results.

    ``byes`` gives byes decided beforehand: start number -> round -> kind (H or Z).
    """
    byes = byes or {}
    mix = mix or Mix()
    rng = random.Random(seed)
    ratings = {
        no: (None if rng.random() < mix.unrated else rng.randint(1000, 2700))
        for no in range(1, players + 1)
    }
    history: dict[int, list[Round]] = {no: [] for no in ratings}
    score = dict.fromkeys(ratings, Fraction(0))
    met: dict[int, set[int]] = {no: set() for no in ratings}
    left: set[int] = set()
    had_pab: set[int] = set()
    scoring = Scoring()
    for number in range(1, rounds + 1):
        pool = []
        for no in ratings:
            if no in left or (len(left) < players - 2 and rng.random() < mix.withdraw):
                left.add(no)
                history[no].append(Round(number, K.WITHDRAWN, Fraction(0)))
                continue
            kind = byes.get(no, {}).get(number) or _requested(rng, mix)
            if kind is None:
                pool.append(no)
            else:
                history[no].append(Round(number, kind, scoring.points(kind)))
        rng.shuffle(pool)
        pool.sort(key=lambda no: (-score[no], -(ratings[no] or 0)))
        if len(pool) % 2:
            bye = next((no for no in reversed(pool) if no not in had_pab), pool[-1])
            pool.remove(bye)
            had_pab.add(bye)
            history[bye].append(Round(number, K.PAIRING_BYE, scoring.pairing_bye))
        for white, black in _pairs(pool, met):
            for a, b in ((white, black), (black, white)):
                met[a].add(b)
            kinds = _game(rng, mix, ratings[white], ratings[black])
            for no, opp, kind, colour in (
                (white, black, kinds[0], "w"),
                (black, white, kinds[1], "b"),
            ):
                history[no].append(Round(number, kind, scoring.points(kind), opp, colour))
        for no in ratings:
            score[no] += history[no][-1].points
    section_players = _players(history, ratings, rng)
    return Section(
        name=f"Synthetic Swiss {seed}",
        players=section_players,
        rounds=rounds,
        headers=(("012", f"Synthetic Swiss {seed}"), ("092", "Swiss System")),
    )


def round_robin(
    players: int,
    seed: int,
    mix: Mix | None = None,
    double: bool = False,
    sit_out: ResultKind = K.ABSENT,
) -> Section:
    """A finished round robin of ``players`` (single, or ``double`` with colours reversed).

    The schedule is FIDE's Berger tables: every pair meets once per cycle. In an odd field one
    player sits out each round: that round has no opponent and scores nothing, written as
    ``sit_out`` (not paired by default; C.05's Berger tables pair him with nobody, it is no
    pairing-allocated bye). ``mix`` gives forfeits and double forfeits per game, games of less
    than one move, unrated players, and ``withdraw``, the chance per player that he leaves after
    some round: his remaining games are then all forfeited, or all left unplayed (each of the
    two ways in half the events), the opponent of an unplayed game sitting that round out.
    """
    mix = mix or Mix(0, 0, 0, 0, 0, 0, 0, 0)
    rng = random.Random(seed)
    ratings: dict[int, int | None] = {
        no: (None if rng.random() < mix.unrated else rng.randint(1400, 2400))
        for no in range(1, players + 1)
    }
    count = players + players % 2
    schedule = [
        [(w if w <= players else 0, b if b <= players else 0) for w, b in pairs]
        for pairs in _berger(count)
    ]
    if double:
        schedule += [[(b, a) for a, b in pairs] for pairs in schedule]
    rounds = len(schedule)
    leaves = {
        no: rng.randint(1, rounds - 1)
        for no in ratings
        if rounds > 1 and rng.random() < mix.withdraw
    }
    forfeit_after_leaving = rng.random() < 0.5
    history: dict[int, list[Round]] = {no: [] for no in ratings}
    scoring = Scoring()
    games = Mix(forfeit=mix.forfeit, double_forfeit=mix.double_forfeit, short_game=mix.short_game)
    for number, pairs in enumerate(schedule, start=1):
        for white, black in pairs:
            if 0 in (white, black):
                history[white or black].append(Round(number, sit_out, scoring.points(sit_out)))
                continue
            gone = [no for no in (white, black) if number > leaves.get(no, rounds)]
            if gone and not forfeit_after_leaving:
                for no in (white, black):
                    kind = K.WITHDRAWN if no in gone else sit_out
                    history[no].append(Round(number, kind, Fraction(0)))
                continue
            if len(gone) == 2:
                kinds = (K.DOUBLE_FORFEIT, K.DOUBLE_FORFEIT)
            elif gone:
                kinds = (
                    (K.FORFEIT_LOSS, K.FORFEIT_WIN)
                    if white in gone
                    else (K.FORFEIT_WIN, K.FORFEIT_LOSS)
                )
            else:
                kinds = _game(rng, games, ratings[white], ratings[black])
            for no, opp, kind, colour in (
                (white, black, kinds[0], "w"),
                (black, white, kinds[1], "b"),
            ):
                history[no].append(Round(number, kind, scoring.points(kind), opp, colour))
    section_players = _players(history, ratings, rng)
    system = "Double round robin" if double else "Round robin"
    return Section(
        name=f"Synthetic round robin {seed}",
        players=section_players,
        rounds=rounds,
        round_robin=True,
        headers=(("012", f"Synthetic round robin {seed}"), ("092", system)),
    )


def _berger(count: int) -> list[list[tuple[int, int]]]:
    """One cycle of FIDE's Berger tables (C.05 Annex 1) for an even ``count``: (white, black).

    In round r, players i < j < count meet when i + j - 2 = r - 1 modulo count - 1, the lower
    number with White when i + j is odd; ``count`` meets the player i with 2(i - 1) = r - 1
    modulo count - 1, with White in the even rounds.
    """
    cycle = count - 1
    rounds = []
    for r in range(cycle):
        pairs = []
        for i in range(1, count):
            if (2 * (i - 1)) % cycle == r:
                pairs.append((count, i) if r % 2 else (i, count))
            for j in range(i + 1, count):
                if (i + j - 2) % cycle == r:
                    pairs.append((i, j) if (i + j) % 2 else (j, i))
        rounds.append(pairs)
    return rounds


def _players(
    history: dict[int, list[Round]], ratings: dict[int, int | None], rng: random.Random
) -> tuple[Player, ...]:
    return tuple(
        Player(
            start_no=no,
            name=f"Player {no:04d}",
            rounds=tuple(rounds),
            rating=ratings[no],
            sex=rng.choice("mw"),
            federation="ZZZ",
            fide_id=str(100000 + no),
            declared_points=sum((r.points for r in rounds), Fraction(0)),
        )
        for no, rounds in history.items()
    )


def _requested(rng: random.Random, mix: Mix) -> ResultKind | None:
    draw = rng.random()
    for kind, chance in (
        (K.HALF_BYE, mix.half_bye),
        (K.ZERO_BYE, mix.zero_bye),
        (K.FULL_BYE, mix.full_bye),
        (K.ABSENT, mix.absent),
    ):
        if draw < chance:
            return kind
        draw -= chance
    return None


def _pairs(pool: list[int], met: dict[int, set[int]]) -> list[tuple[int, int]]:
    pairs = []
    rest = list(pool)
    while rest:
        first = rest.pop(0)
        partner = next((no for no in rest if no not in met[first]), rest[0])
        rest.remove(partner)
        pairs.append((first, partner))
    return pairs


def _game(
    rng: random.Random, mix: Mix, white: int | None, black: int | None
) -> tuple[ResultKind, ResultKind]:
    draw = rng.random()
    if draw < mix.double_forfeit:
        return K.DOUBLE_FORFEIT, K.DOUBLE_FORFEIT
    draw -= mix.double_forfeit
    if draw < mix.forfeit:
        return (
            (K.FORFEIT_WIN, K.FORFEIT_LOSS)
            if rng.random() < 0.5
            else (
                K.FORFEIT_LOSS,
                K.FORFEIT_WIN,
            )
        )
    draw -= mix.forfeit
    short = draw < mix.short_game
    expected = 1 / (1 + 10 ** (((black or 1500) - (white or 1500)) / 400))
    roll = rng.random()
    if roll < 0.25:
        result = (K.DRAW, K.DRAW)
    elif roll < 0.25 + 0.75 * expected:
        result = (K.WIN, K.LOSS)
    else:
        result = (K.LOSS, K.WIN)
    if short:
        short_kind = {K.WIN: K.WIN_UNRATED, K.LOSS: K.LOSS_UNRATED, K.DRAW: K.DRAW_UNRATED}
        result = (short_kind[result[0]], short_kind[result[1]])
    return result


FIDE_TXT_COLUMNS = (
    ("ID Number", 15),
    ("Name", 61),
    ("Fed", 4),
    ("Sex", 4),
    ("Tit", 5),
    ("WTit", 5),
    ("OTit", 15),
    ("FOA", 4),
    ("SRtng", 6),
    ("SGm", 4),
    ("SK", 3),
    ("RRtng", 6),
    ("RGm", 4),
    ("Rk", 3),
    ("BRtng", 6),
    ("BGm", 4),
    ("BK", 3),
    ("B-day", 6),
    ("Flag", 4),
)


def fide_txt_line(values: dict[str, str]) -> str:
    """One line of FIDE's combined fixed-width list (the header when values are the labels)."""
    return "".join(f"{values.get(label, ''):<{width}}" for label, width in FIDE_TXT_COLUMNS)


def fide_rating_list(count: int, seed: int, first_id: int = 5_000_000) -> str:
    """A made-up FIDE combined rating list in the fixed-width TXT format."""
    rng = random.Random(seed)
    lines = [fide_txt_line({label: label for label, _ in FIDE_TXT_COLUMNS})]
    for i in range(count):
        rated = rng.random() < 0.9
        lines.append(
            fide_txt_line(
                {
                    "ID Number": str(first_id + i),
                    "Name": f"Player, Number {i}",
                    "Fed": rng.choice(["AUS", "ITA", "USA", "LBN"]),
                    "Sex": rng.choice("MF"),
                    "SRtng": str(rng.randint(1400, 2700)) if rated else "",
                    "RRtng": str(rng.randint(1400, 2700)) if rng.random() < 0.5 else "",
                    "BRtng": str(rng.randint(1400, 2700)) if rng.random() < 0.4 else "",
                    "B-day": str(rng.randint(1940, 2015)),
                }
            ).rstrip()
        )
    return "\n".join(lines) + "\n"
