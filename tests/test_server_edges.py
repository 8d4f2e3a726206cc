"""The server's edges: a hand edit that keeps a file's size and modification time is never
written over; a director's upload to a planned event keeps the coordinator's values; uploads
whose name or length no file system or event has; the database's permissions; a director's
uploads waiting for approval, bounded; what a director sees of the season's folder."""

from __future__ import annotations

import os
import shutil
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from conftest import ROOT
from grandprix.serve.app import create_app
from grandprix.serve.forms import WAITING_PER_USER
from grandprix.serve.security import CSRF_FIELD
from grandprix.serve.store import Store
from test_serve_workspace import GOOD, accept, field, upload
from test_serve_workspace import upload as upload_as
from test_server_access import KEY, ROLES, client, hashed, log_in

UTAH = ROOT / "examples" / "utah-2012"
BASE = "/s/utah-2012/workspace"


@pytest.fixture
def season(tmp_path: Path) -> Path:
    return Path(shutil.copytree(UTAH, tmp_path / KEY))


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    made = Store(database)
    for name, role in ROLES.items():
        made.add_user(name, role, hashed(name))
    made.assign("dan", KEY, "Park City")
    yield made
    made.close()


def web_on(folder: Path) -> TestClient:
    app = create_app({"utah-2012": folder}, secret=b"s" * 32)
    return TestClient(app, base_url="http://127.0.0.1:8000")


def test_a_hand_edit_keeping_size_and_time_is_not_written_over(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))
    web = web_on(folder)
    shown = upload(web, GOOD)
    toml = folder / "season.toml"
    before = toml.stat()
    text = toml.read_text()
    edited = text.replace("Salt Lake Winter Quick", "Salt Lake Winter Quack")
    assert len(edited) == len(text) and edited != text
    toml.write_text(edited)
    os.utime(toml, ns=(before.st_atime_ns, before.st_mtime_ns))  # as it was: size and time
    got = accept(web, shown.text)
    assert got.status_code == 409 and "changed since" in got.text
    assert toml.read_text() == edited and not (folder / "park_city.csv").exists()


def test_a_directors_upload_to_a_planned_event_keeps_the_calendars_values(
    tmp_path: Path,
) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))
    toml = folder / "season.toml"
    toml.write_text(
        toml.read_text() + '\n[[events]]\nname = "Park City"\ndate = 2012-12-15\nplanned = true\n'
    )
    web = web_on(folder)
    form = web.get(f"{BASE}/event").text
    shown = web.post(
        f"{BASE}/event",
        data={
            CSRF_FIELD: field(form, CSRF_FIELD),
            "name": "Park City",
            "date": "2012-12-20",
            "category": "blitz",
            "prize_fund": "99999",
        },
        files={"results": ("park_city.csv", GOOD, "text/csv")},
    )
    assert shown.status_code == 200, shown.text
    assert accept(web, shown.text).status_code == 200
    [park] = [e for e in tomllib.loads(toml.read_text())["events"] if e["name"] == "Park City"]
    assert park == {"name": "Park City", "date": park["date"], "results": "park_city.csv"}
    assert str(park["date"]) == "2012-12-15"


def test_an_upload_name_of_many_wide_characters_is_refused_plainly(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))
    name = "大" * 100 + ".csv"  # 104 characters, 304 bytes: more than a file system takes
    got = upload(web_on(folder), GOOD, name)
    assert got.status_code == 400 and "200 bytes" in got.text
    assert sorted(p.name for p in folder.iterdir()) == sorted(p.name for p in UTAH.iterdir())


def test_an_upload_of_more_lines_than_any_event_has_is_refused(tmp_path: Path) -> None:
    folder = Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))
    rows = b"".join(b'%d,"Player %d",,1\n' % (i, i) for i in range(1, 20_002))
    got = upload(web_on(folder), b"rank,name,id,points\n" + rows)
    assert got.status_code == 400 and "more than 20,000 lines" in got.text


