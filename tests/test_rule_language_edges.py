"""Edges of the rule language's newer keys, each from a case found wrong in review: a total
rounded that the race must not bound, a missing performance rating, odd cells, a bye's result
in a list of games, a result worth nothing in a countback, the tier of results counted in the
words of a tie, an empty exclusion, an event outside the competition."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from conftest import TEST_DATA
from grandprix.readers.games_csv import read_games_csv
from grandprix.rules.schema import Eligibility, RuleSet
from grandprix.rules.terms import parse_percent, parse_rating
from grandprix.season.config import load_season
from grandprix.season.race import unbounded_by
from grandprix.season.standings import standings
from test_rule_language import earned, results, run, season, totals

PERFORMANCE = '[points]\nterms = [{ kind = "performance" }]\n'
RR = TEST_DATA / "fide-c07-held-exercises" / "held_round_robin.trf"


def test_a_rounded_total_leaves_the_race_unbounded() -> None:
    """1.5 + 1 rounds to 3 and ties a 3: a race on unrounded totals would call 1st clinched."""
    rules = RuleSet.model_validate({"counting": {"round": "half-up"}})
    assert "the rounding of the totals" in unbounded_by(rules)


def test_an_empty_rp_cell_is_a_located_error(tmp_path: Path) -> None:
    text = results("name,points,rp", "A,2,2000", "B,1,")
    found, problems = load_season(season(tmp_path, PERFORMANCE, ("Jan", "", text)))
    assert found is None
    assert any("e1.csv:3" in str(p) and "'performance' of 'B' is empty" in str(p) for p in problems)


def test_a_crosstable_without_ratings_cannot_give_performance_ratings(tmp_path: Path) -> None:
    text = RR.read_text(encoding="utf-8")
    unrated = "\n".join(
        line[:48] + "    " + line[52:] if line.startswith("001") else line
        for line in text.splitlines()
    )
    found, problems = load_season(season(tmp_path, PERFORMANCE, ("Jan", "", unrated)))
    assert found is None
    assert any("gives no ratings" in str(p) for p in problems), [str(p) for p in problems]


def test_an_unrated_player_of_the_crosstable_is_named(tmp_path: Path) -> None:
    """FIDE's TPR averages every opponent's rating (C.07 art. 10.2): Helene unrated leaves
    every player who met her without one; the file is refused naming her line."""
    text = "\n".join(
        line[:48] + "    " + line[52:] if line.startswith("001") and "Helene" in line else line
        for line in RR.read_text(encoding="utf-8").splitlines()
    )
    found, problems = load_season(season(tmp_path, PERFORMANCE, ("Jan", "", text)))
    assert found is None
    assert any("e1.trf:10" in str(p) and "'Helene' has no rating" in str(p) for p in problems), [
        str(p) for p in problems
    ]
    assert parse_rating("²") is None and parse_rating("2,075") == 2075


@pytest.mark.parametrize("cell", ["250", "-5", "1e2", "1_0", "3/4", "²"])
def test_a_percent_must_be_a_plain_number_from_0_to_100(cell: str) -> None:
    assert parse_percent(cell) is None


def test_odd_digits_in_a_forfeits_cell_are_an_error_not_a_crash(tmp_path: Path) -> None:
    rules = PERFORMANCE + "[eligibility]\nvoid_forfeits = true\n"
    text = results("name,points,rp,forfeits", "A,2,2000,²")
    code, out, err = run("check", str(season(tmp_path, rules, ("Jan", "", text))))
    assert code == 1 and "e1.csv:2: field 'forfeits' = '²'" in out + err, out + err


def games(tmp_path: Path, text: str) -> tuple[dict[str, str], list[str]]:
    path = tmp_path / "games.csv"
    path.write_text(text, encoding="utf-8")
    section, problems = read_games_csv(path)
    kinds = {}
    if section is not None:
        kinds = {p.name: " ".join(r.kind.name for r in p.rounds) for p in section.players}
    return kinds, [str(p) for p in problems]


def test_a_bye_rows_result_says_which_bye(tmp_path: Path) -> None:
    text = "white,black,result\nround 1,,\nA,bye,1/2-1/2\nB,bye,0-1\nC,bye,\nD,E,1-0\n"
    kinds, problems = games(tmp_path, text)
    assert not problems
    assert (kinds["A"], kinds["B"], kinds["C"]) == ("HALF_BYE", "ZERO_BYE", "PAIRING_BYE")


def test_a_row_with_white_alone_is_no_round_marker(tmp_path: Path) -> None:
    text = "white,black,result\nround 1,,\nA,B,1-0\nC,,\nD,E,1-0\n"
    _, problems = games(tmp_path, text)
    assert any(":4:" in p and "a game needs both players" in p for p in problems)


@pytest.mark.parametrize(
    "text", ["white,black,result\nbye,bye,\n", "round,white,black,result\n²,A,B,1-0\n"]
)
def test_a_bye_without_a_player_or_an_odd_round_is_located(tmp_path: Path, text: str) -> None:
    _, problems = games(tmp_path, text)
    assert any(":2:" in p for p in problems), problems


def test_countback_a_result_worth_nothing_decides_nothing(tmp_path: Path) -> None:
    rules = '[points]\nfrom_score = true\n[standings]\ntiebreaks = ["countback"]\n'
    folder = season(
        tmp_path,
        rules,
        ("E1", "", results("name,points", "A,5", "B,5")),
        ("E2", "", results("name,points", "B,0", "C,0")),
    )
    found, _ = load_season(folder)
    assert found is not None
    ranks = {line.name: (line.rank_first, line.rank_last) for line in standings(found)}
    assert ranks["A"] == ranks["B"] == (1, 2)


def test_a_tie_decided_by_results_counted_is_said_so(tmp_path: Path) -> None:
    rules = (
        '[points]\nfrom_score = true\n[standings]\nfirst_by_counted = true\ntiebreaks = ["best"]\n'
    )
    folder = season(
        tmp_path,
        rules,
        ("E1", "", results("name,points", "A,5", "B,10")),
        ("E2", "", results("name,points", "A,5")),
    )
    code, _, err = run("site", str(folder), "-o", str(tmp_path / "site"))
    assert code == 0, err
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "ahead on the number of results counted: 2 to 1" in home
    assert "best single result" not in home


def test_an_empty_exclusion_is_refused() -> None:
    with pytest.raises(ValueError):
        Eligibility.model_validate({"exclude": [" "]})


def test_an_event_outside_the_competition_is_not_checked_for_the_terms(tmp_path: Path) -> None:
    """A games term cannot read a standings list, but an evening outside the competition earns
    nothing: its file is not refused."""
    rules = '[points]\nterms = [{ kind = "games" }]\n'
    outside = ("Extra", "counts = false", results("name,points", "A,5"))
    evening = ("Oct", "", (TEST_DATA / "games" / "evening.csv").read_text(encoding="utf-8"))
    folder = season(tmp_path, rules, outside, evening)
    assert totals(folder)["Ann"] == Fraction(5, 2)
    assert ("Extra", "A") not in earned(folder)


def test_a_planned_event_outside_the_competition_is_no_event_left(tmp_path: Path) -> None:
    rules = "[points]\ntable = [10, 5]\n"
    played = ("E1", "", results("name,points", "A,2", "B,1"))
    folder = season(tmp_path, rules, played)
    toml = folder / "season.toml"
    toml.write_text(
        toml.read_text(encoding="utf-8")
        + '\n[[events]]\nname = "Extra"\ndate = 2012-12-01\nplanned = true\ncounts = false\n',
        encoding="utf-8",
    )
    code, _, err = run("site", str(folder), "-o", str(tmp_path / "site"))
    assert code == 0, err
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "still to play" not in home
