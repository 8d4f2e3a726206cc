"""Placings: shared spans for equal scores (UT-4), or an ordered tie-break list (LUP-2)."""

from __future__ import annotations

import csv
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from builders import build
from conftest import shared
from grandprix.placings import Placings, parse_rank, place
from grandprix.readers.trf import read_trf
from grandprix.tiebreaks import Rules, parse
from synthetic import generate


def test_ut4_equal_points_share_a_span_of_places() -> None:
    section = build(
        2,
        {
            "A": ["B w 1", "C w 1"],
            "B": ["A b 0", "D w 1"],
            "C": ["D w 1", "A b 0"],
            "D": ["C b 0", "B b 0"],
        },
    )
    rows = place(section).rows
    assert [(r.player.name, r.place) for r in rows] == [
        ("A", "1"),
        ("B", "2-3"),
        ("C", "2-3"),
        ("D", "4"),
    ]
    assert rows[1].shared and not rows[0].shared


def test_lup2_tiebreaks_order_players_and_only_full_equality_shares() -> None:
    section, _ = read_trf(shared("fide-c07-held-exercises", "held_swiss_5.trf"))
    assert section is not None
    rows = place(section, parse("BH", Rules.FIDE_2024)).rows
    # 1 and 16 have 3.5 points and BH 12.5 each: they share 4th-5th.
    shared_rows = [(r.player.start_no, r.place) for r in rows if r.place == "4-5"]
    assert sorted(shared_rows) == [(1, "4-5"), (16, "4-5")]
    more = place(section, parse("BH,SB", Rules.FIDE_2024)).rows
    assert [r.place for r in more if r.player.start_no in (1, 16)] == ["4", "5"]


def test_direct_encounter_in_a_round_robin_where_all_tied_players_met() -> None:
    cycle = build(
        3,
        {"A": ["B w 1", "Z", "C b 0"], "B": ["A b 0", "C w 1", "Z"], "C": ["Z", "B b 0", "A w 1"]},
        round_robin=True,
    )
    rows = place(cycle, parse("DE", Rules.FIDE_2024)).rows
    assert [r.place for r in rows] == ["1-3"] * 3  # each beat one other: DE cannot separate
    decided = build(
        3,
        {
            "A": ["B w 1", "C b 0", "D w 1"],
            "B": ["A b 0", "D w 1", "C b 1"],
            "C": ["D w =", "A w 1", "B w 0"],
            "D": ["C b =", "B b 0", "A b 0"],
        },
        round_robin=True,
    )
    ranked = {r.player.name: r.place for r in place(decided, parse("DE", Rules.FIDE_2024)).rows}
    # A and B have 2 points each and A beat B: A is placed above B.
    assert ranked == {"A": "1", "B": "2", "C": "3", "D": "4"}
    assert {r.player.name: r.place for r in place(decided).rows}["A"] == "1-2"


def test_direct_encounter_ranks_first_only_when_nobody_can_catch_up() -> None:
    # X beat Y and Z, Y and Z did not meet: X first, Y and Z stay tied (tiebreaks.md §2.1).
    section = build(
        3,
        {
            "X": ["Y w 1", "Z b 1", "O1 w 0"],
            "Y": ["X b 0", "O2 w 1", "O3 b 1"],
            "Z": ["O4 w 1", "X w 0", "O5 w 1"],
        },
    )
    rows = {r.player.name: r.place for r in place(section, parse("DE", Rules.FIDE_2024)).rows}
    assert rows["X"] == "1" and rows["Y"] == rows["Z"] == "2-3"


def test_missing_rating_tiebreaks_sort_last_and_are_none() -> None:
    section = build(1, {"A": ["B w ="], "B": ["A b ="]}, ratings={"A": 2000})
    rows = place(section, parse("ARO", Rules.FIDE_2024)).rows
    assert [r.values for r in rows] == [(None,), (None,)]
    rated = place(section, parse("ARO", Rules.FIDE_2024), unrated_rating=1000).rows
    assert {r.player.name: r.values[0] for r in rated} == {"A": 1000, "B": 2000}


def test_parse_rank_spans() -> None:
    assert parse_rank("3") == (3, 3) and parse_rank(" 2 - 3 ") == (2, 3)
    assert parse_rank("3-2") is None and parse_rank("x") is None and parse_rank("0") is None


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 5000), players=st.integers(2, 25), rounds=st.integers(1, 7))
def test_placings_are_a_permutation_and_independent_of_row_order(
    seed: int, players: int, rounds: int
) -> None:
    from dataclasses import replace

    section = generate(players, rounds, seed)
    specs = parse("BH/C1,SB,DE,WIN", Rules.FIDE_2026)
    forward = place(section, specs, Rules.FIDE_2026)
    assert sorted(r.player.start_no for r in forward.rows) == list(range(1, players + 1))
    places = [r.first for r in forward.rows]
    assert places == sorted(places) and places[0] == 1
    reversed_section = replace(section, players=tuple(reversed(section.players)))
    backward = place(reversed_section, specs, Rules.FIDE_2026)

    def key(standings: Placings) -> list[tuple[int, str, tuple[Fraction | None, ...]]]:
        return sorted((r.player.start_no, r.place, r.values) for r in standings.rows)

    assert key(forward) == key(backward)


def test_vega_printed_buchholz_is_reproduced_under_the_2024_rules() -> None:
    folder = "vega-hobsons-bay-best-in-the-west-2025"
    section, _ = read_trf(shared(folder, "best_in_the_west_2025.trf"))
    assert section is not None
    rows = place(section, parse("BH", Rules.FIDE_2024)).rows
    ours = {r.player.start_no: r.values[0] for r in rows}
    with shared(folder, "expected_standings_vega.csv").open(encoding="utf-8") as handle:
        vega = {int(r["start_no"]): Fraction(r["BH"]) for r in csv.DictReader(handle)}
    assert ours == vega


@given(
    scores=st.lists(st.integers(0, 14), min_size=1, max_size=30),
    seeds=st.sampled_from(["rising", "shuffled"]),
    sort_rows=st.booleans(),
)
def test_shared_spans_are_the_sorted_order_shared(
    scores: list[int], seeds: str, sort_rows: bool
) -> None:
    """UT-4 places from columns: best score first, then by start number, equal scores sharing
    a span; the same whether the rows already come in that order (read without sorting) or
    not."""
    from random import Random

    from grandprix.model import Columns
    from grandprix.placings import shared_spans

    points = [Fraction(s, 2) for s in (sorted(scores, reverse=True) if sort_rows else scores)]
    numbers = list(range(1, len(points) + 1))
    if seeds == "shuffled":
        Random(len(points)).shuffle(numbers)
    size = len(points)
    text = ("",) * size
    columns = Columns(
        start_no=tuple(numbers),
        name=text,
        rating=(None,) * size,
        title=text,
        sex=text,
        federation=text,
        fide_id=text,
        birth_date=text,
        extra=((),) * size,
        points=tuple(points),
        rank=text,
        played=(0,) * size,
        line=(0,) * size,
    )
    order = sorted(range(size), key=lambda i: (-points[i], numbers[i]))
    # A player's span: one below everyone with more points, down to everyone with as many.
    span = {
        i: (1 + sum(p > points[i] for p in points), sum(p >= points[i] for p in points))
        for i in order
    }
    expected: list[tuple[int, int, list[int]]] = []
    for i in order:
        if expected and expected[-1][:2] == span[i]:
            expected[-1][2].append(i)
        else:
            expected.append((*span[i], [i]))
    assert shared_spans(columns) == expected
