"""The season as it stood after each event, made in one pass (``History``, ``rerank_each``),
equals ranking every date again from scratch (``ranks_on``): every player's rank and the lines
of each table's top, on every example season and on random seasons of every preset."""

from __future__ import annotations

import datetime
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grandprix.season import history
from grandprix.season.config import load_season
from grandprix.season.history import History, counting_of, kept_dates
from grandprix.season.model import Line, Season
from grandprix.season.standings import Placed, division_standings, rerank
from seasons import write_season

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["utah-2012", "acf-2004", "lupiae-2012-13", "utah-2026", "circuit-2026"]
# Each season tie-break, a counted number that follows the most events played (Keshmat
# 2024-25), divisions (ACF 2004), best N and categories.
PRESETS = ["utah-2012", "acf-2004", "lupiae-2012-13", "keshmat-2024-25", "nwchess-gp"]


def shown(line: Line) -> tuple[object, ...]:
    """What a line of a "standings after" page is made of, and the results behind it."""
    awards = [(a.origin, a.first, a.last, a.points) for a in line.awards]
    counted = [(a.origin, a.first, a.points) for a in line.counted]
    return (
        line.player,
        line.name,
        line.total,
        line.events,
        line.bonus,
        line.rank_first,
        line.rank_last,
        awards,
        counted,
    )


def random_season(folder: Path, seed: int, preset: str) -> Season:
    """Up to 14 events over up to 8 dates (several on one day), players coming and going."""
    rng = random.Random(seed)
    pool = [f"{100 + i}" for i in range(rng.randint(3, 30))]
    days = sorted(rng.sample(range(1, 28), rng.randint(1, 8)))
    events, files = [], {}
    for k in range(rng.randint(1, 14)):
        field = rng.sample(pool, rng.randint(2, len(pool)))
        scores = sorted((rng.randint(0, 10) / 2 for _ in field), reverse=True)
        rows = "".join(
            f"{i},Player {ident},{ident},{score}\n"
            for i, (ident, score) in enumerate(zip(field, scores, strict=True), 1)
        )
        files[f"e{k}.csv"] = "rank,name,id,points\n" + rows
        day, fund = rng.choice(days), rng.choice([1000, 2000, 3000])
        events.append(
            f'[[events]]\nname = "Event {k}"\ndate = 2012-05-{day:02d}\n'
            f'results = "e{k}.csv"\nprize_fund = {fund}\n'
        )
    rng.shuffle(events)  # the calendar is in date order whatever the file's order
    people = "id,name,region,member,age,sex\n" + "".join(
        f"{p},Player {p},{rng.choice(['UT', 'NV'])},yes,{rng.randint(8, 70)},"
        f"{rng.choice(['M', 'F'])}\n"
        for p in pool
    )
    files["players.csv"] = people
    toml = f'name = "Random"\nstart = 2012-01-01\nend = 2012-12-31\nrules = "{preset}"\n\n'
    write_season(folder, toml + "\n".join(events), files)
    season, problems = load_season(folder)
    assert season is not None, problems
    return season


def ranks_on(
    season: Season, tables: list[tuple[str, list[Line]]], as_of: datetime.date
) -> list[tuple[str, list[Line]]]:
    """Every table as it stood on ``as_of`` (its lines ranked again from their awards)."""
    played = [e for e in season.events if not e.planned and e.date <= as_of]
    last_event = max((e.index for e in played), default=None)
    return [
        (
            name,
            rerank(
                lines,
                season.rules,
                len(season.events),
                counting_of(season, name),
                as_of,
                last_event,
            ),
        )
        for name, lines in tables
    ]


def same_as_from_scratch(season: Season) -> int:
    """Compare the history with ``ranks_on`` on each kept date; the number of dates compared."""
    tables = division_standings(season)
    found = History(season, tables, top=5)
    assert set(found.dates) == kept_dates(season)
    for day in found.dates:
        again = ranks_on(season, tables, day)
        stood = found.after(day)
        assert [name for name, _ in again] == [name for name, _ in stood]
        for (name, lines), (_, made) in zip(again, stood, strict=True):
            assert made.players == len(lines), (name, day)
            assert made.top_lines() == [
                Placed(ln.player, ln.name, ln.total, ln.events, ln.rank_first, ln.rank_last)
                for ln in lines[:5]
            ], (name, day)
            assert [(ln.rank_first, ln.rank_last) for ln in made.top_lines()] == [
                (ln.rank_first, ln.rank_last) for ln in lines[:5]
            ]
            ranks = {ln.player: ln.rank_first for ln in lines}
            for line in dict(tables)[name]:
                assert found.ranks(name, line.player)[found.dates.index(day)] == ranks.get(
                    line.player
                ), (name, day, line.player)
    return len(found.dates)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_season(example: str) -> None:
    season, _ = load_season(ROOT / "examples" / example)
    assert season is not None
    assert same_as_from_scratch(season) >= 1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESETS))
def test_random_seasons(tmp_path_factory: pytest.TempPathFactory, seed: int, preset: str) -> None:
    folder = tmp_path_factory.mktemp("history")
    same_as_from_scratch(random_season(folder, seed, preset))


