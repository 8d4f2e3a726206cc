"""FIDE's worked tie-break exercises (IA M. Held, C.07): every published value, one test each."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from conftest import real_data, shared
from grandprix.placings import place
from grandprix.readers.trf import read_trf
from grandprix.tiebreaks import Rules, parse

FOLDER = "fide-c07-held-exercises"


def _cases() -> list[Any]:
    path = real_data(FOLDER, "expected_individual_tiebreaks.json")
    if path is None:
        return [pytest.param(None, id="real-data-missing")]
    data = json.loads(path.read_text())
    cases = [
        pytest.param(ex | {"edition": "fide-2024"}, id=f"ex{ex['exercise']:02d}-{ex['tiebreak']}")
        for ex in data["exercises"]
    ]
    cases += [
        pytest.param(
            ex | {"edition": "fide-2026"}, id=f"ex{ex['exercise']:02d}-{ex['tiebreak']}-2026"
        )
        for ex in data["exercises_2026_rules"]["cases"]
    ]
    return cases


@pytest.mark.parametrize("exercise", _cases())
def test_held_exercise(exercise: dict[str, Any] | None) -> None:
    if exercise is None:
        shared(FOLDER)
        return
    section, problems = read_trf(shared(FOLDER, exercise["file"]))
    assert section is not None and not problems
    rules = Rules(exercise["edition"])
    standings = place(section, parse(exercise["tiebreak"], rules), rules)
    got: dict[str, object] = {}
    for row in standings.rows:
        key = str(row.player.start_no)
        if key in exercise["expected"]:
            got[key] = row.first if exercise.get("expected_is_rank") else row.values[0]
    expected = {
        key: value if exercise.get("expected_is_rank") or value is None else Fraction(value)
        for key, value in exercise["expected"].items()
    }
    assert got == expected
