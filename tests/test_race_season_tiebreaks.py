"""The race on equal points: the season's tie-break chain (LUP-6, D-LUP-2) decides what a player
needs at the next event and when a place is sure, as the standings rank the outcome; where
results still to come decide the tie-break, the race stays cautious and says so."""

from __future__ import annotations

import shutil
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from grandprix.players import PlayerKey
from grandprix.season.model import Line, Season
from grandprix.season.race import ANY_PLACE, CLINCHED, OUT_OF_REACH, REACHABLE, Need, Outlook, race
from grandprix.season.standings import division_standings, standings
from grandprix.site.words.season import race_sentence
from seasons import edit, load
from test_race import RULES, THREE_PRIZES, outcomes, place_in, played_as, season_of

# UT-3 points with the best single result as the season's tie-break.
BEST = '[rules]\npreset = "utah-2012"\n[rules.standings]\ntiebreaks = ["best"]\n' + THREE_PRIZES
CHAINS = {"best": BEST, "lupiae": RULES["percent"]}  # LUP-6: discarded, best, last event


def lupiae_before_its_last_event(tmp_path: Path) -> Season:
    """The Lupiae example with Prova 8, its last event, still to be played."""
    folder = tmp_path / "lupiae"
    shutil.copytree(ROOT / "examples" / "lupiae-2012-13", folder)
    edit(
        folder / "season.toml",
        'date = 2013-04-20\nresults = "prova_8.trf"',
        "date = 2013-04-20\nplanned = true",
    )
    return load(folder)


def outlook(season: Season, name: str, table: str = "", newcomers: int | None = None) -> Outlook:
    return next(o for o in race(season, newcomers=newcomers)[table] if o.name == name)


def with_next_event(season: Season, blocks: tuple[tuple[str, ...], ...]) -> dict[str, Line]:
    """The standings, by name, once the next event is played in this order (ids are names)."""
    event = next(e for e in season.events if e.planned)
    played = played_as(event, blocks)
    done = replace(season, events=tuple(played if e is event else e for e in season.events))
    return {line.name: line for line in standings(done)}


def lupiae_at(season: Season, name: str, place: int) -> Line:
    """``name``'s line with ``place`` at Prova 8 alone, behind players new to the season."""
    ident = next(p.id for p in season.players if p.name == name)
    ahead = tuple((f"Guest {k}",) for k in range(1, place))
    lines = {line.player: line for line in with_next_event(season, (*ahead, (ident,))).values()}
    return lines[PlayerKey(f"id:{ident}")]


def test_lup6_kerr_needs_3rd_for_1st_as_4th_ends_level_with_nguyen_and_behind_on_discarded(
    tmp_path: Path,
) -> None:
    season = lupiae_before_its_last_event(tmp_path)
    kerr = outlook(season, "Kerr, Fiona", "Assoluto")
    assert kerr.status(1) == REACHABLE
    assert kerr.need is not None and (kerr.need.place, kerr.need.chance) == (1, 3)
    # The standings agree: 4th gives 138.00 as Nguyen's, 2nd on points not counted (7 to 9).
    fourth = lupiae_at(season, "Kerr, Fiona", 4)
    assert fourth.total == 138 and fourth.rank_first == 2
    assert lupiae_at(season, "Kerr, Fiona", 3).rank_first == 1


def test_lup6_chen_needs_5th_for_3rd_as_6th_ends_level_with_two_and_behind_both(
    tmp_path: Path,
) -> None:
    season = lupiae_before_its_last_event(tmp_path)
    chen = outlook(season, "Chen, Ravi", "Assoluto")
    assert chen.need is not None and (chen.need.place, chen.need.chance) == (3, 5)
    sixth = lupiae_at(season, "Chen, Ravi", 6)  # 102.00 as Underwood and Price, discarded 0
    assert sixth.total == 102 and sixth.rank_first == 5
    assert lupiae_at(season, "Chen, Ravi", 5).rank_first == 3


def test_lup6_nguyen_is_sure_of_1st_with_1st_as_kerr_can_only_end_level_and_behind(
    tmp_path: Path,
) -> None:
    season = lupiae_before_its_last_event(tmp_path)
    nguyen = outlook(season, "Nguyen, Pia", "Assoluto")
    # 1st makes 148.00, Kerr's most; Kerr level there discards 7 points to Nguyen's 26.
    assert nguyen.best == 148 and outlook(season, "Kerr, Fiona", "Assoluto").best == 148
    assert nguyen.need is not None and nguyen.need.sure == 1 and not nguyen.need.undecided


def test_best_result_tie_break_decides_what_the_next_event_asks(tmp_path: Path) -> None:
    # LUP-1 to LUP-3 (10, 6, 3, then 1 point; +2 an event; every result counts of 3 events):
    # A won both events, 24; B was 2nd twice, 16. 2nd at L1 brings B level on 24, behind A on
    # the best single result (LUP-6: no points discarded, then 10 to 6): B needs to win it.
    season = season_of(RULES["percent"], [{"A": 3, "B": 2}, {"A": 3, "B": 2}], [""], tmp_path)
    b = outlook(season, "B", newcomers=0)
    assert b.need is not None and (b.need.chance, b.need.tie, b.need.undecided) == (1, None, False)
    level = with_next_event(season, (("X",), ("B",)))  # a newcomer wins it, B 2nd
    assert level["B"].total == level["A"].total == 24 and level["B"].rank_first == 2
    assert with_next_event(season, (("B",), ("X",)))["B"].rank_first == 1
    # A is sure with 3rd (29 against B's most, 28), not with 4th (27).
    a = outlook(season, "A", newcomers=0)
    assert a.need is not None and a.need.sure == 3


