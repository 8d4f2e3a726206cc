"""Places in an event section for the season: shared by score (UT-4), ordered by the event's
tie-breaks (LUP-2, D-LUP-3), moved up past skipped players (D-UT-1), and an event page's rows
read from the section's columns."""

from __future__ import annotations

from fractions import Fraction

from grandprix.model import Section
from grandprix.placings import (
    Placings,
    Span,
    official,
    official_rows,
    place,
    shared_rows,
    shared_spans,
)
from grandprix.rules.event_points import PointsBase
from grandprix.rules.schema import RuleSet
from grandprix.season.model import SeasonEvent, SeasonSection
from grandprix.tiebreaks import Rules, parse


def section_spans(
    section: SeasonSection, event: SeasonEvent, rules: RuleSet, points: PointsBase | None = None
) -> list[Span]:
    """Places in the section: shared spans by score (UT-4), or ordered (LUP-2, D-LUP-3; and
    for ``ties = "best"``, whose shared places are the file's or the tie-breaks')."""
    points = rules.points.for_category(event.category) if points is None else points
    if points.ties not in ("tiebreak", "best"):
        return shared_spans(section.section.columns)
    return order_spans(section, event, rules)


def order_spans(section: SeasonSection, event: SeasonEvent, rules: RuleSet) -> list[Span]:
    """Places in the order of the event's tie-breaks (or its official order); players they
    cannot separate share a span."""
    results = section.section
    placings = event_placings(results, event, rules)
    rows = placings.rows
    if results.has_crosstable and not placings.specs:  # no tie-breaks: the file's own ranks
        rows = official(results) or rows
    index = {start_no: i for i, start_no in enumerate(results.columns.start_no)}
    out: list[Span] = []
    for row in rows:
        if out and (out[-1][0], out[-1][1]) == (row.first, row.last):
            out[-1][2].append(index[row.player.start_no])
        else:
            out.append((row.first, row.last, [index[row.player.start_no]]))
    return out


def event_placings(results: Section, event: SeasonEvent, rules: RuleSet) -> Placings:
    """The section's placings under the event's tie-breaks (else the rule set's), in the
    event's tie-break rules; by points alone without a crosstable or tie-breaks."""
    points = rules.points.for_category(event.category)
    codes = event.tiebreaks if event.tiebreaks is not None else points.tiebreaks
    book = Rules(event.tiebreak_rules or points.tiebreak_rules)
    if results.has_crosstable and codes:
        return place(results, parse(codes, book), book)
    return place(results)


PlacedRow = tuple[int, int, int, Fraction, tuple[Fraction | None, ...]]


def placed_rows(
    results: Section, event: SeasonEvent, rules: RuleSet
) -> tuple[tuple[str, ...], list[PlacedRow]]:
    """``event_placings`` as rows of the section's columns, with the codes of its tie-breaks:
    (first place, last place, the player's row, score, tie-break values) in order. A standings
    list is placed from its columns, with no record made for its players."""
    columns = results.columns
    if not results.has_crosstable:  # by its rank column, else by points (as ``place``)
        rows = official_rows(columns) or shared_rows(columns)
        return (), [(first, last, i, columns.points[i], ()) for first, last, i in rows]
    placings = event_placings(results, event, rules)
    row_of = {start_no: i for i, start_no in enumerate(columns.start_no)}
    return tuple(spec.code for spec in placings.specs), [
        (p.first, p.last, row_of[p.player.start_no], p.points, p.values) for p in placings.rows
    ]


def renumber(spans_: list[Span], keep: list[bool]) -> list[Span]:
    """The players kept, placed again so that those below move up (D-UT-1 ``skip``).

    Players who shared a place and are both kept still share one.
    """
    out: list[Span] = []
    position = 1
    for _, _, members in spans_:
        kept = [i for i in members if keep[i]]
        if kept:
            out.append((position, position + len(kept) - 1, kept))
            position += len(kept)
    return out
