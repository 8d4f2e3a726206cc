"""The hostile-input cases of inputs that were once accepted without a word (``hostile_silent``),
each run by the hostile suite's harness (``hostile.run_case``): exit code, located message, no
traceback, nothing read from outside the season, nothing stored changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile import Case, run_case
from hostile_silent import CASES


@pytest.mark.parametrize("case", CASES, ids=[case.test_id for case in CASES])
def test_hostile_silent_input(case: Case, tmp_path: Path) -> None:
    run_case(case, tmp_path)


def test_the_cases_are_many_and_named_once() -> None:
    assert len(CASES) >= 20
    assert len({case.test_id for case in CASES}) == len(CASES)