def test_a_place_lost_only_on_equal_points_of_two_rivals_at_once_is_reachable_and_undecided(
    tmp_path: Path,
) -> None:
    # C 49, B 34, A 28 and D 26 with one event left, ranked by the best single result on equal
    # points. A's most is C's 49; B's is 55, but B and A reach 49 together only with A 1st and
    # B 2nd: B then ends level with C, and whether C stays 2nd turns on B's best result there,
    # which the race does not rank: 2nd stays reachable and is listed as undecided.
    played = [{"D": 1, "C": 0, "B": 1, "A": 1}, {"C": 0}, {"D": 1, "A": 2, "C": 3, "B": 3}]
    season = season_of(BEST, played, [""], tmp_path)
    c = outlook(season, "C", newcomers=0)
    assert c.total == 49 and c.status(2) == REACHABLE and c.undecided == (2,)
    assert c.status(3) == CLINCHED
    level = above = 0
    for outcome, _ in outcomes(season, ("A", "B", "C", "D")):
        lines = standings(outcome)
        mine = next(line for line in lines if line.name == "C")
        level = max(level, sum(1 for line in lines if line.total >= mine.total) - 1)
        above = max(above, sum(1 for line in lines if line.total > mine.total))
    assert level == 2 and above <= 1  # two rivals reach C's total only by ending level


@st.composite
def small_seasons(draw: st.DrawFn) -> tuple[Season, tuple[str, ...], int]:
    """2-4 players with 1-3 events played and 1-2 left, at most one newcomer, under a season
    tie-break chain; small enough for every outcome to be tried."""
    left = draw(st.integers(1, 2))
    newcomers = draw(st.integers(0, 1))
    players = ["A", "B", "C", "D"][: draw(st.integers(2, (4 if left == 1 else 3) - newcomers))]
    played = []
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.lists(st.sampled_from(players), min_size=1, unique=True))
        played.append({n: draw(st.integers(0, 3)) for n in field})
    for n in players:
        if not any(n in scores for scores in played):
            played[0][n] = draw(st.integers(0, 3))
    season = season_of(CHAINS[draw(st.sampled_from(sorted(CHAINS)))], played, [""] * left)
    return season, (*players, "N") if newcomers else tuple(players), newcomers


@settings(max_examples=12, deadline=None)
@given(drawn=small_seasons())
def test_race_agrees_with_the_standings_ranks_of_every_outcome(
    drawn: tuple[Season, tuple[str, ...], int],
) -> None:
    """Clinched: in every outcome the standings rank the player at the place or better, ties
    broken by the chain; out of reach: in none; reachable: in some and not in all, unless
    ``undecided``. What the next event asks holds in every outcome."""
    season, names, newcomers = drawn
    got = race(season, newcomers=newcomers)
    kept: dict[tuple[str, str, int], bool] = {}
    reached: dict[tuple[str, str, int], bool] = {}
    for outcome, first in outcomes(season, names):
        tables = dict(division_standings(outcome))
        tables.setdefault("", standings(outcome))
        for table, outlooks in got.items():
            lines = {line.player: line for line in tables[table]}
            for o in outlooks:
                mine = lines[o.player]
                for place, _ in o.places:
                    key = (table, o.name, place)
                    kept[key] = kept.get(key, True) and mine.rank_last <= place
                    reached[key] = reached.get(key, False) or mine.rank_first <= place
                need = o.need
                if need is None:
                    continue
                at = place_in(first, o.name, None)
                sure = need.sure
                alone = at[0] if at is not None and at[1] else None  # the place taken alone
                if sure is not None and alone is not None and (sure == ANY_PLACE or alone <= sure):
                    assert mine.rank_last <= need.place, (table, o, first)
                if need.chance is not None and (at is None or ANY_PLACE < need.chance < at[0]):
                    assert mine.rank_first > need.place, (table, o, first)
    for table, outlooks in got.items():
        for o in outlooks:
            for place, status in o.places:
                key = (table, o.name, place)
                expected = CLINCHED if kept[key] else REACHABLE if reached[key] else OUT_OF_REACH
                if place in o.undecided or place in o.cautious:
                    assert status == REACHABLE and expected != OUT_OF_REACH, (o, expected)
                else:
                    assert status == expected, (table, o.name, place, status, expected)


@pytest.mark.parametrize("rules", [RULES["all"], BEST])
def test_without_a_chain_equal_points_share_and_nothing_is_undecided(
    rules: str, tmp_path: Path
) -> None:
    # Two events played, one left: the chain or its absence never flags a place without ties.
    season = season_of(rules, [{"A": 3, "B": 2}, {"A": 3, "B": 2}], [""], tmp_path)
    got = race(season, newcomers=0)[""]
    assert all(o.undecided == () for o in got)
    assert all(o.need is None or not o.need.undecided for o in got)


def test_the_player_page_says_what_a_tie_break_still_to_come_decides() -> None:
    """An undecided place and a need that is sure but for a tie-break are said in words, not
    passed over as plainly 'reachable'."""
    outlook = Outlook(
        PlayerKey("name:kerr"),
        "Kerr",
        Fraction(120),
        Fraction(145),
        ((1, REACHABLE), (2, REACHABLE)),
        need=Need(1, "Prova 10", sure=1, chance=6, tie=3),
        undecided=(1,),
    )
    text = race_sentence(outlook, 1, 2)
    assert "1st may come down to a season tie-break that is not decided yet" in text
    assert "finishing 3rd or better makes 1st place certain unless a season tie-break" in text
