"""The season as it stood after each event, made in one pass (``History``, ``rerank_each``),
equals ranking every date again from scratch (``ranks_on``): every player's rank and the lines
of each table's top, on every example season and on random seasons of every preset."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grandprix.season.config import load_season
from grandprix.season.model import Season
from grandprix.season.standings import division_standings
from grandprix.site import history
from grandprix.site.history import History, kept_dates, ranks_on
from seasons import write_season

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ["utah-2012", "acf-2004", "lupiae-2012-13", "utah-2026", "circuit-2026"]
# Each season tie-break, a counted number that follows the most events played (Keshmat
# 2024-25), divisions (ACF 2004), best N and categories.
PRESETS = ["utah-2012", "acf-2004", "lupiae-2012-13", "keshmat-2024-25", "nwchess-gp"]


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
        events.append(f'[[events]]\nname = "Event {k}"\ndate = 2012-05-{day:02d}\n'
                      f'results = "e{k}.csv"\nprize_fund = {fund}\n')  # fmt: skip
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
            assert made.top_lines() == lines[:5], (name, day)
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
