"""The readers' hostile cases (``hostile_readers.py``), each checked as ``hostile.py`` says."""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile import Case, run_case
from hostile_readers import CASES


@pytest.mark.parametrize("case", CASES, ids=[case.test_id for case in CASES])
def test_hostile_reader_input(case: Case, tmp_path: Path) -> None:
    run_case(case, tmp_path)
