"""Bad season files give located errors and no output; `check` lists every problem."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from grandprix.cli import main
from seasons import event, season_toml, standings_csv, write_season

GOOD = {"e.csv": standings_csv([("A", "3"), ("B", "2")])}


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("toml", "files", "message"),
    [
        (
            season_toml('rules = "utah-2012"', event("E", "e.csv", extra="wieght = 2")),
            GOOD,
            "season.toml:10: unknown key 'events[1].wieght'; did you mean 'weight'?",
        ),
        (
            season_toml('rules = "utah-2012"', event("E", "missing.csv")),
            {},
            "season.toml:9: results file 'missing.csv' of event 'E' not found",
        ),
        (
            season_toml('rules = "utah-2012"', event("E", "e.csv", date="2013-02-01")),
            GOOD,
            "season.toml:8: event 'E' is dated 2013-02-01, outside the season (2012-01-01 to "
            "2012-12-31)",
        ),
        (
            season_toml('rules = "utah-2012"', event("E", "e.csv", extra='weight = "heavy"')),
            GOOD,
            "season.toml:10: 'events[1].weight' = 'heavy': Value error, expected a number",
        ),
        (
            season_toml('rules = "utha-2012"', event("E", "e.csv")),
            GOOD,
            "season.toml:4: unknown preset 'utha-2012'; did you mean 'utah-2012'?",
        ),
        (
            season_toml('rules = "utah-2012"', '[[events]]\nname = "E"\ndate = 2012-05-01\n'),
            GOOD,
            "season.toml:6: 'events[1]': Value error, needs 'results = \"file\"' or "
            "[[events.sections]]",
        ),
        (
            season_toml('rules = "utah-2012"', event("E", "e.csv")).replace(
                "end = 2012-12-31", "end = 2011-12-31"
            ),
            GOOD,
            "season.toml:3: the season ends (2011-12-31) before it starts (2012-01-01)",
        ),
        (
            season_toml(
                '[rules]\npreset = "utah-2012"\n[rules.points]\ntabel = [1]', event("E", "e.csv")
            ),
            GOOD,
            "season.toml:7: unknown key 'points.tabel'; did you mean 'table'?",
        ),
        (
            season_toml('[rules]\npreset = "acf-2004"', event("E", "e.csv")),
            GOOD,
            "season.toml:8: event 'E' needs 'prize_fund'",
        ),
        ('name = "x"\nrules = "utah-2012"\nevents = [\n', GOOD, "season.toml:4:1: not valid TOML"),
        # TOML 1.0, the language tomlpos locates and tomlkit writes: TOML 1.1's inline table
        # over several lines is an error at its line (the parser is pinned below tomli 2.4).
        (
            season_toml('rules = "utah-2012"\nshared = {\n  a = 1,\n}', event("E", "e.csv")),
            GOOD,
            "season.toml:5:11: not valid TOML: Invalid initial character for a key part",
        ),
    ],
    ids=[
        "unknown-key",
        "missing-results-file",
        "ut2-acf2-outside-season",
        "weight-not-a-number",
        "unknown-preset",
        "section-without-results",
        "end-before-start",
        "unknown-rules-key",
        "acf-needs-prize-fund",
        "toml-syntax",
        "toml-1.1-inline-table",
    ],
)
def test_bad_season_file_gives_a_located_error_and_no_output(
    tmp_path: Path, toml: str, files: dict[str, str], message: str
) -> None:
    folder = write_season(tmp_path / "season", toml, files)
    for command in (["standings", str(folder), "--format", "csv"], ["explain", str(folder), "A"]):
        code, out, err = run(*command)
        assert code == 2 and out == ""
        assert f"{folder / 'season.toml'}" in err
        assert message in err, err
    code, out, _ = run("check", str(folder))
    assert code == 1 and message in out


def test_a_section_listed_without_results_key(tmp_path: Path) -> None:
    toml = season_toml(
        'rules = "utah-2012"',
        '[[events]]\nname = "E"\ndate = 2012-05-01\n[[events.sections]]\nname = "Open"\n',
    )
    folder = write_season(tmp_path, toml, {})
    code, out, _ = run("check", str(folder))
    assert code == 1
    assert "season.toml:9: missing key 'events[1].sections[1].results'" in out


def test_errors_in_a_results_file_are_reported_with_its_own_location(tmp_path: Path) -> None:
    folder = write_season(
        tmp_path,
        season_toml('rules = "utah-2012"', event("E", "e.csv")),
        {"e.csv": "name,points\nA,x\n"},
    )
    code, out, err = run("standings", str(folder))
    assert code == 2 and out == ""
    assert f"{folder / 'e.csv'}:2:2: field 'points' = 'x' is not a score" in err


def test_check_of_a_good_season_exits_0(tmp_path: Path) -> None:
    players = "name,region,member\nA,UT,yes\nB,UT,yes\n"  # UT-1: who can earn points
    files = {**GOOD, "players.csv": players}
    folder = write_season(tmp_path, season_toml('rules = "utah-2012"', event("E", "e.csv")), files)
    code, out, _ = run("check", str(folder))
    assert code == 0 and "0 error(s)" in out


def test_lup4_check_warns_when_fewer_than_six_events_are_planned(tmp_path: Path) -> None:
    folder = write_season(
        tmp_path, season_toml('rules = "lupiae-2012-13"', event("E", "e.csv")), GOOD
    )
    code, out, _ = run("check", str(folder))
    assert code == 0
    assert "warning: the rules plan at least 6 events (LUP-4) and the calendar has 1" in out


def test_a_folder_without_season_toml(tmp_path: Path) -> None:
    code, out, err = run("standings", str(tmp_path))
    assert code == 2 and out == "" and "no season.toml" in err


def test_a_rules_file_beside_the_season(tmp_path: Path) -> None:
    rules = 'name = "club"\n[points]\ntable = [10, 5]\n'
    folder = write_season(
        tmp_path,
        season_toml('rules = "club.toml"', event("E", "e.csv")),
        {**GOOD, "club.toml": rules},
    )
    code, out, _ = run("standings", str(folder), "--format", "csv")
    assert code == 0
    assert out.splitlines()[1:] == [",1,A,A,10.00,1", ",2,B,B,5.00,1"]


def test_an_error_in_a_rules_file_points_at_that_file(tmp_path: Path) -> None:
    folder = write_season(
        tmp_path,
        season_toml('rules = "club.toml"', event("E", "e.csv")),
        {**GOOD, "club.toml": '[points]\ntable = [10, 5]\nties = "halve"\n'},
    )
    code, _, err = run("standings", str(folder))
    assert code == 2
    assert f"{folder / 'club.toml'}:3: 'points.ties' = 'halve'" in err


def test_kw_an_event_without_a_category_the_rules_pay_is_an_error(tmp_path: Path) -> None:
    """keshmat-2026 gives points only by category: a misspelt category would earn nothing, so
    the season is refused at that line; under the FIDE Circuit preset (whose own table pays) a
    misspelt category is only a warning, since it escapes its category's limit."""
    rows = "rank,name,points\n1,Ann,3\n2,Bob,2\n"
    ev = event("Rapid", "r.csv", extra='category = "rapdi"')
    folder = write_season(
        tmp_path / "k", season_toml('rules = "keshmat-2026"', ev), {"r.csv": rows}
    )
    code, out, err = run("check", str(folder))
    assert code != 0
    assert f"{folder / 'season.toml'}:10: event 'Rapid' has category 'rapdi'" in out + err
    assert "'classical/group-a'" in out + err and "'rapid'" in out + err
    folder = write_season(
        tmp_path / "f", season_toml('rules = "fide-circuit-2025"', ev), {"r.csv": rows}
    )
    code, out, err = run("check", str(folder))
    assert code == 0, err
    assert "warning: event 'Rapid' has category 'rapdi', which the rules do not name" in out + err


