"""Hostile-input suite: every mistaken or hostile input a new user could
produce gives the right exit code, a located message, no traceback, reads nothing outside the
season folder and changes nothing stored. The cases are in ``hostile.py``; their ids start with
the class number (c01 numbers ... c10 ratings command)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile import CASES, Case, Harness, make_env


@pytest.mark.parametrize("case", CASES, ids=[case.test_id for case in CASES])
def test_hostile_input(case: Case, tmp_path: Path) -> None:
    env = make_env(tmp_path / "c", case.base)
    try:
        case.setup(env)
        harness = Harness(case, env)
        for run in case.runs:
            harness.run(run)
        if case.same_message:
            check_run, standings_run = case.runs
            check, standings = harness.results
            in_check = harness.located(check, check_run)
            in_standings = harness.located(standings, standings_run)
            assert set(in_check) & set(in_standings), (
                "check and standings do not carry the same located message:\n--- check:\n"
                + "\n".join(in_check)
                + "\n--- standings:\n"
                + "\n".join(in_standings)
            )
        if case.custom is not None:
            case.custom(harness)
    finally:
        for undo in env.cleanups:
            undo()


def test_the_suite_has_every_class_of_case() -> None:
    counts = {cls: sum(1 for case in CASES if case.cls == cls) for cls in range(1, 11)}
    minimum = {1: 14, 2: 4, 3: 8, 4: 14, 5: 14, 6: 6, 7: 10, 8: 10, 9: 8, 10: 6}
    assert all(counts[cls] >= minimum[cls] for cls in minimum), counts
    assert len(CASES) >= 130
    assert len({case.test_id for case in CASES}) == len(CASES)
