"""The race at a glance: clinched, reachable or out of reach, and the most a player
can still total, checked against every possible outcome of the events left, by rule ID."""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grandprix.model import Player, Section
from grandprix.season import race_table as race_module
from grandprix.season.model import Season, SeasonEvent, SeasonSection
from grandprix.season.race import (
    ANY_PLACE,
    CLINCHED,
    OUT_OF_REACH,
    REACHABLE,
    Need,
    Outlook,
    prize_places,
    race,
    remaining_events,
)
from grandprix.season.standings import division_standings, standings
from grandprix.site.words.season import race_assumptions
from seasons import load, season_toml, write_season

THREE_PRIZES = "".join(
    f'[[rules.prizes.prize]]\nname = "{n}"\namount = {a}\n'
    for n, a in (("1st", 300), ("2nd", 200), ("3rd", 100))
)
CLUB = '[[rules.divisions]]\nname = "{top}"\n{award}\n[[rules.divisions]]\nname = "Club"\n{award}\nrequire = {{ club = "X" }}\n'  # noqa: E501
RULES = {
    # UT-3, UT-4: every result counts, shared places share the mean.
    "all": '[rules]\npreset = "utah-2012"\n' + THREE_PRIZES,
    # UT-3 with each tied player taking the best place's points.
    "full": '[rules]\npreset = "utah-2012"\n[rules.points]\nties = "full"\n' + THREE_PRIZES,
    # LUP-3: a bonus for every event played, here with every result counted.
    "bonus": '[rules]\npreset = "utah-2012"\n[rules.counting]\nbonus_per_event = 5\n'
    + THREE_PRIZES,
    # A sum of terms the race bounds: the place, 2 for taking part, the whole capped at 14.
    "terms": '[rules]\npreset = "utah-2012"\n[rules.points]\n'
    'terms = [{ kind = "place" }, { kind = "fixed", amount = 2 }, '
    '{ kind = "at-most", amount = 14 }]\n' + THREE_PRIZES,
    # ACF-14: the best 2 results, in the Open division and a division of its own points.
    "best": '[rules]\npreset = "acf-2004"\nrestrictions = []\n[rules.counting]\nbest = 2\n'
    + CLUB.format(top="Open", award=""),
    # LUP-1 to LUP-3 with a short table: 1 point for everyone, best 70% of the calendar, +2
    # per event; LUP-5: divisions that filter the overall standings; prizes down the overall
    # standings too.
    "percent": '[rules]\npreset = "lupiae-2012-13"\n[rules.points]\ntable = [10, 6, 3]\n'
    + CLUB.format(top="Assoluto", award='award = "filter"')
    + "".join(
        f'[[rules.prizes.prize]]\nname = "{r} {k}"\nranking = "{r}"\namount = {100 - k}\n'
        for r, k in (("", 1), ("", 2), ("Club", 1), ("Club", 2))
    ),
}
CLUBS = {"A": "X", "B": "Y", "C": "X", "D": "X", "N": "X", "X": "Y"}
PLAYERS = "id,name,region,member,club\n" + "".join(
    f"{name},{name},UT,yes,{club}\n" for name, club in CLUBS.items()
)
NEWCOMER = "N"  # in players.csv and every division, but in no results yet


def season_of(
    rules: str, played: list[dict[str, int]], planned: list[str], tmp: Path | None = None
) -> Season:
    """A season with events played (name -> score) and events left (their extra keys)."""
    events, files = [], {"players.csv": PLAYERS}
    for k, scores in enumerate(played, 1):
        ranked = sorted(scores.items(), key=lambda x: -x[1])
        rows = "".join(
            f"{1 + sum(1 for _, s in ranked if s > score)},{n},{n},{score}\n" for n, score in ranked
        )
        files[f"e{k}.csv"] = "rank,name,id,points\n" + rows
        events.append(
            f'[[events]]\nname = "E{k}"\ndate = 2012-0{k}-01\nresults = "e{k}.csv"\n'
            "prize_fund = 3000\n"
        )
    for k, extra in enumerate(planned, 1):
        events.append(f'[[events]]\nname = "L{k}"\ndate = 2012-1{k}-01\nplanned = true\n{extra}\n')
    folder = tmp or Path(tempfile.mkdtemp())
    return load(write_season(folder, season_toml(rules, *events), files))


# The brute force: every outcome of the events left, through the real engine.


