"""Grand Prix rules, one test (or more) per rule ID of ../shared/seeds/README.md."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from grandprix.rules.schema import Counting
from grandprix.scores import show
from grandprix.season.standings import counted_number
from seasons import event, lines, points, season_toml, standings_csv, write_season

UTAH = 'rules = "utah-2012"'
NINE = [("A", "5"), ("B", "4.5"), ("C", "4"), ("D", "3.5"), ("E", "3")]


def utah_players(names: str, outsiders: str = "", non_members: str = "") -> str:
    rows = ["id,name,region,member"]
    for name in names:
        region = "NV" if name in outsiders else "UT"
        member = "no" if name in non_members else "yes"
        rows.append(f"{name},{name},{region},{member}")
    return "\n".join(rows) + "\n"


def one_event(tmp_path: Path, rows: list[tuple[str, str]], rules: str = UTAH, **files: str) -> Path:
    return write_season(
        tmp_path,
        season_toml(rules, event("E", "e.csv")),
        {"e.csv": standings_csv(rows), **files},
    )


def test_ut3_points_by_place(tmp_path: Path) -> None:
    rows = [(n, str(10 - i)) for i, n in enumerate("ABCDEFGH")]
    got = points(one_event(tmp_path, rows, **{"players.csv": utah_players("ABCDEFGH")}))
    assert got == {
        "A": "21.00",
        "B": "15.00",
        "C": "12.00",
        "D": "10.00",
        "E": "8.00",
        "F": "6.00",
        "G": "0.00",
        "H": "0.00",
    }


def test_ut4_tied_players_share_the_mean_of_their_places(tmp_path: Path) -> None:
    rows = [("A", "5"), ("B", "4"), ("C", "4"), ("D", "3")]
    got = points(one_event(tmp_path, rows, **{"players.csv": utah_players("ABCD")}))
    assert got == {"A": "21.00", "B": "13.50", "C": "13.50", "D": "10.00"}


@pytest.mark.parametrize(
    ("tied", "first", "each"),
    [
        (2, 6, "5.00"),  # (6 + 4) / 2
        (3, 6, "4.67"),  # (6 + 4 + 4) / 3 = 14/3
        (3, 5, "6.00"),  # (8 + 6 + 4) / 3
    ],
)
def test_ut5_worked_examples_of_note_1(tmp_path: Path, tied: int, first: int, each: str) -> None:
    names = "ABCDEFGHI"
    scores = [str(9 - i) for i in range(first - 1)] + ["2"] * tied + ["1"]
    rows = list(zip(names, scores, strict=False))
    got = points(one_event(tmp_path, rows, **{"players.csv": utah_players(names)}))
    tied_names = names[first - 1 : first - 1 + tied]
    assert {got[n] for n in tied_names} == {each}


def test_ut5_a_tie_for_7th_and_8th_alone_earns_nothing(tmp_path: Path) -> None:
    rows = [(n, str(10 - i)) for i, n in enumerate("ABCDEF")] + [("G", "2"), ("H", "2")]
    got = points(one_event(tmp_path, rows, **{"players.csv": utah_players("ABCDEFGH")}))
    assert got["G"] == got["H"] == "0.00" and got["F"] == "6.00"


def test_ut5_fourteen_thirds_stays_exact_inside(tmp_path: Path) -> None:
    rows = [(n, str(9 - i)) for i, n in enumerate("ABCDE")] + [("F", "2"), ("G", "2"), ("H", "2")]
    folder = one_event(tmp_path, rows, **{"players.csv": utah_players("ABCDEFGH")})
    line = next(ln for ln in lines(folder) if ln.name == "F")
    assert line.total == Fraction(14, 3)


def test_ut1_only_utah_members_score_and_d_ut1_skip_moves_others_up(tmp_path: Path) -> None:
    rows = [("A", "5"), ("B", "4"), ("C", "3"), ("D", "2")]
    folder = one_event(tmp_path, rows, **{"players.csv": utah_players("ABCD", "A", "C")})
    # A lives in Nevada, C is not a US Chess member: B is first, D second.
    assert points(folder) == {"B": "21.00", "D": "15.00"}
    d = next(ln for ln in lines(folder) if ln.name == "D")
    assert (d.awards[0].place, d.awards[0].overall) == ("2", "4")


def test_d_ut1_keep_place_leaves_the_place_and_its_points_to_nobody(tmp_path: Path) -> None:
    rules = '[rules]\npreset = "utah-2012"\n[rules.eligibility]\nineligible_players = "keep-place"'
    rows = [("A", "5"), ("B", "4"), ("C", "3")]
    got = points(one_event(tmp_path, rows, rules, **{"players.csv": utah_players("ABC", "A")}))
    assert got == {"B": "15.00", "C": "12.00"}


def test_ut1_players_missing_from_players_csv_are_not_eligible(tmp_path: Path) -> None:
    rows = [("A", "5"), ("B", "4")]
    got = points(one_event(tmp_path, rows, **{"players.csv": utah_players("B")}))
    assert got == {"B": "21.00"}


def test_ut6_event_rate_multiplies_the_points(tmp_path: Path) -> None:
    folder = write_season(
        tmp_path,
        season_toml(UTAH, event("Utah Open", "e.csv", extra="weight = 1.5")),
        {"e.csv": standings_csv([("A", "5"), ("B", "4")]), "players.csv": utah_players("AB")},
    )
    assert points(folder) == {"A": "31.50", "B": "22.50"}


SECTIONED = """[[events]]
name = "Class Championships"
date = 2012-08-25
{sections}
"""


def sectioned(tmp_path: Path, rules: str, weights: tuple[str, str]) -> Path:
    parts = []
    for name, weight in zip(("Open", "Reserve"), weights, strict=True):
        line = f"weight = {weight}\n" if weight else ""
        parts.append(f'[[events.sections]]\nname = "{name}"\nresults = "{name}.csv"\n{line}')
    return write_season(
        tmp_path,
        season_toml(rules, SECTIONED.format(sections="\n".join(parts))),
        {
            "Open.csv": standings_csv([("A", "3"), ("B", "2")]),
            "Reserve.csv": standings_csv([("C", "3"), ("D", "2")]),
            "players.csv": utah_players("ABCD"),
        },
    )


def test_ut7_every_listed_section_earns_at_its_own_rate(tmp_path: Path) -> None:
    got = points(sectioned(tmp_path, UTAH, ("1", "0.5")))
    assert got == {"A": "21.00", "B": "15.00", "C": "10.50", "D": "7.50"}


def test_d_ut2_without_weights_only_the_first_section_earns(tmp_path: Path) -> None:
    got = points(sectioned(tmp_path, UTAH, ("", "")))
    assert got == {"A": "21.00", "B": "15.00"}


def test_d_ut2_a_rule_set_can_let_every_unweighted_section_earn(tmp_path: Path) -> None:
    rules = '[rules]\npreset = "utah-2012"\n[rules.sections]\nunweighted = "all"'
    got = points(sectioned(tmp_path, rules, ("", "")))
    assert got == {"A": "21.00", "B": "15.00", "C": "21.00", "D": "15.00"}


ACF = 'rules = "acf-2004"'


@pytest.mark.parametrize(
    ("fund", "first", "second"),
    [
        ("1499", "12.00", "9.00"),
        ("1500", "16.00", "12.00"),
        ("2499", "16.00", "12.00"),
        ("2500", "20.00", "15.00"),
        ("10000", "20.00", "15.00"),
    ],
)
def test_acf6_acf13_1_table_by_tournament_class(
    tmp_path: Path, fund: str, first: str, second: str
) -> None:
    folder = write_season(
        tmp_path,
        season_toml(ACF, event("E", "e.csv", extra=f"prize_fund = {fund}")),
        {"e.csv": standings_csv([("A", "5"), ("B", "4")])},
    )
    assert points(folder) == {"A": first, "B": second}


def test_d_acf1_ties_share_without_overflow(tmp_path: Path) -> None:
    rows = [("A", "5"), ("B", "4"), ("C", "3"), ("D", "3"), ("E", "2"), ("F", "2"), ("G", "2")]
    folder = write_season(
        tmp_path,
        season_toml(ACF, event("E", "e.csv", extra="prize_fund = 3000")),
        {"e.csv": standings_csv(rows)},
    )
    got = points(folder)
    assert got["C"] == got["D"] == "10.50"  # (12 + 9) / 2
    assert got["E"] == "2.00"  # (6 + 0 + 0) / 3


def test_acf14_best_five_results_count(tmp_path: Path) -> None:
    events = [
        event(f"E{k}", f"e{k}.csv", date=f"2012-0{k}-01", extra="prize_fund = 3000")
        for k in range(1, 8)
    ]
    files = {
        f"e{k}.csv": standings_csv([("A", "5"), ("B", "4")] if k % 2 else [("B", "5"), ("A", "4")])
        for k in range(1, 8)
    }
    result = {ln.name: ln for ln in lines(write_season(tmp_path, season_toml(ACF, *events), files))}
    a = result["A"]  # first in events 1, 3, 5, 7; second in 2, 4, 6
    assert len(a.counted) == 5 and len(a.dropped) == 2
    assert a.total == 4 * 20 + 15
    assert sorted(x.points for x in a.dropped) == [15, 15]


LUP = 'rules = "lupiae-2012-13"'


def test_lup1_table_and_at_least_one_point_for_everyone(tmp_path: Path) -> None:
    rows = [(f"P{i:02d}", str(40 - i)) for i in range(1, 21)]
    got = points(
        write_season(
            tmp_path,
            season_toml(LUP, event("E", "e.csv")),
            {"e.csv": standings_csv(rows, rank=True)},
        )
    )
    table = [25, 20, 17, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1]
    # one event of a one-event calendar: 1 counts, plus 2 for playing (LUP-3)
    assert [got[f"P{i:02d}"] for i in range(1, 21)] == [f"{v + 2}.00" for v in table]


def test_lup2_places_come_from_the_official_order_without_sharing(tmp_path: Path) -> None:
    rows = [("A", "5"), ("B", "4"), ("C", "4"), ("D", "3")]
    folder = write_season(
        tmp_path, season_toml(LUP, event("E", "e.csv")), {"e.csv": standings_csv(rows, rank=True)}
    )
    got = points(folder)
    assert (got["B"], got["C"]) == ("22.00", "19.00")  # 20 and 17, plus 2


def test_lup2_places_come_from_tiebreaks_on_a_crosstable(tmp_path: Path) -> None:
    from conftest import FIXTURES

    trf = (FIXTURES / "small_swiss.trf").read_text()
    folder = write_season(tmp_path, season_toml(LUP, event("E", "e.trf")), {"e.trf": trf})
    got = lines(folder)
    assert [ln.rank for ln in got] == [str(i) for i in range(1, 9)]
    assert len({ln.total for ln in got}) == 8  # no shared places, no shared points


@pytest.mark.parametrize(("calendar", "count"), [(10, 7), (19, 14), (6, 5), (8, 6)])
def test_lup3_best_seventy_percent_of_the_calendar_rounded_up(calendar: int, count: int) -> None:
    counting = Counting(mode="percent", percent=Fraction(70))
    assert counted_number(counting, calendar, played=3) == count


def lupiae_season(
    tmp_path: Path, results: dict[str, list[tuple[str, str]]], planned: int = 0
) -> Path:
    names = sorted(results)
    events = [event(n, f"{n}.csv", date=f"2012-{k + 1:02d}-01") for k, n in enumerate(names)]
    events += [
        f'[[events]]\nname = "Later {k}"\ndate = 2012-12-{k + 1:02d}\nplanned = true\n'
        for k in range(planned)
    ]
    files = {f"{n}.csv": standings_csv(rows, rank=True) for n, rows in results.items()}
    return write_season(tmp_path, season_toml(LUP, *events), files)


def test_lup3_bonus_for_every_event_played_even_when_dropped_d_lup1_calendar(
    tmp_path: Path,
) -> None:
    # 10 events in the calendar (D-LUP-1), 8 played: 7 count, every event played earns 2.
    results = {f"E{k}": [("A", "3"), ("B", "2")] for k in range(8)}
    folder = lupiae_season(tmp_path, results, planned=2)
    a = next(ln for ln in lines(folder) if ln.name == "A")
    assert (len(a.counted), len(a.dropped), a.bonus) == (7, 1, Fraction(16))
    assert a.total == 7 * 25 + 16


def field(order: str, size: int = 0) -> list[tuple[str, str]]:
    """Standings in this order, with distinct scores; filler players up to ``size``."""
    names = list(order) + [f"Z{i}" for i in range(max(0, size - len(order)))]
    return [(name, str(40 - i)) for i, name in enumerate(names)]


def test_lup6_discarded_points_decide_first_then_the_last_event(tmp_path: Path) -> None:
    # 4 events: the best ceil(2.8) = 3 count. A, B and C all total 62 + 8.
    results = {
        "E1": field("ABCD"),  # A 25, B 20, C 17, D 15
        "E2": field("BACD"),  # B 25, A 20, C 17, D 15
        "E3": field("CDAB"),  # C 25, D 20, A 17, B 15
        "E4": field("DCBA"),  # D 25, C 20, B 17, A 15
    }
    ranked = [ln.name for ln in lines(lupiae_season(tmp_path, results))]
    # C dropped 17, A and B 15 (D-LUP-2); A and B: same best (25); B was 3rd in the last
    # event and A 4th. D has 62 + 8 less 2.
    assert ranked[:4] == ["C", "B", "A", "D"]


def test_lup6_the_best_single_result_decides_next(tmp_path: Path) -> None:
    # 3 events: all 3 count, nothing discarded. X 25 + 13 + 10 = Y 20 + 17 + 11 = 48.
    results = {
        "E1": field("XY", 10),
        "E2": [("Q1", "40"), ("Q2", "39"), ("Y", "38"), ("Q3", "37"), ("Q4", "36"), ("X", "35")],
        "E3": [*[(f"R{i}", str(40 - i)) for i in range(7)], ("Y", "20"), ("X", "19")],
    }
    ranked = {ln.name: ln for ln in lines(lupiae_season(tmp_path, results))}
    x, y = ranked["X"], ranked["Y"]
    assert x.total == y.total == 48 + 6
    assert x.rank_first < y.rank_first


def test_lup6_a_player_who_missed_the_last_event_comes_after(tmp_path: Path) -> None:
    rules = (
        '[rules]\npreset = "lupiae-2012-13"\n[rules.counting]\nbonus_per_event = 0\n'
        "[rules.points]\nminimum = 0"
    )
    events = [
        event(n, f"{n}.csv", date=f"2012-0{k}-01") for k, n in enumerate(("E1", "E2", "E3"), 1)
    ]
    files = {
        "E1.csv": standings_csv(field("PQ"), rank=True),
        "E2.csv": standings_csv(field("QP"), rank=True),
        "E3.csv": standings_csv([*field("", 17), ("Q", "1")], rank=True),  # Q 18th: 0 points
    }
    ranked = {
        ln.name: ln for ln in lines(write_season(tmp_path, season_toml(rules, *events), files))
    }
    p, q = ranked["P"], ranked["Q"]
    assert p.total == q.total == 45
    assert q.rank_first < p.rank_first


def test_season_ties_left_after_the_chain_share_a_rank(tmp_path: Path) -> None:
    rows = [("A", "5"), ("B", "4"), ("C", "4")]
    folder = one_event(tmp_path, rows, **{"players.csv": utah_players("ABC")})
    assert [(ln.name, ln.rank) for ln in lines(folder)] == [("A", "1"), ("B", "2-3"), ("C", "2-3")]


def test_points_from_the_event_score_for_club_circuits(tmp_path: Path) -> None:
    rules = '[rules]\npreset = "acf-2004"\n[rules.points]\nclasses = []\nfrom_score = true'
    folder = write_season(
        tmp_path,
        season_toml(rules, event("E1", "a.csv"), event("E2", "b.csv", date="2012-07-01")),
        {
            "a.csv": standings_csv([("A", "5.5"), ("B", "4")]),
            "b.csv": standings_csv([("B", "6"), ("A", "3")]),
        },
    )
    assert points(folder) == {"A": "8.50", "B": "10.00"}


def test_full_points_for_everyone_tied(tmp_path: Path) -> None:
    rules = '[rules]\npreset = "utah-2012"\n[rules.points]\nties = "full"'
    rows = [("A", "5"), ("B", "4"), ("C", "4"), ("D", "3")]
    got = points(one_event(tmp_path, rows, rules, **{"players.csv": utah_players("ABCD")}))
    assert got == {"A": "21.00", "B": "15.00", "C": "15.00", "D": "10.00"}


def test_d_ut3_totals_add_exact_values_then_round(tmp_path: Path) -> None:
    # Three ties of 14/3 = 4.666...: the total is 14, not 3 x 4.67 = 14.01.
    rows = [(n, str(9 - i)) for i, n in enumerate("ABCDE")] + [("F", "2"), ("G", "2"), ("H", "2")]
    events = [event(f"E{k}", f"e{k}.csv", date=f"2012-0{k}-01") for k in (1, 2, 3)]
    files = {f"e{k}.csv": standings_csv(rows) for k in (1, 2, 3)}
    files["players.csv"] = utah_players("ABCDEFGH")
    folder = write_season(tmp_path, season_toml(UTAH, *events), files)
    assert points(folder)["F"] == "14.00"
    assert show(Fraction(14, 3), 2) == "4.67"
