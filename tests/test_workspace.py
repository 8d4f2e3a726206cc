"""The workspace's changes to a season folder: previewed on a copy, accepted against the
folder's version, written whole."""

from __future__ import annotations

import datetime
import hashlib
import shutil
import threading
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from grandprix.cli import main
from grandprix.errors import UsageError
from grandprix.rules.load import preset_names
from grandprix.season.config import SEASON_FILE, load_season
from grandprix.season.model import Line, Tables
from grandprix.season.standings import AwardMemo, division_standings
from grandprix.serve.changes import (
    Change,
    alias_change,
    event_change,
    needs_approval,
    rules_change,
    toml_value,
)
from grandprix.serve.new_season import start_season
from grandprix.serve.rule_fields import rule_fields
from grandprix.serve.seasons import SeasonSource, folder_version
from grandprix.serve.workspace import Preview, StaleError, accept, preview

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "utah-2012"
NEW_EVENT = (
    'rank,name,id,points\n1,"Ellis, Aiden",1212,5\n2,"Kerr, Esme",1219,4\n3,"Quill, Yara",1220,3\n'
)


def contents(folder: Path) -> dict[str, str]:
    """Every file of the folder and a digest of its bytes."""
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".grandprix-")
    }


@pytest.fixture
def season(tmp_path: Path) -> Path:
    folder = tmp_path / "utah"
    shutil.copytree(EXAMPLE, folder)
    return folder


def standings_csv(folder: Path) -> str:
    result = CliRunner().invoke(main, ["standings", str(folder), "--format", "csv"])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_preview_changes_nothing_in_the_folder_and_says_who_moves(season: Path) -> None:
    before = contents(season)
    change = event_change(
        season, "Park City Open", datetime.date(2012, 12, 15), "park_city.csv", NEW_EVENT.encode()
    )
    seen = preview(season, change)
    assert seen.ok, [str(p) for p in seen.problems]
    assert contents(season) == before
    moved = {m.name: m for m in seen.moves}
    ellis = moved["Ellis, Aiden"]
    assert ellis.points_before and ellis.points_after
    assert float(ellis.points_after) == float(ellis.points_before) + 21  # UT-3: 1st is 21


def test_accepting_writes_the_file_and_season_toml_keeping_its_comments(season: Path) -> None:
    toml_before = (season / SEASON_FILE).read_text(encoding="utf-8")
    version = folder_version(season)
    change = event_change(
        season, "Park City Open", datetime.date(2012, 12, 15), "park_city.csv", NEW_EVENT.encode()
    )
    expected = preview(season, change)
    new_version = accept(season, version, change).version
    assert new_version != version == expected.version
    assert (season / "park_city.csv").read_text(encoding="utf-8") == NEW_EVENT
    toml_after = (season / SEASON_FILE).read_text(encoding="utf-8")
    assert toml_after.startswith(toml_before.rstrip("\n"))  # comments and layout kept
    assert 'name = "Park City Open"\ndate = 2012-12-15\nresults = "park_city.csv"' in toml_after
    # The folder now gives, through the CLI, the standings the preview showed.
    text = standings_csv(season)
    for move in expected.moves:
        assert f",{move.name}," in text or f',"{move.name}",' in text