def test_a_reranking_division_with_per_player_bonuses_is_refused_at_its_line(
    tmp_path: Path,
) -> None:
    """KW-4 and KW-5 add points per player that a division placing its players again does not
    define: such rules are refused where the division is written, not computed without them."""
    toml = season_toml(
        '[rules]\npreset = "keshmat-2026"\n[[rules.divisions]]\nname = "U1800"\n'
        "rating_below = 1800\n",
        event("R", "r.csv", extra='category = "rapid"'),
    )
    folder = write_season(tmp_path, toml, {"r.csv": "rank,name,points\n1,Ann,3\n"})
    code, out, err = run("check", str(folder))
    assert code != 0
    assert f"{folder / 'season.toml'}:6: division 'U1800' places its players again" in out + err
    assert 'use award = "filter"' in out + err


def test_an_event_listed_twice_is_one_name_on_one_date(tmp_path: Path) -> None:
    """The same event twice (its name the same but for case, accents and spaces, on the same
    date) is an error at the second; the same name on another date is another event."""
    results = standings_csv([("Ann", "2"), ("Bob", "1")])
    toml = season_toml(
        'rules = "lupiae-2012-13"',
        event("Spring Open", "a.csv", "2012-03-01"),
        event("Spring Open", "b.csv", "2012-04-01"),
        event("Rapid", "c.csv", "2012-03-01"),
        event("  SPRING  open ", "d.csv", "2012-03-01"),
    )
    folder = write_season(tmp_path / "s", toml, {f"{k}.csv": results for k in "abcd"})
    result = CliRunner().invoke(main, ["check", str(folder)])
    errors = [line for line in result.stdout.splitlines() if "listed twice" in line]
    assert result.exit_code == 1 and len(errors) == 1
    assert "season.toml:25:" in errors[0] and "(also at line 7)" in errors[0]


@pytest.mark.parametrize(
    ("rows", "warned_line"),
    [
        ("1,A,5\n2,B,4\n3,C,4\n", None),  # ranked 1, 2, 3 down the rows, points never rising
        ("1,A,5\n2,B,4\n3,C,4.5\n", 4),  # 3rd with more points than the 2nd
        ("1,A,5\n2,B,5.5\n3,C,4\n", 3),
        ("1,A,5\n3,C,4.5\n2,B,4\n", 3),  # rows out of rank order: 3rd (line 3) has more than 2nd
        ("1,A,5\n2-3,B,4\n2-3,C,4\n", None),
        ("1,A,5\n2-3,B,4\n2-3,C,4.5\n", 4),  # a shared place, but not equal points
        ("1,A,4\n1,B,3\n1,C,2\n", 3),  # all 1: the whole field sharing first, unequal
    ],
)
def test_ranks_against_points(tmp_path: Path, rows: str, warned_line: int | None) -> None:
    from grandprix.readers.standings_csv import read_standings_csv
    from grandprix.season.checks import rank_contradictions

    path = tmp_path / "e.csv"
    path.write_text("rank,name,points\n" + rows, encoding="utf-8")
    section, problems = read_standings_csv(path)
    assert section is not None and not problems
    found = rank_contradictions(section)
    assert [p.location.line for p in found] == ([warned_line] if warned_line else [])
    assert all("the ranks contradict the points" in p.message for p in found)
