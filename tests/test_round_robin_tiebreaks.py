"""Tie-breaks of round robins (FIDE C.07 art. 9.2 and 15): the round a player of an odd field sits
out and the forfeited games, each against the values the FIDE reference program (gacrux) prints.

C.07 art. 15: in an event with pre-determined pairings a forfeited game counts as played against
the scheduled opponent (except for rating-based tie-breaks), and the dummy opponent of art. 16.4 is
for the unplayed rounds of a Swiss. A round without an opponent (the sit-out of an odd field, the
games of a player who left, unplayed) is no game: it adds nothing to BH or SB, and KS's maximum
score (art. 9.2) leaves it out. The same crosstable placed as a Swiss gives other values, which
is why a round robin must be recognised as one.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from builders import build
from grandprix.placings import place
from grandprix.readers.trf import read_trf
from grandprix.tiebreaks import Rules, parse
from grandprix.writers.trf import write_trf
from synthetic import Mix, round_robin

CODES = "BH,SB,KS"

# Three players, one sitting out each round; A wins the last round by forfeit against C.
ODD = {
    "A": ["-", "B w 1", "C b +"],
    "B": ["C w 1", "A b 0", "-"],
    "C": ["B b 0", "-", "A w -"],
}


def values(round_robin: bool, rules: Rules) -> dict[str, list[Fraction | None]]:
    section = build(3, ODD, round_robin=round_robin)
    rows = place(section, parse(CODES, rules), rules).rows
    return {row.player.name: list(row.values) for row in rows}


def test_art15_odd_round_robin_sit_out_adds_nothing_and_a_forfeit_win_counts_its_opponent() -> None:
    for rules in (Rules.FIDE_2024, Rules.FIDE_2026):
        got = values(True, rules)
        # A: BH = B 1 + C 0; SB = 1 x 1 (B) + 0 x 1 (C, forfeit counted as played);
        # KS: the maximum is 2 games (the sit-out is no game), limit 1 point: only B counts.
        assert got["A"] == [1, 1, 1]
        assert got["B"] == [2, 0, 0]
        assert got["C"] == [3, 0, 0]


def test_art16_the_same_crosstable_placed_as_a_swiss_uses_dummy_opponents() -> None:
    got = values(False, Rules.FIDE_2024)
    # Art. 16.4 (2024): A's sit-out and forfeit win are games against a dummy scoring A's 2
    # points; art. 16.3: B's last round, unpaired, counts as a draw for B's opponents (1.5).
    # BH = 2 + 1.5 + 2, SB = 2 x 0 + 1.5 x 1 + 2 x 1.
    assert got["A"][:2] == [Fraction(11, 2), Fraction(7, 2)]


def test_a_round_robin_whose_leaver_left_his_games_unplayed_is_still_a_round_robin() -> None:
    for seed in range(40):
        section = round_robin(6 + seed % 3, seed, Mix(0, 0, 0, 0, withdraw=0.3))
        bare = replace(section, headers=(("012", section.name),))
        again, problems = read_trf("rr.trf", write_trf(bare).encode())
        assert problems == [] and again is not None and again.round_robin, seed
