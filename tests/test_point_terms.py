"""Points as a sum of terms (``points.terms``) and ``ties = "best"``, hand-worked from the rule
texts they model: a weekly blitz series paying game points plus a place bonus, a regional series
paying the places counted from the bottom plus 6 x the score plus a point for taking part, a
participation amount added after the event's weight, and a club whose tied players all take the
best place of their tie while the tie-breaks order the rest (Kapiti)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from test_rule_language import Event, earned, results, run, season

F = Fraction

BLITZ = """[points]
table = [10, 9, 9, 8]
terms = [{ kind = "score" }, { kind = "place" }]
"""


def test_game_points_plus_a_place_bonus(tmp_path: Path) -> None:
    """Scores 4, 3, 2.5, 2.5: A 4 + 10 = 14; B 3 + 9 = 12; C and D share 3rd-4th, the mean
    of 9 and 8 = 8.5, plus 2.5 = 11 each."""
    folder = season(
        tmp_path, BLITZ, ("Blitz", "", results("name,points", "A,4", "B,3", "C,2.5", "D,2.5"))
    )
    assert earned(folder) == {
        ("Blitz", "A"): 14,
        ("Blitz", "B"): 12,
        ("Blitz", "C"): 11,
        ("Blitz", "D"): 11,
    }


REGIONAL = """[points]
terms = [{ kind = "from-bottom" }, { kind = "score", factor = 6 },
         { kind = "fixed", amount = 1 }]
