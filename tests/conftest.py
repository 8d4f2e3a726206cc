"""Shared test helpers: paths to real data (skipped with a reason when absent) and tiny events."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXAMPLES = ROOT / "examples" / "events"


def shared(*parts: str) -> Path:
    """A file of ../shared/data; the test is skipped when the folder is not beside the checkout."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real tournament data not found at {path} (../shared/data is not checked out)")
    return path
