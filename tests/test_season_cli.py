"""The season commands: standings (formats, --as-of), explain."""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner

from conftest import ROOT
from grandprix.cli import main

UTAH = str(ROOT / "examples" / "utah-2012")
LUP = str(ROOT / "examples" / "lupiae-2012-13")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_standings_csv_columns() -> None:
    code, out, _ = invoke("standings", UTAH, "--format", "csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["division", "rank", "player_id", "name", "points", "events"]
    assert rows[1][:2] == ["", "1"] and len(rows) > 10  # no divisions: every division empty


def test_standings_json_lists_every_result() -> None:
    code, out, _ = invoke("standings", LUP, "--format", "json")
    assert code == 0
    document = json.loads(out)
    overall = document["divisions"][0]
    assert overall["division"] == "Assoluto"
    first = overall["standings"][0]
    assert first["points"] == "140.00" and len(first["results"]) == 8
    assert sum(r["counted"] for r in first["results"]) == 6


def test_standings_table() -> None:
    code, out, _ = invoke("standings", UTAH)
    assert code == 0 and "Utah Chess Grand Prix 2012" in out


def test_as_of_leaves_out_later_events() -> None:
    _, before, _ = invoke("standings", LUP, "--format", "json", "--as-of", "2012-12-31")
    lines = json.loads(before)["divisions"][0]["standings"]
    assert all(r["date"] <= "2012-12-31" for line in lines for r in line["results"])
    assert max(line["events"] for line in lines) == 4


def test_explain_by_id_and_by_name() -> None:
    code, by_id, _ = invoke("explain", LUP, "5001")
    assert code == 0 and "total: 140.00" in by_id and "bonus: 2 x 8 events played" in by_id
    name = by_id.split(" (")[0]
    code, by_name, _ = invoke("explain", LUP, name.upper())
    assert code == 0 and by_name == by_id


def test_explain_of_an_unknown_player() -> None:
    code, out, err = invoke("explain", UTAH, "Nobody Atall")
    assert code == 2 and out == "" and "no player of the standings" in err