def test_only_the_latest_dates_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond ``HISTORY_LIMIT`` dates, the latest are kept, and still equal ranking again."""
    monkeypatch.setattr(history, "HISTORY_LIMIT", 3)
    for seed in range(6):
        season = random_season(tmp_path / f"s{seed}", seed, "lupiae-2012-13")
        played = sorted({e.date for e in season.events if not e.planned})
        assert kept_dates(season) == set(played[-3:])
        assert same_as_from_scratch(season) == min(3, len(played))


def changed(folder: Path, rng: random.Random, step: int) -> str:
    """One change of a season folder written by ``random_season``, as the workspace makes
    them: an event added (on the latest date, after it, or before it), an event's results
    replaced or removed, players.csv edited, or the rules changed. What it did, in words."""
    toml = (folder / "season.toml").read_text(encoding="utf-8")
    head, *events = toml.split("[[events]]\n")
    files = sorted(p.name for p in folder.glob("e*.csv"))
    people = [line.split(",")[0] for line in (folder / "players.csv").read_text().splitlines()[1:]]
    days = sorted(int(e.split("date = 2012-05-")[1][:2]) for e in events)
    kind = rng.choice(["latest", "later", "earlier", "replace", "remove", "players", "rules"])
    if kind in ("latest", "later", "earlier") or not events:
        last = days[-1] if days else 1
        day = {"latest": last, "later": min(28, last + 1), "earlier": rng.randint(1, last)}.get(
            kind, last
        )
        field = rng.sample(people, rng.randint(2, len(people)))
        name = f"n{step}.csv"
        body = "".join(f"{i},Player {p},{p},{len(field) - i}\n" for i, p in enumerate(field, 1))
        (folder / name).write_text("rank,name,id,points\n" + body, encoding="utf-8")
        events.append(
            f'name = "New {step}"\ndate = 2012-05-{day:02d}\nresults = "{name}"\n'
            "prize_fund = 2000\n"
        )
    elif kind == "replace":
        name = rng.choice(files)
        rows = (folder / name).read_text().splitlines()
        shuffled = rows[1:]
        rng.shuffle(shuffled)  # the same players, placed otherwise
        lines = [",".join([str(i), *r.split(",")[1:]]) for i, r in enumerate(shuffled, 1)]
        (folder / name).write_text("\n".join([rows[0], *lines]) + "\n", encoding="utf-8")
    elif kind == "remove" and len(events) > 1:
        events.pop(rng.randrange(len(events)))
    elif kind == "players":
        text = (folder / "players.csv").read_text()
        who = rng.choice(people)
        region = "NV" if f"{who},Player {who},UT" in text else "UT"
        text = text.replace(f"{who},Player {who},UT", f"{who},Player {who},{region}").replace(
            f"{who},Player {who},NV", f"{who},Player {who},{region}"
        )
        (folder / "players.csv").write_text(text)
    elif kind == "rules":
        preset = rng.choice(PRESETS)
        head = (
            "\n".join(
                f'rules = "{preset}"' if line.startswith("rules = ") else line
                for line in head.splitlines()
            )
            + "\n"
        )
    (folder / "season.toml").write_text(head + "".join("[[events]]\n" + e for e in events))
    return kind


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESETS))
def test_a_history_derived_from_the_one_before_a_change_equals_one_made_afresh(
    tmp_path_factory: pytest.TempPathFactory, seed: int, preset: str
) -> None:
    """Random sequences of changes: after each, the history made from the previous one equals
    the history made from scratch, date for date, rank for rank, line for line."""
    folder = tmp_path_factory.mktemp("derived")
    season = random_season(folder, seed, preset)
    rng = random.Random(seed)
    before = History(season, division_standings(season), top=4)
    for step in range(5):
        changed(folder, rng, step)
        now, problems = load_season(folder)
        assert now is not None, problems
        tables = division_standings(now)
        derived = History(now, tables, top=4, previous=before)
        fresh = History(now, tables, top=4)
        assert derived.dates == fresh.dates
        for (name, made), (_, want) in zip(derived.stood.items(), fresh.stood.items(), strict=True):
            assert len(made) == len(want)
            for a, b in zip(made, want, strict=True):
                assert a.date == b.date and a.players == b.players
                assert a.top_lines() == b.top_lines(), (name, a.date)
                assert a.ranks() == b.ranks(), (name, a.date)
        before = derived


def test_the_derived_history_takes_the_dates_before_an_event_added_last(tmp_path: Path) -> None:
    """An event added on a new latest date: every earlier date of the window is taken as it
    was, and only the new date is ranked."""
    season = random_season(tmp_path / "s", 7, "utah-2012")
    before = History(season, division_standings(season), top=4)
    rng = random.Random(1)
    kind = ""
    while kind != "later":
        folder = tmp_path / f"try{rng.random()}"
        import shutil

        shutil.copytree(tmp_path / "s", folder)
        kind = changed(folder, random.Random(rng.random()), 0)
    new, _ = load_season(folder)
    assert new is not None
    derived = History(new, division_standings(new), top=4, previous=before)
    for name, stood in derived.stood.items():
        old = before.stood[name]
        kept = [a for a in stood if any(a is b for b in old)]
        assert len(kept) == len(stood) - 1 == len(old), name  # all but the new date
        # what is kept holds plain values, not the earlier season's lines and their awards
        assert all(type(placed) is Placed for date in stood for placed in date.top)


def test_a_table_left_without_lines_after_a_change_has_no_dates(tmp_path: Path) -> None:
    """A division whose only results a change removed: its history is empty, whatever the one
    before held."""
    season = random_season(tmp_path / "s", 11, "utah-2012")
    tables = division_standings(season)
    before = History(season, tables, top=4)
    emptied = History(season, [(name, []) for name, _ in tables], top=4, previous=before)
    assert all(stood == [] for stood in emptied.stood.values())
    assert emptied.before() == {name: {} for name, _ in tables} or len(emptied.dates) < 2
