"""Two readings that must agree with the engine, each built from a coordinator's report.

``explain`` says every term of a sum of terms with the value the engine recorded
(``Valuation.terms``): a place not tied has no working note, and was left out, so that
'event score 2 x 1' and '11.00' did not add up.

A rank column is read one way by every command (``event``, ``explain``, ``standings``, the
points): as competition ranks (1, 2, 2, 4: a tie takes as many places as it has players, and the
next rank skips them); as dense ranks (1, 2, 2, 3, as some club programs print them) with a
warning where a rank is read so; not at all where the places contradict the points (players
placed by points, with a warning); and ranks that give one place to two players in any other way
are refused, located, with the rank to write.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grandprix.placings import official_rows, place, read_ranks
from grandprix.players import PlayerKey
from grandprix.readers import load_section
from grandprix.readers.standings_csv import read_standings_csv
from grandprix.reports.standings import term_sum
from grandprix.season.checks import rank_contradictions
from grandprix.season.model import Award, Origin, Valuation
from grandprix.writers.trf import write_trf
from seasons import lines
from test_rule_language import COMPLETION_CROSSTABLE, results, run, season

# 1. explain: every term with its value ------------------------------------------------------

SCORE_AND_PLACE = """[points]
table = [10, 9, 9]
terms = [{ kind = "score" }, { kind = "place" }]
"""
THREE = ("Blitz", "", results("name,points", "A,3", "B,2", "C,1"))


def test_explain_says_an_untied_place_term_beside_the_score(tmp_path: Path) -> None:
    """Scores 3, 2, 1, table 10, 9, 9: B is 2nd alone, 2 for the score + 9 for place 2 = 11,
    the sum the player's page says; the place term has no working note, and was missing."""
    folder = season(tmp_path, SCORE_AND_PLACE, THREE)
    code, out, _ = run("explain", str(folder), "B")
    assert code == 0, out
    said = [line.strip() for line in out.splitlines()]
    start = said.index("place 2, score 2")
    assert said[start : start + 4] == [
        "place 2, score 2",
        "event score 2 x 1",
        "2.00 for the score + 9.00 for place 2 = 11.00",
        "11.00 x event 1 x section 1 = 11.00  [counted]",
    ]
    site = tmp_path / "site"
    assert run("site", str(folder), "-o", str(site))[0] == 0
    page = next((site / "players").glob("b*.html")).read_text()
    assert "2.00 for the score + 9.00 for place 2 = 11.00" in page


def test_explain_says_a_tied_place_term_with_its_mean(tmp_path: Path) -> None:
    """B and C tie on 2 for places 2-3: (9 + 9) / 2 = 9, + 2 for the score = 11 each."""
    tied = ("Blitz", "", results("name,points", "A,3", "B,2", "C,2"))
    folder = season(tmp_path, SCORE_AND_PLACE, tied)
    code, out, _ = run("explain", str(folder), "C")
    assert code == 0, out
    assert "tie 2-3: (9 + 9) / 2" in out
    assert "2.00 for the score + 9.00 for place 2-3 = 11.00" in out


def test_explain_sums_the_weighted_terms_and_leaves_the_unweighted_to_the_bonus(
    tmp_path: Path,
) -> None:
    """Table 10, 6 weighted by 2, + 1 for taking part not weighted: A (10 + 2) x 2 + 1 = 25:
    the terms' line says the weighted 12, the unweighted 1 is the bonus after the weights."""
    rules = (
        '[points]\ntable = [10, 6]\nterms = [{ kind = "place" }, { kind = "score" }, '
        '{ kind = "fixed", amount = 1, weighted = false }]\n'
    )
    folder = season(tmp_path, rules, ("Double", "weight = 2", results("name,points", "A,2", "B,1")))
    code, out, _ = run("explain", str(folder), "A")
    assert code == 0, out
    assert "10.00 for place 1 + 2.00 for the score = 12.00" in out
    assert "12.00 x event 2 x section 1 + 1.00 = 25.00  [counted]" in out


