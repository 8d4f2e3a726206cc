"""Divisions and ratings on a date, by rule ID (ACF-1, ACF-8, ACF-11 to ACF-14, LUP-5)."""

from __future__ import annotations

from pathlib import Path

from grandprix.scores import show
from grandprix.season.model import Line
from grandprix.season.standings import division_standings
from seasons import event, load, season_toml, standings_csv, write_season

ACF_LISTS = """
[[rating_lists]]
file = "acf.csv"
kind = "national"
date = 2003-12-01

[[rating_lists]]
file = "fide.csv"
kind = "fide-standard"
date = 2004-01-01
"""
PLAYERS = """id,name,fide_id,sex,birth_date,region
N1,N1,,m,1960-01-01,VIC
N2,N2,F2,w,1986-01-02,NSW
N3,N3,,m,1986-01-01,VIC
F1,F1,F1,m,1970-01-01,QLD
F2,F2,F9,w,1970-01-01,QLD
U1,U1,,w,1989,TAS
U2,U2,,m,1975-03-03,VIC
"""
NATIONAL = "id,name,rating\nN1,N1,2100\nN2,N2,1900\nN3,N3,1500\n"
FIDE = "id,name,rating\nF1,F1,2150\nF9,F2,1800\nF2,N2,2300\n"


def season(tmp_path: Path, rules: str, *events: str, **files: str) -> Path:
    toml = season_toml(rules, ACF_LISTS, *events)
    base = {"players.csv": PLAYERS, "acf.csv": NATIONAL, "fide.csv": FIDE}
    toml = toml.replace("2012-01-01", "2004-01-01").replace("2012-12-31", "2004-12-31")
    return write_season(tmp_path, toml, {**base, **files})


def tables(folder: Path) -> dict[str, dict[str, Line]]:
    return {
        name: {line.name: line for line in lines}
        for name, lines in division_standings(load(folder))
    }


OPEN_EVENT = standings_csv(
    [("N1", "6"), ("F1", "5.5"), ("N2", "5"), ("F2", "4.5"), ("N3", "4"), ("U1", "3"), ("U2", "2")]
)


def acf_event(name: str = "e.csv", date: str = "2004-03-01") -> str:
    return event("E", name, date=date, extra="prize_fund = 3000")


def test_acf11_national_december_list_first_then_fide_january(tmp_path: Path) -> None:
    got = tables(season(tmp_path, 'rules = "acf-2004"', acf_event(), **{"e.csv": OPEN_EVENT}))
    # N2 is on both lists: the national 1900 counts, not FIDE's 2300: Under 2000.
    assert "N2" in got["Under 2000"]
    # F2 is only on the FIDE list (1800, id F9 in players.csv): Under 2000.
    assert "F2" in got["Under 2000"]


def test_acf12_fide_only_and_unrated_players_are_limited(tmp_path: Path) -> None:
    got = tables(season(tmp_path, 'rules = "acf-2004"', acf_event(), **{"e.csv": OPEN_EVENT}))
    assert "F1" in got["Open"] and "F1" not in got["Under 2000"]  # FIDE only, 2150
    assert "F2" not in got["Open"] and "F2" in got["Women"]  # FIDE only, 1800: U2000 (+Women)
    assert "U2" in got["Open"] and "U2" in got["Unrated"]
    assert "U2" not in got["Under 2000"] and "U2" not in got["Under 1600"]


def test_acf1_junior_is_under_18_on_1_january(tmp_path: Path) -> None:
    got = tables(season(tmp_path, 'rules = "acf-2004"', acf_event(), **{"e.csv": OPEN_EVENT}))
    assert set(got["Junior"]) == {"N2", "U1"}  # 17 on 1 January 2004; born in 1989
    # N3, born 1 January 1986, is 18 that day: not a junior (D-ACF-5).


def test_acf13_4_one_event_awards_open_and_under_2000_points(tmp_path: Path) -> None:
    got = tables(season(tmp_path, 'rules = "acf-2004"', acf_event(), **{"e.csv": OPEN_EVENT}))
    n2 = "N2"  # 3rd overall, 2nd of the Open division's players? N1, F1 ahead: Open 3rd
    assert show(got["Open"][n2].total, 0) == "12"  # class 3: 20 15 12
    assert show(got["Under 2000"][n2].total, 0) == "20"  # first of the U2000 players
    assert show(got["Under 1600"]["N3"].total, 0) == "20"


