"""The organiser's first hour: messages that lead. An impossible date in season.toml is "no
such date" whether written as a TOML date or as text, and a table of a list is named as people
count it (the 3rd [[events]] is events[3])."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import ROOT
from grandprix.season.config import load_season

UTAH = ROOT / "examples" / "utah-2012"


@pytest.mark.parametrize("written", ["2012-02-30", '"2012-02-30"'])
def test_an_impossible_date_is_no_such_date(tmp_path: Path, written: str) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah"))
    toml = folder / "season.toml"
    text = toml.read_text(encoding="utf-8")
    third = re.findall(r"date = (\d{4}-\d\d-\d\d)", text)[2]
    toml.write_text(text.replace(f"date = {third}", f"date = {written}", 1), encoding="utf-8")
    found, problems = load_season(folder)
    assert found is None
    said = [str(p) for p in problems]
    assert any("no such date '2012-02-30': February 2012 has 29 days" in p for p in said), said
    if written.startswith('"'):
        assert any("'events[3].date'" in p for p in said), said