def test_the_terms_line_reads_the_valuations_record() -> None:
    """Whatever the record holds is what is said: a value no table or score of this award
    gives (7/3 for place 5) is shown as recorded; points that are not a sum of terms (no
    record of terms) have no such line."""
    recorded = Valuation(
        id=0,
        base=Fraction(19, 3),
        values=(),
        event_weight=Fraction(1),
        section_weight=Fraction(1),
        points=Fraction(19, 3),
        terms=(("the score", Fraction(4)), ("place 5", Fraction(7, 3))),
    )
    origin = Origin(0, "E", datetime.date(2012, 1, 1), "E")
    award = Award(origin, PlayerKey.of("", "x"), "X", 5, 5, Fraction(4), recorded)
    assert term_sum(award, 2) == "4.00 for the score + 2.33 for place 5 = 6.33"
    assert term_sum(award._replace(valuation=replace(recorded, terms=())), 2) == ""
    one = replace(recorded, terms=(("place 5", Fraction(7, 3)),))
    assert term_sum(award._replace(valuation=one), 2) == "2.33 for place 5"


# 2. a rank column: read one way everywhere ------------------------------------------------------

TIEBREAK = '[points]\ntable = [10, 6, 4, 2]\nties = "tiebreak"\n'
BY_POINTS = "[points]\ntable = [10, 6, 4, 2]\n"


def ranked(*ranks: str, points: tuple[str, ...] = ("4", "3", "3", "2")) -> str:
    """A standings CSV of A, B, C, D with these ranks and points."""
    rows = (f"{r},{n},{p}" for r, n, p in zip(ranks, "ABCD", points, strict=True))
    return results("rank,name,points", *rows)


def event_places(csv: Path) -> dict[str, str]:
    """What ``grandprix event`` places each player (its CSV: place, number, name, ...)."""
    code, out, err = run("event", str(csv), "--format", "csv")
    assert code == 0, out + err
    return {row.split(",")[2]: row.split(",")[0] for row in out.splitlines()[1:]}


def award_places(folder: Path) -> dict[str, str]:
    """The place each player's points were paid for, as ``explain`` says it."""
    return {a.name: a.place for line in lines(folder) for a in line.awards}


def test_dense_ranks_pay_the_places_they_mean_with_a_located_warning(tmp_path: Path) -> None:
    """1, 2, 2, 3 under ties = "tiebreak", table 10, 6, 4, 2: read as they stood, B and C took
    2-3 and D place 3 again, 24 points paid from a 22-point table. Dense ranks (the rank after
    a tie is the next number) mean places 1, 2-3, 2-3, 4: 10 + 5 + 5 + 2 = 22. `check` warns
    at the first rank read so (line 5), and `event` places them as the points do."""
    folder = season(tmp_path, TIEBREAK, ("Open", "", ranked("1", "2", "2", "3")))
    code, out, _ = run("check", str(folder))
    assert code == 0 and "0 error(s), 1 warning(s)" in out
    assert (
        "e1.csv:5: warning: field 'rank' = '3' is read as place 4, after 2 rows ranked 2 "
        "(lines 3, 4), who hold places 2-3: the ranks are dense"
    ) in out
    assert "write competition ranks (1, 2, 2, 4)" in out and "leave the rank column out" in out
    got = {line.name: line.total for line in lines(folder)}
    assert got == {"A": 10, "B": 5, "C": 5, "D": 2}
    assert sum(got.values()) == 22
    places = {"A": "1", "B": "2-3", "C": "2-3", "D": "4"}
    assert award_places(folder) == event_places(folder / "e1.csv") == places
    code, out, _ = run("explain", str(folder), "D")
    assert code == 0 and "place 4, score 2" in out and "= 2.00  [counted]" in out


