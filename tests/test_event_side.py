"""The event side, by rule ID: sections, fees, byes, TRF export, registration."""

from __future__ import annotations

import datetime
import json
import shutil
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, ROOT
from grandprix.cli import main
from grandprix.events.byes import byes_of
from grandprix.events.config import EventFile, read_event_rules
from grandprix.events.entries import read_entries
from grandprix.events.fees import fee_of
from grandprix.events.registration import register
from grandprix.events.sections import Placed, grade_class, place_entries, suggestions
from grandprix.readers.trf import read_trf

EVENT = EXAMPLES / "class_championships_2026" / "event.toml"
HEADER = "name,id,rating,grade,resident,town,registered_on,paid_on,arrived,byes,section,reason,unpublished_rating\n"  # noqa: E501


def event_with(tmp_path: Path, rows: str, extra: str = "") -> Path:
    folder = tmp_path / "event"
    shutil.copytree(EVENT.parent, folder)
    (folder / "entries.csv").write_text(HEADER + rows, encoding="utf-8")
    if extra:
        path = folder / "event.toml"
        path.write_text(path.read_text() + extra, encoding="utf-8")
    return folder / "event.toml"


def placed(path: Path) -> list[Placed]:
    event, _, _ = read_event_rules(path)
    entries = read_entries(path.parent / "entries.csv", event.rounds)
    found, problems = place_entries(event, entries)
    assert not problems, problems
    return found


def test_ucc1_sections_by_us_chess_class_of_the_supplement_rating(tmp_path: Path) -> None:
    rows = "".join(
        f"{n},{i},{r},,yes,,,,,,,,\n"
        for i, (n, r) in enumerate([("A", 2000), ("B", 1999), ("C", 1800), ("D", 100)])
    )
    got = {p.entry.name: (p.klass, p.section) for p in placed(event_with(tmp_path, rows))}
    assert got == {"A": ("X", "X"), "B": ("A", "A"), "C": ("A", "A"), "D": ("J/I", "H-J/I")}


def test_ucc2_unrated_players_by_grade() -> None:
    assert [grade_class(g) for g in (None, 12, 7, 6, 4, 3, 2, 1, 0)] == [
        "E",
        "F",
        "F",
        "G",
        "G",
        "H",
        "H",
        "J/I",
        "J/I",
    ]


def test_ucc3_no_playing_up_without_a_higher_unpublished_rating(tmp_path: Path) -> None:
    rows = "A,1,1700,,yes,,,,,,X,,\n"
    event, _, _ = read_event_rules(event_with(tmp_path, rows))
    entries = read_entries(tmp_path / "event" / "entries.csv", event.rounds)
    _, problems = place_entries(event, entries)
    assert "may not play up in X without a higher unpublished rating (UCC-3)" in str(problems[0])
    rows = "A,1,1700,,yes,,,,,,X,,2010\n"
    ok = placed(event_with(tmp_path / "b", rows))
    assert "UCC-3" in ok[0].note


def test_ucc4_sections_under_six_are_flagged_with_a_combination(tmp_path: Path) -> None:
    rows = "".join(f"P{i},{i},{r},,yes,,,,,,,,\n" for i, r in enumerate([900, 850, 700, 650, 620]))
    path = event_with(tmp_path, rows)
    event, _, _ = read_event_rules(path)
    hints = suggestions(event, placed(path))
    assert any("section F has 2 players" in h and "combine with G" in h for h in hints)


def test_ucc13_lup_e2_fees(tmp_path: Path) -> None:
    rows = (
        "A,1,1500,,yes,Provo,2026-08-01,2026-08-14T21:00:00,,,,,\n"
        "B,2,1500,,yes,Provo,,,,,,,\n"
        "C,3,1500,,yes,Carmiano,,,,,,,\n"
    )
    extra = ""
    path = event_with(tmp_path, rows, extra)
    text = path.read_text().replace("advance_deadline", 'free_town = "Carmiano"\nadvance_deadline')
    path.write_text(text)
    event, _, _ = read_event_rules(path)
    assert event.fees is not None
    fees = {p.entry.name: fee_of(event.fees, p).amount for p in placed(path)}
    assert fees == {"A": 25, "B": 40, "C": 0}


