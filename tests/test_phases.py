"""``benchmarks/phases.py``: the standings command's steps timed in one process, each found
where the command calls it (a step renamed in the code would stop the script, not be left out)."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
import bench_season
import phases


def test_every_step_is_timed_and_the_parts_fit_their_step(tmp_path: Path) -> None:
    folder = tmp_path / "season"
    bench_season.generate(folder, 40, "utah-2012")
    found = phases.one_round(folder)
    labels = {label for step, parts in phases.ORDER for label in (step, *parts)}
    assert labels == set(found)  # every step the table lists was timed, and nothing else
    for step, parts in phases.ORDER:
        for k in (0, 1):  # wall, CPU: a step holds its parts
            assert sum(found[part][k] for part in parts) <= found[step][k] + 1e-3
    steps = ("imports", "load", "awards and ranking", "CSV")
    assert sum(found[step][0] for step in steps) <= found["total"][0] + 1e-3
    assert found["load: events and their files"][0] > 0
    shown = phases.table([found, found])
    assert shown.count("\n| - other |") == 2 and "| load: " not in shown
    assert f"| total | {found['total'][0]:.2f} |" in shown
