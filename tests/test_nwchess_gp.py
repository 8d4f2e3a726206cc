"""The nwchess-gp preset on hand-worked events (NW-1, NW-2, D-NW-1, D-NW-2): points are the
event score (byes included) times x1 to x7 by the guaranteed prize fund; a 'based-on' fund
counts at half its amount."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from grandprix.reports.standings import explain
from grandprix.season.standings import standings
from seasons import load, write_season

FIELD = "name,points\nAnn,3.5\nBob,4\nCy,2\n"


def season_text(fund: str, based_on: bool = False, extra: str = "") -> str:
    flag = "based_on = true\n" if based_on else ""
    return (
        f'name = "NW"\n{extra}\n[[events]]\nname = "Open"\ndate = 2025-03-01\n'
        f'results = "open.csv"\nprize_fund = {fund}\n{flag}'
    )


def totals(tmp_path: Path, text: str) -> dict[str, Fraction]:
    season = load(write_season(tmp_path / "s", text, {"open.csv": FIELD}))
    return {line.name: line.total for line in standings(season)}


@pytest.mark.parametrize(
    ("fund", "factor"),
    [
        ("499", 1),
        ("500", 2),
        ("1200", 3),
        ("1999.99", 3),
        ("2000", 4),
        ("9999", 5),
        ("10000", 6),
        ("20000", 7),
    ],
)
def test_nw1_the_score_times_the_fund_multiplier(tmp_path: Path, fund: str, factor: int) -> None:
    """3.5 in a $1,200 guaranteed event: 3.5 x 3 = 10.5 (and each band's edges)."""
    found = totals(tmp_path, season_text(fund, extra='rules = "nwchess-gp"'))
    assert found["Ann"] == Fraction(7, 2) * factor


def test_nw2_a_based_on_fund_counts_at_half(tmp_path: Path) -> None:
    """D-NW-1: $3,000 based on entries counts as $1,500: x3, so Bob's 4 earns 12, not 16."""
    text = season_text("3000", based_on=True, extra='rules = "nwchess-gp"')
    assert totals(tmp_path, text)["Bob"] == 12


def test_d_nw2_a_season_sets_the_completion_bonus(tmp_path: Path) -> None:
    """The bonus is added after the multiplier: 3.5 x 2 + 1 for every round played (standings
    lists: the `played` column; the event's rounds are the most anyone played)."""
    field = "name,points,played\nAnn,3.5,5\nBob,4,4\n"
    text = season_text("600", extra='[rules]\npreset = "nwchess-gp"\npoints.completion = 1')
    season = load(write_season(tmp_path / "s", text, {"open.csv": field}))
    found = {line.name: line for line in standings(season)}
    assert found["Ann"].total == 8 and found["Bob"].total == 8  # 7 + 1; 4 x 2 without bonus
    log = explain(season, found["Ann"])
    assert "x 2 for a prize fund of 600, class x2\n" in log
    assert "3.5 x 2 x event 1 x section 1 + 1.0 = 8.0  [counted]" in log


def test_the_json_result_adds_up_with_its_factor_and_extra(tmp_path: Path) -> None:
    """The standings document gives each result base x factor x weights + extra = points."""
    from grandprix.reports.document import standings_document

    field = "name,points,played\nAnn,3.5,5\nBob,4,4\n"
    text = season_text("600", extra='[rules]\npreset = "nwchess-gp"\npoints.completion = 1')
    season = load(write_season(tmp_path / "s", text, {"open.csv": field}))
    document = standings_document(season, [("", standings(season))], detail=True)
    ann = next(r for r in document["divisions"][0]["standings"] if r["name"] == "Ann")
    result = ann["results"][0]
    assert (result["base"], result["factor"], result["extra"], result["points"]) == (
        "3.5",
        "2",
        "1.0",
        "8.0",
    )
    bob = next(r for r in document["divisions"][0]["standings"] if r["name"] == "Bob")
    assert "extra" not in bob["results"][0]  # 4 of 5 rounds: no bonus