def test_ucc14_ucc15_byes(tmp_path: Path) -> None:
    rows = (
        "A,1,1500,,yes,,,2026-08-10,,2@2026-08-15T08:00;3@2026-08-15T08:00,,,\n"
        "B,2,1500,,yes,,,2026-08-10,,3@2026-08-15T14:30,,,\n"
        "C,3,1500,,yes,,,2026-08-10,,4@2026-08-15T13:00,,,\n"
        "D,4,1500,,yes,,,,2026-08-15T09:20,,,,\n"
    )
    path = event_with(tmp_path, rows)
    event, _, _ = read_event_rules(path)
    found = placed(path)
    got = {p.entry.name: [(b.round, b.kind) for b in byes_of(event, p)] for p in found}
    assert got["A"] == [(2, "H"), (3, "Z")]  # one half-point bye, then zero-point
    assert got["B"] == [(3, "")]  # asked 30 minutes before round 3 (15:00)
    assert got["C"] == [(4, "")]  # last-round bye asked after round 2 began (12:45)
    assert got["D"] == [(1, "H")]  # arrived unregistered at 9:20, round 1 at 9:30


def test_export_writes_trf_with_the_byes_and_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "trf"
    result = CliRunner().invoke(main, ["export", str(EVENT), "-o", str(out)])
    assert result.exit_code == 0, result.output
    section, _ = read_trf(out / "c.trf")
    assert section is not None and len(section.players) == 16
    assert any(r.startswith("240 H ") for r in section.extra_records)
    assert ("122", "G/60;+10") in section.headers  # UCC-5


def test_ucc16_the_events_sections_feed_the_season(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["standings", str(ROOT / "examples" / "utah-2026"), "--format", "json"]
    )
    sections = {
        r["section"]
        for line in json.loads(result.stdout)["divisions"][0]["standings"]
        for r in line["results"]
    }
    assert len(sections) == 9  # every section earns, at its own rate (UT-7)


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("A,1,15x0,,yes,,,,,,,,\n", "entries.csv:2:3: rating '15x0' is not a rating"),
        ("A,1,,14,yes,,,,,,,,\n", "entries.csv:2:4: grade '14' is out of range"),
        (
            "A,1,1500,,yes,,,,,7,,,\n",
            "entries.csv:2:10: bye asked for round '7', which does not exist",
        ),
        (
            "A,1,1500,,yes,,,,,,,,\nA again,1,1400,,yes,,,,,,,,\n",
            "entries.csv:3:2: duplicate player '1'",
        ),
    ],
    ids=["rating-not-a-number", "grade-out-of-range", "bye-round-missing", "duplicate-player"],
)
def test_bad_entries_give_located_errors_and_change_nothing(
    tmp_path: Path, row: str, message: str
) -> None:
    path = event_with(tmp_path, row)
    out = tmp_path / "trf"
    result = CliRunner().invoke(main, ["export", str(path), "-o", str(out)])
    assert result.exit_code == 2 and result.stdout == ""
    assert message in result.stderr
    assert not out.exists()


def acf(**values: object) -> EventFile:
    base: dict[str, object] = {
        "name": "x",
        "start": datetime.date(2004, 6, 5),
        "end": datetime.date(2004, 6, 6),
        "prize_fund": 1000,
        "players": 40,
        "state": "VIC",
        "capital_city": True,
        "registered_on": datetime.date(2003, 12, 1),
        "results_sent_on": datetime.date(2004, 6, 20),
    }
    base.update(values)
    return EventFile.model_validate(base)


@pytest.mark.parametrize(("fund", "klass"), [(1499, 1), (1500, 2), (2499, 2), (2500, 3)])
def test_acf6_class_by_prize_fund(fund: int, klass: int) -> None:
    assert register(acf(prize_fund=fund)).klass == klass


def test_acf7_fee_base_per_player_reduction_and_cap() -> None:
    assert register(acf()).fee == 50 + 80
    assert register(acf(capital_city=False)).fee == 50 + 80 - 50
    assert register(acf(state="TAS", prize_fund=3000, players=250)).fee == 500  # D-ACF-2: 600
    assert register(acf(state="WA")).as_json()["fee"] == "80.00"


def test_acf4_acf5_rules_broken() -> None:
    clean = register(acf())
    assert clean.problems == []
    late = register(acf(registered_on=datetime.date(2004, 4, 1)))
    assert any("after 31 December 2003" in p for p in late.problems)
    assert any("less than three months" in p for p in late.problems)
    long = register(acf(end=datetime.date(2004, 6, 10)))
    assert any("within 5 consecutive days" in p for p in long.problems)
    slow = register(acf(results_sent_on=datetime.date(2004, 6, 28)))
    assert any("22 days after the end" in p for p in slow.problems)


def test_register_command_json_keys() -> None:
    path = EXAMPLES / "hobart_weekender_2004.toml"
    result = CliRunner().invoke(main, ["register", str(path), "--format", "json"])
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert set(document) == {"class", "fee", "problems"}
    assert document == {**document, "class": 2, "fee": "178.00"} and len(document["problems"]) == 3
    assert Fraction(document["fee"]) == 178
