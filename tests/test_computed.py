"""A season's computed value derived from the one before a change (``Computed`` given the earlier
value's ``memo`` and the earlier value as ``previous``) equals the value computed from scratch:
standings, race and history, value for value, over random sequences of changes on random seasons
of every preset (events added on the latest date, after it or before it, results replaced or
removed, a planned event given results, players.csv edited, the rules changed)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grandprix.season.computed import Computed
from grandprix.season.config import load_season
from grandprix.season.model import Season
from grandprix.season.standings import AwardMemo
from test_history import PRESETS, changed, random_season, shown

PLANNED = (
    '\n[[events]]\nname = "Finals {n}"\ndate = 2012-05-{day:02d}\nprize_fund = 2000\n'
    "planned = true\n"
)


def with_planned(folder: Path, seed: int, preset: str) -> Season:
    """A random season with two events still to play, after the others."""
    random_season(folder, seed, preset)
    toml = folder / "season.toml"
    toml.write_text(toml.read_text() + PLANNED.format(n=1, day=29) + PLANNED.format(n=2, day=30))
    season, problems = load_season(folder)
    assert season is not None, problems
    return season


def played(folder: Path, rng: random.Random, step: int) -> None:
    """The first planned event given results."""
    toml = folder / "season.toml"
    text = toml.read_text()
    if "planned = true" not in text:
        return
    people = [line.split(",")[0] for line in (folder / "players.csv").read_text().splitlines()[1:]]
    field = rng.sample(people, rng.randint(2, len(people)))
    body = "".join(f"{i},Player {p},{p},{len(field) - i}\n" for i, p in enumerate(field, 1))
    (folder / f"f{step}.csv").write_text("rank,name,id,points\n" + body, encoding="utf-8")
    toml.write_text(text.replace("planned = true", f'results = "f{step}.csv"', 1))


def same(derived: Computed, fresh: Computed) -> None:
    assert [name for name, _ in derived.tables] == [name for name, _ in fresh.tables]
    for (name, mine), (_, theirs) in zip(derived.tables, fresh.tables, strict=True):
        assert list(map(shown, mine)) == list(map(shown, theirs)), name
    assert derived.race == fresh.race
    assert derived.history.dates == fresh.history.dates
    for name, stood in fresh.history.stood.items():
        made = derived.history.stood[name]
        assert [s.ranks() for s in made] == [s.ranks() for s in stood], name
        assert [s.top_lines() for s in made] == [s.top_lines() for s in stood], name


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESETS))
def test_a_value_derived_change_by_change_equals_one_computed_afresh(
    tmp_path_factory: pytest.TempPathFactory, seed: int, preset: str
) -> None:
    folder = tmp_path_factory.mktemp("computed")
    computed = Computed(with_planned(folder, seed, preset), AwardMemo())  # as the server keeps
    computed.history  # noqa: B018 (made, as the server makes it before it serves the season)
    rng = random.Random(seed)
    for step in range(5):
        if rng.random() < 0.25:
            played(folder, rng, step)
        else:
            changed(folder, rng, step)
        season, problems = load_season(folder)
        assert season is not None, problems
        derived = Computed(season, computed.memo, computed)
        same(derived, Computed(season))
        computed = derived


def test_the_race_is_there_while_events_are_planned(tmp_path: Path) -> None:
    computed = Computed(with_planned(tmp_path / "s", 3, "utah-2012"))
    assert computed.race and all(computed.race.values())
    for step in range(2):
        played(tmp_path / "s", random.Random(step), step)
    season, _ = load_season(tmp_path / "s")
    assert season is not None and Computed(season, computed.memo, computed).race == {}