def ordered_partitions(names: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], ...]]:
    if not names:
        yield ()
        return
    for size in range(1, len(names) + 1):
        for block in itertools.combinations(names, size):
            rest = tuple(n for n in names if n not in block)
            for tail in ordered_partitions(rest):
                yield (block, *tail)


def results(names: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every result of one event: who plays (maybe nobody) and their order, ties included."""
    for size in range(len(names) + 1):
        for chosen in itertools.combinations(names, size):
            yield from ordered_partitions(chosen)


def played_as(event: SeasonEvent, blocks: tuple[tuple[str, ...], ...]) -> SeasonEvent:
    """The event left as if played: a standings list, tied players on equal scores and ranks."""
    if not blocks:
        return event  # nobody played it
    rows: list[Player] = []
    first = 1
    for b, block in enumerate(blocks):
        for name in block:
            rows.append(
                Player(
                    start_no=len(rows) + 1,
                    name=name,
                    fide_id=name,
                    declared_points=Fraction(len(blocks) - b),
                    declared_rank=str(first),
                )
            )
        first += len(block)
    section = Section(name="Open", players=tuple(rows), has_crosstable=False)
    return replace(event, planned=False, sections=(SeasonSection("Open", section),))


def outcomes(
    season: Season, names: tuple[str, ...]
) -> Iterator[tuple[Season, tuple[tuple[str, ...], ...]]]:
    """Every outcome of the events left, with the result of the next one."""
    left = remaining_events(season)
    for choice in itertools.product(*(list(results(names)) for _ in left)):
        done = {e.index: played_as(e, blocks) for e, blocks in zip(left, choice, strict=True)}
        yield replace(season, events=tuple(done.get(e.index, e) for e in season.events)), choice[0]


def place_in(
    blocks: tuple[tuple[str, ...], ...], name: str, among: set[str] | None
) -> tuple[int, bool] | None:
    """A player's place in one event's result (among the players of a division that awards
    its own points, ACF-13) and whether they hold it alone; None: away."""
    first = 1
    for block in blocks:
        block = tuple(n for n in block if among is None or n in among)
        if name in block:
            return first, len(block) == 1
        first += len(block)
    return None


def need_holds(need: Need, at: tuple[int, bool] | None, level: int, above: int) -> bool:
    """Whether one outcome agrees with what the race says the next event asks: with ``sure``
    or better there (alone) the place is the player's; worse than ``chance`` (or away, when a
    chance place is named), more than the place's number of players end above."""
    sure = (
        need.sure is not None
        and at is not None
        and at[1]
        and (need.sure == ANY_PLACE or at[0] <= need.sure)
    )
    worse = need.chance is not None and (
        at is None or (need.chance != ANY_PLACE and at[0] > need.chance)
    )
    return not (sure and level >= need.place) and not (worse and above < need.place)


def brute_force(season: Season, names: tuple[str, ...], got: dict[str, list[Outlook]]) -> None:
    """Compare the race with every outcome: clinched iff in every outcome fewer than ``place``
    others end level or above; out of reach iff in every outcome ``place`` others or more end
    above (level or above: on points and then on the season's tie-break chain, as the engine
    ranks the outcome; without a chain, on points); ``best`` is the highest total of any
    outcome. A place the race lists as ``undecided`` (a tie-break not yet known) is only
    checked to be "reachable" where it may be reached."""
    safe: dict[tuple[str, str, int], bool] = {}
    reach: dict[tuple[str, str, int], bool] = {}
    best: dict[tuple[str, str], Fraction] = {}
    own = {d.name for d in season.rules.divisions if d.award == "rerank"}
    for outcome, first in outcomes(season, names):
        tables = {name: lines for name, lines in division_standings(outcome)}
        if "" in got and "" not in tables:
            tables[""] = standings(outcome)
        for name, outlooks in got.items():
            lines = {line.player: line for line in tables[name]}
            for o in outlooks:
                mine = lines[o.player]
                key = (name, o.player)
                best[key] = max(best.get(key, mine.total), mine.total)
                level = mine.rank_last - 1  # others level or above, ties broken by the chain
                above = mine.rank_first - 1
                for place, status in o.places:
                    safe[(*key, place)] = safe.get((*key, place), True) and level < place
                    reach[(*key, place)] = reach.get((*key, place), False) or above < place
                    if status == CLINCHED:  # the engine's own ranks agree
                        assert mine.rank_last <= place, (name, o, mine.rank)
                    if status == OUT_OF_REACH:
                        assert mine.rank_first > place, (name, o, mine.rank)
                if o.need is not None:
                    among = {ln.name for ln in lines.values()} if name in own else None
                    at = place_in(first, o.name, among)
                    assert need_holds(o.need, at, level, above), (name, o, first)
    for name, outlooks in got.items():
        for o in outlooks:
            key = (name, o.player)
            assert o.best == best[key], (name, o)
            assert o.cautious == ()
            for place, status in o.places:
                expected = (
                    CLINCHED
                    if safe[(*key, place)]
                    else REACHABLE
                    if reach[(*key, place)]
                    else OUT_OF_REACH
                )
                if place in o.undecided:
                    assert status == REACHABLE and expected != OUT_OF_REACH, (o, expected)
                else:
                    assert status == expected, (name, o.name, place, status, expected)


