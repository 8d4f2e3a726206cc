"""Hostile inputs past the bounds on reading (``hostile_bounds.py``): each gives the right exit
code and a located message saying how to fix the file, no traceback, nothing read from outside
the season and nothing stored, as every case of the hostile suite (``hostile.run_case``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile import Case, run_case
from hostile_bounds import CASES


@pytest.mark.parametrize("case", CASES, ids=[case.test_id for case in CASES])
def test_input_past_a_bound(case: Case, tmp_path: Path) -> None:
    run_case(case, tmp_path)


def test_every_bound_has_a_case() -> None:
    ids = " ".join(case.id for case in CASES)
    for kind in (
        "xlsx-dimension",
        "xlsx-cell",
        "xlsx-part",
        "xlsx-rows",
        "csv-field",
        "quote-left-open",
        "import-zip",
        "cut-in-the-middle",
        "too-many-lines",
        "utf8-with-one-latin1-byte",
        "past-the-size-bound",
        "past-the-lines-bound",
        "past-the-values-bound",
        "past-the-depth-bound",
    ):
        assert kind in ids, f"no case of {kind}"
    assert len({case.test_id for case in CASES}) == len(CASES)
