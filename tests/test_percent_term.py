"""An event worth the player's percentage score (a ``percent`` term, DWS-1), rounded half up,
and an evening listed outside the season's competition (``counts = false``, DWS-3): hand-worked
cases, and the errors a percentage that cannot be known gives."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from grandprix.rules.terms import parse_percent
from grandprix.season.config import load_season
from test_rule_language import earned, results, run, season, totals

F = Fraction
PERCENT = '[points]\nterms = [{ kind = "percent", round = "half-up" }]\n'


def test_the_programs_column_is_read_with_a_point_or_a_comma_and_rounded_half_up(
    tmp_path: Path,
) -> None:
    """79.17% -> 79, 16,5 -> 17 (half up), 16.49% -> 16, 100 -> 100."""
    text = results("name,points,%", "A,9.5,79.17%", 'B,2,"16,5"', "C,1.9,16.49%", "D,12,100")
    folder = season(tmp_path, PERCENT, ("Sep", "", text))
    got = earned(folder)
    assert [got[("Sep", p)] for p in "ABCD"] == [79, 17, 16, 100]


def test_without_the_column_the_score_over_the_rounds_played(tmp_path: Path) -> None:
    """No percent column: 100 x score / rounds, rounds the most anyone played (5): 3.5 of 5 is
    70, 2.5 of 5 is 50, 1.75 of 5 is 35, a half of 5 is 10."""
    text = results("name,points,played", "A,3.5,5", "B,2.5,5", "C,1.75,5", "D,0.5,4")
    folder = season(tmp_path, '[points]\nterms = [{ kind = "percent" }]\n', ("Sep", "", text))
    got = earned(folder)
    assert [got[("Sep", p)] for p in "ABCD"] == [70, 50, F(35), 10]


def test_a_percent_with_a_factor_and_a_place_term_add_up(tmp_path: Path) -> None:
    """percent x 1/10 plus the place table: A 80% -> 8 + 5, B 40% -> 4 + 3."""
    rules = (
        "[points]\ntable = [5, 3]\n"
        'terms = [{ kind = "percent", factor = 0.1 }, { kind = "place" }]\n'
    )
    folder = season(tmp_path, rules, ("Sep", "", results("name,points,%", "A,4,80", "B,2,40")))
    assert totals(folder) == {"A": 13, "B": 7}


def test_an_evening_outside_the_competition_is_not_counted(tmp_path: Path) -> None:
    """counts = false: its results earn nothing and it is no event of the calendar; B, who
    played only that evening, is in no standings."""
    outside = ("Extra", "counts = false", results("name,points,%", "A,5,100", "B,0,0"))
    counted = ("Sep", "", results("name,points,%", "A,3,60", "C,2,40"))
    folder = season(tmp_path, PERCENT + '[counting]\nmode = "best"\nbest = 1\n', outside, counted)
    assert totals(folder) == {"A": 60, "C": 40}


def test_a_percent_that_is_no_number_is_an_error_naming_file_line_and_field(
    tmp_path: Path,
) -> None:
    folder = season(tmp_path, PERCENT, ("Sep", "", results("name,points,%", "A,3,60", "B,2,abc")))
    found, problems = load_season(folder)
    assert found is None
    text = [str(p) for p in problems]
    assert any("e1.csv:3" in t and "'percent' = 'abc'" in t and "'B'" in t for t in text), text
    code, _, err = run("standings", str(folder))
    assert code != 0 and "'percent' = 'abc'" in err


def test_no_percent_and_no_rounds_is_an_error(tmp_path: Path) -> None:
    folder = season(tmp_path, PERCENT, ("Sep", "", results("name,points", "A,3", "B,2")))
    found, problems = load_season(folder)
    assert found is None
    assert any("e1.csv:2" in str(p) and "no rounds" in str(p) for p in problems)


def test_parse_percent() -> None:
    assert parse_percent(" 86,36 % ") == F(8636, 100)
    assert parse_percent("") is None
    assert parse_percent("1/0") is None
    assert parse_percent("x") is None


def test_an_evening_outside_the_competition_is_said_so_on_the_site(tmp_path: Path) -> None:
    """The events list marks it, its page says why it earns nothing, and the standings are
    after the competition's events only (1 of 1, not 2 of 2)."""
    outside = ("Extra", "counts = false", results("name,points,%", "A,5,100", "B,0,0"))
    counted = ("Sep", "", results("name,points,%", "A,3,60", "C,2,40"))
    folder = season(tmp_path, PERCENT, outside, counted)
    code, _, err = run("site", str(folder), "-o", str(tmp_path / "site"))
    assert code == 0, err
    events = (tmp_path / "site" / "events.html").read_text(encoding="utf-8")
    assert "outside the competition" in events
    assert "Standings after 1 of 1 events" in events
    page = (tmp_path / "site" / "events" / "001-extra.html").read_text(encoding="utf-8")
    assert "This event is outside the competition" in page
