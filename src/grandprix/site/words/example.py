"""The worked example of the rules page: one real result of the season, in words, from the
place to the points (UT-3, UT-4, UT-6, UT-7, LUP-1, ACF-13), then how the player's total is made
(ACF-14, LUP-3). Every number is the engine's: the award's valuation and the player's line.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from grandprix.language import _, decimal, ngettext
from grandprix.rules.schema import RuleSet
from grandprix.scores import show
from grandprix.season.model import Award, Line, Season, Tables
from grandprix.season.points import table_for
from grandprix.site.parts import Block
from grandprix.site.words.common import (
    capital,
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
    heading, anchor = _("An example from this season"), "example"
    found = example_result(tables)
    if found is None:
        return [Block(heading, anchor, (_("An example will appear here once points are won."),))]
    return [Block(heading, anchor, example_paragraphs(season, *found))]


def example_paragraphs(season: Season, division: str, line: Line, a: Award) -> tuple[str, ...]:
    """One result in words: the place, the table's points shared and the rates, then how the
    player's total is made. Every number is the engine's: the award's valuation, the line."""
    rules = season.rules
    name = line.name

    def pts(value: Fraction) -> str:
        return decimal(show(value, rules.standings.decimals))

    def num(value: Fraction) -> str:
        return decimal(show(value))

    where = (
        a.event_name
        if a.section == a.event_name
        else _("{event}, {section} section").format(event=a.event_name, section=a.section)
    )
    result = _("{where}, {day}: {name} {finished}, on a score of {score}.").format(
        where=where,
        day=day(a.date),
        name=name,
        finished=_place_words(a, division, rules),
        score=num(a.score),
    )
    event = next(e for e in season.events if e.index == a.event)
    points = rules.points.for_category(a.category)
    table, _values = table_for(event, points)
    tied = a.last - a.first + 1
    said = [_("This was a class {name} event.").format(name=a.table_name)] if a.table_name else []
    values = [num(v) for v in a.values]
    floored_from = a.valuation.floored_from
    before = a.base if floored_from is None else floored_from  # LUP-1 said after
    if a.valuation.terms:
        parts = [
            (" - " if v < 0 else " + " if k else "")
            + _("{points} for {what}").format(points=num(abs(v)), what=words)
            for k, (words, v) in enumerate(a.valuation.terms)
        ]
        said.append(
            _("Points here add up: {terms} = {points}.").format(
                terms="".join(parts), points=pts(before)
            )
            if len(parts) > 1
            else _("Points here are {term}.").format(term=parts[0])
        )
    elif points.from_score:
        score = (
            _("Points here are the score: {points}.")
            if points.score_factor == 1
            else _("Points here are the score times {factor}: {points}.")
        )
        said.append(score.format(factor=num(points.score_factor), points=pts(before)))
    elif tied > 1 and points.ties in ("full", "best"):
        said.append(
            _("Each of the tied players gets the points of {place} place, {points}.").format(
                place=ordinal(a.first), points=values[0]
            )
        )
    elif tied > 1 and points.ties == "split":
        mean = sum(a.values, Fraction(0)) / len(a.values)
        own = 2 * before - mean
        spot = own_place(a)
        said.append(
            ngettext(
                "The {n} tied player share places {first} to {last}: each gets half the points "
                "of their place on tie-break plus half the average of the places shared.",
                "The {n} tied players share places {first} to {last}: each gets half the points "
                "of their place on tie-break plus half the average of the places shared.",
                tied,
            ).format(n=number(tied), first=a.first, last=a.last)
        )
        spot_worth = (
            _(
                "{name} was {place} place on tie-break, worth {own}, and the average of "
                "{values} is {mean}: half of each makes {points}."
            )
            if spot
            else _(
                "{name} was their place on tie-break, worth {own}, and the average of {values} "
                "is {mean}: half of each makes {points}."
            )
        )
        said.append(
            spot_worth.format(
                name=name,
                place=ordinal(spot) if spot else "",
                own=num(own),
                values=listing(values),
                mean=num(mean),
                points=pts(before),
            )
        )
    elif tied > 1:
        mean = sum(a.values, Fraction(0)) / len(a.values)
        if a.last > len(table) and not points.bands:
            shared = ngettext(
                "The {n} tied player share the points of places {first} to {last} (each place "
                "after {place} counts as {extra}): the average of {values}, which is {mean}.",
                "The {n} tied players share the points of places {first} to {last} (each place "
                "after {place} counts as {extra}): the average of {values}, which is {mean}.",
                tied,
            )
        else:
            shared = ngettext(
                "The {n} tied player share the points of places {first} to {last}: the average "
                "of {values}, which is {mean}.",
                "The {n} tied players share the points of places {first} to {last}: the average "
                "of {values}, which is {mean}.",
                tied,
            )
        said.append(
            shared.format(
                n=number(tied),
                first=a.first,
                last=a.last,
                place=ordinal(len(table)),
                extra=num(points.overflow or Fraction(0)),
                values=listing(values),
                mean=pts(mean),
            )
        )
    else:
        said.append(
            _("{place} place is worth {points} points.").format(
                place=ordinal(a.first), points=listing(values) or "0"
            )
        )
    if floored_from is not None:
        said.append(
            _(
                "That is less than the {minimum} every player earns at least, so it counts as "
                "{points}."
            ).format(minimum=num(points.minimum), points=pts(a.base))
        )
    rates = []
    if a.event_weight != 1:
        rates.append(_("the event counts {rate} times").format(rate=num(a.event_weight)))
    if a.section_weight != 1:
        rates.append(
            _("the {section} section counts {rate} times").format(
                section=a.section, rate=num(a.section_weight)
            )
        )
    factors, bonuses = a.valuation.factors, a.valuation.bonuses
    weights = [num(w) for w in (a.event_weight, a.section_weight) if w != 1]
    if factors or bonuses:
        for reason, value in factors:
            said.append(
                _("The points are multiplied by {factor} for {reason}.").format(
                    factor=num(value), reason=reason
                )
            )
        if rates:
            said.append(capital(listing(rates)) + ".")
        for reason, value in bonuses:
            said.append(
                _("{name} adds {points} for {reason}.").format(
                    name=name, points=num(value), reason=reason
                )
            )
        earned = _times([pts(a.base), *(num(v) for _reason, v in factors), *weights])
        for _reason, value in bonuses:
            earned = _("{sum} plus {points}").format(sum=earned, points=num(value))
        said.append(
            _("So {name} earned {amount}, which is {points} points.").format(
                name=name, amount=earned, points=pts(a.points)
            )
        )
    elif rates:
        said.append(
            _("{rates}, so {name} earned {amount}, which is {points} points.").format(
                rates=capital(listing(rates)),
                name=name,
                amount=_times([pts(a.base), *weights]),
                points=pts(a.points),
            )
        )
    else:
        said.append(
            _("The event counts at its normal rate, so {name} earned {points} points.").format(
                name=name, points=pts(a.points)
            )
        )
    worth = " ".join(said)
    return result, worth, total_in_words(line, division, rules)


