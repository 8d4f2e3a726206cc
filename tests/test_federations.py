"""Federation rules as data: a made-up federation defined by a file alone drives the event side
(classes, sections, registration), and a bad federation file is a located error."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import ROOT
from grandprix.cli import main
from grandprix.events.config import read_event_rules
from grandprix.events.entries import read_entries
from grandprix.events.registration import register
from grandprix.events.sections import place_entries, suggestions
from grandprix.model import Problem
from grandprix.rules.federation import bundled, read_federation, us_class
from grandprix.rules.load import PRESETS, read_toml

# Ruritania: three rating classes, two regions, two tournament classes, its own rule IDs.
RURITANIA = """\
name = "ruritania"
description = "A made-up federation."

[classes]
adults = "Minor"
unrated_rule = "RCF-2"

[classes.ratings]
Master = 2200
Major = 1500
Minor = 0

[classes.grades]
Major = 10
Minor = 0

[registration]
regions = ["North", "South"]
class_rule = "RCF-1"

[[registration.classes]]
min_prize_fund = 0
base_fee = 10

[[registration.classes]]
min_prize_fund = 5000
base_fee = 40

[registration.dates]
rule = "RCF-3"
months_before = 1
max_days = 2

[registration.results]
rule = "RCF-4"
within_days = 7

[registration.fee]
rule = "RCF-5"
per_player = 1.5
cap = 100
reduction = 5
reduced_regions = ["South"]
"""

EVENT = """\
name = "Ruritanian Open"
start = 2030-05-04
end = 2030-05-06
rounds = 5
entries = "entries.csv"
min_section = 3
class_rules = "ruritania.toml"
registration_rules = "ruritania.toml"
prize_fund = 6000
players = 80
state = "South"
registered_on = 2030-04-10
results_sent_on = 2030-05-20

[[sections]]
name = "Master"
classes = ["Master"]

[[sections]]
name = "Major"
classes = ["Major"]

