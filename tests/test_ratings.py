"""Rating lists: import (TXT, XML, CSV, zip), dates and kinds, look-ups, corrupt lists."""

from __future__ import annotations

import datetime
import os
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from grandprix.ratings.formats import ListError
from grandprix.ratings.store import RatingStore
from synthetic import fide_rating_list, fide_txt_line

JAN = datetime.date(2025, 1, 1)
DEC = datetime.date(2024, 12, 1)


def snapshot(path: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(path) as db:
        lists = db.execute("SELECT kind, date, rows FROM lists ORDER BY id").fetchall()
        count = db.execute("SELECT count(*) FROM ratings").fetchone()
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    return [*lists, count]


@pytest.fixture
def store(tmp_path: Path) -> RatingStore:
    return RatingStore(tmp_path / "ratings.sqlite")


def test_fide_txt_list_imports_and_answers_on_a_date(tmp_path: Path, store: RatingStore) -> None:
    path = tmp_path / "players_list_foa.txt"
    path.write_text(fide_rating_list(50, 1))
    result = store.import_list(path, "fide-standard", JAN)
    assert result.new and result.list.rows == 50 and result.list.format == "fide-txt"
    rated = store.ratings_on([str(5_000_000 + i) for i in range(50)], "fide-standard", JAN)
    assert 30 < len(rated) <= 50 and all(1400 <= r.rating <= 2700 for r in rated.values())
    assert store.ratings_on(["5000000"], "fide-standard", DEC) == {}  # not in force yet


def test_the_combined_list_gives_each_kind_its_own_column(
    tmp_path: Path, store: RatingStore
) -> None:
    path = tmp_path / "l.txt"
    header = fide_txt_line(
        {label: label for label in ("ID Number", "Name", "Fed", "SRtng", "RRtng", "BRtng")}
    )
    line = fide_txt_line(
        {
            "ID Number": "7",
            "Name": "Seven, A",
            "Fed": "ITA",
            "SRtng": "2001",
            "RRtng": "1902",
            "BRtng": "1803",
        }
    )
    path.write_text(header + "\n" + line + "\n")
    for kind, value in (("fide-standard", 2001), ("fide-rapid", 1902), ("fide-blitz", 1803)):
        store.import_list(path, kind, JAN)
        assert store.ratings_on(["7"], kind, JAN)["7"].rating == value


def test_fide_xml_and_zip(tmp_path: Path, store: RatingStore) -> None:
    xml = (
        "<playerslist>\n<player><fideid>1503014</fideid><name>Carlsen, Magnus</name>"
        "<country>NOR</country><sex>M</sex><title>GM</title><rating>2830</rating>"
        "<rapid_rating>2820</rapid_rating><birthday>1990</birthday></player>\n</playerslist>\n"
    )
    archive = tmp_path / "players_list_xml.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("players_list_xml_foa.xml", xml)
    assert store.import_list(archive, "fide-rapid", JAN).list.format == "fide-xml"
    assert store.ratings_on(["1503014"], "fide-rapid", JAN)["1503014"].rating == 2820


def test_csv_national_list(tmp_path: Path, store: RatingStore) -> None:
    path = tmp_path / "acf_dec.csv"
    path.write_text("id,name,rating,state\n3101,Young Theo,1876,VIC\n3102,Price Ravi,,NSW\n")
    store.import_list(path, "national", DEC)
    assert store.ratings_on(["3101", "3102"], "national", JAN) == {"3101": (1876, "national", DEC)}


def test_acf11_chain_national_december_list_else_fide_january(
    tmp_path: Path, store: RatingStore
) -> None:
    national = tmp_path / "acf.csv"
    national.write_text("id,name,rating\n1,A,1500\n")
    fide = tmp_path / "fide.csv"
    fide.write_text("id,name,rating\n1,A,1600\n2,B,2100\n")
    store.import_list(national, "national", DEC)
    store.import_list(fide, "fide-standard", JAN)
    got = store.chain(["1", "2", "3"], [("national", JAN), ("fide-standard", JAN)])
    assert {k: (v.rating, v.kind) for k, v in got.items()} == {
        "1": (1500, "national"),
        "2": (2100, "fide-standard"),
    }


def test_importing_the_same_list_twice_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "l.txt"
    path.write_text(fide_rating_list(20, 2))
    with RatingStore(tmp_path / "s.sqlite") as store:
        store.import_list(path, "fide-standard", JAN)
    before = snapshot(tmp_path / "s.sqlite")
    with RatingStore(tmp_path / "s.sqlite") as store:
        assert not store.import_list(path, "fide-standard", JAN).new
    assert snapshot(tmp_path / "s.sqlite") == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id,name,rating\n1,A,1500\n2,B,15x0\n", ":3:3: rating '15x0' is not a rating"),
        ("id,name\n1,A\n", ":1:1: missing column(s) rating"),
        ("id,name,rating,fed\n1,A,1500,ITA\n2,B\n", ":3:1: row has 2 fields, the header 4"),
    ],
    ids=["rating-not-a-number", "missing-columns", "truncated"],
)
def test_a_corrupt_list_gives_a_located_error_and_leaves_the_store_as_it_was(
    tmp_path: Path, text: str, message: str
) -> None:
    good = tmp_path / "good.csv"
    good.write_text("id,name,rating\n9,Z,1999\n")
    with RatingStore(tmp_path / "s.sqlite") as store:
        store.import_list(good, "national", DEC)
    before = snapshot(tmp_path / "s.sqlite")
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    with RatingStore(tmp_path / "s.sqlite") as store, pytest.raises(ListError) as caught:
        store.import_list(bad, "national", JAN)
    assert any(str(p).startswith(f"{bad}{message}") for p in caught.value.problems)
    assert snapshot(tmp_path / "s.sqlite") == before


