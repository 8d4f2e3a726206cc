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


def test_equal_files_of_two_folders_are_each_read_as_themselves(tmp_path: Path) -> None:
    """A file read once is kept by its bytes and by the file itself: an equal file in another
    folder (a season copied) is its own, and what is said of it names its own path; a hard
    link to it (a preview's copy) is the same file; a file changed in place is read again."""
    from grandprix.readers import load_section

    rows = "rank,name,id,points\n1,Ann,1,2\n2,Bob,2,3\n"  # ranks against points: a warning
    first, second = tmp_path / "a.csv", tmp_path / "copy" / "a.csv"
    second.parent.mkdir()
    first.write_text(rows)
    second.write_text(rows)
    linked = tmp_path / "linked.csv"
    os.link(first, linked)
    one, _ = load_section(first)
    other, _ = load_section(second)
    assert one is not None and other is not None
    assert one == other and one is not other
    assert {one.players[0].location.path, other.players[0].location.path} == {  # type: ignore[union-attr]
        str(first),
        str(second),
    }
    assert load_section(linked)[0] is one
    first.write_text(rows.replace("Bob", "Bea"))  # in place: the same inode, other bytes
    changed, _ = load_section(first)
    assert changed is not None and changed.players[1].name == "Bea"
