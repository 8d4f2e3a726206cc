"""The Dworp Open (SK Dworp's monthly rapid evenings, seasons 2017-18 to 2019-20), reproduced
from its published season tables under the ``dworp-open`` preset: every game 3 a win, 2 a
draw, 1 a loss, 2 a bye (DWO-1), the best 5 evenings (DWO-2; the best 3 from the club's
change of 2019-20), equal totals by evenings played, then the best evening, the second best...
(DWO-3). The club's lists of games are in ../shared/data/real-series/dworp-open-rapid (no
licence stated: read there, never copied into the repository); skipped where it is absent."""

from __future__ import annotations

import csv
import datetime
from fractions import Fraction
from pathlib import Path

import pytest

from club_seasons import club_season, row_differences
from conftest import SHARED_DATA
from grandprix.season.config import load_season
from grandprix.season.standings import standings

SERIES = SHARED_DATA / "real-series" / "dworp-open-rapid"
SEASONS = ("op1718", "op1819", "op1920")
# 2019-20 stopped after five evenings; the club then counted the best 3 (DWO-2) in its final
# table, the standings after the fifth evening: the change holds from that evening's day.
CHANGES = {"op1920": "[rules.counting]\nchanges = [{ date = 2020-02-10, best = 3 }]\n"}


def season_folder(tmp_path: Path, name: str) -> Path:
    """The season as the club would write it: an evening a month from October, each its list
    of games (copied into the test's own folder, never into the repository)."""
    first_year = 2000 + int(name[2:4])
    rules = '[rules]\npreset = "dworp-open"\n' + CHANGES.get(name, "")
    events = []
    for evening in range(1, 10):
        month = (9 + evening - 1) % 12 + 1
        day = datetime.date(first_year if month >= 10 else first_year + 1, month, 10)
        events.append((f"r{evening}", day, SERIES / name / f"ronde_{evening}.csv", ()))
    return club_season(tmp_path, f'name = "Open {name}"', events, rules)


def published(name: str) -> dict[str, tuple[str, dict[str, Fraction], Fraction]]:
    """The club's season table: name (as one case) -> (rank cell, evening -> value, total)."""
    with (SERIES / name / "eindstand.csv").open(encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    evenings = [f"r{n}" for n in range(1, 10) if rows and f"r{n}" in rows[0]]
    return {
        row["naam"].strip().casefold(): (
            row["nummer"].strip(),
            {e: Fraction(row[e]) for e in evenings if row[e].strip()},
            Fraction(row["totaal"]),
        )
        for row in rows
    }


def disagreements(name: str, tmp_path: Path) -> tuple[int, dict[str, str]]:
    """The club's rows, and each row our standings give otherwise: player -> what differs."""
    season, problems = load_season(season_folder(tmp_path, name))
    assert season is not None, [str(p) for p in problems]
    got = {line.name.casefold(): line for line in standings(season)}
    expected = published(name)
    out: dict[str, str] = {name: "not in the club's table" for name in set(got) - set(expected)}
    for player, (rank, evenings, total) in expected.items():
        line = got.get(player)
        if line is None:
            out[player] = "not listed"
            continue
        order = sorted({a.event_name for a in line.awards} | set(evenings))
        what = row_differences(line, order, evenings, total, rank)
        if what:
            out[player] = what
    return len(expected), out


EXPLAINED: dict[str, dict[str, str]] = {}


@pytest.mark.skipif(not SERIES.is_dir(), reason=f"{SERIES} (../shared/data) is not checked out")
@pytest.mark.parametrize("name", SEASONS)
def test_each_season_is_the_clubs_table(name: str, tmp_path: Path) -> None:
    """Every player's evenings, total and rank as the club published them, but for the rows
    explained above."""
    rows, differ = disagreements(name, tmp_path)
    assert rows >= 20
    assert differ == EXPLAINED.get(name, {})
