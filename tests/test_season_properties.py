"""Properties of the season engine: order does not matter, totals are sums, explain adds up."""

from __future__ import annotations

import random
import re
import tempfile
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from grandprix.reports.standings import explain
from grandprix.scores import show
from grandprix.season.standings import counted_number
from seasons import load, season_toml, write_season

PRESETS = ["utah-2012", "acf-2004", "lupiae-2012-13"]


def build(seed: int, preset: str, shuffle: bool) -> Path:
    """A random season of 2-7 events; with ``shuffle`` the same season written in another order:
    events, rows, and sections when they all have weights (otherwise the first one earns)."""
    rng = random.Random(seed)
    pool = [f"P{i:02d}" for i in range(rng.randint(4, 25))]
    plan = []
    for k in range(rng.randint(2, 7)):
        field = rng.sample(pool, rng.randint(2, len(pool)))
        scores = {name: rng.choice(range(0, 13)) / 2 for name in field}
        ordered = sorted(field, key=lambda n: (-scores[n], n))
        cut = len(ordered) // 2 if rng.random() < 0.3 and len(ordered) >= 4 else len(ordered)
        groups = [g for g in (ordered[:cut], ordered[cut:]) if g]
        weights = [rng.choice(["", "weight = 0.5\n", "weight = 1\n"]) for _ in groups]
        fund = rng.choice([1000, 1500, 2000, 2500, 4000])
        date = f"2012-{k + 1:02d}-{rng.randint(1, 28):02d}"
        plan.append((k, groups, weights, scores, fund, date))
    mix = random.Random(seed + 1)
    events = []
    files: dict[str, str] = {}
    for k, groups, weights, scores, fund, date in plan:
        parts = []
        for s, (rows, weight) in enumerate(zip(groups, weights, strict=True)):
            name = f"e{k}s{s}.csv"
            ranks = {n: 1 + rows.index(n) for n in rows}
            order = list(rows)
            if shuffle:
                mix.shuffle(order)
            body = "".join(f"{ranks[n]},{n},{n},{scores[n]}\n" for n in order)
            files[name] = "rank,name,id,points\n" + body
            parts.append(f'[[events.sections]]\nname = "S{s}"\nresults = "{name}"\n{weight}')
        if shuffle and all(weights):
            mix.shuffle(parts)
        events.append(
            f'[[events]]\nname = "Event {k}"\ndate = {date}\nprize_fund = {fund}\n'
            + "\n".join(parts)
        )
    if shuffle:
        mix.shuffle(events)
    rows = ["id,name,region,member"] + [
        f"{n},{n},{'UT' if int(n[1:]) % 5 else 'NV'},yes" for n in pool
    ]
    files["players.csv"] = "\n".join(rows) + "\n"
    folder = Path(tempfile.mkdtemp()) / ("shuffled" if shuffle else "plain")
    return write_season(folder, season_toml(f'rules = "{preset}"', *events), files)


def table(folder: Path) -> list[tuple[str, str, Fraction, int]]:
    from grandprix.season.standings import standings

    return [(ln.rank, ln.name, ln.total, ln.events) for ln in standings(load(folder))]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESETS))
def test_standings_do_not_depend_on_the_order_of_events_sections_or_rows(
    seed: int, preset: str
) -> None:
    assert table(build(seed, preset, False)) == table(build(seed, preset, True))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESETS))
def test_a_total_is_the_sum_of_counted_results_plus_bonuses(seed: int, preset: str) -> None:
    from grandprix.season.standings import standings

    season = load(build(seed, preset, False))
    for line in standings(season):
        assert line.total == sum((a.points for a in line.counted), Fraction(0)) + line.bonus
        assert line.bonus == season.rules.counting.bonus_per_event * line.events
        assert set(line.counted) | set(line.dropped) == set(line.awards)
        keep = counted_number(season.rules.counting, len(season.events), len(line.awards))
        assert len(line.counted) == min(keep, len(line.awards))
        if line.dropped:
            assert min(a.points for a in line.counted) >= max(a.points for a in line.dropped)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESETS))
def test_explain_adds_up_to_the_standings_total(seed: int, preset: str) -> None:
    from grandprix.season.standings import standings

    season = load(build(seed, preset, False))
    decimals = season.rules.standings.decimals
    for line in standings(season):
        text = explain(season, line)
        shown = re.search(r"^total: (\S+)$", text, re.MULTILINE)
        assert shown is not None and shown.group(1) == show(line.total, decimals)
        counted = re.search(r"^counted results: (\S+)$", text, re.MULTILINE)
        exact = sum((a.points for a in line.counted), Fraction(0))
        assert counted is not None and counted.group(1) == show(exact, decimals)
        assert text.count("[counted]") == len(line.counted)
        assert text.count("[dropped]") == len(line.dropped)
