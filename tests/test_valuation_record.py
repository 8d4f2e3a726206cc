"""The valuation record: each step of working out a result is made once by the engine
(season/points.Valuations) and read by every output. Here the least every participant earns
(LUP-1): the record holds the value before the minimum raised it, and the rules page's worked
example says the minimum only when the engine applied it."""

from __future__ import annotations

import json
import pickle
from fractions import Fraction
from pathlib import Path

from grandprix.language import Phrase
from grandprix.season.config import load_season
from grandprix.season.model import Award
from grandprix.site.views import SiteViews
from grandprix.site.words.example import example_paragraphs, example_result
from test_rule_language import Event, results, run, season

TIED_FIRST: Event = ("Open", "", results("rank,name,points", "1,A,3", "1,B,3", "3,C,1", "4,D,0"))


def worked_example(folder: Path) -> tuple[Award, str]:
    found, problems = load_season(folder)
    assert found is not None, [str(p) for p in problems]
    views = SiteViews(found)
    example = example_result(views.tables)
    assert example is not None
    division, line, award = example
    return award, " ".join(example_paragraphs(found, division, line, award))


def awards(folder: Path) -> dict[str, Award]:
    found, problems = load_season(folder)
    assert found is not None, [str(p) for p in problems]
    views = SiteViews(found)
    return {line.name: a for _, lines in views.tables for line in lines for a in line.awards}


def test_ties_best_at_the_minimum_is_not_said_to_be_raised(tmp_path: Path) -> None:
    """Table 2, 0, 0, 0, minimum 2, ties 'best': A and B share 1st and each takes 1st's 2,
    which is the minimum already: nothing was raised, and the example does not say so."""
    rules = '[points]\ntable = [2, 0, 0, 0]\nminimum = 2\nties = "best"\n'
    folder = season(tmp_path, rules, TIED_FIRST)
    award, text = worked_example(folder)
    assert (award.first, award.last, award.points) == (1, 2, Fraction(2))
    assert award.valuation.floored_from is None
    assert "gets the points of 1st place, 2." in text
    assert "less than" not in text


def test_the_record_holds_the_value_the_minimum_raised(tmp_path: Path) -> None:
    """The same table with ties shared (the mean of 2 and 0, 1): A and B are raised to the
    minimum 2 from 1, and C and D from 0; the example says it with both numbers."""
    rules = "[points]\ntable = [2, 0, 0, 0]\nminimum = 2\n"
    folder = season(tmp_path, rules, TIED_FIRST)
    got = awards(folder)
    assert {n: a.valuation.floored_from for n, a in got.items()} == {
        "A": Fraction(1),
        "B": Fraction(1),
        "C": Fraction(0),
        "D": Fraction(0),
    }
    assert all(a.points == 2 for a in got.values())
    _, text = worked_example(folder)
    assert "the average of 2 and 0, which is 1.00" in text
    assert "That is less than the 2 every player earns at least, so it counts as 2.00." in text


def test_a_sum_of_terms_says_its_sum_before_the_minimum(tmp_path: Path) -> None:
    """Terms score + place with table 1, 0 and minimum 3: the minimum raises the sum, once. C
    scored 1 in 3rd, 1 + 0 = 1, and D 0 in 4th, 0 + 0 = 0: both raised to 3, each record with
    its own sum; A, 3 + the mean of 1 and 0 = 3.5, is not raised."""
    rules = (
        '[points]\ntable = [1, 0]\nminimum = 3\nterms = [{ kind = "score" }, { kind = "place" }]\n'
    )
    folder = season(tmp_path, rules, TIED_FIRST)
    got = awards(folder)
    assert got["D"].valuation.floored_from == 0 and got["D"].points == 3
    assert got["C"].valuation.floored_from == 1 and got["C"].points == 3
    assert got["A"].valuation.floored_from is None and got["A"].points == Fraction(7, 2)


def test_a_bonus_carries_its_rule_ids_and_keeps_them_through_a_pickle(tmp_path: Path) -> None:
    """KW-4's bonus for places gained and KW-5's for every round are said with their rule IDs
    by the engine (Phrase.cites): the pages' footnotes read them, never the words."""
    rules = "[points]\ntable = [10, 8, 6]\ncompletion = 5\n[points.gain]\nper_place = 2\n"
    text = results("rank,name,points,start_rank,played", "1,C,2,3,2", "2,A,1,1,2", "3,B,0,2,1")
    folder = season(tmp_path, rules, ("Open", "", text))
    got = awards(folder)
    reasons = {str(words): words for words, _ in got["C"].valuation.bonuses}
    gained = next(w for text, w in reasons.items() if "above the seed" in text)
    every = next(w for text, w in reasons.items() if text == "playing every round")
    assert isinstance(gained, Phrase) and gained.cites == ("KW-4",)
    assert isinstance(every, Phrase) and every.cites == ("KW-5", "NW-3")
    again = pickle.loads(pickle.dumps(gained))
    assert again.cites == ("KW-4",) and again == gained


def test_the_json_standings_carry_the_recorded_steps(tmp_path: Path) -> None:
    """`standings --format json` gives each result's terms, the value the minimum raised and
    each bonus with its rule IDs, as the engine recorded them."""
    rules = (
        '[points]\ntable = [10, 9]\nminimum = 3\nterms = [{ kind = "score" }, { kind = "place" }]\n'
    )
    text = results("rank,name,points", "1,A,2", "2,B,1", "3,C,0")
    folder = season(tmp_path, rules, ("Open", "", text))
    code, out, _ = run("standings", str(folder), "--format", "json")
    assert code == 0
    lines = {line["name"]: line for line in json.loads(out)["divisions"][0]["standings"]}
    a, c = lines["A"]["results"][0], lines["C"]["results"][0]
    assert a["terms"] == [
        {"for": "the score", "points": "2.00"},
        {"for": "place 1", "points": "10.00"},
    ]
    assert "raised_from" not in a
    assert c["raised_from"] == "0.00" and c["points"] == "3.00"