def test_a_truncated_fide_txt_line(tmp_path: Path, store: RatingStore) -> None:
    lines = fide_rating_list(5, 3).splitlines()
    lines[3] = lines[3][:30]
    path = tmp_path / "l.txt"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ListError) as caught:
        store.import_list(path, "fide-standard", JAN)
    assert str(caught.value.problems[0]).startswith(f"{path}:4:31: truncated line")
    assert store.lists() == []


def test_an_import_killed_half_way_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text(fide_rating_list(10, 4))
    big = tmp_path / "big.txt"
    big.write_text(fide_rating_list(400_000, 5))
    db = tmp_path / "s.sqlite"
    with RatingStore(db) as store:
        store.import_list(small, "fide-standard", DEC)
    before = snapshot(db)
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "grandprix.cli",
            "ratings",
            "import",
            str(big),
            "--kind",
            "fide-standard",
            "--date",
            "2025-01-01",
            "--store",
            str(db),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    journal = Path(f"{db}-journal")
    deadline = time.monotonic() + 60
    while not journal.exists() and child.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    assert child.poll() is None, "the import finished before it could be killed"
    time.sleep(0.2)  # well inside the transaction
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    assert snapshot(db) == before
    with RatingStore(db) as store:  # the store still works
        assert store.import_list(small, "fide-standard", JAN).new


def test_the_import_progress_counts_a_plain_lists_lines_a_megabyte_at_a_time(
    tmp_path: Path,
) -> None:
    """The bar's total: a plain list's line breaks, read in pieces (never the list whole a
    second time); no total for a zipped list or a file that cannot be read."""
    from grandprix.cli.ratings import list_lines

    plain = tmp_path / "list.txt"
    plain.write_bytes(b"ID Name\n" + b"1 A\n" * 300_000)  # past one megabyte
    assert list_lines(plain) == 300_001
    zipped = tmp_path / "list.zip"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("list.txt", "ID Name\n1 A\n")
    assert list_lines(zipped) == 0
    assert list_lines(tmp_path / "missing.txt") == 0