"""
FIVE: Event = ("Open", "", results("name,points", "A,4", "B,3", "C,3", "D,1", "E,0"))


def test_places_from_the_bottom_plus_six_times_the_score_plus_one(tmp_path: Path) -> None:
    """Five players: A 1st, 5 - 1 + 1 = 5, + 6 x 4 = 24, + 1 = 30; B and C share 2nd-3rd, the
    mean of 4 and 3 = 3.5, + 18 + 1 = 22.5; D 4th, 2 + 6 + 1 = 9; E 5th, 1 + 0 + 1 = 2."""
    folder = season(tmp_path, REGIONAL, FIVE)
    assert earned(folder) == {
        ("Open", "A"): 30,
        ("Open", "B"): F(45, 2),
        ("Open", "C"): F(45, 2),
        ("Open", "D"): 9,
        ("Open", "E"): 2,
    }


def test_a_participation_amount_added_after_the_events_weight(tmp_path: Path) -> None:
    """Table 10, 6, weight 2; 2 for taking part, not weighted: A 10 x 2 + 2 = 22, B 6 x 2 + 2
    = 14. Weighted, it would be (10 + 2) x 2 = 24."""
    rules = (
        '[points]\ntable = [10, 6]\nterms = [{ kind = "place" }, '
        '{ kind = "fixed", amount = 2, weighted = false }]\n'
    )
    scores = results("name,points", "A,2", "B,1")
    folder = season(tmp_path, rules, ("Double", "weight = 2", scores))
    assert earned(folder) == {("Double", "A"): 22, ("Double", "B"): 14}
    weighted = rules.replace(", weighted = false", "")
    again = season(tmp_path / "weighted", weighted, ("Double", "weight = 2", scores))
    assert earned(again) == {("Double", "A"): 24, ("Double", "B"): 16}


def test_the_older_keys_are_a_sum_of_one_term(tmp_path: Path) -> None:
    """``from_score`` with ``score_factor`` 2 and ``terms = [{ kind = "score", factor = 2 }]``
    give the same points; a table alone and ``terms = [{ kind = "place" }]`` too."""
    scores: Event = ("E", "", results("name,points", "A,3", "B,1.5", "C,1.5"))
    old = season(tmp_path / "old", "[points]\nfrom_score = true\nscore_factor = 2\n", scores)
    new = season(tmp_path / "new", '[points]\nterms = [{ kind = "score", factor = 2 }]\n', scores)
    assert earned(old) == earned(new) == {("E", "A"): 6, ("E", "B"): 3, ("E", "C"): 3}
    table = season(tmp_path / "t", "[points]\ntable = [10, 6, 4]\n", scores)
    termed = season(
        tmp_path / "tt", '[points]\ntable = [10, 6, 4]\nterms = [{ kind = "place" }]\n', scores
    )
    assert earned(table) == earned(termed) == {("E", "A"): 10, ("E", "B"): 5, ("E", "C"): 5}


RANKED = results("rank,name,points", "1,A,4", "2,B,3", "2,C,3", "4,D,2")
DECIDED = results("rank,name,points", "1,A,3", "2,B,2", "3,C,2")


def test_ties_best_takes_the_best_place_of_a_shared_rank(tmp_path: Path) -> None:
    """Table 10, 8, 6, 4. The file gives B and C one place, 2 (a repeated rank): with
    ``best`` each takes 2nd's 8 and D 4th's 4; with ``tiebreak`` they share the mean, 7."""
    best = season(
        tmp_path / "b", '[points]\ntable = [10, 8, 6, 4]\nties = "best"\n', ("E", "", RANKED)
    )
    assert earned(best) == {("E", "A"): 10, ("E", "B"): 8, ("E", "C"): 8, ("E", "D"): 4}
    shared = season(
        tmp_path / "s", '[points]\ntable = [10, 8, 6, 4]\nties = "tiebreak"\n', ("E", "", RANKED)
    )
    assert earned(shared)[("E", "B")] == 7


def test_ties_best_keeps_the_order_the_file_gives_on_equal_scores(tmp_path: Path) -> None:
    """B and C both scored 2, but the file ranks B 2nd and C 3rd (its tie-breaks decided):
    ``best`` pays 8 and 6; ``full``, whose ties are equal scores, pays both 8."""
    best = season(
        tmp_path / "b", '[points]\ntable = [10, 8, 6]\nties = "best"\n', ("E", "", DECIDED)
    )
    assert earned(best) == {("E", "A"): 10, ("E", "B"): 8, ("E", "C"): 6}
    full = season(
        tmp_path / "f", '[points]\ntable = [10, 8, 6]\nties = "full"\n', ("E", "", DECIDED)
    )
    assert earned(full) == {("E", "A"): 10, ("E", "B"): 8, ("E", "C"): 8}


def test_terms_are_checked_with_located_errors(tmp_path: Path) -> None:
    both = season(
        tmp_path / "a", '[points]\nfrom_score = true\nterms = [{ kind = "score" }]\n', FIVE
    )
    code, out, _ = run("check", str(both))
    assert code == 1 and "rules.toml:" in out and "either 'terms' or 'from_score'" in out
    twice = season(
        tmp_path / "b",
        '[points]\ntable = [3, 2]\nterms = [{ kind = "place" }, { kind = "place" }]\n',
        FIVE,
    )
    code, out, _ = run("check", str(twice))
    assert code == 1 and "one 'place' term at most" in out
    unknown = season(tmp_path / "c", '[points]\nterms = [{ kind = "bonus" }]\n', FIVE)
    code, out, _ = run("check", str(unknown))
    assert code == 1 and "rules.toml:2" in out and "kind" in out


def test_explain_and_the_players_page_say_each_term(tmp_path: Path) -> None:
    folder = season(tmp_path, REGIONAL, FIVE)
    code, out, _ = run("explain", str(folder), "B")
    assert code == 0 and "places from the bottom: tie 2-3: (4 + 3) / 2" in out
    assert "event score 3 x 6" in out and "1 for taking part" in out
    site = tmp_path / "site"
    assert run("site", str(folder), "-o", str(site))[0] == 0
    page = next((site / "players").glob("b*.html")).read_text()
    assert "3.50 for the places below + 18.00 for the score + 1.00 for taking part = 22.50" in page
    rules = (site / "rules.html").read_text()
    assert "6 x the player&#39;s score in the event" in rules and "1 for taking part" in rules


# points.played: what counts as a played round --------------------------------------------------


def test_a_forfeit_loss_counted_as_played_gives_the_completion_bonus(tmp_path: Path) -> None:
    """The crosstable of test_rule_language: C took part in a game, lost a forfeit and played a
    game; D played two games and took a requested half-point bye. By default A and B complete
    (A 15, B 13, C 6, D 4); counting a forfeit loss as played, C completes too (6 + 5 = 11);
    counting a half-point bye, D (4 + 5 = 9)."""
    from grandprix.writers.trf import write_trf
    from test_rule_language import COMPLETION, COMPLETION_CROSSTABLE, totals

    trf = write_trf(COMPLETION_CROSSTABLE)
    default = season(tmp_path / "d", COMPLETION, ("Open", "", trf))
    assert totals(default) == {"A": 15, "B": 13, "C": 6, "D": 4}
    kinds = '\nplayed = ["game", "forfeit-win", "forfeit-loss", "pairing-bye"]\n'
    forfeits = season(tmp_path / "f", COMPLETION + kinds, ("Open", "", trf))
    assert totals(forfeits) == {"A": 15, "B": 13, "C": 11, "D": 4}
    byes = '\nplayed = ["game", "forfeit-win", "pairing-bye", "half-bye"]\n'
    assert totals(season(tmp_path / "b", COMPLETION + byes, ("Open", "", trf)))["D"] == 9
    site = tmp_path / "site"
    assert run("site", str(forfeits), "-o", str(site))[0] == 0
    said = (site / "rules.html").read_text()
    assert (
        "a game, a win by forfeit, a bye given by the pairing or a forfeit lost counts as "
        "played; a round not paired does not"
    ) in said


def test_what_counts_as_played_decides_who_played_half_the_rounds(tmp_path: Path) -> None:
    """Three rounds, points only from half of them (2 of 3): C took part in 2 by default
    (a game, a game; the forfeit loss not), D in 2 (two games). With only games counted and a
    forfeit win not, A (a game, a forfeit win, a pairing bye) has 1 and earns nothing."""
    from grandprix.writers.trf import write_trf
    from test_rule_language import COMPLETION_CROSSTABLE, totals

    rules = (
        '[points]\ntable = [10, 8, 6, 4]\nplayed = ["game"]\n'
        "[eligibility]\nmin_rounds_percent = 50\n"
    )
    folder = season(tmp_path, rules, ("Open", "", write_trf(COMPLETION_CROSSTABLE)))
    assert totals(folder) == {"B": 8, "C": 6, "D": 4}
    wrong = rules.replace('"game"', '"games"')
    bad = season(tmp_path / "bad", wrong, ("Open", "", write_trf(COMPLETION_CROSSTABLE)))
    code, out, _ = run("check", str(bad))
    assert code == 1 and "rules.toml:3" in out and "played" in out


BELOW = """[points]
table = [10, 9]
terms = [{ kind = "score" }, { kind = "place", below = 4 }]
ties = "best"
"""


def test_pom1_every_place_below_the_table_is_worth_its_below(tmp_path: Path) -> None:
    """Places 1-2 pay 10 and 9, every place below 4 (POM-1); the sum of terms has no minimum:
    E on 0 points in 5th earns 0 + 4. Ranked 1, 2, 3, 3, 5 by the file: C and D each take
    3rd's 4 (ties = "best")."""
    text = results("rank,name,points", "1,A,4", "2,B,3", "3,C,2", "3,D,2", "5,E,0")
    folder = season(tmp_path, BELOW, ("Blitz", "", text))
    got = earned(folder)
    assert [got[("Blitz", p)] for p in "ABCDE"] == [14, 12, 6, 6, 4]