[[sections]]
name = "Minor"
classes = ["Minor"]
"""

ENTRIES = """\
name,id,rating,grade,section,reason
Ann,1,2300,,,
Bob,2,1600,,,
Cid,3,1400,,,
Dee,4,,11,,
Eve,5,,5,,
Fay,6,,,Major,strong abroad
"""


def ruritania(tmp_path: Path, federation: str = RURITANIA, event: str = EVENT) -> Path:
    """An event folder that uses the Ruritanian federation file beside its event.toml."""
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "ruritania.toml").write_text(federation, encoding="utf-8")
    (folder / "entries.csv").write_text(ENTRIES, encoding="utf-8")
    (folder / "event.toml").write_text(event, encoding="utf-8")
    return folder / "event.toml"


def test_a_made_up_federation_places_entries_by_its_own_classes(tmp_path: Path) -> None:
    path = ruritania(tmp_path)
    event, _, rules = read_event_rules(path)
    entries = read_entries(path.parent / "entries.csv", event.rounds)
    placed, problems = place_entries(event, entries, rules.classes)
    assert problems == []
    got = {p.entry.name: (p.klass, p.section, p.note) for p in placed}
    assert got == {
        "Ann": ("Master", "Master", "by rating"),
        "Bob": ("Major", "Major", "by rating"),
        "Cid": ("Minor", "Minor", "by rating"),
        "Dee": ("Major", "Major", "unrated, by grade (RCF-2)"),
        "Eve": ("Minor", "Minor", "unrated, by grade (RCF-2)"),
        "Fay": ("Minor", "Major", "placed by the director: strong abroad (RCF-2)"),
    }
    assert suggestions(event, placed, rules.classes) == [  # neighbours in Ruritania's order
        "section Master has 1 players, fewer than 3; combine with Major (3)",
        "section Minor has 2 players, fewer than 3; combine with Major (3)",
    ]


def test_a_made_up_federation_sections_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["sections", str(ruritania(tmp_path))])
    assert result.exit_code == 0, result.output
    assert "== Master: 1 players\n  Ann (2300, class Master): by rating\n" in result.stdout
    assert "  Dee (unr, class Major): unrated, by grade (RCF-2)\n" in result.stdout
    assert "note: section Minor has 2 players, fewer than 3; combine with Major (3) (UCC-4)" in (
        result.stdout
    )


def test_a_made_up_federation_registers_by_its_own_classes_fees_and_dates(
    tmp_path: Path,
) -> None:
    event, _, rules = read_event_rules(ruritania(tmp_path))
    result = register(event, rules.registration)
    assert result.klass == 2  # 6000 reaches the second class
    assert result.fee == 100  # 40 + 80 x 1.5 - 5 = 155, capped
    assert result.workings == (
        "base 40.00 (class 2) + 80 x 1.50 - 5.00 (in South) = 155.00, capped at 100.00 (RCF-5)"
    )
    assert result.problems == [
        "the tournament lasts 3 days; it must be completed within 2 consecutive days (RCF-3)",
        "registered on 2030-04-10, less than one month before the start on 2030-05-04 "
        "(RCF-3: at the latest 2030-04-04)",  # no year-before rule: none broken
        "results sent on 2030-05-20, 14 days after the end; within 7 days (RCF-4)",
    ]


def test_a_made_up_federation_register_command(tmp_path: Path) -> None:
    event = EVENT.replace("prize_fund = 6000", "prize_fund = 4999.99")
    path = ruritania(tmp_path, event=event.replace("players = 80", "players = 40"))
    result = CliRunner().invoke(main, ["register", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document["class"] == 1 and Fraction(document["fee"]) == 10 + 40 * Fraction(3, 2) - 5


def test_the_state_must_be_a_region_of_the_registration_rules(tmp_path: Path) -> None:
    path = ruritania(tmp_path, event=EVENT.replace('state = "South"', 'state = "VIC"'))
    result = CliRunner().invoke(main, ["register", str(path)])
    assert result.exit_code == 2
    line = EVENT.splitlines().index('state = "South"') + 1
    assert (
        f"event.toml:{line}: 'state' = 'VIC': Input should be 'North' or 'South' (the regions "
        "of registration_rules 'ruritania.toml')"
    ) in result.stderr


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "per_player = 1.5",
            "per_player = 'lots'",
            "'registration.fee.per_player' = 'lots': Value error, expected a number",
        ),
        (
            "max_days = 2",
            "max_dayz = 2",
            "unknown key 'registration.dates.max_dayz'; did you mean 'max_days'?",
        ),
        (
            "min_prize_fund = 5000",
            "min_prize_fund = -5000",
            "an amount of money cannot be negative",
        ),
        ("base_fee = 40", "base_fee = 4 0", "not valid TOML"),
    ],
    ids=["not-a-number", "unknown-key", "negative-money", "bad-toml"],
)
def test_a_malformed_federation_file_is_a_located_error(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    assert old in RURITANIA
    path = ruritania(tmp_path, RURITANIA.replace(old, new))
    result = CliRunner().invoke(main, ["register", str(path)])
    assert result.exit_code == 2 and result.stdout == ""
    line = RURITANIA.splitlines().index(old) + 1
    assert f"ruritania.toml:{line}" in result.stderr and message in result.stderr


def test_federation_classes_out_of_order_are_a_located_error(tmp_path: Path) -> None:
    path = ruritania(tmp_path, RURITANIA.replace("Major = 1500", "Major = 2500"))
    result = CliRunner().invoke(main, ["sections", str(path)])
    assert result.exit_code == 2
    line = RURITANIA.splitlines().index("[classes]") + 1
    assert f"ruritania.toml:{line}: " in result.stderr
    assert "must fall from the first class to the last, got [2200, 2500, 0]" in result.stderr


@pytest.mark.parametrize("where", ["../elsewhere.toml", "ABSOLUTE"])
def test_a_federation_file_outside_the_event_folder_is_refused(tmp_path: Path, where: str) -> None:
    outside = tmp_path / "elsewhere.toml"
    outside.write_text(RURITANIA, encoding="utf-8")
    name = str(outside) if where == "ABSOLUTE" else where
    event = EVENT.replace('registration_rules = "ruritania.toml"', f'registration_rules = "{name}"')
    result = CliRunner().invoke(main, ["register", str(ruritania(tmp_path, event=event))])
    assert result.exit_code == 2
    line = event.splitlines().index(f'registration_rules = "{name}"') + 1
    assert f"event.toml:{line}: '{name}' is " in result.stderr
    assert "outside the folder" in result.stderr
    shared = event.replace("rounds = 5", 'rounds = 5\nshared_folders = [".."]')
    (tmp_path / "event" / "event.toml").write_text(shared, encoding="utf-8")
    result = CliRunner().invoke(main, ["register", str(tmp_path / "event" / "event.toml")])
    assert result.exit_code == 0, result.output  # unless the event shares that folder


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ('"acff"', "unknown federation 'acff'; did you mean 'acf'?"),
        ('"missing.toml"', "federation file 'missing.toml' not found"),
        ('"us-chess"', "registration_rules: 'us-chess' has no [registration]"),
    ],
)
def test_a_wrong_federation_name_is_located_in_event_toml(
    tmp_path: Path, value: str, message: str
) -> None:
    event = EVENT.replace('registration_rules = "ruritania.toml"', f"registration_rules = {value}")
    result = CliRunner().invoke(main, ["register", str(ruritania(tmp_path, event=event))])
    assert result.exit_code == 2
    line = event.splitlines().index(f"registration_rules = {value}") + 1
    assert f"event.toml:{line}: {message}" in result.stderr


def test_ucc1_us_class_comes_from_the_us_chess_data() -> None:
    got = [us_class(r) for r in (None, 2000, 1999, 1200, 100, 50)]
    assert got == ["", "X", "A", "D", "J/I", "J/I"]


def test_acf6_registration_classes_match_the_acf_2004_points_classes() -> None:
    registration = bundled("acf").registration
    assert registration is not None
    preset = read_toml(PRESETS / "acf-2004.toml", [])
    assert preset is not None
    points = [c["min_prize_fund"] for c in preset.data["points"]["classes"]]
    assert [c.min_prize_fund for c in registration.classes] == points


def test_the_documented_federation_example_is_a_valid_federation_file(tmp_path: Path) -> None:
    events = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    after = events.split("## Federations", 1)[1]
    example = after.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "example.toml"
    path.write_text(example, encoding="utf-8")
    problems: list[Problem] = []
    federation = read_federation(path, problems)
    assert problems == [] and federation is not None
    assert federation.classes is not None and federation.registration is not None
