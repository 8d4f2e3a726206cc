"""The rule language, one tiny hand-worked season per feature (KW, FC, NW, KC).

Each season is what a coordinator would write: a rules file of a few keys, a season.toml and the
events' standings CSV (or a crosstable built round by round and written as TRF). Every expected
number is worked out by hand in the test's docstring or comments, never by the engine.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from builders import build
from grandprix.cli import main
from grandprix.season.config import load_season
from grandprix.writers.trf import write_trf
from seasons import event, lines, season_toml, write_season

Event = tuple[str, str, str]  # (name, extra season.toml lines, results file text)


def results(head: str, *rows: str) -> str:
    """A standings CSV as an arbiter types it: the header, then one row a player."""
    return "\n".join((head, *rows)) + "\n"


def season(tmp_path: Path, rules: str, *events: Event, **files: str) -> Path:
    """A season under its own rules.toml; the events one a month from January, in order. A
    results text that starts with '012' is a TRF crosstable, any other a standings CSV."""
    blocks, written = [], {"rules.toml": rules, **files}
    for i, (name, extra, text) in enumerate(events, start=1):
        file = f"e{i}.trf" if text.startswith("012") else f"e{i}.csv"
        blocks.append(event(name, file, date=f"2012-{i:02d}-01", extra=extra))
        written[file] = text
    return write_season(tmp_path, season_toml('rules = "rules.toml"', *blocks), written)


def totals(folder: Path) -> dict[str, Fraction]:
    """Player name -> season total (exact)."""
    return {line.name: line.total for line in lines(folder)}


def earned(folder: Path) -> dict[tuple[str, str], Fraction]:
    """(event, player) -> the points of that player's award in that event."""
    return {(a.event_name, a.name): a.points for line in lines(folder) for a in line.awards}


def field(n: int) -> str:
    """A Swiss standings list of ``n`` players P1..Pn on distinct scores n-1, ..., 0."""
    return results("name,points", *(f"P{i},{n - i}" for i in range(1, n + 1)))


def by_place(folder: Path, n: int) -> list[Fraction]:
    """The points of P1..Pn."""
    got = totals(folder)
    return [got[f"P{i}"] for i in range(1, n + 1)]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


F = Fraction


# 1. points.bands (KW-3) ------------------------------------------------------------------------

BANDS = """[points]
bands = [
  { percent = 10, points = 72 }, { percent = 20, points = 62 }, { percent = 50, points = 44 },
]
"""


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        # cutoffs ceil(1) = 1, ceil(2) = 2, ceil(5) = 5: places 6-10 are below every band.
        (10, [72, 62, 44, 44, 44, 0, 0, 0, 0, 0]),
        # ceil(0.7) = 1, ceil(1.4) = 2, ceil(3.5) = 4: a part of a place rounds up.
        (7, [72, 62, 44, 44, 0, 0, 0]),
        # ceil(2.1) = 3, ceil(4.2) = 5, ceil(10.5) = 11.
        (21, [72, 72, 72, 62, 62, *[44] * 6, *[0] * 10]),
    ],
    ids=["10-players", "7-players", "21-players"],
)
def test_kw3_band_cutoff_is_ceil_of_percent_of_field(
    tmp_path: Path, n: int, expected: list[int]
) -> None:
    folder = season(tmp_path, BANDS, ("Open", "", field(n)))
    assert by_place(folder, n) == [F(v) for v in expected]


def test_kw3_when_two_cutoffs_coincide_the_first_band_wins_and_the_next_pays_nobody(
    tmp_path: Path,
) -> None:
    """N = 4: 10% -> ceil(0.4) = 1 and 20% -> ceil(0.8) = 1 coincide, 50% -> 2. Place 1 earns the
    first band (72), place 2 the first band reaching it, 50% (44): nobody earns 62."""
    folder = season(tmp_path, BANDS, ("Open", "", field(4)))
    assert by_place(folder, 4) == [72, 44, 0, 0]


def test_kw3_d_kw2_the_field_counts_every_player_listed_even_those_who_played_no_round(
    tmp_path: Path,
) -> None:
    """Ten listed, three of them never played (played 0): N is still 10 (D-KW-2), so the 50%
    band reaches place 5, not ceil(3.5) = 4 of the seven who played."""
    rows = [f"P{i},{10 - i},{5 if i <= 7 else 0}" for i in range(1, 11)]
    folder = season(tmp_path, BANDS, ("Open", "", results("name,points,played", *rows)))
    assert by_place(folder, 10) == [72, 62, 44, 44, 44, 0, 0, 0, 0, 0]