def test_pom1_without_below_places_below_the_table_earn_only_their_score(tmp_path: Path) -> None:
    rules = BELOW.replace(", below = 4", "")
    text = results("rank,name,points", "1,A,4", "2,B,3", "3,C,2")
    assert earned(season(tmp_path, rules, ("Blitz", "", text)))[("Blitz", "C")] == 2


CAPPED = """[points]
terms = [{ kind = "score", factor = 10 }, { kind = "at-most", amount = 25 }]
"""


def test_a_cap_on_the_terms_before_it(tmp_path: Path) -> None:
    """3 x 10 = 30 is capped at 25; 2 x 10 = 20 is not: the cap is recorded where it binds,
    as the points it takes away, and said by explain and the player's page."""
    folder = season(tmp_path, CAPPED, ("Blitz", "", results("name,points", "A,3", "B,2")))
    assert earned(folder) == {("Blitz", "A"): 25, ("Blitz", "B"): 20}
    code, out, _ = run("explain", str(folder), "A")
    assert code == 0 and "30.00 for the score - 5.00 for the cap of 25 = 25.00" in out, out
    code, out, _ = run("explain", str(folder), "B")
    assert "cap" not in out


def test_a_cap_cannot_come_after_the_multipliers(tmp_path: Path) -> None:
    rules = CAPPED.replace("amount = 25 }", "amount = 25, weighted = false }")
    code, _, err = run(
        "standings", str(season(tmp_path, rules, ("E", "", results("name,points", "A,1"))))
    )
    assert code != 0 and "'at-most' term bounds the weighted terms before it" in err
