"""How input files are read: ``runtime.files.read_bytes`` (a season reads 10,000 results files
with it) gives what ``Path.read_bytes`` gives, and fails as it fails."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grandprix.runtime.files import read_bytes


@pytest.mark.parametrize("size", [0, 1, 4095, 64 * 1024, 64 * 1024 + 1, 300_000])
def test_a_file_is_read_whole(tmp_path: Path, size: int) -> None:
    path = tmp_path / "results.csv"
    path.write_bytes(os.urandom(size))
    assert read_bytes(path) == path.read_bytes() and len(read_bytes(str(path))) == size


def test_a_missing_file_or_a_folder_fails_as_path_read_bytes_fails(tmp_path: Path) -> None:
    for path in (tmp_path / "missing.csv", tmp_path):
        with pytest.raises(OSError) as ours:
            read_bytes(path)
        with pytest.raises(OSError) as theirs:
            path.read_bytes()
        assert (ours.value.errno, ours.value.strerror) == (
            theirs.value.errno,
            theirs.value.strerror,
        )