# 2. points.categories, nested ------------------------------------------------------------------

CATEGORIES = """[points]
table = [10, 5]
minimum = 1

[points.categories.classical]
table = [30, 20]
minimum = 2

[points.categories."classical/group-a"]
table = [50, 40]
"""
THREE = results("name,points", "A,3", "B,2", "C,1")


def test_categories_most_specific_entry_then_parent_then_the_base_keys(tmp_path: Path) -> None:
    """A, B, C finish 1-2-3 everywhere; C is below both tables and earns the minimum.

    - rapid (no entry): the base table 10, 5 and minimum 1;
    - classical/open (no entry of its own): its parent 'classical': 30, 20, minimum 2;
    - classical/group-a: its own table 50, 40; it gives no minimum, so the rule set's 1 applies
      (the keys a category leaves out keep the rule set's, not its parent's);
    - no category: the base keys.
    """
    folder = season(
        tmp_path,
        CATEGORIES,
        ("Rapid", 'category = "rapid"', THREE),
        ("Open", 'category = "classical/open"', THREE),
        ("Group A", 'category = "classical/group-a"', THREE),
        ("Club", "", THREE),
    )
    assert earned(folder) == {
        ("Rapid", "A"): 10,
        ("Rapid", "B"): 5,
        ("Rapid", "C"): 1,
        ("Open", "A"): 30,
        ("Open", "B"): 20,
        ("Open", "C"): 2,
        ("Group A", "A"): 50,
        ("Group A", "B"): 40,
        ("Group A", "C"): 1,
        ("Club", "A"): 10,
        ("Club", "B"): 5,
        ("Club", "C"): 1,
    }


def test_categories_a_category_changes_only_the_keys_it_gives(tmp_path: Path) -> None:
    """The category 'rapid' sets only ``ties = "full"``: its events keep the table 21, 15, 12.
    B and C tie on 2: in rapid both get the best place's 15, elsewhere they share
    (15 + 12) / 2 = 13.5."""
    rules = '[points]\ntable = [21, 15, 12]\n[points.categories.rapid]\nties = "full"\n'
    tied = results("name,points", "A,3", "B,2", "C,2")
    folder = season(tmp_path, rules, ("Rapid", 'category = "rapid"', tied), ("Slow", "", tied))
    got = earned(folder)
    assert [got["Rapid", n] for n in "ABC"] == [21, 15, 15]
    assert [got["Slow", n] for n in "ABC"] == [21, F(27, 2), F(27, 2)]


def test_categories_a_category_tiebreak_code_is_checked_before_work_starts(
    tmp_path: Path,
) -> None:
    crosstable = write_trf(ROUND_ROBIN)
    rules = (
        '[points]\ntable = [10, 8]\nties = "tiebreak"\ntiebreaks = "BH"\n'
        '[points.categories.rapid]\ntiebreaks = "BOGUS"\n'
    )
    folder = season(tmp_path, rules, ("Rapid", 'category = "rapid"', crosstable))
    code, out, _ = run("check", str(folder))
    assert code == 1 and "BOGUS" in out


# 3. points.top_percent and points.paid_places (FC-3) -----------------------------------------

FC_TABLE = "table = [10, 8, 7, 6, 5, 4, 3, 2]\n"


@pytest.mark.parametrize(
    ("n", "paid"),
    [(7, 3), (8, 4), (9, 4)],  # floor(3.5) = 3, floor(4) = 4, floor(4.5) = 4
)
def test_fc3_only_the_top_half_of_a_swiss_earns_points(tmp_path: Path, n: int, paid: int) -> None:
    folder = season(tmp_path, f"[points]\n{FC_TABLE}top_percent = 50\n", ("Swiss", "", field(n)))
    table = [10, 8, 7, 6, 5, 4, 3, 2]
    assert by_place(folder, n) == table[:paid] + [0] * (n - paid)