PLANNED_EXTRA = {
    "all": ["", "weight = 1.5"],  # UT-6
    "full": [""],
    "bonus": ["", "weight = 1.5"],
    "terms": ["", "weight = 1.5"],
    "best": ["prize_fund = 3000", "prize_fund = 2000", "prize_fund = 1000"],  # ACF-6
    "percent": [""],
}


@st.composite
def small_seasons(draw: st.DrawFn, rule: str) -> tuple[Season, tuple[str, ...], int]:
    """2-4 players with 1-3 events played, 1-2 events left and at most one newcomer; small
    enough for every outcome to be tried (at most 3 players in the events left when 2 are)."""
    left = draw(st.integers(1, 2))
    newcomers = draw(st.integers(0, 1))
    most = (4 if left == 1 else 3) - newcomers
    players = ["A", "B", "C", "D"][: draw(st.integers(2, max(2, most)))]
    leader = draw(st.booleans())  # A wins every event played: close races behind A
    played = []
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        if leader:
            field = sorted({"A", *field})
        played.append({n: 4 if leader and n == "A" else draw(st.integers(0, 3)) for n in field})
    for n in players:  # everyone has a result: players not in a table are newcomers
        if not any(n in scores for scores in played):
            played[0][n] = draw(st.integers(0, 3))
    extra = [draw(st.sampled_from(PLANNED_EXTRA[rule])) for _ in range(left)]
    names = (*players, NEWCOMER) if newcomers else tuple(players)
    return season_of(RULES[rule], played, extra), names, newcomers


@pytest.mark.parametrize("rule", list(RULES))
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_race_agrees_with_every_outcome_of_the_events_left(rule: str, data: st.DataObject) -> None:
    season, names, newcomers = data.draw(small_seasons(rule))
    brute_force(season, names, race(season, newcomers=newcomers))


# Each rule on a season written out by hand.


def outlook(got: dict[str, list[Outlook]], name: str, table: str = "") -> Outlook:
    return next(o for o in got[table] if o.name == name)


def two_pass_one(rules: str, tmp_path: Path) -> Season:
    """UT-3: X 42, A 30, B and C tied 3rd-4th in the first event, 11 each; one event left."""
    played = [{"X": 4, "A": 3, "B": 2, "C": 2}, {"X": 4, "A": 3}]
    return season_of(rules, played, [""], tmp_path)


def test_ut4_two_rivals_cannot_both_pass_on_the_one_event_left(tmp_path: Path) -> None:
    got = race(two_pass_one(RULES["all"], tmp_path), newcomers=0)
    a = outlook(got, "A")
    # B or C alone can win it (11 + 21 = 32 > 30); both cannot: 21 and 15, or 18 each tied.
    assert a.places == ((1, REACHABLE), (2, REACHABLE), (3, CLINCHED))
    assert outlook(got, "X").places == ((1, REACHABLE), (2, CLINCHED), (3, CLINCHED))  # A 51
    assert outlook(got, "B").best == 32 and outlook(got, "B").status(1) == OUT_OF_REACH


def test_what_the_next_event_asks_from_the_same_tests_as_the_statuses(tmp_path: Path) -> None:
    got = race(two_pass_one(RULES["all"], tmp_path), newcomers=0)
    # X 42: 4th alone (+10 = 52) stays above A's most, 30 + 21 = 51; 5th (+8 = 50) does not.
    assert outlook(got, "X").need == Need(1, "L1", sure=4, chance=None)
    # A 30 can never be sure of 1st (X may win); A needs 12 points to reach X's 42: 3rd.
    assert outlook(got, "A").need == Need(1, "L1", sure=None, chance=3)
    # B 11, 1st out of reach; 2nd needs 19 points to reach A's 30: 1st place only.
    assert outlook(got, "B").need == Need(2, "L1", sure=None, chance=1)


