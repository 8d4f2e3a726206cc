"""What a place span of an event is worth before the section's multipliers: the table's
points of its places (UT-3), shared by a tie (UT-4), places below the table (UT-5), the least
every participant earns (LUP-1), the FIDE Circuit's split of a tie (FC-4), the places counted
from the bottom, and the bonus for places gained over the seed (KW-4). Pure functions of the
rule set; ``points.Valuations`` puts them together for each span."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from grandprix.language import Phrase
from grandprix.placings import span_text
from grandprix.rules.event_points import PointsBase
from grandprix.rules.schema import RuleSet
from grandprix.scores import show


def place_value(place: int, first: int, table: Sequence[Fraction], points: PointsBase) -> Fraction:
    """The table value of one place of a tie that starts at ``first``.

    UT-5: a place below the table is worth ``overflow`` only when the tie includes the last
    paid place; a tie entirely below the table earns nothing.
    """
    if place <= len(table):
        return table[place - 1]
    if points.overflow is not None and first <= len(table):
        return points.overflow
    return Fraction(0)


def base_points(
    first: int,
    last: int,
    score: Fraction,
    table: Sequence[Fraction],
    rules: RuleSet,
    points: PointsBase | None = None,
    floor: bool = True,
) -> tuple[Fraction, tuple[Fraction, ...], list[str]]:
    """Points for a player placed ``first``..``last`` before multipliers, the values shared,
    and notes for the explanation; raised to the minimum (LUP-1) unless ``floor`` is False."""
    points = rules.points if points is None else points
    if points.from_score:
        value = score * points.score_factor
        notes = [f"event score {show(score)} x {show(points.score_factor)}"]
        values: tuple[Fraction, ...] = ()
    else:
        value, values, notes = place_points(first, last, table, rules, points)
    if not floor:
        return value, values, notes
    return at_least(value, values, notes, rules, points)


def at_least(
    value: Fraction,
    values: tuple[Fraction, ...],
    notes: list[str],
    rules: RuleSet,
    points: PointsBase,
) -> tuple[Fraction, tuple[Fraction, ...], list[str]]:
    """LUP-1: ``value`` raised to the points every participant earns at least."""
    if value < points.minimum:
        notes.append(f"minimum {show(points.minimum)} for every participant{rules.cite('LUP-1')}")
        value = points.minimum
    return value, values, notes


def place_points(
    first: int, last: int, table: Sequence[Fraction], rules: RuleSet, points: PointsBase
) -> tuple[Fraction, tuple[Fraction, ...], list[str]]:
    """The table's points of the places ``first``..``last``: the mean of the places (UT-4), or
    the best place's for ``ties`` ``full`` and ``best`` (Kapiti), with the values shared and
    notes for the explanation."""
    notes = []
    values = tuple(place_value(p, first, table, points) for p in range(first, last + 1))
    if last > len(table) >= first and points.overflow is not None:
        notes.append(
            f"places below {len(table)} tied with it are worth {show(points.overflow)}"
            + rules.cite("UT-5")
        )
    if points.ties in ("full", "best"):
        value = values[0]  # everyone tied gets the best place's points
        if len(values) > 1:
            notes.append(f"tie {first}-{last}: the best place's {show(value)}")
    else:
        value = sum(values, Fraction(0)) / len(values)  # UT-4: the mean of the places
        if len(values) > 1:
            shown = " + ".join(show(v) for v in values)
            notes.append(f"tie {first}-{last}: ({shown}) / {len(values)}")
    return value, values, notes


def from_bottom(first: int, last: int, size: int, points: PointsBase) -> tuple[Fraction, str]:
    """The places of ``first``..``last`` counted from the bottom of ``size`` players
    (N - place + 1: the last player 1), tied players as ``ties`` says, with the words."""
    counted = [size - place + 1 for place in range(first, last + 1)]
    if points.ties in ("full", "best") or len(counted) == 1:
        return Fraction(counted[0]), f"{size} players - place {first} + 1"
    shown = " + ".join(map(str, counted))
    return Fraction(sum(counted), len(counted)), f"tie {first}-{last}: ({shown}) / {len(counted)}"


def split_points(
    order: tuple[int, int], tie: tuple[int, int], table: Sequence[Fraction], points: PointsBase
) -> tuple[Fraction, tuple[Fraction, ...], list[str]]:
    """FIDE Circuit: a player tied on score gets half the points of the place the tie-breaks
    give (``order``; the mean of it when they cannot separate) plus half the mean points of the
    places of the tie (``tie``)."""
    own = [place_value(p, order[0], table, points) for p in range(order[0], order[1] + 1)]
    shared = tuple(place_value(p, tie[0], table, points) for p in range(tie[0], tie[1] + 1))
    mine = sum(own, Fraction(0)) / len(own)
    mean = sum(shared, Fraction(0)) / len(shared)
    if tie[0] == tie[1]:
        return mine, shared, []
    shown = " + ".join(show(v) for v in shared)
    value = mine / 2 + mean / 2
    note = (
        f"tie {tie[0]}-{tie[1]}: half of {show(mine)} (place {span_text(*order)} on tie-break) "
        f"+ half of ({shown}) / {len(shared)} = {show(value, 4)}"
    )
    return value, shared, [note]


def gain_bonus(gained: int, placement: Fraction, points: PointsBase) -> tuple[Fraction, str]:
    """KW-4: ``per_place`` for each place gained over the seed (KW-8; start rank minus final
    place), at most ``cap`` and at most ``cap_percent``% of the placement points (rounded down
    if the rules say), with the capping in words."""
    gain = points.gain
    if gain is None or gained <= 0:
        return Fraction(0), ""
    raw = gain.per_place * gained
    per, caps = show(gain.per_place), []
    if gain.cap is not None:
        words = Phrase(
            "{per} a place, {raw} capped at {cap}", per=per, raw=show(raw), cap=show(gain.cap)
        )
        caps.append((gain.cap, words))
    if gain.cap_percent is not None:
        most = placement * gain.cap_percent / 100
        most = Fraction(math.floor(most)) if gain.round_down else most
        raw_, percent, placement_ = show(raw), show(gain.cap_percent), show(placement)
        words = (
            Phrase(
                "{per} a place, {raw} capped at {percent}% of {placement}, rounded down",
                per=per,
                raw=raw_,
                percent=percent,
                placement=placement_,
            )
            if gain.round_down
            else Phrase(
                "{per} a place, {raw} capped at {percent}% of {placement}",
                per=per,
                raw=raw_,
                percent=percent,
                placement=placement_,
            )
        )
        caps.append((most, words))
    value = min([raw, *(cap for cap, _ in caps)])
    if value < raw:
        return value, next(words for cap, words in caps if cap == value)
    return value, Phrase("{per} a place", per=per)
