"""The rules of the Chess Kenya Grand Prix as hand-worked cases: an event worth the performance
rating (KEN-2, from the file or worked out from a crosstable), the mean of the best N rounded
half up (KEN-3), players ranked first by results counted (KEN-4), players excluded by id or by
name (KEN-5), a result voided by a forfeit (KEN-6), and the located errors of bad cells."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from conftest import TEST_DATA
from grandprix.season.config import load_season
from grandprix.season.standings import standings
from test_rule_language import earned, results, run, season, totals

F = Fraction
RR = TEST_DATA / "fide-c07-held-exercises" / "held_round_robin.trf"
PERFORMANCE = '[points]\nterms = [{ kind = "performance" }]\n'


def test_ken2_rp_read_from_the_file(tmp_path: Path) -> None:
    """The Rp column as chess-results prints it, a thousands mark allowed."""
    text = results("name,points,Rp", "A,5,2075", 'B,4,"1,994"', "C,1,1200")
    folder = season(tmp_path, PERFORMANCE, ("Jan", "", text))
    assert totals(folder) == {"A": 2075, "B": 1994, "C": 1200}


def test_ken2_d_ken1_a_crosstable_without_rp_gives_fides_tpr(tmp_path: Path) -> None:
    """C.07 art. 10.2 over the games played over the board: Charline met 2050, 2000, 2200, 2150
    and 1950 (average 2070) and scored 3.5 of 5, 70%, +149: 2219. Alyx: average 2050, 70%:
    2199. Franck's forfeit is left out: 2200, 2050, 2150, 2100 average 2125, 1.5 of 4 is 38%
    (half up), -87: 2038."""
    folder = season(tmp_path, PERFORMANCE, ("Jan", "", RR.read_text(encoding="utf-8")))
    got = earned(folder)
    assert got[("Jan", "Charline")] == 2219
    assert got[("Jan", "Alyx")] == 2199
    assert got[("Jan", "Franck")] == 2038


def test_ken2_a_standings_list_without_rp_is_an_error(tmp_path: Path) -> None:
    folder = season(tmp_path, PERFORMANCE, ("Jan", "", results("name,points", "A,5")))
    found, problems = load_season(folder)
    assert found is None
    assert any("e1.csv" in str(p) and "no 'performance' column" in str(p) for p in problems)


def test_ken2_an_rp_that_is_no_rating_is_located(tmp_path: Path) -> None:
    text = results("name,points,tpr", "A,5,2075", "B,4,n/a")
    found, problems = load_season(season(tmp_path, PERFORMANCE, ("Jan", "", text)))
    assert found is None
    assert any("e1.csv:3" in str(p) and "'performance' = 'n/a'" in str(p) for p in problems)


MEAN = PERFORMANCE + (
    '[counting]\nmode = "best"\nbest = 2\ntotal = "mean"\nround = "half-up"\n'
    "[standings]\nfirst_by_counted = true\n"
)


def test_ken3_ken4_the_mean_of_the_best_rounded_half_up_and_more_events_first(
    tmp_path: Path,
) -> None:
    """A: 2000 and 1801 (best 2 of 3 with 1500) -> 1900.5 -> 1901. B: 2001 and 2000 -> 2000.5
    -> 2001. C: one event of 2400 ranks after both, who have 2 counted."""
    folder = season(
        tmp_path,
        MEAN,
        ("E1", "", results("name,points,rp", "A,1,2000", "B,1,2001", "C,1,2400")),
        ("E2", "", results("name,points,rp", "A,1,1801", "B,1,2000")),
        ("E3", "", results("name,points,rp", "A,1,1500")),
    )
    found, problems = load_season(folder)
    assert found is not None, [str(p) for p in problems]
    lines = standings(found)
    assert [(line.name, line.total) for line in lines] == [
        ("B", F(2001)),
        ("A", F(1901)),
        ("C", F(2400)),
    ]


EXCLUDED = PERFORMANCE + '[eligibility]\nexclude = ["123", "Gilruth Peter"]\n'


def test_ken5_excluded_by_id_or_by_name_in_any_spelling(tmp_path: Path) -> None:
    text = results("id,name,points,rp", "123,A,1,2000", ',"PETER, Gilruth",1,1900', "9,C,1,1800")
    folder = season(tmp_path, EXCLUDED, ("Jan", "", text))
    assert totals(folder) == {"C": 1800}


VOID = PERFORMANCE + "[eligibility]\nvoid_forfeits = true\n"


def test_ken6_a_crosstable_forfeit_voids_the_result(tmp_path: Path) -> None:
    """Franck lost to Helene by forfeit: neither has a result; the others keep theirs."""
    folder = season(tmp_path, VOID, ("Jan", "", RR.read_text(encoding="utf-8")))
    got = totals(folder)
    assert "Franck" not in got and "Helene" not in got
    assert got["Charline"] == 2219


def test_ken6_a_standings_lists_forfeits_column(tmp_path: Path) -> None:
    text = results("name,points,rp,forfeits", "A,5,2075,0", "B,4,1994,1", "C,3,1800,")
    folder = season(tmp_path, VOID, ("Jan", "", text))
    assert totals(folder) == {"A": 2075, "C": 1800}


def test_ken6_a_forfeits_cell_that_is_no_number_is_located(tmp_path: Path) -> None:
    text = results("name,points,rp,forfeits", "A,5,2075,yes")
    found, problems = load_season(season(tmp_path, VOID, ("Jan", "", text)))
    assert found is None
    assert any("e1.csv:2" in str(p) and "'forfeits' = 'yes'" in str(p) for p in problems)


def test_ken5_the_results_federation_needs_no_players_csv(tmp_path: Path) -> None:
    """Eligibility by federation reads the results' own column: no warning for the players it
    judges, and one naming those whose results give no federation."""
    rules = PERFORMANCE + '[eligibility]\nrequire = { federation = "KEN" }\n'
    text = results("name,points,rp,federation", "A,1,2000,KEN", "B,1,1900,UGA", "C,1,1800,")
    found, problems = load_season(season(tmp_path, rules, ("Jan", "", text)))
    assert found is not None
    warned = [str(p) for p in problems if "not in players.csv" in str(p)]
    assert len(warned) == 1 and "1 player(s)" in warned[0] and "(e.g. C)" in warned[0], warned
    assert [line.name for line in standings(found)] == ["A"]


def test_ken3_explain_says_the_mean(tmp_path: Path) -> None:
    folder = season(
        tmp_path,
        MEAN,
        ("E1", "", results("name,points,rp", "A,1,2000")),
        ("E2", "", results("name,points,rp", "A,1,1801")),
    )
    code, out, _ = run("explain", str(folder), "A")
    assert code == 0
    assert "their mean: 3801.00 / 2, rounded half up = 1901.00" in out
    assert out.rstrip().endswith("total: 1901.00")