def test_tied_players_taking_the_best_place_can_both_pass(tmp_path: Path) -> None:
    got = race(two_pass_one(RULES["full"], tmp_path), newcomers=0)
    assert outlook(got, "A").status(3) == REACHABLE  # B and C tied 1st: 21 each, 32 > 30


def test_the_search_cut_short_answers_reachable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(race_module, "SEARCH_LIMIT", 0)
    a = outlook(race(two_pass_one(RULES["all"], tmp_path), newcomers=0), "A")
    assert a.status(3) == REACHABLE and a.cautious == (3,)


def test_a_newcomer_may_still_pass_unless_entries_are_closed(tmp_path: Path) -> None:
    # A 21 from one event; two left: a newcomer winning both has 42.
    season = season_of(RULES["all"], [{"A": 3, "B": 0}], ["", ""], tmp_path)
    assert outlook(race(season), "A").status(1) == REACHABLE
    assert outlook(race(season), "A").best == 63
    # Without newcomers B (15) can still reach 15 + 42 = 57 > 21.
    assert outlook(race(season, newcomers=0), "A").status(1) == REACHABLE
    season = season_of(RULES["all"], [{"A": 3, "B": 0}, {"A": 3, "B": 0}], [""], tmp_path / "2")
    # A 42, B 30: one event left, B reaches 51 at most, a newcomer 21.
    assert outlook(race(season), "A").status(1) == REACHABLE
    assert outlook(race(season, newcomers=0), "A").status(2) == CLINCHED


def test_acf14_best_n_a_new_result_replaces_the_weakest_counted(tmp_path: Path) -> None:
    played = [{"A": 3, "B": 2}, {"A": 2, "B": 3}, {"A": 2, "B": 3}]  # A 20, 15, 15 (class 3)
    season = season_of(RULES["best"], played, ["prize_fund = 1000"], tmp_path)
    a = outlook(race(season), "A", "Open")
    assert a.total == a.best == 35  # best 2: a class 1 win (12) counts for nothing
    season = season_of(RULES["best"], played, ["prize_fund = 4000"], tmp_path / "3")
    assert outlook(race(season), "A", "Open").best == 40  # a class 3 win replaces 15


def test_acf14_two_rivals_cannot_both_pass_with_their_best_two(tmp_path: Path) -> None:
    played = [{"A": 3, "B": 2}, {"X": 3, "A": 2}, {"X": 3, "C": 2}]  # class 3: 20 15 12 9 6
    got = race(season_of(RULES["best"], played, ["prize_fund = 3000"], tmp_path))
    a = outlook(got, "A", "Open")  # X 40, A 35, B 15, C 15
    # B winning reaches 35 (a tie is enough to pass); C then has 15 + 15, or 17.5 + 15 tied.
    assert a.places[:3] == ((1, REACHABLE), (2, REACHABLE), (3, CLINCHED))
    assert outlook(got, "B", "Open").best == 35


def test_acf6_an_event_without_its_prize_fund_may_be_of_the_richest_class(
    tmp_path: Path,
) -> None:
    played = [{"A": 3, "B": 2}, {"A": 2, "B": 3}, {"A": 2, "B": 3}]
    season = season_of(RULES["best"], played, ["prize_fund = 1000"], tmp_path)
    # season.toml needs the fund of every event; a season built otherwise may lack it.
    unknown = replace(season.events[-1], prize_fund=None)
    season = replace(season, events=(*season.events[:-1], unknown))
    assert outlook(race(season), "A", "Open").best == 40
    assert any("L1 has no prize fund" in note for note in race_assumptions(season))


def test_lup3_the_bonus_counts_for_every_event_played_even_when_dropped(tmp_path: Path) -> None:
    # 3 played + 1 left: ceil(70% of 4) = 3 count. A won all three: 75 + 6.
    played = [{"A": 3, "B": 2}, {"A": 3, "B": 2}, {"A": 3, "B": 2}]
    season = season_of('rules = "lupiae-2012-13"', played, [""], tmp_path)  # 25, 20, 17...
    a = outlook(race(season), "A", "Assoluto")
    assert a.total == 81 and a.best == 83  # a 4th win is dropped, its 2 points are not
    b = outlook(race(season), "B", "Assoluto")
    assert b.total == 66 and b.best == 25 + 40 + 8
    assert b.status(1) == OUT_OF_REACH and a.status(1) == CLINCHED