def test_competition_ranks_read_without_a_word(tmp_path: Path) -> None:
    """The same file written 1, 2, 2, 4 pays the same 10, 5, 5, 2, with no warning."""
    folder = season(tmp_path, TIEBREAK, ("Open", "", ranked("1", "2", "2", "4")))
    code, out, _ = run("check", str(folder))
    assert code == 0 and "0 error(s), 0 warning(s)" in out
    assert {line.name: line.total for line in lines(folder)} == {"A": 10, "B": 5, "C": 5, "D": 2}
    assert award_places(folder) == event_places(folder / "e1.csv")


@pytest.mark.parametrize("rules", [TIEBREAK, BY_POINTS], ids=["tiebreak", "by-points"])
def test_two_rows_ranked_1_on_other_points_are_placed_by_points_everywhere(
    tmp_path: Path, rules: str
) -> None:
    """Ranks 1, 1, 2, 3 with points 4, 3, 2, 1: `event` read places 1-2, 1-2, 2, 3 while the
    points (by score) went 1, 2, 3, 4. Ranks that contradict the points are not read as places
    by any command: A 1st, B 2nd, C 3rd, D 4th in `event`, in `explain` and in the points
    (10, 6, 4, 2 under either rule for ties), with the warning at B's row."""
    csv = ranked("1", "1", "2", "3", points=("4", "3", "2", "1"))
    folder = season(tmp_path, rules, ("Open", "", csv))
    code, out, _ = run("check", str(folder))
    assert code == 0 and "0 error(s), 1 warning(s)" in out
    assert (
        "e1.csv:3: warning: rank 1 with 3 points shares its place with rank 1 with 4 (line 2): "
        "the ranks contradict the points, and the players are placed by points"
    ) in out
    places = {"A": "1", "B": "2", "C": "3", "D": "4"}
    assert award_places(folder) == event_places(folder / "e1.csv") == places
    assert {line.name: line.total for line in lines(folder)} == {"A": 10, "B": 6, "C": 4, "D": 2}
    code, out, _ = run("explain", str(folder), "B")
    assert code == 0 and "place 2, score 3" in out


def test_ranks_that_are_not_dense_and_clash_are_a_located_error(tmp_path: Path) -> None:
    """1, 2, 2, 3, 5: the 3 falls on the places B and C hold, and the 5 shows the ranks are
    not dense (4 is missing): whether the 3 meant 3rd or 4th only the organiser can say, so
    `check`, `event` and `standings` refuse the file, at the 3, with the rank to write."""
    csv = results("rank,name,points", "1,A,5", "2,B,4", "2,C,4", "3,D,3", "5,E,2")
    folder = season(tmp_path, TIEBREAK, ("Open", "", csv))
    said = "e1.csv:5: field 'rank' = '3' after 2 rows ranked 2 (lines 3, 4), who hold places 2-3"
    code, out, _ = run("check", str(folder))
    assert code == 1 and said in out and "1 error(s)" in out
    assert "ranks skip after a tie (1, 2, 2, 4); write 4" in out
    assert "or leave the rank column out to place by points" in out
    for command in (("event", str(folder / "e1.csv")), ("standings", str(folder))):
        code, out, err = run(*command)
        assert code == 2 and said in out + err, command


def test_a_shared_place_given_to_more_rows_than_it_has_places_is_refused(tmp_path: Path) -> None:
    """'2-3' on three rows: three players cannot share two places; the third row is told to
    write 2-4 on all three."""
    csv = ranked("1", "2-3", "2-3", "2-3", points=("4", "3", "3", "3"))
    folder = season(tmp_path, TIEBREAK, ("Open", "", csv))
    code, out, _ = run("check", str(folder))
    assert code == 1
    assert "e1.csv:5: field 'rank' = '2-3' is given to 3 rows (also on lines 3, 4)" in out
    assert "a tie for places 2-3 is of 2 players" in out and "write 2-4 on each" in out


