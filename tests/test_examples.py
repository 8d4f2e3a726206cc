"""The example seasons: each checks, and shows the special cases of its rule book.

The Lupiae example is built so that the LUP-6 chain decides three pairs of players equal on
points: A over B on discarded points, D over C on the best single result, E over F on the place
in the last event (examples/make_seasons.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from grandprix.cli import main
from grandprix.scores import show
from grandprix.season.config import load_season
from grandprix.season.model import Line
from grandprix.season.standings import standings

SEASONS = ROOT / "examples"


def lines(name: str) -> dict[str, Line]:
    season, problems = load_season(SEASONS / name)
    assert season is not None and problems == []
    return {line.player[3:]: line for line in standings(season)}


@pytest.mark.parametrize("name", ["utah-2012", "acf-2004", "lupiae-2012-13"])
def test_every_example_season_checks_clean_and_has_six_events_in_trf_and_csv(name: str) -> None:
    result = CliRunner().invoke(main, ["check", str(SEASONS / name)])
    assert result.exit_code == 0 and "0 error(s), 0 warning(s)" in result.stdout
    season, _ = load_season(SEASONS / name)
    assert season is not None and len(season.events) >= 6
    suffixes = {Path(s.section.source).suffix for e in season.events for s in e.sections}
    assert suffixes == {".trf", ".csv"}


def test_lupiae_example_lup6_chain_decides_three_ties() -> None:
    got = lines("lupiae-2012-13")
    a, b, c, d, e, f = (got[str(5001 + i)] for i in range(6))
    assert a.total == b.total == 140 and a.rank_first < b.rank_first  # discarded 16 vs 7
    assert c.total == d.total == 104 and d.rank_first < c.rank_first  # best 25 vs 15
    assert e.total == f.total and e.rank_first < f.rank_first  # last event 13th vs 14th
    assert all(len(x.counted) == 6 and x.bonus == 16 for x in (a, b, c, d, e, f))


def test_utah_example_non_residents_never_score_and_ties_show_two_decimals() -> None:
    got = lines("utah-2012")
    assert not {"1201", "1202", "1203", "1204"} & set(got)  # NV residents and a non-member
    result = CliRunner().invoke(main, ["standings", str(SEASONS / "utah-2012"), "--format", "csv"])
    assert result.exit_code == 0
    assert all(len(row.split(",")[-2].split(".")[1]) == 2 for row in result.stdout.splitlines()[1:])


def test_utah_example_winter_quick_tie_for_6th_to_8th_earns_14_thirds() -> None:
    got = lines("utah-2012")
    winter = [
        a for line in got.values() for a in line.awards if a.event_name == "Salt Lake Winter Quick"
    ]
    tied = [a for a in winter if (a.first, a.last) == (6, 8)]
    assert len(tied) == 3 and {show(a.points, 2) for a in tied} == {"4.67"}


def test_acf_example_best_five_of_seven_and_class_tables() -> None:
    got = lines("acf-2004")
    everyone = [line for line in got.values() if line.events == 7]
    assert everyone and all(len(x.counted) == 5 and len(x.dropped) == 2 for x in everyone)
    tables = {a.event_name: a.table_name for x in got.values() for a in x.awards}
    assert tables["Adelaide Major"] == "1" and tables["Hobart Weekender"] == "2"
    assert tables["Brisbane Open"] == "3"
    assert "Minor" not in {a.section for x in got.values() for a in x.awards}