TWO_SECTIONS = """[[events]]
name = "Sydney Open"
date = 2004-04-01
prize_fund = 3000
[[events.sections]]
name = "Open"
results = "open.csv"
[[events.sections]]
name = "Under 1600"
results = "u1600.csv"
"""


def test_acf13_2_a_section_played_as_a_division_awards_inside_it(tmp_path: Path) -> None:
    files = {
        "open.csv": standings_csv([("N1", "5"), ("N3", "4"), ("F1", "3")]),
        "u1600.csv": standings_csv([("U2", "4"), ("U1", "3")]),
    }
    got = tables(season(tmp_path, 'rules = "acf-2004"', TWO_SECTIONS, **files))
    # N3 (1500) played the Open section: no Under 1600 points from this event.
    assert "N3" not in got["Under 1600"]
    assert "U2" not in got["Open"]  # the Under 1600 section earns no Open points


def test_acf13_3_junior_women_unrated_points_cascade_down_the_sections(tmp_path: Path) -> None:
    files = {
        "open.csv": standings_csv([("N1", "5"), ("N2", "4"), ("F1", "3")]),
        "u1600.csv": standings_csv([("U1", "6"), ("U2", "3")]),
    }
    got = tables(season(tmp_path, 'rules = "acf-2004"', TWO_SECTIONS, **files))
    # Junior: N2 (Open section) first although U1 scored more in the lower section.
    assert show(got["Junior"]["N2"].total, 0) == "20"
    assert show(got["Junior"]["U1"].total, 0) == "15"
    # Women: N2 first (Open section), then U1 (Under 1600 section).
    assert [line.name for line in division_standings(load(tmp_path))[5][1]] == ["N2", "U1"]


def test_acf14_best_five_per_division(tmp_path: Path) -> None:
    events = [acf_event(f"e{k}.csv", date=f"2004-0{k}-01") for k in range(1, 8)]
    files = {f"e{k}.csv": OPEN_EVENT for k in range(1, 8)}
    got = tables(season(tmp_path, 'rules = "acf-2004"', *events, **files))
    for division in ("Open", "Under 2000"):
        line = next(iter(got[division].values()))
        assert (len(line.counted), len(line.dropped)) == (5, 2)
        assert line.total == 5 * 20


def test_acf8_a_region_division_through_require(tmp_path: Path) -> None:
    rules = (
        '[rules]\npreset = "acf-2004"\n[[rules.divisions]]\nname = "Victoria"\n'
        'require = { region = "VIC" }'
    )
    got = tables(season(tmp_path, rules, acf_event(), **{"e.csv": OPEN_EVENT}))
    assert list(got) == ["Victoria"]  # a [[rules.divisions]] list replaces the preset's
    # U2 lives in Victoria but is unrated: ACF-12 limits the unrated to Open and Unrated.
    assert set(got["Victoria"]) == {"N1", "N3"}


def test_lup5_band_held_on_the_date_of_the_last_event(tmp_path: Path) -> None:
    lists = """
[[rating_lists]]
file = "autumn.csv"
kind = "national-rapid"
date = 2012-09-01

[[rating_lists]]
file = "spring.csv"
kind = "national-rapid"
date = 2012-11-01
"""
    events = [
        event("E1", "e.csv", date="2012-10-01"),
        '[[events]]\nname = "Final"\ndate = 2012-12-01\nplanned = true\n',
    ]
    files = {
        "e.csv": standings_csv([("A", "3"), ("B", "2")], rank=True),
        "autumn.csv": "id,name,rating\nA,A,1790\nB,B,1850\n",
        "spring.csv": "id,name,rating\nA,A,1810\nB,B,1750\n",
    }
    folder = write_season(tmp_path, season_toml('rules = "lupiae-2012-13"', lists, *events), files)
    got = tables(folder)
    assert set(got["Fascia D"]) == {"A"} and set(got["Fascia E"]) == {"B"}
    assert got["Fascia D"]["A"].total == got["Assoluto"]["A"].total