def _place_words(a: Award, division: str, rules: RuleSet) -> str:
    """Where the player finished, as the rest of a sentence after their name: 'finished 3rd',
    'tied with two other players for 2nd to 4th place among the players of the Junior
    division', with the place among all players when those who cannot score were left out."""
    reranked = any(d.name == division and d.award == "rerank" for d in rules.divisions)
    tied = a.last - a.first + 1
    if tied == 1:
        place = (
            _("finished {place} among the players of the {division} division")
            if reranked
            else _("finished {place}")
        ).format(place=ordinal(a.first), division=division)
    else:
        place = (
            ngettext(
                "tied with {n} other player for {first} to {last} place among the players of "
                "the {division} division",
                "tied with {n} other players for {first} to {last} place among the players of "
                "the {division} division",
                tied - 1,
            )
            if reranked
            else ngettext(
                "tied with {n} other player for {first} to {last} place",
                "tied with {n} other players for {first} to {last} place",
                tied - 1,
            )
        ).format(
            n=number(tied - 1), first=ordinal(a.first), last=ordinal(a.last), division=division
        )
    if not a.overall:
        return place
    return _(
        "{place} ({overall} among all players: those who cannot score are left out, and the "
        "players below them move up)"
    ).format(place=place, overall=place_span(a.overall))


