"""The concepts with one home: the player key, who qualifies, sharing places, the gc pause."""

from __future__ import annotations

import datetime
import gc
from pathlib import Path

import pytest
from click.testing import CliRunner

from grandprix.cli import main
from grandprix.conditions import Profile, belongs, in_band, matches, meets
from grandprix.model import Problem
from grandprix.placings import share_places
from grandprix.players import PlayerKey, name_key, read_players
from grandprix.ratings.store import Rated
from grandprix.rules.federation import us_class
from grandprix.rules.schema import Conditions

ROOT = Path(__file__).resolve().parent.parent


def test_a_key_by_id_and_a_key_by_name() -> None:
    by_id, by_name = PlayerKey.of("3200000", "ignored"), PlayerKey.of("", name_key("Smith, Ann"))
    assert (by_id, by_id.id, by_id.label) == ("id:3200000", "3200000", "3200000")
    assert (by_name, by_name.id, by_name.label) == ("name:ann smith", "", "ann smith")
    found: dict[str, int] = {by_id: 1}
    assert found["id:3200000"] == 1  # a key is the string it reads as


def test_ut1_required_attributes_ignore_case_and_spaces() -> None:
    assert matches(" Yes ", "yes") and matches("vic", ["NSW", "VIC"]) and not matches("", "yes")
    attributes = {"member": "YES", "region": "vic"}
    assert meets(lambda n: attributes.get(n, ""), {"member": "yes", "region": ["VIC", "SA"]})
    assert not meets(lambda n: attributes.get(n, ""), {"member": "yes", "school": "x"})


def test_rating_bands_leave_the_unrated_out_of_any_bounded_band() -> None:
    assert in_band(1999, None, 2000) and not in_band(2000, None, 2000)
    assert in_band(2000, 2000, None) and not in_band(None, 2000, None)
    assert in_band(None, None, None)


@pytest.mark.parametrize(
    ("rating", "klass"),
    [(2000, "X"), (1999, "A"), (1400, "C"), (1399, "D"), (400, "H"), (100, "J/I"), (None, "")],
)
def test_ucc1_us_classes(rating: int | None, klass: str) -> None:
    assert us_class(rating) == klass


def test_acf1_a_junior_is_under_18_on_the_day_the_rule_names() -> None:
    def person(birth: datetime.date) -> Profile:
        return Profile(PlayerKey("id:1"), Rated(1500, "acf", datetime.date(2004, 1, 1)), birth, ())

    junior = Conditions(age_below=18, age_on="season-start")

    def new_year(_: object) -> datetime.date:
        return datetime.date(2004, 1, 1)

    assert belongs(person(datetime.date(1986, 1, 2)), junior, new_year)  # 17 on 1 January
    assert not belongs(person(datetime.date(1986, 1, 1)), junior, new_year)  # 18 that day


def test_one_place_sharing_function_for_equal_keys() -> None:
    scores = [5, 4, 4, 4, 2]
    assert list(share_places([0, 1, 2, 3, 4], scores.__getitem__)) == [
        (1, 1, [0]),
        (2, 4, [1, 2, 3]),
        (5, 5, [4]),
    ]


def test_players_csv_has_one_reader_with_located_problems(tmp_path: Path) -> None:
    path = tmp_path / "players.csv"
    path.write_text("id,name,birth_date\n1,Ann,2001-02-30\n2,Bob,\n", encoding="utf-8")
    problems: list[Problem] = []
    players = read_players(path, problems)
    assert [p.name for p in players] == ["Bob"]
    assert str(problems[0]).startswith(f"{path}:2:3: field 'birth_date'")


def test_the_collector_is_paused_for_a_batch_command_and_restored_after() -> None:
    states: list[bool] = []

    @main.command("probe-batch", hidden=True)
    def probe_batch() -> None:
        states.append(gc.isenabled())

    @main.command("probe-server", hidden=True)
    def probe_server() -> None:
        states.append(gc.isenabled())

    probe_server.long_running = True  # type: ignore[attr-defined]
    try:
        for name in ("probe-batch", "probe-server"):
            assert CliRunner().invoke(main, [name]).exit_code == 0
            assert gc.isenabled()
    finally:
        for name in ("probe-batch", "probe-server"):
            main.commands.pop(name)
    assert states == [False, True]