ROUND_ROBIN_PAID = f"""[points]
{FC_TABLE}paid_places = [
  {{ min_players = 1, places = 3 }},
  {{ min_players = 10, places = 4 }},
  {{ min_players = 13, places = 5 }},
]
"""


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (9, [10, 8, 7, *[0] * 6]),  # under 10 players: the top 3
        (10, [10, 8, 7, 6, *[0] * 6]),  # 10 to 12: the top 4
        (12, [10, 8, 7, 6, *[0] * 8]),
        (13, [10, 8, 7, 6, 5, *[0] * 8]),  # 13 or more: the top 5
    ],
)
def test_fc3_round_robin_paid_places_go_by_size(
    tmp_path: Path, n: int, expected: list[int]
) -> None:
    folder = season(tmp_path, ROUND_ROBIN_PAID, ("Round robin", "", field(n)))
    assert by_place(folder, n) == expected


# 4. points.first_outright (FC-2) ---------------------------------------------------------------

OUTRIGHT = "[points]\ntable = [10, 8, 7, 6]\nfirst_outright = 11\n"


def test_fc2_eleven_for_a_sole_winner_ten_when_first_is_shared(tmp_path: Path) -> None:
    """Sole: A wins alone on 5 -> 11; B 8, C 7. Shared: D and E both on 4 share 1st-2nd:
    (10 + 8) / 2 = 9 each (not (11 + 8) / 2); F 7."""
    folder = season(
        tmp_path,
        OUTRIGHT,
        ("Sole", "", results("name,points", "A,5", "B,4", "C,3")),
        ("Shared", "", results("name,points", "D,4", "E,4", "F,2")),
    )
    assert totals(folder) == {"A": 11, "B": 8, "C": 7, "D": 9, "E": 9, "F": 7}


def test_fc2_first_on_tiebreak_but_equal_on_score_is_not_outright(tmp_path: Path) -> None:
    """ties = tiebreak, official order D then E, both on 4: D is 1st but shares the score, so
    10; E 8."""
    rules = OUTRIGHT + 'ties = "tiebreak"\n'
    rows = results("rank,name,points", "1,D,4", "2,E,4", "3,F,2")
    folder = season(tmp_path, rules, ("Shared", "", rows))
    assert totals(folder) == {"D": 10, "E": 8, "F": 7}


def test_fc2_a_tie_for_first_after_skipping_an_ineligible_winner_is_not_outright(
    tmp_path: Path,
) -> None:
    """A wins alone on 5 but is not a member and is skipped; B and C (4 each) now share
    1st-2nd: (10 + 8) / 2 = 9 each, not (11 + 8) / 2 = 9.5. D moves up to 3rd: 7."""
    rules = OUTRIGHT + '[eligibility]\nrequire = { member = "yes" }\nineligible_players = "skip"\n'
    rows = results("name,id,points", "A,A,5", "B,B,4", "C,C,4", "D,D,1")
    members = results("id,name,member", "A,A,no", "B,B,yes", "C,C,yes", "D,D,yes")
    folder = season(tmp_path, rules, ("Open", "", rows), **{"players.csv": members})
    assert totals(folder) == {"B": 9, "C": 9, "D": 7}


# 5. ties = "split" (FC-4) ----------------------------------------------------------------------

# A four-player round robin: A 2.5, B 1.5, C 1.5, D 0.5.
#   Sonneborn-Berger: B drew A (2.5/2), C (1.5/2) and D (0.5/2) = 2.25;
#                     C beat D (0.5) and drew B (1.5/2) = 1.25.      B before C.
#   Buchholz (a complete round robin): B 2.5 + 1.5 + 0.5 = 4.5 = C's.  No separation.
ROUND_ROBIN = build(
    3,
    {
        "A": ["B w =", "C b 1", "D w 1"],
        "B": ["A b =", "D w =", "C b ="],
        "C": ["D b 1", "A w 0", "B w ="],
        "D": ["C w 0", "B b =", "A b 0"],
    },
    round_robin=True,
)


def split_rules(tiebreaks: str) -> str:
    return f'[points]\ntable = [10, 8, 7, 6]\nties = "split"\ntiebreaks = "{tiebreaks}"\n'


def test_fc4_split_half_the_tiebreak_place_plus_half_the_mean_of_the_tie(tmp_path: Path) -> None:
    """B and C tie for 2nd-3rd, mean (8 + 7) / 2 = 7.5; SB puts B 2nd and C 3rd:
    B = 8/2 + 7.5/2 = 7.75, C = 7/2 + 7.5/2 = 7.25 (together 15 = 8 + 7). A 10, D 6."""
    folder = season(tmp_path, split_rules("SB"), ("RR", "", write_trf(ROUND_ROBIN)))
    assert totals(folder) == {"A": 10, "B": F(31, 4), "C": F(29, 4), "D": 6}