def test_a_new_sqlite_database_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    Store(f"sqlite:///{path}").close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_directors_waiting_uploads_are_bounded(season: Path, store: Store) -> None:
    toml = season / "season.toml"
    toml.write_text(
        toml.read_text().replace("end = 2012-12-31", "end = 2012-12-31\napproval = true")
    )
    dan = client(season, store)
    log_in(dan, "dan")
    for n in range(WAITING_PER_USER):
        data = GOOD.replace(b",4\n", f",{n}.5\n".encode())
        assert (
            accept(dan, upload_as(dan, data, f"park{n}.csv", "Park City").text).status_code == 200
        )
    refused = accept(dan, upload_as(dan, GOOD, "park.csv", "Park City").text)
    assert refused.status_code == 429 and "wait for the coordinator" in refused.text
    assert len(store.submissions(KEY)) == WAITING_PER_USER


def test_a_director_sees_neither_the_folder_nor_a_broken_seasons_problems(
    season: Path, store: Store
) -> None:
    (season / "season.toml").write_text((season / "season.toml").read_text() + "\nbroken = [\n")
    dan, cora = client(season, store), client(season, store)
    log_in(dan, "dan")
    log_in(cora, "cora")
    seen = dan.get(f"/s/{KEY}/workspace").text
    assert str(season) not in seen and "season.toml" not in seen
    assert "its coordinator is correcting" in seen
    told = cora.get(f"/s/{KEY}/workspace").text
    assert str(season) in told and "season.toml" in told


def test_a_prize_fund_typed_in_a_form_is_kept_exact_up_to_the_money_bound(
    tmp_path: Path,
) -> None:
    import datetime
    from fractions import Fraction

    from grandprix.errors import UsageError
    from grandprix.season.config import load_season
    from grandprix.serve.changes import event_change
    from grandprix.serve.seasons import folder_version
    from grandprix.serve.workspace import accept as accept_change

    folder = Path(shutil.copytree(UTAH, tmp_path / "utah-2012"))
    day = datetime.date(2012, 12, 15)
    change = event_change(
        folder, "Park City", day, "park.csv", GOOD, prize_fund="999,999,999,999,999.99"
    )
    accept_change(folder, folder_version(folder), change)
    season, problems = load_season(folder)
    assert season is not None, problems
    [park] = [e for e in season.events if e.name == "Park City"]
    assert park.prize_fund == Fraction("999999999999999.99")
    with pytest.raises(UsageError, match="1,000,000,000,000,000"):
        event_change(folder, "Moab", day, "moab.csv", GOOD, prize_fund="2000000000000000")


def test_the_client_address_comes_from_x_forwarded_for_only_behind_a_proxy() -> None:
    from grandprix.cli.serve import proxy_options

    assert proxy_options(False, ()) == (False, "")
    assert proxy_options(True, ()) == (True, "127.0.0.1,::1")
    assert proxy_options(False, ("chess.example.org",)) == (True, "127.0.0.1,::1")


def test_users_assign_refuses_a_season_not_served_and_notes_an_event_not_listed(
    tmp_path: Path,
) -> None:
    from click.testing import CliRunner

    from grandprix.cli import main

    root = tmp_path / "root"
    shutil.copytree(UTAH, root / KEY)
    url = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    runner = CliRunner()
    adding = ["users", "add", str(root), "dan", "--role", "director", "--password-stdin"]
    added = runner.invoke(main, [*adding, "--database", url], input="director-pw1\n")
    assert added.exit_code == 0, added.output
    wrong = runner.invoke(
        main,
        [
            "users",
            "assign",
            str(root),
            "dan",
            "--season",
            "utah-2021",
            "--event",
            "Park City",
            "--database",
            url,
        ],
    )
    assert wrong.exit_code == 2 and "serves no season of that key" in wrong.output
    assert "utah-2012" in wrong.output
    given = runner.invoke(
        main,
        [
            "users",
            "assign",
            str(root),
            "dan",
            "--season",
            KEY,
            "--event",
            "Park Cty",
            "--event",
            "Provo Open",
            "--database",
            url,
        ],
    )
    assert given.exit_code == 0, given.output
    assert "'Park Cty' is not in" in given.output and "'Provo Open' is not" not in given.output
    store = Store(url)
    assert sorted(e for _, _, e in store.assignments()) == ["Park Cty", "Provo Open"]
    store.close()