def test_a_preview_made_on_the_same_version_is_not_made_again_on_accepting(
    season: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from grandprix.serve import workspace

    made: list[Change] = []
    real = workspace.preview

    def counted(folder: Path, change: Change, kept: workspace.Previews | None = None) -> Preview:
        made.append(change)
        return real(folder, change, kept)

    monkeypatch.setattr(workspace, "preview", counted)
    version = folder_version(season)
    change = event_change(
        season, "Park City Open", datetime.date(2012, 12, 15), "park.csv", NEW_EVENT.encode()
    )
    seen = workspace.preview(season, change)
    assert made == [change]
    done = accept(season, version, change, seen)
    assert made == [change] and done.preview is seen  # not made again
    later = NEW_EVENT.replace(",3\n", ",2.5\n")  # another event's own results
    other = event_change(season, "Later", datetime.date(2012, 12, 20), "later.csv", later.encode())
    again = accept(season, done.version, other, seen)  # a preview of another change
    assert made == [change, other] and again.preview is not seen


def test_a_form_made_on_an_older_folder_is_refused_and_writes_nothing(season: Path) -> None:
    version = folder_version(season)
    change = event_change(
        season, "Park City Open", datetime.date(2012, 12, 15), "park_city.csv", NEW_EVENT.encode()
    )
    (season / "players.csv").write_text(
        (season / "players.csv").read_text(encoding="utf-8") + "", encoding="utf-8"
    )
    (season / "note.txt").write_text("edited by hand\n", encoding="utf-8")
    before = contents(season)
    with pytest.raises(StaleError, match="changed since this form was made"):
        accept(season, version, change)
    assert contents(season) == before


def test_an_upload_with_an_error_is_located_in_the_folder_and_cannot_be_accepted(
    season: Path,
) -> None:
    bad = b"rank,name,id,points\n1,Ann,9001,5\n2,Bob,9002,lots\n"
    change = event_change(season, "Bad", datetime.date(2012, 12, 15), "bad.csv", bad)
    seen = preview(season, change)
    assert not seen.ok
    assert any(str(p).startswith("bad.csv:3:") and "'points'" in str(p) for p in seen.errors), [
        str(p) for p in seen.errors
    ]
    before = contents(season)
    with pytest.raises(UsageError, match="nothing was written"):
        accept(season, folder_version(season), change)
    assert contents(season) == before


def test_an_existing_file_is_never_replaced_by_an_upload(season: Path) -> None:
    with pytest.raises(UsageError, match="already has a file of that name"):
        event_change(season, "Again", datetime.date(2012, 12, 1), "class_a.csv", b"x")


def test_two_changes_at_once_one_lands_the_other_is_refused(season: Path) -> None:
    version = folder_version(season)
    changes = [
        event_change(
            season, f"Event {i}", datetime.date(2012, 12, 10 + i), f"e{i}.csv", NEW_EVENT.encode()
        )
        for i in range(2)
    ]
    outcomes: list[str] = []

    def run(i: int) -> None:
        try:
            accept(season, version, changes[i])
            outcomes.append("landed")
        except StaleError:
            outcomes.append("refused")

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["landed", "refused"]
    written = [i for i in range(2) if (season / f"e{i}.csv").exists()]
    assert len(written) == 1
    toml = (season / SEASON_FILE).read_text(encoding="utf-8")
    assert f'results = "e{written[0]}.csv"' in toml
    assert f'results = "e{1 - written[0]}.csv"' not in toml
    assert standings_csv(season)


def test_a_rules_change_turns_the_preset_into_a_table_and_previews_the_standings(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / SEASON_FILE).write_text(
        '# our club\nname = "Club"\nrules = "utah-2012"  # the preset\n\n'
        '[[events]]\nname = "A"\ndate = 2012-03-01\nresults = "a.csv"\n',
        encoding="utf-8",
    )
    (folder / "a.csv").write_text("rank,name,points\n1,Ann,3\n2,Bob,2\n", encoding="utf-8")
    (folder / "players.csv").write_text(
        "name,region,member\nAnn,UT,yes\nBob,UT,yes\n", encoding="utf-8"
    )
    change = rules_change(folder, {"points.table": toml_value("[25, 18, 15]")})
    seen = preview(folder, change)
    assert seen.ok, [str(p) for p in seen.problems]
    assert {(m.name, m.points_before, m.points_after) for m in seen.moves} == {
        ("Ann", "21.00", "25.00"),
        ("Bob", "15.00", "18.00"),
    }
    accept(folder, seen.version, change)
    text = (folder / SEASON_FILE).read_text(encoding="utf-8")
    assert text.startswith("# our club\n")
    assert 'preset = "utah-2012"' in text and "table = [25, 18, 15]" in text


def test_a_bad_rules_value_is_located_and_not_accepted(season: Path) -> None:
    change = rules_change(season, {"points.ties": toml_value("halve")})
    seen = preview(season, change)
    assert not seen.ok
    assert any("'points.ties'" in str(p) and str(p).startswith("season.toml:") for p in seen.errors)


def test_an_identity_decision_is_a_row_of_aliases_csv(season: Path) -> None:
    change = alias_change(season, "Kerr, Esme", "Kerr, Esmé", same=True)
    seen = preview(season, change)
    assert seen.ok
    accept(season, seen.version, change)
    rows = (season / "aliases.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0] == "name,other,decision"
    assert rows[-1] == '"Kerr, Esme","Kerr, Esmé",same'


def test_a_new_season_from_a_preset_or_from_another_seasons_rules(
    tmp_path: Path, season: Path
) -> None:
    made = start_season(tmp_path, "club-2027", "Club 2027", preset="acf-2004")
    assert 'rules = "acf-2004"' in (made / SEASON_FILE).read_text(encoding="utf-8")
    like = start_season(tmp_path, "utah-2013", "Utah 2013", like=season)
    text = (like / SEASON_FILE).read_text(encoding="utf-8")
    assert 'preset = "utah-2012"' in text and "[[rules.prizes.prize]]" in text
    with pytest.raises(UsageError, match="exists already"):
        start_season(tmp_path, "club-2027", "Again", preset="acf-2004")


def test_a_preview_reads_shared_folders_named_relative_to_the_season(tmp_path: Path) -> None:
    shared = tmp_path / "federation"
    shared.mkdir()
    (shared / "rules.toml").write_text(
        'name = "fed"\n[points]\ntable = [10, 6, 4]\n', encoding="utf-8"
    )
    folder = tmp_path / "season"
    folder.mkdir()
    (folder / SEASON_FILE).write_text(
        'name = "S"\nshared_folders = ["../federation"]\n'
        '[rules]\nfile = "../federation/rules.toml"\n',
        encoding="utf-8",
    )
    change = event_change(
        folder, "A", datetime.date(2012, 3, 1), "a.csv", b"rank,name,points\n1,Ann,3\n"
    )
    seen = preview(folder, change)
    assert seen.ok, [str(p) for p in seen.problems]
    assert [(m.name, m.points_after) for m in seen.moves] == [("Ann", "10.00")]


def test_a_shared_folder_named_in_a_season_toml_with_a_bom_is_part_of_the_folders_version(
    tmp_path: Path,
) -> None:
    """season.toml is read as the season reads it (a byte-order mark allowed): a file edited in
    a shared folder it names changes the version the workspace's forms are made on."""
    shared = tmp_path / "federation"
    shared.mkdir()
    (shared / "players.csv").write_text("name\nAnn\n", encoding="utf-8")
    folder = tmp_path / "season"
    folder.mkdir()
    (folder / SEASON_FILE).write_text(
        'name = "S"\nshared_folders = ["../federation"]\n', encoding="utf-8-sig"
    )
    before = folder_version(folder)
    (shared / "players.csv").write_text("name\nAnn\nBob\n", encoding="utf-8")
    assert folder_version(folder) != before


@pytest.mark.parametrize("bad", ["broken = [", f"big = 1{'0' * 5000}"])
def test_a_season_toml_the_season_cannot_read_is_one_the_workspace_cannot_read(
    season: Path, bad: str
) -> None:
    """A syntax error, or a number too long for Python, in season.toml: uploads wait for a
    coordinator, the season has no name yet, and an event is refused with where it is wrong."""
    path = season / SEASON_FILE
    path.write_text(path.read_text(encoding="utf-8") + f"\n{bad}\n", encoding="utf-8")
    assert needs_approval(season)
    assert SeasonSource(season).name == ""
    located = r"season\.toml:\d+(:\d+)?: not valid TOML: .*; correct it first"
    with pytest.raises(UsageError, match=located):
        event_change(
            season, "Park City Open", datetime.date(2012, 12, 15), "park.csv", NEW_EVENT.encode()
        )


def test_an_event_is_added_to_a_season_whose_events_are_written_inline(tmp_path: Path) -> None:
    """events = [{...}] cannot be followed by an [[events]] table: the new event joins the
    inline list (through tomlkit), and the season reads with both."""
    folder = tmp_path / "inline"
    folder.mkdir()
    (folder / SEASON_FILE).write_text(
        'name = "S"\nrules = "lupiae-2012-13"\n'
        'events = [{name = "A", date = 2012-03-01, results = "a.csv"}]\n',
        encoding="utf-8",
    )
    (folder / "a.csv").write_text("rank,name,points\n1,Ann,3\n", encoding="utf-8")
    change = event_change(
        folder, "B", datetime.date(2012, 4, 1), "b.csv", b"rank,name,points\n1,Bob,2\n"
    )
    seen = preview(folder, change)
    assert seen.ok, [str(p) for p in seen.problems]
    written = change.files[SEASON_FILE].decode()
    assert '{name = "B", date = 2012-04-01, results = "b.csv"}' in written
    accept(folder, seen.version, change)
    season, _ = load_season(folder)
    assert season is not None and [e.name for e in season.events] == ["A", "B"]


def _facts(tables: Tables) -> list[object]:
    """What a table says, without the valuations' numbering (a memo's differs)."""

    def said(line: Line) -> tuple[object, ...]:
        counted = [(a.event, a.section, a.place, a.points, a.notes) for a in line.counted]
        dropped = [(a.event, a.section, a.place, a.points) for a in line.dropped]
        return (line.player, line.name, line.total, line.rank, line.events, counted, dropped)

    return [(name, [said(line) for line in lines]) for name, lines in tables]


@pytest.mark.parametrize(
    ("example", "rule", "value"),
    [("utah-2012", "points.table", "[30, 20, 10]"), ("acf-2004", "sections.unweighted", "'all'")],
)
def test_the_previews_kept_awards_give_the_standings_computed_afresh(
    tmp_path: Path, example: str, rule: str, value: str
) -> None:
    folder = tmp_path / example
    shutil.copytree(EXAMPLE.parent / example, folder)
    memo = AwardMemo()
    start, _ = load_season(folder)
    assert start is not None
    day = max(e.date for e in start.events)
    results = sorted(p for p in folder.glob("*.csv") if p.name != "players.csv")[0]
    rows = results.read_text().splitlines(keepends=True)
    listed = folder / "players.csv"
    fund = "1500" if example == "acf-2004" else ""

    def accepted(change: Change) -> None:
        accept(folder, folder_version(folder), change)

    steps: list[Callable[[], object]] = [
        lambda: None,
        lambda: accepted(
            event_change(
                folder,
                "Added",
                day,
                "added.csv",  # its own results:
                "".join(rows[:1] + rows[2:] + rows[1:2]).encode(),
                prize_fund=fund,
            )
        ),  # the winner last
        lambda: accepted(alias_change(folder, "Ann Zed", "Cy Xu", same=False)),
        lambda: accepted(rules_change(folder, {rule: toml_value(value)})),
        lambda: results.write_text("".join(rows[:1] + rows[2:])),  # the winner's row removed
        lambda: listed.write_text(listed.read_text().replace(',"', ',"X')),  # names changed
        lambda: (folder / "added.csv").write_text("".join(rows[:2])),  # only its winner
    ]
    seen = []
    for step in steps:
        step()
        season, problems = load_season(folder)
        assert season is not None, [str(p) for p in problems]
        kept = division_standings(season, memo=memo)
        assert _facts(kept) == _facts(division_standings(season))
        seen.append(_facts(kept))
    assert len({repr(s) for s in seen}) == len(seen) - 1  # all but the alias changed them


def test_an_event_can_bring_its_prize_fund_and_a_bad_amount_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "acf"
    shutil.copytree(EXAMPLE.parent / "acf-2004", folder)
    with pytest.raises(UsageError, match="prize fund 'lots' is not an amount"):
        event_change(
            folder, "Added", datetime.date(2004, 12, 1), "added.csv", b"", prize_fund="lots"
        )
    change = event_change(
        folder,
        "Added",
        datetime.date(2004, 12, 1),
        "added.csv",
        NEW_EVENT.encode(),
        prize_fund="2,500",
    )
    accept(folder, folder_version(folder), change)
    season, _ = load_season(folder)
    assert season is not None
    added = [e for e in season.events if e.name == "Added"]
    assert [e.prize_fund for e in added] == [2500]


@pytest.mark.parametrize("preset", preset_names())
def test_every_setting_of_the_rules_form_reads_back_as_the_same_rules(
    tmp_path: Path, preset: str
) -> None:
    """The form shows each setting (lists of tables too) as TOML; written back whole into
    season.toml, every one gives the rules it came from."""
    folder = start_season(tmp_path, "s", "S", preset=preset)
    season, _ = load_season(folder)
    assert season is not None
    fields = [f for _, group in rule_fields(season.rules) for f in group if f.text]
    change = rules_change(folder, {f.key: toml_value(f.text) for f in fields})
    accept(folder, folder_version(folder), change)
    again, problems = load_season(folder)
    assert again is not None, [str(p) for p in problems]
    assert again.rules == season.rules
    text = (folder / SEASON_FILE).read_text()
    tables = [f.key for f in fields if f.text.startswith("[\n")]  # lists of tables
    assert all(f"[[rules.{key}]]" in text for key in tables)  # written as season.toml does


def test_a_change_made_before_another_landed_is_refused_not_written_over_it(
    season: Path,
) -> None:
    """Found by the load benchmark: a change is made from season.toml as it was; if another
    change lands before it is previewed, accepting it would write the older season.toml back
    and drop the other event. It carries the version it was made from and is refused."""
    late = event_change(season, "Event B", datetime.date(2012, 12, 31), "b.csv", NEW_EVENT.encode())
    first = event_change(
        season, "Event A", datetime.date(2012, 12, 31), "a.csv", NEW_EVENT.encode()
    )
    accept(season, preview(season, first).version, first)
    seen = preview(season, late)
    assert not seen.ok and "changed while this change was being made" in str(seen.errors[0])
    with pytest.raises(StaleError):
        accept(season, folder_version(season), late)
    names = [e.name for e in load_season(season)[0].events]  # type: ignore[union-attr]
    assert "Event A" in names and "Event B" not in names


def test_results_of_a_planned_event_go_into_its_entry(season: Path) -> None:
    toml = season / SEASON_FILE
    toml.write_text(
        toml.read_text() + '\n[[events]]\nname = "Park City"\ndate = 2012-12-20\n'
        "planned = true  # in the calendar\n"
    )
    change = event_change(
        season, "Park City", datetime.date(2012, 12, 15), "park.csv", NEW_EVENT.encode()
    )
    assert "planned event 'Park City'" in change.what
    accept(season, folder_version(season), change)
    listed = [e for e in tomllib.loads(toml.read_text())["events"] if e["name"] == "Park City"]
    assert listed == [
        {"name": "Park City", "date": datetime.date(2012, 12, 20), "results": "park.csv"}
    ]  # the calendar's date stays
    loaded, _ = load_season(season)
    assert loaded is not None and not [e for e in loaded.events if e.planned]


def test_a_preview_pauses_the_collector_and_gives_it_back_as_it_was(season: Path) -> None:
    import gc

    change = event_change(season, "Added", datetime.date(2012, 12, 30), "a.csv", NEW_EVENT.encode())
    assert gc.isenabled()
    preview(season, change)
    assert gc.isenabled()
    gc.disable()
    try:
        preview(season, change)
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()


def test_a_preview_takes_the_folders_standings_from_the_snapshot_served(
    season: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the server's season at hand, a preview does not read the folder again for its own
    standings; what it says is what a preview made alone says."""
    from grandprix.serve import workspace

    source = SeasonSource(season)
    source.refresh()
    change = event_change(
        season, "Park City Open", datetime.date(2012, 12, 15), "park.csv", NEW_EVENT.encode()
    )
    alone = preview(season, change)
    reads: list[Path] = []
    real = load_season

    def counted(folder: Path) -> object:
        reads.append(Path(folder))
        return real(folder)

    monkeypatch.setattr(workspace, "load_season", counted)
    kept = workspace.Previews(source)
    seen = preview(season, change, kept)
    assert [r for r in reads if r == season.resolve()] == []  # only the copy was read
    assert (seen.moves, seen.prizes, seen.race, seen.problems) == (
        alone.moves,
        alone.prizes,
        alone.race,
        alone.problems,
    )
    (season / "notes.txt").write_text("by hand\n")  # the snapshot is no longer of the folder
    reads.clear()
    again = event_change(
        season, "Park City Open", datetime.date(2012, 12, 15), "park.csv", NEW_EVENT.encode()
    )
    assert preview(season, again, workspace.Previews(source)).ok
    assert season.resolve() in reads


def test_a_new_event_is_written_with_the_other_events(tmp_path: Path) -> None:
    """A season.toml whose rule tables follow its events: the new [[events]] goes after the
    last event (its sections too), before [rules], where a person would write it."""
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / SEASON_FILE).write_text(
        'name = "S"\n\n[[events]]\nname = "A"\ndate = 2012-03-01\n\n[[events.sections]]\n'
        'name = "Open"\nresults = "a.csv"\n\n[rules]  # the series\' own prizes\n'
        'preset = "lupiae-2012-13"\n\n[[rules.prizes.prize]]\nname = "1st"\namount = 10\n',
        encoding="utf-8",
    )
    (folder / "a.csv").write_text("rank,name,points\n1,Ann,3\n", encoding="utf-8")
    change = event_change(
        folder, "B", datetime.date(2012, 4, 1), "b.csv", b"rank,name,points\n1,Bob,2\n"
    )
    written = change.files[SEASON_FILE].decode()
    assert written.index('name = "B"') < written.index("[rules]")
    assert written.index('results = "a.csv"') < written.index('name = "B"')
    assert preview(folder, change).ok
