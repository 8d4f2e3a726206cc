"""The worked example of the rules page: one real result of the season, in words, from the
place to the points (UT-3, UT-4, UT-6, UT-7, LUP-1, ACF-13), then how the player's total is made
(ACF-14, LUP-3). Every number is the engine's: the award's valuation and the player's line.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from grandprix.numbers import show
from grandprix.rules.schema import RuleSet
from grandprix.season.model import Award, Line, Season
from grandprix.season.points import table_for
from grandprix.season.report import Tables
from grandprix.site.parts import Block
from grandprix.site.rules_words import (
    capital,
    count,
    day,
    listing,
    number,
    ordinal,
    place_span,
)


def example_result(tables: Tables) -> tuple[str, Line, Award] | None:
    """The result the page works through, from the first table: the best counted result with a
    shared place of the highest-ranked player who has one (the leader first), else the
    leader's best counted result; None before anyone has won points."""
    if not tables or not tables[0][1]:
        return None
    division, lines = tables[0]

    def best(awards: Sequence[Award]) -> Award:
        return max(awards, key=lambda a: (a.points, -a.event))

    for line in lines:
        shared = [a for a in line.counted if a.first != a.last and a.points > 0]
        if shared:
            return division, line, best(shared)
    won = [a for a in lines[0].counted if a.points > 0]
    return (division, lines[0], best(won)) if won else None


def example_blocks(season: Season, tables: Tables) -> list[Block]:
    heading, anchor = "An example from this season", "example"
    found = example_result(tables)
    if found is None:
        return [Block(heading, anchor, ("An example will appear here once points are won.",))]
    return [Block(heading, anchor, example_paragraphs(season, *found))]


def example_paragraphs(season: Season, division: str, line: Line, a: Award) -> tuple[str, ...]:
    """One result in words: the place, the table's points shared and the rates, then how the
    player's total is made. Every number is the engine's: the award's valuation, the line."""
    rules = season.rules
    name = line.name

    def pts(value: Fraction) -> str:
        return show(value, rules.standings.decimals)

    where = a.event_name if a.section == a.event_name else f"{a.event_name}, {a.section} section"
    reranked = any(d.name == division and d.award == "rerank" for d in rules.divisions)
    among = f" among the players of the {division} division" if reranked else ""
    tied = a.last - a.first + 1
    place = f"finished {ordinal(a.first)}{among}"
    if tied > 1:
        others = count(tied - 1, "other player")
        place = f"tied with {others} for {ordinal(a.first)} to {ordinal(a.last)} place{among}"
    if a.overall:
        place += (
            f" ({place_span(a.overall)} among all players: those who cannot score are left "
            "out, and the players below them move up)"
        )
    result = f"{where}, {day(a.date)}: {name} {place}, on a score of {show(a.score)}."
    event = next(e for e in season.events if e.index == a.event)
    points = rules.points.for_category(a.category)
    table, _ = table_for(event, points)
    worth = f"This was a class {a.table_name} event. " if a.table_name else ""
    values = [show(v) for v in a.values]
    if a.valuation.terms:
        parts = [f"{show(v)} for {words}" for words, v in a.valuation.terms]
        worth += f"Points here add up: {' + '.join(parts)} = {pts(a.base)}."
    elif points.from_score:
        factor = "" if points.score_factor == 1 else f" times {show(points.score_factor)}"
        worth += f"Points here are the score{factor}: {pts(a.base)}."
    elif tied > 1 and points.ties in ("full", "best"):
        worth += (
            f"Each of the tied players gets the points of {ordinal(a.first)} place, {values[0]}."
        )
    elif tied > 1 and points.ties == "split":
        mean = sum(a.values, Fraction(0)) / len(a.values)
        own = 2 * a.base - mean
        spot = own_place(a)
        at = f"{ordinal(spot)} place" if spot else "their place"
        worth += (
            f"The {count(tied, 'tied player')} share places {a.first} to {a.last}: each gets "
            f"half the points of their place on tie-break plus half the average of the places "
            f"shared. {name} was {at} on tie-break, worth {show(own)}, and the average of "
            f"{listing(values)} is {show(mean)}: half of each makes {pts(a.base)}."
        )
    elif tied > 1:
        below = ""
        if a.last > len(table) and not points.bands:
            extra = show(points.overflow or Fraction(0))
            below = f" (each place after {ordinal(len(table))} counts as {extra})"
        mean = sum(a.values, Fraction(0)) / len(a.values)
        worth += (
            f"The {count(tied, 'tied player')} share the points of places {a.first} to "
            f"{a.last}{below}: the average of {listing(values)}, which is {pts(mean)}."
        )
    else:
        worth += f"{ordinal(a.first)} place is worth {listing(values) or '0'} points."
    lowered = bool(a.values) and not points.from_score and not a.valuation.terms
    if lowered and a.base == points.minimum > _before_minimum(a, rules):
        worth += (
            f" That is less than the {show(points.minimum)} every player earns at least, so "
            f"it counts as {pts(a.base)}."
        )
    rates = [f"the event counts {show(a.event_weight)} times"] if a.event_weight != 1 else []
    if a.section_weight != 1:
        rates.append(f"the {a.section} section counts {show(a.section_weight)} times")
    factors, bonuses = a.valuation.factors, a.valuation.bonuses
    if factors or bonuses:
        for reason, value in factors:
            worth += f" The points are multiplied by {show(value)} for {reason}."
        if rates:
            worth += f" {capital(listing(rates))}."
        for reason, value in bonuses:
            worth += f" {name} adds {show(value)} for {reason}."
        product = " times ".join(
            [pts(a.base)]
            + [show(v) for _, v in factors]
            + [show(w) for w in (a.event_weight, a.section_weight) if w != 1]
        )
        added = "".join(f" plus {show(v)}" for _, v in bonuses)
        worth += f" So {name} earned {product}{added}, which is {pts(a.points)} points."
    elif rates:
        product = " times ".join(
            [pts(a.base)] + [show(w) for w in (a.event_weight, a.section_weight) if w != 1]
        )
        worth += (
            f" {capital(listing(rates))}, so {name} earned {product}, which is "
            f"{pts(a.points)} points."
        )
    else:
        worth += f" The event counts at its normal rate, so {name} earned {pts(a.points)} points."
    return result, worth, total_in_words(line, division, rules)