def _times(factors: list[str]) -> str:
    """'10 times 1.5 times 2': the numbers multiplied, in words."""
    product = factors[0]
    for factor in factors[1:]:
        product = _("{product} times {factor}").format(product=product, factor=factor)
    return product


def own_place(a: Award) -> int | None:
    """The place on tie-break of a player in a split tie (FC-4), when its points tell it: the
    one place of the tie whose value is twice the player's points less the tie's average."""
    mean = sum(a.values, Fraction(0)) / len(a.values)
    own = 2 * a.base - mean
    spots = [a.first + i for i, v in enumerate(a.values) if v == own]
    return spots[0] if len(spots) == 1 else None


def total_in_words(line: Line, division: str, rules: RuleSet) -> str:
    """How the line's total is made: the results counted, those dropped, the bonus."""
    decimals = rules.standings.decimals

    def pts(value: Fraction) -> str:
        return decimal(show(value, decimals))

    counted = sorted(line.counted, key=lambda a: (-a.points, a.date, a.event_name, a.section))
    summed = pts(sum((a.points for a in counted), Fraction(0)))
    figures = " + ".join(pts(a.points) for a in counted)
    if line.dropped:
        results = ngettext(
            "{name} has {n} result", "{name} has {n} results", len(line.awards)
        ).format(name=line.name, n=number(len(line.awards)))
        best = (
            _("only the best one counts: {figures}").format(figures=figures)
            if len(counted) == 1
            else ngettext(
                "only the best {n} counts: {figures}, which makes {total}",
                "only the best {n} count: {figures}, which makes {total}",
                len(counted),
            ).format(n=number(len(counted)), figures=figures, total=summed)
        )
        dropped = ngettext(
            "the other one ({dropped}) is dropped",
            "the others ({dropped}) are dropped",
            len(line.dropped),
        ).format(dropped=listing([pts(a.points) for a in line.dropped]))
        said = [
            _("{results}, and {counted}; {dropped}.").format(
                results=results, counted=best, dropped=dropped
            )
        ]
    elif len(counted) == 1:
        said = [
            _("This is the only result of {name} so far, so it makes the total alone.").format(
                name=line.name
            )
        ]
    else:
        said = [
            ngettext(
                "All {n} result of {name} count: {figures}, which makes {total}.",
                "All {n} results of {name} count: {figures}, which makes {total}.",
                len(counted),
            ).format(n=number(len(counted)), name=line.name, figures=figures, total=summed)
        ]
    if rules.counting.total == "mean" and len(counted) > 1:  # KEN-3
        said.append(
            _("The season value is their mean, {mean}.").format(
                mean=pts(sum((a.points for a in counted), Fraction(0)) / len(counted))
            )
        )
    if line.bonus:
        said.append(
            ngettext(
                "Taking part in {n} event adds {points} points for each, {bonus} in all.",
                "Taking part in {n} events adds {points} points for each, {bonus} in all.",
                line.events,
            ).format(
                n=number(line.events),
                points=decimal(show(rules.counting.bonus_per_event)),
                bonus=pts(line.bonus),
            )
        )
    tied = line.rank_first != line.rank_last
    if division and tied:
        total = _("The total is {total}, tied {place} in the {division} standings.")
    elif division:
        total = _("The total is {total}, {place} in the {division} standings.")
    elif tied:
        total = _("The total is {total}, tied {place} in the standings.")
    else:
        total = _("The total is {total}, {place} in the standings.")
    said.append(total.format(total=pts(line.total), place=place_span(line.rank), division=division))
    return " ".join(said)
