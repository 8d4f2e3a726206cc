"""Hostile inputs at the command line, the terminal, the site writer and money: every case of
``hostile_cli.py`` run with ``hostile.run_case`` (exit code, located message, no traceback,
nothing read from outside the season, nothing stored changed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile import Case, run_case
from hostile_cli import CASES


@pytest.mark.parametrize("case", CASES, ids=[case.test_id for case in CASES])
def test_hostile_cli_input(case: Case, tmp_path: Path) -> None:
    run_case(case, tmp_path)


def test_every_class_of_these_cases_is_there() -> None:
    counts = {cls: sum(1 for case in CASES if case.cls == cls) for cls in (1, 3, 4, 6, 10, 11)}
    assert all(count >= 3 for count in counts.values()), counts
    assert len({case.test_id for case in CASES}) == len(CASES)
