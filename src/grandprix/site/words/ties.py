"""What players on equal scores get in an event, for the rules page: the points of the places
they share (their average, or the best place's), the FIDE Circuit's split (half by tie-break,
half shared), or their places after the event's tie-breaks, each tie-break named and explained
as its rule book defines it.
"""

from __future__ import annotations

from fractions import Fraction

from grandprix.language import _
from grandprix.rules.event_points import PointsBase
from grandprix.rules.place_points import split_points
from grandprix.rules.schema import RuleSet
from grandprix.season.place_values import base_points
from grandprix.season.points import class_table
from grandprix.site.words.common import (
    figure,
    listing,
    ordinal,
    tiebreak_meaning,
    tiebreak_name,
    tiebreak_names,
)
from grandprix.tiebreaks import Rules, parse


def split_words(points: PointsBase, rules: RuleSet) -> list[str]:
    """FC-4: half the points of the place on tie-break plus half the average of the tie."""
    table = list(points.table)
    length = len(table)
    said = [
        _(
            "Players who finish on the same score each get half the points of the place the "
            "event's tie-breaks give them plus half the average of the points of the places "
            "they share{cite}."
        ).format(cite=rules.cite("FC-4"))
    ]
    if length >= 2:
        mean = (table[0] + table[1]) / 2
        upper = split_points((1, 1), (1, 2), table, points)[0]
        lower = split_points((2, 2), (1, 2), table, points)[0]
        said[0] += " " + _(
            "For example, of two players tied for 1st and 2nd, the one 1st on tie-break gets "
            "half of {first} plus half of {mean} (the average of {first} and {second}), which "
            "is {upper}; the other gets half of {second} plus half of {mean}, which is {lower}."
        ).format(
            first=figure(table[0]),
            second=figure(table[1]),
            mean=figure(mean),
            upper=figure(upper),
            lower=figure(lower),
        )
    if length:
        said.append(_("Places after {place} earn nothing.").format(place=ordinal(length)))
    return said


def _tiebreak_meanings(points: PointsBase) -> list[str]:
    """Each tie-break of the event's points with what it measures: 'Buchholz: the sum of ...'."""
    book = Rules(points.tiebreak_rules)
    out = []
    for spec in parse(points.tiebreaks, book):
        meaning = tiebreak_meaning(spec.code, book)
        out.append(
            _("{tiebreak}: {meaning}").format(
                tiebreak=tiebreak_name(spec.code, book), meaning=meaning[0].lower() + meaning[1:]
            )
        )
    return out


def ties_in_words(rules: RuleSet, points: PointsBase | None = None) -> list[str]:
    """What players on equal scores get, with an example computed by the engine, and what the
    places below the table get."""
    points = rules.points if points is None else points
    tables = [list(class_table(c, points)) for c in points.classes] or [list(points.table)]
    lengths = {len(t) for t in tables}
    last = ordinal(lengths.pop()) if len(lengths) == 1 else _("the last place with points")
    if points.ties in ("tiebreak", "best"):
        return [_ordered_ties(points), *_tiebreak_meanings(points)]
    if points.ties == "full":
        said = [
            _(
                "Players who finish on the same score each get the points of the best place "
                "they share."
            )
        ]
    else:
        shared = _(
            "Players who finish on the same score share the places they cover: each gets the "
            "average of the points of those places."
        )
        if len(tables[0]) >= 2:
            value, values = base_points(1, 2, Fraction(0), tables[0], rules, points)[:2]
            shared += " " + _(
                "For example, two players tied for 1st and 2nd each get the average of "
                "{values}, which is {value}."
            ).format(values=listing([figure(v) for v in values]), value=figure(value))
        said = [shared]
    if points.bands:
        return said
    below = next((t.below for t in points.terms if t.kind == "place"), None)
    if below is not None:  # POM-1
        said.append(
            _("Every place after {last} is worth {points}.").format(last=last, points=figure(below))
        )
    elif points.overflow is not None:
        said.append(
            _(
                "When a tie includes {last} place and goes further down, each place after "
                "{last} counts as {points} in that average; players tied only below {last} "
                "earn nothing."
            ).format(last=last, points=figure(points.overflow))
        )
    elif not points.minimum:
        if points.ties == "share":
            nothing = _("Places after {place} earn nothing and count as 0 in the average of a tie.")
        else:
            nothing = _("Places after {place} earn nothing.")
        said.append(nothing.format(place=last))
    return said


def _ordered_ties(points: PointsBase) -> str:
    """How players on the same score are placed when the event's tie-breaks place them
    (``ties`` 'tiebreak' or 'best'), with the tie-breaks named when the rule set names them."""
    if points.ties == "tiebreak":
        if not points.tiebreaks:
            return _(
                "Places are not shared: players on the same score are placed in the order of "
                "the event's results, which its tie-breaks decide. Only players whom every "
                "tie-break leaves level share the points of their places."
            )
        said = _(
            "Places are not shared: players on the same score are placed in the order of the "
            "event's results, which its tie-breaks decide ({tiebreaks}). Only players whom "
            "every tie-break leaves level share the points of their places."
        )
    else:
        if not points.tiebreaks:
            return _(
                "Players on the same score are placed in the order of the event's results, "
                "which its tie-breaks decide; players given the same place there (the results "
                "repeat the place, or every tie-break leaves them level) each get the points of "
                "the best place they share."
            )
        said = _(
            "Players on the same score are placed in the order of the event's results, which "
            "its tie-breaks decide ({tiebreaks}); players given the same place there (the "
            "results repeat the place, or every tie-break leaves them level) each get the "
            "points of the best place they share."
        )
    return said.format(tiebreaks=tiebreak_names(points.tiebreaks, Rules(points.tiebreak_rules)))