def test_fc4_split_with_no_tiebreak_that_separates_gives_equal_shares(tmp_path: Path) -> None:
    """BH is 4.5 for both B and C: each gets 7.5/2 + 7.5/2 = 7.5."""
    folder = season(tmp_path, split_rules("BH"), ("RR", "", write_trf(ROUND_ROBIN)))
    assert totals(folder) == {"A": 10, "B": F(15, 2), "C": F(15, 2), "D": 6}


# 6. points.gain (KW-4, KW-8) -------------------------------------------------------------------

# Final places 1-6 with start ranks 2, 5, 1, 6, 3, 4: places gained A 1, B 3, C 0, D 2, E 0
# (3 - 5 < 0), F 0. Placement table 21, 15, 9, 5, 3 (F, 6th, earns 0).
GAIN_FIELD = results("name,points,start_rank", "A,5,2", "B,4,5", "C,3,1", "D,2,6", "E,1,3", "F,0,4")


@pytest.mark.parametrize(
    ("gain", "expected"),
    [
        # 2 per place: A 21 + 2, B 15 + 6, D 5 + 4.
        ("per_place = 2", [23, 21, 9, 9, 3, 0]),
        # at most 5: B min(6, 5) = 5.
        ("per_place = 2, cap = 5", [23, 20, 9, 9, 3, 0]),
        # and at most half the placement: A min(2, 10.5), B min(5, 7.5), D min(4, 2.5) = 2.5.
        ("per_place = 2, cap = 5, cap_percent = 50", [23, 20, 9, F(15, 2), 3, 0]),
        # that half rounded down: D floor(2.5) = 2 (B floor(7.5) = 7 > 5, A floor(10.5) = 10).
        ("per_place = 2, cap = 5, cap_percent = 50, round_down = true", [23, 20, 9, 7, 3, 0]),
    ],
    ids=["per-place", "cap", "cap-percent", "round-down"],
)
def test_kw4_gain_bonus_per_place_over_the_seed_with_caps(
    tmp_path: Path, gain: str, expected: list[Fraction | int]
) -> None:
    rules = f"[points]\ntable = [21, 15, 9, 5, 3]\ngain = {{ {gain} }}\n"
    folder = season(tmp_path, rules, ("Open", "", GAIN_FIELD))
    got = totals(folder)
    assert [got[n] for n in "ABCDEF"] == expected


def test_kw4_seed_start_is_the_order_of_start_numbers_not_their_value(tmp_path: Path) -> None:
    """Start numbers 30, 10, 20 are seeds 3, 1, 2. A (seed 3) wins: 2 places gained, 10 + 4;
    B (seed 1) 2nd: 6; C (seed 2) 3rd: 3. Taking the number itself would give A 29 places."""
    rules = "[points]\ntable = [10, 6, 3]\ngain = { per_place = 2 }\n"
    rows = results("name,points,start_rank", "A,2,30", "B,1,10", "C,0,20")
    folder = season(tmp_path, rules, ("Open", "", rows))
    assert totals(folder) == {"A": 14, "B": 6, "C": 3}


def test_kw8_seed_by_rating_shares_the_better_rank_and_unrated_one_below_every_rated(
    tmp_path: Path,
) -> None:
    """Ratings Q 2000, R 1900, S 1900, P and T unrated: seeds Q 1, R 2, S 2 (equal ratings share
    the better rank), P and T 4 (the rank after the three rated players).

    Final order R, S, P, Q, T with table 20, 16, 12, 10, 8 and 2 per place:
    R seed 2 -> 1st: +2 = 22; S seed 2 -> 2nd: 16; P seed 4 -> 3rd: +2 = 14; Q 10; T seed 4 ->
    5th: 8."""
    rules = '[points]\ntable = [20, 16, 12, 10, 8]\ngain = { per_place = 2, seed = "rating" }\n'
    rows = results("name,points,rating", "R,4,1900", "S,3,1900", "P,2,", "Q,1,2000", "T,0,")
    folder = season(tmp_path, rules, ("Open", "", rows))
    assert totals(folder) == {"R": 22, "S": 16, "P": 14, "Q": 10, "T": 8}