def own_place(a: Award) -> int | None:
    """The place on tie-break of a player in a split tie (FC-4), when its points tell it: the
    one place of the tie whose value is twice the player's points less the tie's average."""
    mean = sum(a.values, Fraction(0)) / len(a.values)
    own = 2 * a.base - mean
    spots = [a.first + i for i, v in enumerate(a.values) if v == own]
    return spots[0] if len(spots) == 1 else None


def _before_minimum(a: Award, rules: RuleSet) -> Fraction:
    """The value of the award's places before the minimum every player earns (LUP-1)."""
    points = rules.points.for_category(a.category)
    if points.ties == "full":
        return a.values[0]
    if points.ties == "split" and a.first != a.last:
        return a.base
    return sum(a.values, Fraction(0)) / len(a.values)


def total_in_words(line: Line, division: str, rules: RuleSet) -> str:
    """How the line's total is made: the results counted, those dropped, the bonus."""
    decimals = rules.standings.decimals
    counted = sorted(line.counted, key=lambda a: (-a.points, a.date, a.event_name, a.section))
    summed = show(sum((a.points for a in counted), Fraction(0)), decimals)
    figures = " + ".join(show(a.points, decimals) for a in counted)
    if line.dropped:
        dropped = listing([show(a.points, decimals) for a in line.dropped])
        best = (
            f"only the best one counts: {figures}"
            if len(counted) == 1
            else f"only the best {number(len(counted))} count: {figures}, which makes {summed}"
        )
        text = (
            f"{line.name} has {count(len(line.awards), 'result')}, and {best}; the "
            f"{'other one' if len(line.dropped) == 1 else 'others'} ({dropped}) "
            f"{'is' if len(line.dropped) == 1 else 'are'} dropped."
        )
    elif len(counted) == 1:
        text = f"This is the only result of {line.name} so far, so it makes the total alone."
    else:
        text = (
            f"All {count(len(counted), 'result')} of {line.name} count: {figures}, which "
            f"makes {summed}."
        )
    if line.bonus:
        text += (
            f" Taking part in {count(line.events, 'event')} adds "
            f"{show(rules.counting.bonus_per_event)} points for each, "
            f"{show(line.bonus, decimals)} in all."
        )
    where = f"the {division} standings" if division else "the standings"
    tied = "tied " if line.rank_first != line.rank_last else ""
    total = show(line.total, decimals)
    return text + f" The total is {total}, {tied}{place_span(line.rank)} in {where}."
