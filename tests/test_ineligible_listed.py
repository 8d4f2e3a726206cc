"""Players a season leaves out of its standings (not eligible by ``eligibility.require``),
listed with ``standings.ineligible = "listed"`` in every output, with no rank, 0 points and the
reason; ``explain`` says why such a player has no line whether listed or not."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from grandprix.cli import main

UTAH = ROOT / "examples" / "utah-2012"
LISTED = '\n[rules.standings]\nineligible = "listed"\n'
NGUYEN = "not eligible: lives in NV (UT required)"  # players.csv: Nguyen, Nina of NV; the rules: UT


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


@pytest.fixture
def listed(tmp_path: Path) -> Path:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah"))
    (folder / "season.toml").write_text((folder / "season.toml").read_text() + LISTED)
    return folder


def test_the_csv_lists_them_after_the_standings_with_0_points_and_why(listed: Path) -> None:
    code, out = run("standings", str(listed), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0
    assert list(rows[0]) == ["division", "rank", "player_id", "name", "points", "events", "note"]
    ranked = [r for r in rows if r["rank"]]
    left = [r for r in rows if not r["rank"]]
    assert rows == ranked + left and all(r["note"] == "" for r in ranked)
    nguyen = next(r for r in left if r["name"] == "Nguyen, Nina")
    assert nguyen["points"] == "0.00" and nguyen["events"] == "2" and nguyen["note"] == NGUYEN
    assert {r["name"] for r in left}.isdisjoint(r["name"] for r in ranked)
    hidden = run("standings", str(UTAH), "--format", "csv")[1]  # by default: left out
    assert hidden.startswith("division,rank,player_id,name,points,events\n")
    assert "Nguyen" not in hidden


def test_the_table_and_the_json_list_them(listed: Path) -> None:
    code, out = run("standings", str(listed))
    assert code == 0 and "not in the standings" in out and NGUYEN in out
    document = json.loads(run("standings", str(listed), "--format", "json")[1])
    [nguyen] = [u for u in document["not_eligible"] if u["name"] == "Nguyen, Nina"]
    assert nguyen == {
        "player_id": "1201",
        "name": "Nguyen, Nina",
        "points": "0.00",
        "events": 2,
        "reason": NGUYEN,
    }
    assert "not_eligible" not in json.loads(run("standings", str(UTAH), "--format", "json")[1])


def test_explain_says_why_a_player_has_no_line() -> None:
    code, out = run("explain", str(UTAH), "Nina Nguyen")
    assert code == 0 and out.startswith("Nguyen, Nina (id:1201): in no standings, 0 points")
    assert NGUYEN in out


def test_the_site_lists_them_in_its_standings_page_and_exports(
    listed: Path, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    assert run("site", str(listed), "-o", str(site))[0] == 0
    page = (site / "index.html").read_text()
    assert "Not in the standings" in page and "Nguyen, Nina" in page
    assert "lives in NV (UT required)" in page
    rows = list(csv.DictReader(io.StringIO((site / "standings.csv").read_text())))
    assert rows[-1]["note"].startswith("not eligible") and rows[-1]["rank"] == ""
    season = json.loads((site / "season.json").read_text())
    assert any(u["name"] == "Nguyen, Nina" for u in season["not_eligible"])
    schema = json.loads((site / "season.schema.json").read_text())["properties"]["not_eligible"]
    assert all(set(schema["items"]["required"]) <= set(u) for u in season["not_eligible"])


@pytest.mark.parametrize(
    ("language", "region", "member", "unrecorded", "required"),
    [
        ("en", "lives in ID (UT required)", "not a member of the federation",
         "no region recorded (UT or NV required)", "yes"),
        ("it", "risiede in ID (richiesto: UT)", "non tesserato della federazione",
         "senza regione nell'elenco dei giocatori (richiesto: UT o NV)", "sì"),
        ("es", "reside en ID (se requiere UT)", "no es miembro de la federación",
         "sin región en la lista de jugadores (se requiere UT o NV)", "sí"),
    ],
)  # fmt: skip
def test_eligibility_is_said_in_words_in_every_language(
    language: str, region: str, member: str, unrecorded: str, required: str
) -> None:
    """UT-1's conditions as a reader says them, with the rules page's labels: where a player
    lives, whether they are a member, what players.csv does not record; yes in words."""
    from grandprix.conditions import attribute_words, value_words
    from grandprix.language import speaking

    with speaking(language):
        assert attribute_words("region", "ID", "UT") == region
        assert attribute_words("member", "no", "yes") == member
        assert attribute_words("region", "", ["UT", "NV"]) == unrecorded
        assert value_words("yes") == required
