"""What a place span of an event is worth before the section's multipliers, beyond its
table's places (``rules/place_points``): the points of a score (UT-2), the least every
participant earns (LUP-1), and the bonus for places gained over the seed (KW-4). Pure
functions of the rule set; ``points.Valuations`` puts them together for each span."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from grandprix.language import Phrase
from grandprix.rules.event_points import PointsBase
from grandprix.rules.place_points import place_points
from grandprix.rules.schema import RuleSet
from grandprix.scores import show


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
