"""Each malformed input gives located messages, exit code 2 and no standings."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from conftest import FIXTURES
from grandprix.cli import main

BROKEN = FIXTURES / "broken"


def run(name: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["event", str(BROKEN / name), "--format", "csv"])
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("unknown_result_code.trf", ":5:109: unknown result code 'Q' in round 2 (expected one of"),
        ("opponent_out_of_range.trf", ":8:92: opponent 99 in round 1 is out of range"),
        (
            "pairing_not_mirrored.trf",
            ":6:122: pairing not mirrored: player 2 has opponent 6 in round 4, but player 6 has "
            "opponent 7",
        ),
        (
            "points_do_not_add_up.trf",
            ":9:81: points do not add up for player 5: the file declares 3.5 but the rounds "
            "give 3.0",
        ),
        ("truncated_line.trf", ":10:57: truncated line: a player record needs at least 84"),
        ("undecodable_bytes.trf", ":11:17: undecodable byte 0x81"),
        ("bom_but_not_utf8.trf", ":12:18: byte 0xE9 is not valid UTF-8"),
    ],
)
def test_malformed_file_gives_a_located_message_exit_2_and_no_standings(
    name: str, expected: str
) -> None:
    code, out, err = run(name)
    assert code == 2
    assert out == ""
    assert f"{BROKEN / name}{expected}" in err


def test_a_file_with_several_problems_reports_them_all() -> None:
    code, out, err = run("several_problems.trf")
    assert code == 2 and out == ""
    assert ":5:109: unknown result code 'Q'" in err
    assert ":10:57: truncated line" in err
    assert ":9:81: points do not add up for player 5" in err
    assert "3 error(s)" in err


def test_a_missing_file_is_reported_with_exit_2() -> None:
    result = CliRunner().invoke(main, ["event", "no/such/file.trf"])
    assert result.exit_code == 2
    assert "no/such/file.trf: cannot read the file" in result.stderr


def test_an_unknown_tiebreak_code_is_refused_before_reading() -> None:
    result = CliRunner().invoke(
        main, ["event", str(FIXTURES / "small_swiss.trf"), "--tiebreaks", "BH,XYZ"]
    )
    assert result.exit_code == 2
    assert "unknown tie-break 'XYZ'" in result.stderr and result.stdout == ""