# 7. points.completion (KW-5) -------------------------------------------------------------------

COMPLETION = "[points]\ntable = [10, 8, 6, 4]\ncompletion = 5\n"


def test_kw5_completion_from_the_played_column_rounds_are_the_most_anyone_played(
    tmp_path: Path,
) -> None:
    """The event has 5 rounds (the most anyone played). A and C played 5: +5; B 4, D 3: none.
    A 10 + 5, B 8, C 6 + 5, D 4."""
    rows = results("name,points,played", "A,5,5", "B,4,4", "C,3,5", "D,2,3")
    folder = season(tmp_path, COMPLETION, ("Open", "", rows))
    assert totals(folder) == {"A": 15, "B": 8, "C": 11, "D": 4}


# Three rounds. A: a game, a forfeit win, a pairing bye -> took part in all 3.
#               B: three games -> all 3.
#               C: a game, a forfeit loss, a game -> 2 of 3.
#               D: two games and a requested half-point bye -> 2 of 3.
# Scores A 3 (1 + 1 + 1), B 2, C 1, D 0.5: places 1-4.
COMPLETION_CROSSTABLE = build(
    3,
    {
        "A": ["B w 1", "C b +", "U"],
        "B": ["A b 0", "D w 1", "C w 1"],
        "C": ["D w 1", "A w -", "B b 0"],
        "D": ["C b 0", "B b 0", "H"],
    },
)


def test_kw5_d_kw3_a_forfeit_win_and_a_pairing_bye_count_a_forfeit_loss_and_a_requested_bye_not(
    tmp_path: Path,
) -> None:
    """A 10 + 5, B 8 + 5, C 6, D 4."""
    folder = season(tmp_path, COMPLETION, ("Open", "", write_trf(COMPLETION_CROSSTABLE)))
    assert totals(folder) == {"A": 15, "B": 13, "C": 6, "D": 4}


# 8. eligibility.min_rounds_percent (KW-6) ------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        # keep-place: B keeps 2nd and its 8 go to nobody; C 3rd, D 4th.
        ("keep-place", {"A": 10, "C": 6, "D": 4}),
        # skip: B is removed, C moves up to 2nd, D to 3rd.
        ("skip", {"A": 10, "C": 8, "D": 6}),
    ],
)
def test_kw6_fewer_than_half_the_rounds_earns_nothing(
    tmp_path: Path, mode: str, expected: dict[str, int]
) -> None:
    """6 rounds; half is 3. B took part in 2 (33%): no points. C in exactly 3: eligible."""
    rules = (
        "[points]\ntable = [10, 8, 6, 4]\n"
        f'[eligibility]\nmin_rounds_percent = 50\nineligible_players = "{mode}"\n'
    )
    rows = results("name,points,played", "A,6,6", "B,5,2", "C,4,3", "D,3,6")
    folder = season(tmp_path, rules, ("Open", "", rows))
    assert totals(folder) == expected


# 9. points.rating_factor (FC-1, D-FC-1) --------------------------------------------------------

FACTOR = "[points]\ntable = [10, 8, 7, 6]\nrating_factor = { top = 3, base = 2500, per = 100 }\n"


def test_fc1_d_fc1_rating_factor_is_exact(tmp_path: Path) -> None:
    """Top 3 ratings 2800, 2700, 2601 (2000 is 4th): mean 8101/3; k = (8101/3 - 2500) / 100 =
    601/300 (2.00333...). A 10 x 601/300 = 601/30, B 8 x 601/300 = 1202/75, C 7 x 601/300 =
    4207/300, D 6 x 601/300 = 601/50."""
    rows = results("name,points,rating", "A,3,2000", "B,2,2800", "C,1,2700", "D,0,2601")
    folder = season(tmp_path, FACTOR, ("Elite", "", rows))
    assert totals(folder) == {"A": F(601, 30), "B": F(1202, 75), "C": F(4207, 300), "D": F(601, 50)}


def test_fc1_d_fc1_a_field_below_the_base_gives_factor_zero(tmp_path: Path) -> None:
    """Top 3 mean (2450 + 2400 + 2300) / 3 = 2383.33 < 2500: k = 0, never negative."""
    rows = results("name,points,rating", "A,2,2450", "B,1,2400", "C,0,2300")
    folder = season(tmp_path, FACTOR, ("Weak", "", rows))
    assert totals(folder) == {"A": 0, "B": 0, "C": 0}


