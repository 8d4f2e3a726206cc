"""The leaders' chart: each point's height computed in whole numbers is the exact height."""

from __future__ import annotations

import re
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from grandprix.site.chart import leaders_chart

TOP, PLOT = 12, 220  # the chart's top margin and plot height

totals = st.fractions(min_value=0, max_value=10_000, max_denominator=720)


@settings(max_examples=200, deadline=None)
@given(series=st.lists(st.lists(totals, min_size=1, max_size=12), min_size=1, max_size=5))
def test_each_point_stands_where_its_exact_height_puts_it(series: list[list[Fraction]]) -> None:
    named = [(f"p{k}", values) for k, values in enumerate(series)]
    drawn = leaders_chart([f"e{i}" for i in range(12)], named, "t", "c")
    most = max(max(max(values) for values in series), Fraction(1))
    lines = re.findall(r'<polyline[^>]*points="([^"]*)"', drawn)
    assert len(lines) == len(series)
    for values, points in zip(series, lines, strict=True):
        heights = [pair.split(",")[1] for pair in points.split()]
        assert heights == [f"{TOP + PLOT:.1f}"] + [  # 0 at the season's start, then each total
            f"{float(TOP + PLOT * (1 - v / most)):.1f}" for v in values
        ]


def test_a_total_kept_from_event_to_event_is_drawn_level() -> None:
    kept = Fraction(7, 3)
    drawn = leaders_chart(["a", "b", "c"], [("p", [Fraction(0), kept, kept])], "t", "c")
    heights = [
        pair.split(",")[1]
        for pair in re.findall(r'<polyline[^>]*points="([^"]*)"', drawn)[0].split()
    ]
    assert heights == ["232.0", "232.0", "12.0", "12.0"]


def test_after_one_event_each_line_goes_from_the_start_to_its_total() -> None:
    """One event played: each leader's line runs from 0 at the start (left) to their total
    after it (right, over 'after 1'), not a column of markers over the start."""
    drawn = leaders_chart(["a"], [("p", [Fraction(5)]), ("q", [Fraction(3)])], "t", "c")
    for points in re.findall(r'<polyline[^>]*points="([^"]*)"', drawn):
        (x0, y0), (x1, _y1) = (pair.split(",") for pair in points.split())
        assert float(x0) < float(x1) and y0 == f"{TOP + PLOT:.1f}"
    assert ">after 1<" in drawn and ">start<" in drawn


def test_a_rank_chart_of_the_last_days_says_it_leaves_earlier_ones_out() -> None:
    from grandprix.site.chart import rank_chart

    kept = [f"d{i}" for i in range(100)]
    cut = rank_chart(kept, [3] * 100, "r", earlier=400)
    assert "Rank after each of the last 100 event days: now 3" in cut
    assert "Rank after each event: now 3" in rank_chart(kept, [3] * 100, "r")
    one = rank_chart(["d0"], [2], "r")  # one day alone: its point and label at the right
    assert re.search(r'text-anchor="end"[^>]*>d0<', one) and one.count(">d0<") == 1
