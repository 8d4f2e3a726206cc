"""Prize lists of the example seasons and the example Class Championships, by rule ID."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

from click.testing import CliRunner

from conftest import EXAMPLES, ROOT
from grandprix.cli import main
from grandprix.prizes.event import event_prizes
from grandprix.prizes.season import season_prizes
from seasons import load

EVENT = EXAMPLES / "class_championships_2026" / "event.toml"
SEASONS = ROOT / "examples"


def test_ucc6_to_ucc12_class_championships() -> None:
    result = event_prizes(EVENT)
    won = {(w.prize, w.key): w for w in result.won}
    cash = [w for w in result.won if w.amount is not None]
    # UCC-6: class X 1st is $100 with 8 Experts; UCC-7: class J/I has 5 players (three rated,
    # two unrated first-graders and younger): 5/8 of $60.
    assert next(w for w in cash if w.prize == "Class X 1st").amount == 100
    j1 = next(w for w in cash if w.prize == "Class J/I 1st")
    assert j1.amount == Fraction(60 * 5, 8) and "UCC-7" in j1.reason
    # UCC-9: in the combined H-J/I section each class has its own prizes.
    assert {w.prize for w in cash if w.ranking == "H-J/I"} >= {"Class H 1st", "Class J/I 1st"}
    # UCC-10: tied players pool.
    assert any("UCC-10" in w.reason for w in cash)
    # UCC-12: one title per section, to a rated Utah resident.
    titles = [w for w in result.won if w.title]
    assert sorted(w.ranking for w in titles) == ["A", "B", "C", "D", "E", "F", "G", "H-J/I", "X"]
    # One cash prize per player (titles apart).
    keys = [w.key for w in cash]
    assert len(keys) == len(set(keys))
    assert won  # the mapping is used by the assertions above


def copy_event(tmp_path: Path) -> Path:
    folder = tmp_path / "event"
    shutil.copytree(EVENT.parent, folder)
    return folder / "event.toml"


def test_ucc8_class_x_second_prize_needs_four_experts(tmp_path: Path) -> None:
    copy = copy_event(tmp_path)
    copy.write_text(copy.read_text().replace("min_players = 4", "min_players = 9"))
    result = event_prizes(copy)
    assert "Class X 2nd" not in {w.prize for w in result.won}
    assert any(m.prize == "Class X 2nd" and "UCC-8" in m.reason for m in result.missed)


def test_ucc11_non_residents_win_cash_but_not_the_title() -> None:
    result = event_prizes(EVENT)
    players = (EVENT.parent / "players.csv").read_text().splitlines()[1:]
    outsiders = {f"id:{line.split(',')[0]}" for line in players if line.endswith(",ID,yes")}
    cash = {w.key for w in result.won if w.amount is not None}
    titles = {w.key for w in result.won if w.title}
    assert cash & outsiders  # non-residents win cash (UCC-11)
    assert not titles & outsiders  # but no Utah Class Champion title (UCC-12)


def test_lup5_lup6_lup7_season_prizes() -> None:
    result = season_prizes(load(SEASONS / "lupiae-2012-13"))
    cash = {w.prize: w for w in result.won}
    assert sum(w.amount or 0 for w in result.won) == 1000  # LUP-5: EUR 1000 in all
    # LUP-5: 5001 holds band D on the date of the last event but takes the better overall 1st.
    assert cash["Assoluto 1"].key == "id:5001" and cash["Fascia D 1"].key != "id:5001"
    # LUP-7: 5003 did not attend: no prize although 4th.
    assert "id:5003" not in {w.key for w in result.won}
    # LUP-6: indivisible: no prize is split.
    assert len(cash) == len(result.won)


def test_acf8_acf9_acf10_season_prizes() -> None:
    result = season_prizes(load(SEASONS / "acf-2004"))
    keys = [w.key for w in result.won]
    assert len(keys) == len(set(keys))  # ACF-10: one prize per player
    names = {w.prize for w in result.won}
    assert {"Open 1", "Under 2000 1", "Under 1600 1", "Junior 1", "Women 1"} <= names
    paid = sum(w.amount or 0 for w in result.won)
    fund = 500 + 300 + 200 + 150 + 100 + 525 + 375 + 300 + 150 + 100 + 50 * 8
    assert paid <= fund


def test_prizes_command_formats_and_errors() -> None:
    runner = CliRunner()
    out = runner.invoke(main, ["prizes", "--event", str(EVENT), "--format", "json"])
    assert out.exit_code == 0
    document = json.loads(out.stdout)
    assert document["awards"] and all("reason" in a for a in document["awards"])
    csv_out = runner.invoke(main, ["prizes", str(SEASONS / "utah-2012"), "--format", "csv"])
    assert csv_out.exit_code == 0
    assert (
        csv_out.stdout.splitlines()[0] == "prize,ranking,place,player_id,name,amount,title,reason"
    )
    neither = runner.invoke(main, ["prizes"])
    assert neither.exit_code == 2 and "give a SEASON_DIR or --event" in neither.stderr


def test_a_bad_event_file_is_located(tmp_path: Path) -> None:
    bad = tmp_path / "event.toml"
    bad.write_text('name = "x"\ndate = 2026-01-01\nsectons = []\n')
    out = CliRunner().invoke(main, ["prizes", "--event", str(bad)])
    assert out.exit_code == 2 and out.stdout == ""
    assert "event.toml:3: unknown key 'sectons'; did you mean 'sections'?" in out.stderr
