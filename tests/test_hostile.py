"""Hostile-input suite: every mistaken or hostile input a new user could
produce gives the right exit code, a located message, no traceback, reads nothing outside the
season folder and changes nothing stored. The cases are in ``hostile.py``; their ids start with
the class number (c01 numbers ... c10 ratings command)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile import CASES, Case, run_case


@pytest.mark.parametrize("case", CASES, ids=[case.test_id for case in CASES])
def test_hostile_input(case: Case, tmp_path: Path) -> None:
    run_case(case, tmp_path)


def test_the_suite_has_every_class_of_case() -> None:
    counts = {cls: sum(1 for case in CASES if case.cls == cls) for cls in range(1, 11)}
    minimum = {1: 14, 2: 4, 3: 8, 4: 14, 5: 14, 6: 6, 7: 10, 8: 10, 9: 8, 10: 6}
    assert all(counts[cls] >= minimum[cls] for cls in minimum), counts
    assert len(CASES) >= 130
    assert len({case.test_id for case in CASES}) == len(CASES)