def test_ranks_that_leave_a_place_out_still_read(tmp_path: Path) -> None:
    """1, 3, 3, 5 (a row taken out of the list: its place stays taken) gives no place twice:
    no problem, and the places are the file's: B and C share 3-4, (4 + 2) / 2 = 3 each, D is
    5th, off the table."""
    folder = season(tmp_path, TIEBREAK, ("Open", "", ranked("1", "3", "3", "5")))
    code, out, _ = run("check", str(folder))
    assert code == 0 and "0 error(s), 0 warning(s)" in out
    got = {line.name: line.total for line in lines(folder)}
    assert got == {"A": 10, "B": 3, "C": 3, "D": 0}


def test_the_reader_of_every_format_says_the_rank_column_once(tmp_path: Path) -> None:
    """`load_section`, which every command reads a results file through (the `event` command
    reads no season), says how the rank column is read, a standings CSV's (the dense 3 is
    place 4) or a TRF's (ranks 1, 1, 2, 4 are refused); the season check adds nothing to it."""
    path = tmp_path / "dense.csv"
    path.write_text(ranked("1", "2", "2", "3"), encoding="utf-8")
    section, problems = load_section(path)
    assert section is not None
    assert [(p.location.line, p.severity.value) for p in problems] == [(5, "warning")]
    assert rank_contradictions(section) == []
    reading = read_ranks(section.columns)
    assert reading.dense and reading.clash is not None and reading.clash.free == 4
    assert official_rows(section.columns) == [(1, 1, 0), (2, 3, 1), (2, 3, 2), (4, 4, 3)]
    assert [p.place for p in place(section).rows] == ["1", "2-3", "2-3", "4"]
    crosstable = COMPLETION_CROSSTABLE  # a TRF's rank field (columns 86-89): 1, 1, 2, 4 clash
    clashing = tuple(
        replace(player, declared_rank=rank)
        for player, rank in zip(crosstable.players, ("1", "1", "2", "4"), strict=True)
    )
    trf = tmp_path / "clash.trf"
    trf.write_text(write_trf(replace(crosstable, players=clashing)), encoding="utf-8")
    section, problems = load_section(trf)
    assert section is not None and len(problems) == 1
    assert problems[0].location.path == str(trf) and problems[0].severity.value == "error"
    assert "field 'rank' = '2' after 2 rows ranked 1" in problems[0].message
    assert "write 3" in problems[0].message
    assert "leave the rank fields blank to place by the crosstable" in problems[0].message


@given(st.lists(st.integers(1, 6), min_size=1, max_size=8))
def test_ranks_read_never_give_a_place_twice(numbers: list[int]) -> None:
    """Any column of numbers on equal points: a number n on k rows holds places n..n+k-1 as
    competition ranks; where two such spans share a place, a column of every number from 1 to
    its highest is read as dense ranks (n after the rows ranked below n), any other refused;
    and no place is ever held twice."""
    text = results("rank,name,points", *(f"{r},P{i},1" for i, r in enumerate(numbers)))
    section, _ = read_standings_csv("any.csv", text.encode())
    assert section is not None
    held = [(n, n + numbers.count(n) - 1) for n in sorted(set(numbers))]
    clash = any(above[1] >= below[0] for above, below in pairwise(held))
    dense = set(numbers) == set(range(1, max(numbers) + 1))
    reading = read_ranks(section.columns)
    assert (reading.clash is not None) == clash
    rows = official_rows(section.columns)
    if clash and not dense:
        assert rows is None
        return
    assert rows is not None
    for first, last, i in rows:
        n = numbers[i]
        expected = sum(m < n for m in numbers) + 1 if clash else n
        assert (first, last) == (expected, expected + numbers.count(n) - 1)
    spans = sorted({(first, last) for first, last, _ in rows})
    assert all(a[1] < b[0] for a, b in pairwise(spans))