def test_no_events_left_places_follow_the_final_standings(tmp_path: Path) -> None:
    played = [{"A": 3, "B": 2, "C": 2, "D": 0}]
    got = race(season_of(RULES["all"], played, [], tmp_path))
    by_name = {o.name: o for o in got[""]}
    assert by_name["A"].places == ((1, CLINCHED), (2, CLINCHED), (3, CLINCHED))
    # B and C share 2nd-3rd: 3rd is theirs, 2nd is shared (neither clinched nor out of reach).
    assert by_name["B"].places == ((1, OUT_OF_REACH), (2, REACHABLE), (3, CLINCHED))
    assert by_name["D"].places == ((1, OUT_OF_REACH), (2, OUT_OF_REACH), (3, OUT_OF_REACH))
    assert all(o.best == o.total for o in got[""])


def test_points_from_scores_have_no_limit_while_an_event_is_left(tmp_path: Path) -> None:
    rules = '[rules]\npreset = "utah-2012"\n[rules.points]\nfrom_score = true\n' + THREE_PRIZES
    got = race(season_of(rules, [{"A": 3, "B": 0}], [""], tmp_path))
    assert all(o.best is None for o in got[""])
    assert outlook(got, "B").places == ((1, REACHABLE), (2, REACHABLE), (3, REACHABLE))
    # Only B and newcomers can pass A: with entries closed, A keeps 2nd or better.
    closed = race(season_of(rules, [{"A": 3, "B": 0}], [""], tmp_path / "2"), newcomers=0)
    assert outlook(closed, "A").places == ((1, REACHABLE), (2, CLINCHED), (3, CLINCHED))


def test_prize_places_are_the_plain_places_of_each_ranking() -> None:
    season = load(Path(__file__).resolve().parent.parent / "examples" / "acf-2004")
    assert prize_places(season, "Open") == (1, 2, 3, 4, 5)  # the State prize is not a place
    assert prize_places(season, "Under 2000") == (1, 2, 3, 4)
    assert prize_places(season, "Women") == (1,)
    assert prize_places(season, "no such division") == (1,)


def test_an_example_season_with_two_events_left_is_consistent() -> None:
    """The ACF example with two class 3 events added: quick, and every status agrees with the
    totals and maxima of the table."""
    season = load(Path(__file__).resolve().parent.parent / "examples" / "acf-2004")
    last = season.events[-1]
    extra = tuple(
        replace(
            last,
            index=last.index + k,
            name=f"Final {k}",
            sections=(),
            planned=True,
            prize_fund=Fraction(3000),
        )
        for k in (1, 2)
    )
    season = replace(season, events=season.events + extra)
    got = race(season)
    assert list(got) == [name for name, _ in division_standings(season)]
    for outlooks in got.values():
        for o in outlooks:
            assert o.best is not None and o.best >= o.total and o.cautious == ()
            statuses = [status for _, status in o.places]
            # clinched at a place: also at every place below; out of reach: also above.
            for k in range(len(statuses) - 1):
                assert statuses[k] != CLINCHED or statuses[k + 1] == CLINCHED
                assert statuses[k + 1] != OUT_OF_REACH or statuses[k] == OUT_OF_REACH
            leaders = [p for p in outlooks if p.total > o.best]
            assert (o.status(1) == OUT_OF_REACH) == bool(leaders)


def test_race_sets_no_limit_when_an_event_left_depends_on_its_field(tmp_path: Path) -> None:
    """KW-3/KW-4: with bands and a places-gained bonus, what a planned event gives depends on
    its field: nobody is out of reach or clinched while it is left, and the footnote says why."""
    from grandprix.season.race import race
    from seasons import load, write_season

    text = (
        'name = "Circuit"\nrules = "keshmat-2026"\n'
        '[[events]]\nname = "Rapid"\ndate = 2026-02-01\ncategory = "rapid"\nresults = "r.csv"\n'
        '[[events]]\nname = "Next"\ndate = 2026-03-01\ncategory = "rapid"\nplanned = true\n'
    )
    rows = "rank,name,points\n" + "".join(f"{i},P{i},{10 - i}\n" for i in range(1, 10))
    season = load(write_season(tmp_path / "s", text, {"r.csv": rows}))
    outlooks = race(season)[""]
    assert all(o.best is None for o in outlooks)
    assert any(
        "the size of its field" in note and "no limit" in note for note in race_assumptions(season)
    )