def test_fc1_fewer_rated_players_than_top_averages_the_rated_ones(tmp_path: Path) -> None:
    """Top 3 asked, only B 2700 and C 2600 rated: mean 2650, k = 1.5. A 15, B 12, C 10.5, D 9."""
    rows = results("name,points,rating", "A,3,", "B,2,2700", "C,1,2600", "D,0,")
    folder = season(tmp_path, FACTOR, ("Few", "", rows))
    assert totals(folder) == {"A": 15, "B": 12, "C": F(21, 2), "D": 9}


# 10. points.classes with factor (NW-1, NW-2, D-NW-1) --------------------------------------------

NORTHWEST = """[points]
from_score = true
based_on_percent = 50

[[points.classes]]
name = "x1"
min_prize_fund = 0

[[points.classes]]
name = "x2"
min_prize_fund = 500
factor = 2

[[points.classes]]
name = "x3"
min_prize_fund = 1000
factor = 3

[[points.classes]]
name = "x4"
min_prize_fund = 2000
factor = 4

[[points.classes]]
name = "x5"
min_prize_fund = 5000
factor = 5
"""
SCORES = results("name,points", "A,3.5", "B,2")


def test_nw1_nw2_d_nw1_score_times_class_factor_a_based_on_fund_counts_half(
    tmp_path: Path,
) -> None:
    """$3,000 guaranteed: x4, A 3.5 x 4 = 14, B 8. $3,000 based on: counts as $1,500, x3 (not
    half the multiplier, x2): A 10.5, B 6. $400: x1."""
    folder = season(
        tmp_path,
        NORTHWEST,
        ("Guaranteed", "prize_fund = 3000", SCORES),
        ("Based on", "prize_fund = 3000\nbased_on = true", SCORES),
        ("Small", "prize_fund = 400", SCORES),
    )
    assert earned(folder) == {
        ("Guaranteed", "A"): 14,
        ("Guaranteed", "B"): 8,
        ("Based on", "A"): F(21, 2),
        ("Based on", "B"): 6,
        ("Small", "A"): F(7, 2),
        ("Small", "B"): 2,
    }


def test_classes_factor_without_a_table_multiplies_the_rule_sets_table(tmp_path: Path) -> None:
    """Table 10, 6; class '2' from $1,000 has no table, only x2: A 20, B 12 there; $999 is
    class '1': A 10, B 6."""
    rules = (
        "[points]\ntable = [10, 6]\n"
        '[[points.classes]]\nname = "1"\nmin_prize_fund = 0\n'
        '[[points.classes]]\nname = "2"\nmin_prize_fund = 1000\nfactor = 2\n'
    )
    folder = season(
        tmp_path,
        rules,
        ("Rich", "prize_fund = 1000", SCORES),
        ("Poor", "prize_fund = 999", SCORES),
    )
    assert earned(folder) == {
        ("Rich", "A"): 20,
        ("Rich", "B"): 12,
        ("Poor", "A"): 10,
        ("Poor", "B"): 6,
    }


# 11. counting.mode = "most-minus" (KC-2) --------------------------------------------------------

# Four events in the calendar; the most anyone played is 3 (A).
#   A: 5, 3, 4 (E1-E3);  B: 6, 1 (E1, E4).
MOST_MINUS_EVENTS: list[Event] = [
    ("E1", "", results("name,points", "A,5", "B,6")),
    ("E2", "", results("name,points", "A,3")),
    ("E3", "", results("name,points", "A,4")),
    ("E4", "", results("name,points", "B,1")),
]


@pytest.mark.parametrize(
    ("drop", "expected"),
    [
        # n - 1 = 2 count (not the calendar's 4 - 1 = 3): A 5 + 4, B 6 + 1.
        (1, {"A": 9, "B": 7}),
        # n - 2 = 1: A 5, B 6.
        (2, {"A": 5, "B": 6}),
    ],
)
def test_kc2_best_n_minus_drop_n_the_most_events_anyone_played(
    tmp_path: Path, drop: int, expected: dict[str, int]
) -> None:
    rules = f'[points]\nfrom_score = true\n[counting]\nmode = "most-minus"\ndrop = {drop}\n'
    assert totals(season(tmp_path, rules, *MOST_MINUS_EVENTS)) == expected


