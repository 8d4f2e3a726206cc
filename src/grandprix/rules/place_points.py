"""What the places of an event's table are worth (a place term's value): the table's points
of a place span (UT-3), shared by a tie (UT-4) or the best place's (Kapiti), places below the
table (UT-5), the FIDE Circuit's split of a tie (FC-4), the places counted from the bottom.
Pure functions of the rules, read through the few keys they need (``PlaceRules``), so the
kinds of term (``terms``) can value a place where the rule language is defined."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Protocol

from grandprix.scores import show, span_text


class PlaceRules(Protocol):
    """The keys of a rule set's points that decide what a place is worth."""

    @property
    def overflow(self) -> Fraction | None: ...

    @property
    def ties(self) -> str: ...


class Citing(Protocol):
    """A rule set that says which rule IDs it encodes (``RuleSet.cite``)."""

    def cite(self, *ids: str) -> str: ...


def place_value(place: int, first: int, table: Sequence[Fraction], points: PlaceRules) -> Fraction:
    """The table value of one place of a tie that starts at ``first``.

    UT-5: a place below the table is worth ``overflow`` only when the tie includes the last
    paid place; a tie entirely below the table earns nothing.
    """
    if place <= len(table):
        return table[place - 1]
    if points.overflow is not None and first <= len(table):
        return points.overflow
    return Fraction(0)


def place_points(
    first: int, last: int, table: Sequence[Fraction], rules: Citing, points: PlaceRules
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


def from_bottom(first: int, last: int, size: int, points: PlaceRules) -> tuple[Fraction, str]:
    """The places of ``first``..``last`` counted from the bottom of ``size`` players
    (N - place + 1: the last player 1), tied players as ``ties`` says, with the words."""
    counted = [size - place + 1 for place in range(first, last + 1)]
    if points.ties in ("full", "best") or len(counted) == 1:
        return Fraction(counted[0]), f"{size} players - place {first} + 1"
    shown = " + ".join(map(str, counted))
    return Fraction(sum(counted), len(counted)), f"tie {first}-{last}: ({shown}) / {len(counted)}"


def split_points(
    order: tuple[int, int], tie: tuple[int, int], table: Sequence[Fraction], points: PlaceRules
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
