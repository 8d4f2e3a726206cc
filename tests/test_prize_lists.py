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
    # UCC-6/UCC-7: class X has 5 players, its 1st prize is paid at 5/8 of $100.
    x1 = next(w for w in cash if w.prize == "Class X 1st")
    assert x1.amount == Fraction(125, 2) and "UCC-7" in x1.reason
    # UCC-9: in the combined F-G section each class has its own prizes.
    assert {w.prize for w in cash if w.ranking == "F-G"} >= {"Class F 1st", "Class G 1st"}
    # UCC-10: tied players pool.
    assert any("UCC-10" in w.reason for w in cash)
    # UCC-12: one title per section, to a rated Utah resident.
    titles = [w for w in result.won if w.title]
    assert sorted(w.ranking for w in titles) == ["A", "B", "C", "F-G", "X"]
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
    copy.write_text(copy.read_text().replace("min_players = 4", "min_players = 6"))
    result = event_prizes(copy)
    assert "Class X 2nd" not in {w.prize for w in result.won}
    assert any(m.prize == "Class X 2nd" and "UCC-8" in m.reason for m in result.missed)


def test_ucc11_non_residents_win_cash_but_not_the_title() -> None:
    result = event_prizes(EVENT)
    a_first = next(w for w in result.won if w.prize == "Class A 1st")
    a_title = next(w for w in result.won if w.prize == "Utah A Class Champion")
    assert a_first.key != a_title.key  # the winner lives in Idaho: cash yes, title no


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