# 12. counting.per_category (KW-7, FC-5) ---------------------------------------------------------


def scored(*events: tuple[str, str, int]) -> list[Event]:
    """A's events: (name, category, score)."""
    return [
        (name, f'category = "{category}"', results("name,points", f"A,{score}"))
        for name, category, score in events
    ]


def test_kw7_nested_categories_count_under_their_parent(tmp_path: Path) -> None:
    """At most 2 classical and 1 rapid. Group A (50) and Open (40) are both classical: with
    them, the plain classical 30 is over the cap; rapid 20 counts, rapid 10 does not.
    50 + 40 + 20 = 110."""
    rules = "[points]\nfrom_score = true\n[counting]\nper_category = { classical = 2, rapid = 1 }\n"
    events = scored(
        ("Group A", "classical/group-a", 50),
        ("Open", "classical/open", 40),
        ("Classical", "classical", 30),
        ("Rapid 1", "rapid", 20),
        ("Rapid 2", "rapid", 10),
    )
    assert totals(season(tmp_path, rules, *events)) == {"A": 110}


def test_fc5_best_within_caps_not_the_best_overall_then_capped(tmp_path: Path) -> None:
    """Best 3, at most 1 fast (rapid or blitz). The best three overall, 6 (rapid), 5 (blitz),
    4, break the cap. Best within the caps: 6, then 5 is the second fast (skipped), 4, then 2:
    6 + 4 + 2 = 12 (dropping the blitz from the best three would give only 10)."""
    rules = (
        "[points]\nfrom_score = true\n"
        '[counting]\nmode = "best"\nbest = 3\nper_category = { fast = 1 }\n'
    )
    events = scored(
        ("Rapid", "fast/rapid", 6),
        ("Blitz", "fast/blitz", 5),
        ("Standard 1", "standard", 4),
        ("Standard 2", "standard", 2),
        ("Standard 3", "standard", 1),
    )
    assert totals(season(tmp_path, rules, *events)) == {"A": 12}


def test_fc5_a_parent_cap_also_limits_a_capped_child(tmp_path: Path) -> None:
    """At most 2 fast, of which at most 1 blitz. Blitz 9 counts, blitz 8 is the second blitz,
    rapid 7 is the second fast, rapid 6 would be a third fast: 9 + 7 = 16."""
    rules = (
        '[points]\nfrom_score = true\n[counting]\nper_category = { fast = 2, "fast/blitz" = 1 }\n'
    )
    events = scored(
        ("Blitz 1", "fast/blitz", 9),
        ("Blitz 2", "fast/blitz", 8),
        ("Rapid 1", "fast/rapid", 7),
        ("Rapid 2", "fast/rapid", 6),
    )
    assert totals(season(tmp_path, rules, *events)) == {"A": 16}


# 13. standings.tiebreaks = ["per-event"] (KC-3) ------------------------------------------------


@pytest.mark.parametrize(
    ("tiebreaks", "ranks"),
    [
        # B 8 / 1 counted = 8 before A 8 / 2 = 4 and C 8 / 2 = 4, who stay equal (D-KC-1).
        ('["per-event"]', {"B": "1", "A": "2-3", "C": "2-3"}),
        ("[]", {"B": "1-3", "A": "1-3", "C": "1-3"}),
    ],
)
def test_kc3_equal_totals_fewer_counted_results_first(
    tmp_path: Path, tiebreaks: str, ranks: dict[str, str]
) -> None:
    """Best n - 1, n = 3 (A): A 4 + 4 (the 0 dropped) = 8 from 2 counted; B 8 from 1;
    C 5 + 3 = 8 from 2. A per counted result 4, not 8/3 per event played."""
    rules = (
        "[points]\nfrom_score = true\n"
        '[counting]\nmode = "most-minus"\n'
        f"[standings]\ntiebreaks = {tiebreaks}\n"
    )
    folder = season(
        tmp_path,
        rules,
        ("E1", "", results("name,points", "A,4", "B,8")),
        ("E2", "", results("name,points", "A,4", "C,5")),
        ("E3", "", results("name,points", "A,0", "C,3")),
    )
    got = {line.name: (line.total, line.rank) for line in lines(folder)}
    assert got == {name: (F(8), rank) for name, rank in ranks.items()}


# 14. the standings CSV's start_rank and played columns, through the command line -------------


