"""The command line at its edges: what input files say never drives the terminal, no command
writes over a file it reads or through a symbolic link, look-ups that find nothing, rule sets
that clear a preset's table, names that are nearly right, foreign and damaged rating stores,
the site's folder and what killed runs left beside it, paths the system refuses, money in any
currency, and a results file without players. Every refusal exits 2 and changes nothing."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import EXAMPLES, ROOT
from grandprix.cli import main
from hostile import snapshot
from seasons import edit

UTAH = ROOT / "examples" / "utah-2012"
ACF = ROOT / "examples" / "acf-2004"
EVENT = EXAMPLES / "class_championships_2026"
UTAH_NAME = 'name = "Utah Chess Grand Prix 2012 (example)"'
# A window title (OSC 0, ended by BEL), a hyperlink (OSC 8, ended by ST), a C1 CSI, a
# right-to-left override and an isolate, as TOML escapes in a season's and an event's names.
HOSTILE_NAME = (
    r"Utah \u001b]0;pwned\u0007 GP \u001b]8;;http://evil.example/\u001b\\link"
    r"\u001b]8;;\u001b\\ \u009b2J \u202eevil\u2066"
)
TERMINAL = ("\x1b", "\x07", "\x9b", "\u202e", "\u2066")  # what must never reach a terminal


def invoke(*args: object, cwd: Path | None = None) -> tuple[int, str, str]:
    """The command line in-process: exit code, stdout, stderr (a crash fails the test)."""
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, [str(a) for a in args])
    finally:
        os.chdir(old)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def season_copy(tmp_path: Path, source: Path = UTAH, name: str = "season") -> Path:
    folder = tmp_path / name
    shutil.copytree(source, folder)
    return folder


# ---- 1. Terminal escapes from input files ---------------------------------------------------


def hostile_season(tmp_path: Path) -> Path:
    season = season_copy(tmp_path)
    edit(season / "season.toml", UTAH_NAME, f'name = "{HOSTILE_NAME}"')
    edit(season / "season.toml", 'name = "Provo Open"', r'name = "Provo \u001b[2J Open"')
    return season


def test_standings_and_explain_show_terminal_escapes_as_text(tmp_path: Path) -> None:
    season = hostile_season(tmp_path)
    for args in (("standings", season), ("explain", season, "1214"), ("check", season)):
        code, out, err = invoke(*args)
        assert code == 0, err
        assert not any(c in out + err for c in TERMINAL), (args, out[:500])
    _, table, _ = invoke("standings", season)
    assert r"\x1b]0;pwned\x07 GP" in table and r"\u202eevil" in table
    _, explained, _ = invoke("explain", season, "1214")
    assert r"Provo \x1b[2J Open" in explained and r"\x1b]8;;http://evil.example/" in explained


def test_json_and_csv_keep_the_exact_strings(tmp_path: Path) -> None:
    season = hostile_season(tmp_path)
    code, out, _ = invoke("standings", season, "--format", "json")
    assert code == 0
    name = json.loads(out)["season"]
    assert name.startswith("Utah \x1b]0;pwned\x07 GP") and "\u202eevil\u2066" in name


def test_messages_show_terminal_escapes_as_text(tmp_path: Path) -> None:
    season = season_copy(tmp_path)
    edit(season / "season.toml", 'preset = "utah-2012"', r'preset = "utah\u001b]0;x\u0007"')
    code, out, err = invoke("standings", season)
    assert code == 2 and out == ""
    assert r"utah\x1b]0;x\x07" in err and not any(c in err for c in TERMINAL)


def test_a_division_name_in_a_usage_error_is_shown_as_text(tmp_path: Path) -> None:
    code, _, err = invoke("standings", UTAH, "--division", "x\x1b]0;t\x07")
    assert code == 2 and r"x\x1b]0;t\x07" in err and "\x1b" not in err


def test_terminal_text_escapes_every_control_but_the_layout() -> None:
    from grandprix.writers.terminal import shown, shown_text

    controls = "".join(map(chr, [*range(0x20), *range(0x7F, 0xA0)])) + "\u202a\u202e\u2066\u2069"
    assert not any(c in shown(controls) for c in controls.replace("\\", ""))
    assert shown("a\tb\nc") == r"a\x09b\x0ac" and shown("Núñez, Ñandú ♞") == "Núñez, Ñandú ♞"
    assert shown_text("a\tb\nc\x1b[0m\r") == "a\tb\nc\\x1b[0m\\x0d"


def test_a_rich_table_takes_no_markup_from_names() -> None:
    from rich.console import Console

    from grandprix.writers.table import rich_table

    console = Console(file=io.StringIO(), force_terminal=True, width=200, color_system="standard")
    name = "[link=http://evil.example/]Adams[/link] :smile:, Alice\x1b]0;t\x07"
    table = rich_table(
        "Season [bold]x[/bold]", "rules: x", ["Rank", "Name"], [True, False], [["1", name]]
    )
    console.print(table)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "[link=http://evil.example/]Adams[/link] :smile:, Alice" in text
    assert "\x1b]8;" not in text and "\x1b]0;" not in text and "😄" not in text
    assert r"Alice\x1b]0;t\x07" in text and "Season [bold]x[/bold]" in text


def test_an_event_table_shows_names_as_text(tmp_path: Path) -> None:
    results = tmp_path / "open.csv"
    results.write_text('rank,name,id,points\n1,"[link=http://x/]Adams[/link], Al",1,3\n')
    code, out, _ = invoke("event", results)
    assert code == 0 and "[link=http://x/]Adams[/link], Al" in out


# ---- 2. export never writes over what the event reads, nor through a link --------------------


def event_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "event"
    shutil.copytree(EVENT, folder)
    return folder


def test_export_with_force_into_the_events_own_folder_is_refused(tmp_path: Path) -> None:
    event = event_copy(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = invoke("export", event / "event.toml", "-o", event / "results", "--force")
    assert code == 2 and out == ""
    assert "x.trf: a file the event reads" in err and "nothing was written" in err
    assert snapshot(tmp_path) == before


def test_export_into_a_link_to_the_results_folder_is_refused(tmp_path: Path) -> None:
    event = event_copy(tmp_path)
    (tmp_path / "out").symlink_to(event / "results")
    before = snapshot(tmp_path)
    code, _, err = invoke("export", event / "event.toml", "-o", tmp_path / "out", "--force")
    assert code == 2 and "a file the event reads" in err
    assert snapshot(tmp_path) == before


def test_export_never_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    event = event_copy(tmp_path)
    target = tmp_path / "keep.txt"
    target.write_text("mine\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "x.trf").symlink_to(target)
    before = snapshot(tmp_path)
    code, _, err = invoke("export", event / "event.toml", "-o", out, "--force")
    assert code == 2 and "x.trf: a symbolic link" in err
    assert snapshot(tmp_path) == before and target.read_text() == "mine\n"


def test_export_with_force_over_its_own_earlier_files_still_works(tmp_path: Path) -> None:
    event = event_copy(tmp_path)
    out = tmp_path / "out"
    assert invoke("export", event / "event.toml", "-o", out)[0] == 0
    (out / "x.trf").write_text("old\n")
    code, text, _ = invoke("export", event / "event.toml", "-o", out, "--force")
    assert code == 0 and "wrote" in text and (out / "x.trf").read_text().startswith("012 ")


# ---- 3. ratings show / remove: found nothing, nothing to remove ------------------------------

LIST = 'id,name,rating\n100,"Alpha, Ann",2000\n101,"Beta, Bob",\n'


def store_with_a_list(tmp_path: Path) -> Path:
    (tmp_path / "list.csv").write_text(LIST)
    store = tmp_path / "store.sqlite"
    code, _, err = invoke(
        "ratings",
        "import",
        tmp_path / "list.csv",
        "--kind",
        "fide-standard",
        "--date",
        "2025-01-01",
        "--store",
        store,
    )
    assert code == 0, err
    return store


def test_ratings_show_of_a_player_not_on_the_list_exits_1(tmp_path: Path) -> None:
    store = store_with_a_list(tmp_path)
    show = ("ratings", "show", "--kind", "fide-standard", "--on", "2025-06-01", "--store", store)
    code, out, err = invoke(*show[:2], "999", *show[2:])
    assert code == 1 and out == ""
    assert "999: no rating on the fide-standard list of 2025-01-01" in err
    code, out, err = invoke(*show[:2], "101", *show[2:])  # on the list, without a rating
    assert code == 1 and out == "" and "101: no rating" in err
    code, out, _ = invoke(*show[:2], "100", *show[2:])
    assert code == 0 and out == "100: 2000 (fide-standard list of 2025-01-01)\n"


def test_ratings_show_without_a_list_in_force_exits_2(tmp_path: Path) -> None:
    store = store_with_a_list(tmp_path)
    code, out, err = invoke(
        "ratings", "show", "100", "--kind", "fide-rapid", "--on", "2025-06-01", "--store", store
    )
    assert code == 2 and out == ""
    assert (
        "no fide-rapid list in force on 2025-06-01" in err and "fide-standard of 2025-01-01" in err
    )


def test_ratings_remove_of_a_list_not_there_exits_2_and_changes_nothing(tmp_path: Path) -> None:
    store = store_with_a_list(tmp_path)
    before = snapshot(tmp_path)
    code, out, err = invoke(
        "ratings", "remove", "--kind", "fide-standard", "--date", "2024-01-01", "--store", store
    )
    assert code == 2 and out == ""
    assert "no fide-standard list dated 2024-01-01" in err and "nothing was removed" in err
    assert snapshot(tmp_path) == before
    code, out, _ = invoke(
        "ratings", "remove", "--kind", "fide-standard", "--date", "2025-01-01", "--store", store
    )
    assert code == 0 and "removed the fide-standard list of 2025-01-01" in out


# ---- 4. An empty table clears a preset's table of names -------------------------------------


def test_require_empty_clears_the_presets_require(tmp_path: Path) -> None:
    season = season_copy(tmp_path)
    _, before, _ = invoke("standings", season, "--format", "csv")
    assert "Nguyen, Nina" not in before  # NV: not eligible under UT-1's require
    edit(
        season / "season.toml",
        "[rules.prizes]",
        "[rules.eligibility]\nrequire = {}\n\n[rules.prizes]",
    )
    code, after, err = invoke("standings", season, "--format", "csv")
    assert code == 0, err
    assert "Nguyen, Nina" in after


def test_an_empty_table_of_a_section_changes_nothing(tmp_path: Path) -> None:
    season = season_copy(tmp_path)
    _, before, _ = invoke("standings", season, "--format", "csv")
    edit(season / "season.toml", "[rules.prizes]", "[rules.eligibility]\n\n[rules.prizes]")
    assert invoke("standings", season, "--format", "csv")[1] == before


def test_merge_clears_only_tables_of_names() -> None:
    from grandprix.rules.load import merge

    preset = {
        "eligibility": {"require": {"region": "UT"}, "ineligible_players": "skip"},
        "points": {"table": [3, 2, 1], "categories": {"rapid": {"table": [2, 1]}}},
        "counting": {"per_category": {"rapid": 3}, "mode": "all"},
    }
    cleared = merge(
        preset,
        {
            "eligibility": {"require": {}},
            "counting": {"per_category": {}},
            "points": {"categories": {}},
        },
    )
    assert cleared["eligibility"] == {"require": {}, "ineligible_players": "skip"}
    assert cleared["counting"] == {"per_category": {}, "mode": "all"}
    assert cleared["points"] == {"table": [3, 2, 1], "categories": {}}
    kept = merge(preset, {"eligibility": {}, "points": {"categories": {"rapid": {}}}})
    assert kept == preset
    merged = merge(preset, {"eligibility": {"require": {"member": "yes"}}})
    assert merged["eligibility"]["require"] == {"region": "UT", "member": "yes"}


# ---- 5. explain suggests the closest names --------------------------------------------------


def test_explain_of_a_misspelt_name_suggests_the_closest(tmp_path: Path) -> None:
    code, out, err = invoke("explain", UTAH, "Wlash Milo")
    assert code == 2 and out == ""
    assert "no player of the standings; did you mean 'Walsh, Milo' (id:1214)" in err


def test_explain_suggests_on_name_keys(tmp_path: Path) -> None:
    season = season_copy(tmp_path)
    edit(season / "players.csv", '"Baird, Alma"', '"Adams, Alice"')
    edit(season / "winter_quick.csv", '"Baird, Alma"', '"Adams, Alice"')
    code, _, err = invoke("explain", season, "Adms Alice")
    assert code == 2 and "did you mean 'Adams, Alice' (id:1205)" in err
    assert invoke("explain", season, "ALICE ADAMS")[0] == 0


def test_explain_of_a_name_like_none_gives_no_suggestion() -> None:
    code, _, err = invoke("explain", UTAH, "Zzyzx Qwerty")
    assert code == 2 and "no player of the standings" in err and "did you mean" not in err


# ---- 6. Rating stores: another program's database, damaged, read-only -----------------------


def import_into(tmp_path: Path, store: Path) -> tuple[int, str, str]:
    (tmp_path / "list.csv").write_text(LIST)
    return invoke(
        "ratings",
        "import",
        tmp_path / "list.csv",
        "--kind",
        "fide-standard",
        "--date",
        "2025-01-01",
        "--store",
        store,
    )


def test_import_into_another_programs_database_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "some_other_app.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE invoices (id INTEGER, total REAL)")
    db.close()
    (tmp_path / "list.csv").write_text(LIST)
    before = snapshot(tmp_path)
    code, out, err = import_into(tmp_path, other)
    assert code == 2 and out == ""
    assert "some_other_app.sqlite: an SQLite database of another program (invoices)" in err
    assert snapshot(tmp_path) == before
    for args in (("lists",), ("remove", "--kind", "fide-standard", "--date", "2025-01-01")):
        assert invoke("ratings", *args, "--store", other)[0] == 2
    assert snapshot(tmp_path) == before


def test_a_store_made_before_the_marker_is_still_ours(tmp_path: Path) -> None:
    store = store_with_a_list(tmp_path)
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA application_id = 0")
    db.close()
    code, out, _ = invoke("ratings", "lists", "--store", store)
    assert code == 0 and out.startswith("fide-standard\t2025-01-01\t2")


@pytest.mark.parametrize("keep", [0, 4096, 3 * 4096])
def test_a_damaged_store_is_an_error_naming_it(tmp_path: Path, keep: int) -> None:
    big = tmp_path / "big.csv"
    big.write_text(
        "id,name,rating\n" + "".join(f'{i},"P, {i}",{1000 + i % 900}\n' for i in range(100, 20_000))
    )
    store = tmp_path / "store.sqlite"
    assert (
        invoke(
            "ratings",
            "import",
            big,
            "--kind",
            "fide-standard",
            "--date",
            "2025-01-01",
            "--store",
            store,
        )[0]
        == 0
    )
    data = store.read_bytes()
    keep = keep or len(data) // 2
    store.write_bytes(data[:keep] + random.Random(7).randbytes(len(data) - keep))
    before = snapshot(tmp_path)
    for args in (
        ("show", "19000", "--kind", "fide-standard", "--on", "2025-02-01"),
        ("lists",),
        ("remove", "--kind", "fide-standard", "--date", "2025-01-01"),
        ("import", big, "--kind", "fide-standard", "--date", "2025-02-01"),
    ):
        code, out, err = invoke("ratings", *args, "--store", store)
        assert code == 2 and out == "", (args, err)
        assert "store.sqlite: " in err and ("damaged" in err or "cannot be used" in err), err
    assert snapshot(tmp_path) == before


def test_a_store_of_random_bytes_is_damaged(tmp_path: Path) -> None:
    store = tmp_path / "store.sqlite"
    store.write_bytes(random.Random(3).randbytes(50_000))
    code, _, err = invoke(
        "ratings", "show", "1", "--kind", "fide-standard", "--on", "2025-01-01", "--store", store
    )
    assert code == 2 and "store.sqlite: the rating store is damaged" in err


def test_a_store_in_a_missing_folder_is_refused(tmp_path: Path) -> None:
    code, _, err = import_into(tmp_path, tmp_path / "no" / "store.sqlite")
    assert code == 2 and "the folder" in err and "does not exist" in err
    assert not (tmp_path / "no").exists()


def test_a_store_where_nothing_can_be_written_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    if os.access(folder, os.W_OK):  # as root: the system's answer is what the store asks
        real = os.access

        def access(path: object, mode: int, **options: object) -> bool:
            return False if Path(str(path)) == folder and mode == os.W_OK else real(path, mode)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "access", access)
    try:
        code, out, err = import_into(tmp_path, folder / "store.sqlite")
    finally:
        folder.chmod(0o755)
    assert code == 2 and out == ""
    assert "cannot be written (read-only)" in err and list(folder.iterdir()) == []


# ---- 7. The site's folder: a link, reserved names, what killed runs left ---------------------


def test_site_into_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    assert invoke("site", ACF, "-o", real)[0] == 0
    (tmp_path / "link").symlink_to(real)
    before = snapshot(tmp_path)
    code, out, err = invoke("site", ACF, "-o", tmp_path / "link")
    assert code == 2 and out == ""
    assert "link: a symbolic link" in err and "give the folder itself" in err
    assert snapshot(tmp_path) == before and (tmp_path / "link").is_symlink()


def test_safe_file_names_avoid_the_names_windows_keeps() -> None:
    from grandprix.site.pages import safe_file_name

    for name in ("con.html", "NUL.html", "aux", "Prn.tar.gz", "com1.html", "LPT9.html"):
        safe = safe_file_name(name)
        assert safe != name and safe.partition(".")[0].lower().endswith("_"), safe
    for name in ("console.html", "con-2.html", "com10.html", "x.html", "nulla.html"):
        assert safe_file_name(name) == name


def test_a_player_named_con_gets_a_page_windows_can_hold(tmp_path: Path) -> None:
    season = season_copy(tmp_path, ACF)
    results = season / "brisbane_open.csv"
    edit(results, '"Ellis, Hugo",3100011', '"Con",')
    out = tmp_path / "site"
    assert invoke("site", season, "-o", out)[0] == 0
    from grandprix.site.pages import RESERVED

    pages = [p.name for p in out.rglob("*") if p.is_file()]
    assert not [n for n in pages if RESERVED.fullmatch(n.partition(".")[0])], pages


def test_a_later_site_cleans_what_a_killed_run_left(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert invoke("site", ACF, "-o", out)[0] == 0
    dead = _dead_pid()
    stale = tmp_path / f".site.{dead}.abcd1234.tmp"
    (stale / "new" / "players").mkdir(parents=True)
    (stale / "new" / "index.html").write_text("half a site")
    earlier = tmp_path / ".site.k2j_x9ab.tmp"  # named as earlier versions named them
    (earlier / "new").mkdir(parents=True)
    alive = tmp_path / f".site.{os.getppid()}.live0000.tmp"  # a run still writing
    (alive / "new").mkdir(parents=True)
    foreign = tmp_path / f".site.{dead}.mine0000.tmp"  # holds what no run of ours made
    (foreign / "notes").mkdir(parents=True)
    (tmp_path / ".site.lock").write_bytes(
        b"grandprix site: a run is writing the folder beside this file\n"
    )
    code, _, err = invoke("site", ACF, "-o", out)
    assert code == 0, err
    assert not stale.exists() and not earlier.exists() and not (tmp_path / ".site.lock").exists()
    assert alive.exists() and foreign.exists() and (out / "index.html").exists()


def test_an_earlier_site_left_in_a_killed_runs_folder_is_put_back(tmp_path: Path) -> None:
    out = tmp_path / "site"
    assert invoke("site", ACF, "-o", out)[0] == 0
    before = snapshot(out)
    stale = tmp_path / f".site.{_dead_pid()}.abcd1234.tmp"
    stale.mkdir()
    out.rename(stale / "old")  # killed between its two renames: no site at ``out``
    (tmp_path / "extra").mkdir()
    code, _, err = invoke("site", ACF, "-o", out)
    assert code == 0, err
    assert not stale.exists() and snapshot(out).keys() == before.keys()


def test_children_of_a_killed_run_do_not_hold_its_lock(tmp_path: Path) -> None:
    """A run that forked and died: its child, still running, keeps no later run out."""
    out = tmp_path / "site"
    script = textwrap.dedent(f"""
        import os, sys, time
        from pathlib import Path
        from grandprix.site.build import _locked
        with _locked(Path({str(out)!r})):
            child = os.fork()
            if child == 0:  # lets go of the output, so that the parent's end is seen
                null = os.open(os.devnull, os.O_RDWR)
                for fd in (0, 1, 2):
                    os.dup2(null, fd)
                time.sleep(60)
                os._exit(0)
            print(child, flush=True)
            os._exit(0)  # as a kill: no clean-up
    """)
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    child = int(done.stdout)
    try:
        assert (tmp_path / ".site.lock").exists()
        code, _, err = invoke("site", ACF, "-o", out)
        assert code == 0, err
        assert not (tmp_path / ".site.lock").exists()
    finally:
        os.kill(child, 9)


def _dead_pid() -> int:
    """The id of a process that has ended."""
    done = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(done.stdout)


# ---- 8. Paths the system refuses -------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ("standings", "a" * 100_000),
        ("check", "a/" * 50_000),
        ("explain", "a" * 300, "x"),
        ("site", UTAH, "-o", "b" * 100_000),
        ("event", "c" * 100_000 + ".csv"),
    ],
    ids=["standings", "check", "explain", "site", "event"],
)
def test_a_path_too_long_is_bad_input(tmp_path: Path, args: tuple[object, ...]) -> None:
    code, out, err = invoke(*args, cwd=tmp_path)
    assert code == 2 and out == "", err
    assert "too long" in err and "internal error" not in err and len(err) < 1000
    assert list(tmp_path.iterdir()) == []


# ---- 9. Money in any currency ----------------------------------------------------------------


def test_a_prize_of_5_4_billion_pounds_is_split_exactly(tmp_path: Path) -> None:
    from grandprix.prizes.event import event_prizes

    event = event_copy(tmp_path)
    toml = event / "event.toml"
    prize = 'name = "Class B {}"\nranking = "B"\nus_class = "B"\namount = {}'
    edit(toml, prize.format("1st", 100), prize.format("1st", 10800000000))
    edit(toml, prize.format("2nd", 50), prize.format("2nd", "5400000000.01"))
    edit(toml, "advance = 25", "advance = 5400000000")
    result = event_prizes(toml)
    shares = [w.amount or Fraction(0) for w in result.won if w.prize == "Class B 2nd"]
    assert shares == [Fraction(540000000001, 200)] * 2 and sum(shares) == Fraction("5400000000.01")
    code, out, err = invoke("prizes", "--event", toml, "--format", "json")
    assert code == 0, err
    amounts = [a["amount"] for a in json.loads(out)["awards"] if a["prize"] == "Class B 2nd"]
    assert amounts == ["2700000000.01", "2700000000.01"]  # shown to the cent, half up
    code, out, err = invoke("fees", toml)
    assert code == 0, err
    fees = {row["fee"] for row in csv.DictReader(io.StringIO(out)) if "fee" in row}
    assert any(fee.replace(",", "").startswith("5400000000") for fee in fees), fees


def test_season_prizes_and_funds_in_billions(tmp_path: Path) -> None:
    season = season_copy(tmp_path)
    edit(season / "season.toml", "amount = 300", "amount = 5400000000")
    edit(season / "season.toml", "amount = 200", "amount = 999999999999999.99")
    code, out, err = invoke("prizes", season, "--format", "json")
    assert code == 0, err
    amounts = sorted(a["amount"] for a in json.loads(out)["awards"] if a["amount"])
    assert "999999999999999.99" in amounts and "5400000000.00" in amounts
    acf = season_copy(tmp_path, ACF, "acf")
    edit(acf / "season.toml", "prize_fund = 1200", "prize_fund = 5400000000")
    code, out, _ = invoke("check", acf)
    assert code == 0 and out.startswith("0 error(s)")


def test_money_above_the_bound_is_refused_at_its_line(tmp_path: Path) -> None:
    season = season_copy(tmp_path)
    edit(season / "season.toml", "amount = 300", "amount = 2000000000000000")
    code, out, err = invoke("standings", season)
    line = (
        season.joinpath("season.toml").read_text().splitlines().index("amount = 2000000000000000")
    )
    assert code == 2 and out == ""
    assert f"season.toml:{line + 1}:" in err and "1,000,000,000,000,000" in err


# ---- 10. A results file with a header and no players -----------------------------------------


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_event_of_a_header_without_players_warns(tmp_path: Path, fmt: str) -> None:
    results = tmp_path / "open.csv"
    results.write_text("rank,name,id,points\n")
    code, out, err = invoke("event", results, "--format", fmt)
    assert code == 0
    assert "open.csv:1: warning: no players below the header on line 1" in err
    if fmt == "json":
        assert json.loads(out)["warnings"] and json.loads(out)["placings"] == []
