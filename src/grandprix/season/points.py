"""Event points: an event's placings turned into awards under a rule set.

Pure functions: placings (issue 1/6) -> eligible players and their places -> table values ->
multipliers. Each step names the rule it implements.
"""

from __future__ import annotations

import math
from fractions import Fraction

from grandprix.model import Player, Section
from grandprix.numbers import show
from grandprix.placings import Placings, Span, place, share_places
from grandprix.rules.schema import Points, RuleSet
from grandprix.season.identity import Directory
from grandprix.season.model import Award, SeasonEvent, SeasonSection, Valuation
from grandprix.tiebreaks import Rules, parse


def earning_sections(event: SeasonEvent, rules: RuleSet) -> list[tuple[SeasonSection, Fraction]]:
    """The sections that earn points and their rates (UT-7, D-UT-2)."""
    out = []
    for position, section in enumerate(event.sections):
        if section.weight is not None:
            out.append((section, section.weight))
        elif rules.sections.unweighted == "all" or position == 0:
            out.append((section, Fraction(1)))
    return out


def table_for(event: SeasonEvent, points: Points) -> tuple[list[Fraction], str]:
    """The points table, chosen by tournament class from the prize fund when classes exist.

    ACF-6: the class of a tournament goes by its total prize money (trophies excluded);
    ACF-13.1: each class has its own table.
    """
    if not points.classes:
        return list(points.table), ""
    fund = event.prize_fund or Fraction(0)
    chosen = max(
        (c for c in points.classes if c.min_prize_fund <= fund),
        key=lambda c: c.min_prize_fund,
        default=min(points.classes, key=lambda c: c.min_prize_fund),
    )
    return list(chosen.table), chosen.name


def place_value(place: int, first: int, table: list[Fraction], points: Points) -> Fraction:
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
    first: int, last: int, score: Fraction, table: list[Fraction], rules: RuleSet
) -> tuple[Fraction, tuple[Fraction, ...], list[str]]:
    """Points for a player placed ``first``..``last`` before multipliers, the values shared,
    and notes for the explanation."""
    notes = []
    points = rules.points
    if points.from_score:
        value = score * points.score_factor
        notes.append(f"event score {show(score)} x {show(points.score_factor)}")
        values: tuple[Fraction, ...] = ()
    else:
        values = tuple(place_value(p, first, table, points) for p in range(first, last + 1))
        if last > len(table) >= first and points.overflow is not None:
            notes.append(
                f"places below {len(table)} tied with it are worth {show(points.overflow)}"
                + rules.cite("UT-5")
            )
        if points.ties == "full":
            value = values[0]  # everyone tied gets the best place's points
        else:
            value = sum(values, Fraction(0)) / len(values)  # UT-4: the mean of the places
            if len(values) > 1:
                shown = " + ".join(show(v) for v in values)
                notes.append(f"tie {first}-{last}: ({shown}) / {len(values)}")
    if value < points.minimum:
        notes.append(f"minimum {show(points.minimum)} for every participant{rules.cite('LUP-1')}")
        value = points.minimum
    return value, values, notes


def section_spans(section: SeasonSection, event: SeasonEvent, rules: RuleSet) -> list[Span]:
    """Places in the section: shared spans by score (UT-4), or ordered (LUP-2, D-LUP-3)."""
    results = section.section
    if rules.points.ties != "tiebreak":
        return shared_by_score(results.players)
    rows = event_placings(results, event, rules).rows
    index = {p.start_no: i for i, p in enumerate(results.players)}
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
    codes = event.tiebreaks if event.tiebreaks is not None else rules.points.tiebreaks
    book = Rules(event.tiebreak_rules or rules.points.tiebreak_rules)
    if results.has_crosstable and codes:
        return place(results, parse(codes, book), book)
    return place(results)


def shared_by_score(players: tuple[Player, ...]) -> list[Span]:
    """UT-4: equal total scores share the span of places they occupy.

    Sorted on exact integer keys (scores over their common denominator): comparing Fractions
    directly is what made large seasons slow.
    """
    scores = [p.points for p in players]
    scale = math.lcm(*{s.denominator for s in scores})
    keys = [s.numerator * (scale // s.denominator) for s in scores]
    order = sorted(range(len(players)), key=lambda i: (-keys[i], players[i].start_no))
    return list(share_places(order, keys.__getitem__))


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


class Valuations:
    """Every distinct valuation of the season, computed once (spans repeat across events)."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.points = rules.points
        self.items: list[Valuation] = []
        self._memo: dict[tuple[object, ...], Valuation] = {}

    def get(
        self,
        span: tuple[int, int],
        score: Fraction,
        table: tuple[list[Fraction], str],
        weights: tuple[Fraction, Fraction],
    ) -> Valuation:
        """The valuation of a place span under a table (and its name) and the event and
        section weights."""
        event_weight, section_weight = weights
        key = (
            span,
            (score.numerator, score.denominator) if self.points.from_score else None,
            table[1],
            event_weight.numerator,
            event_weight.denominator,
            section_weight.numerator,
            section_weight.denominator,
        )
        found = self._memo.get(key)
        if found is None:
            base, values, notes = base_points(span[0], span[1], score, table[0], self.rules)
            found = Valuation(
                id=len(self.items),
                base=base,
                values=values,
                event_weight=event_weight,
                section_weight=section_weight,
                points=base * event_weight * section_weight,
                notes=tuple(notes),
            )
            self._memo[key] = found
            self.items.append(found)
        return found


def event_awards(
    event: SeasonEvent, rules: RuleSet, directory: Directory, valuations: Valuations
) -> list[Award]:
    """Every award of one event."""
    awards = []
    table = table_for(event, rules.points)
    for section, weight in earning_sections(event, rules):
        players = section.section.players
        entrants = [directory.entrant(p) for p in players]
        placed = section_spans(section, event, rules)
        overall: dict[int, str] = {}
        if rules.eligibility.ineligible_players == "skip":
            overall = {
                i: str(first) if first == last else f"{first}-{last}"
                for first, last, members in placed
                for i in members
            }
            placed = renumber(placed, [e.eligible for e in entrants])
        weights = (event.weight, weight)
        by_score = rules.points.from_score
        for first, last, members in placed:
            value = None
            for i in members:
                entrant = entrants[i]
                if not entrant.eligible:
                    continue  # keep-place: the place is taken, its points go to nobody
                score = players[i].points
                if value is None or by_score:  # the same for the whole span unless by score
                    value = valuations.get((first, last), score, table, weights)
                before = overall.get(i, "")
                place = str(first) if first == last else f"{first}-{last}"
                awards.append(
                    Award(event.index, event.name, event.date, section.name, entrant.key,
                          entrant.name, first, last, score, value, table[1],
                          before if before != place else "")
                )  # fmt: skip
    return awards