@pytest.mark.parametrize(
    ("rows", "where", "says"),
    [
        (
            ["name,points,start_rank", "A,3,1", "B,2,1"],
            "e1.csv:3:3:",
            "start_rank 1 is listed twice (first on line 2)",
        ),
        (
            ["name,points,start_rank", "A,3,first", "B,2,2"],
            "e1.csv:2:3:",
            "field 'start_rank' = 'first' is not a whole number from 1 to 1,000,000",
        ),
        (
            ["name,points,start_rank", "A,3,0", "B,2,2"],
            "e1.csv:2:3:",
            "field 'start_rank' = '0' is not a whole number",
        ),
        (
            ["name,played,points", "A,all,3", "B,5,2"],
            "e1.csv:2:2:",
            "field 'played' = 'all' is not a whole number from 0 to 1,000",
        ),
        (
            ["name,points,played", "A,3,5", "B,2,4.5"],
            "e1.csv:3:3:",
            "field 'played' = '4.5' is not a whole number",
        ),
        (
            ["name,points,played", "A,3,5", "B,2,-1"],
            "e1.csv:3:3:",
            "field 'played' = '-1' is not a whole number",
        ),
    ],
    ids=[
        "start-rank-twice",
        "start-rank-word",
        "start-rank-zero",
        "played-word",
        "played-fraction",
        "played-negative",
    ],
)
def test_start_rank_and_played_errors_name_file_line_column_and_field(
    tmp_path: Path, rows: list[str], where: str, says: str
) -> None:
    folder = season(tmp_path, "[points]\ntable = [10, 8]\n", ("E", "", results(*rows)))
    code, out, _ = run("check", str(folder))
    assert code == 1 and f"{folder / where} {says}" in out, out
    code, out, err = run("standings", str(folder))
    assert code == 2 and out == "" and f"{folder / where} {says}" in err, err


def test_a_played_value_with_leading_zeros_is_read_or_reported_never_dropped(
    tmp_path: Path,
) -> None:
    rows = results("name,points,played", "A,5,5", "B,4,000000001", "C,3,5")
    folder = season(tmp_path, "[points]\ntable = [10, 8]\n", ("E", "", rows))
    found, problems = load_season(folder)
    assert found is not None or problems
    names = [p.name for p in found.events[0].sections[0].section.players] if found else []
    located = [str(p) for p in problems if str(p).startswith(f"{folder / 'e1.csv'}:3:3:")]
    assert "B" in names or located


# 15. explain: the arithmetic of an award with a class factor and a gain bonus ----------------


def explained_season(tmp_path: Path) -> Path:
    """A wins (base 10 of 10, 8, 6) from seed 3: 2 places, bonus 2 x 2 = 4. Class '2' ($1,000)
    multiplies by 3, the event weight is 2: 10 x 3 x 2 x 1 + 4 = 64."""
    rules = (
        "[points]\ntable = [10, 8, 6]\ngain = { per_place = 2 }\n"
        '[[points.classes]]\nname = "1"\nmin_prize_fund = 0\n'
        '[[points.classes]]\nname = "2"\nmin_prize_fund = 1000\nfactor = 3\n'
    )
    rows = results("name,points,start_rank", "A,5,3", "B,4,1", "C,3,2")
    return season(tmp_path, rules, ("E", "prize_fund = 1000\nweight = 2", rows))


def test_gain_bonus_is_added_after_the_class_factor_and_the_weight(tmp_path: Path) -> None:
    assert totals(explained_season(tmp_path))["A"] == 64


NUMBER = re.compile(r"\d+(?:\.\d+)?")


def arithmetic(line: str) -> tuple[Fraction, Fraction]:
    """The value of 'a x b x ... + c = d' (words between the numbers ignored) and d."""
    left, _, right = line.partition("=")
    value = Fraction(0)
    for term in left.split("+"):
        product = Fraction(1)
        for factor in term.split(" x "):
            product *= Fraction(NUMBER.findall(factor)[0])
        value += product
    return value, Fraction(NUMBER.findall(right)[0])


def test_explain_arithmetic_line_adds_up(tmp_path: Path) -> None:
    code, out, _ = run("explain", str(explained_season(tmp_path)), "A")
    assert code == 0
    line = next(s for s in out.splitlines() if "[counted]" in s)
    assert arithmetic(line) == (F(64), F(64)), line
