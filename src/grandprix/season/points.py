"""Event points: an event's placings turned into awards under a rule set.

Pure functions: placings -> eligible players and their places -> table values ->
multipliers -> bonuses. Each section of an event gets a ``Scale`` (its category's points, its
table of places, its multipliers) and each player a valuation of their span under it, shared by
every player and event it applies to (what a span is worth before the multipliers:
``place_values.py``). Each step names the rule it implements.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter
from typing import NamedTuple

from grandprix.language import Phrase
from grandprix.model import Columns, Section
from grandprix.placings import Span
from grandprix.rules.event_points import PointsBase, TournamentClass
from grandprix.rules.place_points import split_points
from grandprix.rules.schema import RuleSet
from grandprix.rules.terms import TERM_KINDS, TermResult
from grandprix.scores import show, span_text
from grandprix.season.eligible import forfeited, plays_enough
from grandprix.season.identity import Directory
from grandprix.season.model import (
    AwardRows,
    Origin,
    SeasonEvent,
    SeasonSection,
    Valuation,
    product,
)
from grandprix.season.place_values import at_least, base_points, gain_bonus
from grandprix.season.places import order_spans, renumber, section_spans


def earning_sections(event: SeasonEvent, rules: RuleSet) -> list[tuple[SeasonSection, Fraction]]:
    """The sections that earn points and their rates (UT-7, D-UT-2)."""
    out = []
    for position, section in enumerate(event.sections):
        if section.weight is not None:
            out.append((section, section.weight))
        elif rules.sections.unweighted == "all" or position == 0:
            out.append((section, Fraction(1)))
    return out


def table_for(event: SeasonEvent, points: PointsBase) -> tuple[list[Fraction], str]:
    """The points table, chosen by tournament class from the prize fund when classes exist.

    ACF-6: the class of a tournament goes by its total prize money (trophies excluded);
    ACF-13.1: each class has its own table. A class without a table keeps the rule set's.
    """
    chosen = tournament_class(event, points)
    if chosen is None:
        return list(points.table), ""
    return class_table(chosen, points), chosen.name


def class_table(chosen: TournamentClass, points: PointsBase) -> list[Fraction]:
    """A class's own table, or the rule set's when the class only sets a multiplier."""
    return list(chosen.table if chosen.table is not None else points.table)


def tournament_class(event: SeasonEvent, points: PointsBase) -> TournamentClass | None:
    """The class of the event by its prize fund (ACF-6), a 'based-on' fund counting at
    ``based_on_percent`` (NW-2, D-NW-1: half the advertised amount)."""
    if not points.classes:
        return None
    fund = counted_fund(event, points)
    return max(
        (c for c in points.classes if c.min_prize_fund <= fund),
        key=lambda c: c.min_prize_fund,
        default=min(points.classes, key=lambda c: c.min_prize_fund),
    )


def counted_fund(event: SeasonEvent, points: PointsBase) -> Fraction:
    """The prize fund as the classes count it: a 'based-on' fund at its share."""
    fund = event.prize_fund or Fraction(0)
    return fund * points.based_on_percent / 100 if event.based_on else fund


def band_table(points: PointsBase, size: int) -> list[Fraction]:
    """KW-3: the value of each of the ``size`` places by percentile band, a band reaching down
    to place ceil(percent% x size); ``size`` is every player listed (D-KW-2)."""
    cutoffs = [(math.ceil(band.percent * size / 100), band.points) for band in points.bands]
    out = []
    for place_ in range(1, size + 1):
        out.append(next((value for cut, value in cutoffs if place_ <= cut), Fraction(0)))
    return out


def paid_places(points: PointsBase, size: int) -> int | None:
    """How many places earn table points in a section of ``size`` players, if limited (FC-3):
    the top share of the field (a Swiss's top half) and the places by size (round robins: 3,
    4 from 10 players, 5 from 13)."""
    limit: int | None = None
    if points.top_percent is not None:
        limit = math.floor(points.top_percent * size / 100)
    by_size = [p for p in points.paid_places if p.min_players <= size]
    if by_size:
        places = max(by_size, key=lambda p: p.min_players).places
        limit = places if limit is None else min(limit, places)
    return limit


def rating_factor(section: Section, points: PointsBase) -> tuple[Fraction, str] | None:
    """FC-1: k = (TAR - base) / per, TAR the mean rating of the ``top`` highest-rated players at
    the start, exact and never below 0 (D-FC-1), with its reason in words; None when the rules
    have no such factor."""
    factor = points.rating_factor
    if factor is None:
        return None
    ratings = sorted(filter(None, section.columns.rating), reverse=True)[: factor.top]
    if not ratings:
        return Fraction(0), Phrase("no player of the field is rated", cites=("FC-1",))
    mean = Fraction(sum(ratings), len(ratings))
    value = max(Fraction(0), (mean - factor.base) / factor.per)
    return value, Phrase(
        "the average rating of its {n} highest-rated players, {mean}: ({mean} - {base}) / {per}",
        cites=("FC-1",),
        n=len(ratings),
        mean=show(mean),
        base=factor.base,
        per=factor.per,
    )


@dataclass(frozen=True, eq=False)
class Scale:
    """How one earning section pays: its points rules, its table of places, its tournament
    class and multipliers, computed once per section."""

    id: int
    points: PointsBase
    table: tuple[Fraction, ...]
    name: str  # the tournament class, when tables go by class
    factors: tuple[tuple[str, Fraction], ...]  # each multiplier with its reason in words
    size: int = 0  # the section's players, when a term counts places from the bottom


def section_scale(
    event: SeasonEvent, section: Section, rules: RuleSet, scales: Valuations
) -> Scale:
    """The scale of one section of an event (its category's points, ACF-6 class, KW-3 bands,
    FC-3 paid places, FC-1 rating factor, NW-1 class multiplier), made once for all the
    sections that share what it depends on."""
    points = scales.points_for(event.category)
    size = section.size
    chosen = tournament_class(event, points)
    sized = any(TERM_KINDS[term.kind].by_size for term in points.summed)
    by_size = bool(points.bands or points.top_percent is not None or points.paid_places)
    by_size = by_size or sized
    ratings = None
    if points.rating_factor is not None:
        ratings = tuple(sorted(filter(None, section.columns.rating), reverse=True))
    fund = event.prize_fund if chosen is not None and chosen.factor != 1 else None  # its words
    key = (event.category, id(chosen), fund, event.based_on, size if by_size else None, ratings)
    found = scales.known(key)
    if found is not None:
        return found
    table, name = table_for(event, points)
    if points.bands:
        table = band_table(points, size)
    if chosen is not None and (chosen.table is None or points.bands):
        name = ""  # the class only multiplies (NW-1): no table of its own to name
    limit = paid_places(points, size)
    if limit is not None:
        table = table[:limit]
    factors = []
    factor = rating_factor(section, points)
    if factor is not None:
        factors.append((factor[1], factor[0]))
    if chosen is not None and chosen.factor != 1:
        counted = show(counted_fund(event, points))
        reason = (
            Phrase(
                "a prize fund of {fund} ({percent}% of a based-on fund), class {name}",
                cites=("NW-1", "NW-2"),
                fund=counted,
                percent=show(points.based_on_percent),
                name=chosen.name,
            )
            if event.based_on
            else Phrase(
                "a prize fund of {fund}, class {name}",
                cites=("NW-1",),
                fund=counted,
                name=chosen.name,
            )
        )
        factors.append((reason, chosen.factor))
    return scales.add(key, points, tuple(table), name, tuple(factors), size if sized else 0)


class Extras(NamedTuple):
    """What one player adds to the points of their span: places gained, every round played,
    their place on tie-break inside a tie (FIDE Circuit split), their percentage score."""

    gained: int | None = None
    completed: bool | None = None
    order: tuple[int, int] | None = None
    own: tuple[Fraction | None, ...] = ()  # each term's own figure (terms.TermKind.own)


NO_EXTRAS = Extras()


class Valuations:
    """Every distinct valuation of the season, computed once (spans repeat across events)."""

    def __init__(self, rules: RuleSet):
        self.rules = rules
        self.items: list[Valuation] = []
        self.scales: list[Scale] = []
        self._memo: dict[tuple[object, ...], Valuation] = {}
        self._spans: dict[tuple[object, ...], dict[tuple[int, int], Valuation]] = {}
        self._scale_memo: dict[tuple[object, ...], Scale] = {}
        self._points: dict[str, PointsBase] = {}

    def points_for(self, category: str) -> PointsBase:
        """The points rules of an event category, made once."""
        found = self._points.get(category)
        if found is None:
            found = self._points[category] = self.rules.points.for_category(category)
        return found

    def known(self, key: tuple[object, ...]) -> Scale | None:
        """The scale made for sections with this key, if any."""
        return self._scale_memo.get(key)

    def add(
        self,
        key: tuple[object, ...],
        points: PointsBase,
        table: tuple[Fraction, ...],
        name: str,
        factors: tuple[tuple[str, Fraction], ...],
        size: int = 0,
    ) -> Scale:
        """A new scale, remembered under ``key``."""
        found = Scale(len(self.scales), points, table, name, factors, size)
        self._scale_memo[key] = found
        self.scales.append(found)
        return found

    def spans(
        self, scale: Scale, weights: tuple[Fraction, Fraction], outright: bool
    ) -> dict[tuple[int, int], Valuation]:
        """The valuations ``get`` gave place spans alone (no score, no extras) under one scale,
        weights and outright rule, by span: one look-up a span of the usual section (a large
        season has 140,000 spans). The caller adds what ``get`` gives for a span not in it."""
        key = (scale.id, *weights, outright)
        found = self._spans.get(key)
        if found is None:
            found = self._spans[key] = {}
        return found

    def get(
        self,
        scale: Scale,
        span: tuple[int, int],
        score: Fraction,
        weights: tuple[Fraction, Fraction],
        extras: Extras = NO_EXTRAS,
        outright: bool = False,
    ) -> Valuation:
        """The valuation of a place span under a section's scale, the event and section
        weights, and what the player adds (places gained, all rounds played, tie-break
        place)."""
        points = scale.points
        event_weight, section_weight = weights
        key = (
            scale.id,
            span,
            (score.numerator, score.denominator) if points.by_score else None,
            event_weight.numerator,
            event_weight.denominator,
            section_weight.numerator,
            section_weight.denominator,
            extras,
            outright and span[0] == 1,
        )
        found = self._memo.get(key)
        if found is None:
            found = self._value(scale, span, score, weights, extras, outright and span[0] == 1)
            self._memo[key] = found
            self.items.append(found)
        return found

    def _value(
        self,
        scale: Scale,
        span: tuple[int, int],
        score: Fraction,
        weights: tuple[Fraction, Fraction],
        extras: Extras,
        outright: bool,
    ) -> Valuation:
        points = scale.points
        table: Sequence[Fraction] = scale.table
        notes = [f"x {show(value)} for {words}" for words, value in scale.factors]
        if outright and points.first_outright is not None:
            table = (points.first_outright, *table[1:])  # FC-2: an outright winner
            notes.append(f"1st place alone: {show(points.first_outright)}")
        terms: tuple[tuple[str, Fraction], ...] = ()
        bonuses = []
        if points.terms:  # a sum of terms
            base, values, more, terms, added = self._terms(scale, table, span, score, extras)
            bonuses += added
        elif points.ties == "split" and extras.order is not None and not points.from_score:
            base, values, more = split_points(extras.order, span, table, points)
        else:
            base, values, more = base_points(
                span[0], span[1], score, table, self.rules, points, floor=False
            )
        raw = base
        base, values, more = at_least(base, values, more, self.rules, points)
        notes.extend(more)
        if extras.gained is not None and points.gain is not None:
            bonus, why = gain_bonus(extras.gained, base, points)
            if bonus:
                words = (
                    Phrase("finishing 1 place above the seed ({why})", cites=("KW-4",), why=why)
                    if extras.gained == 1
                    else Phrase(
                        "finishing {n} places above the seed ({why})",
                        cites=("KW-4",),
                        n=extras.gained,
                        why=why,
                    )
                )
                bonuses.append((words, bonus))
        if extras.completed and points.completion:
            every = Phrase("playing every round", cites=("KW-5", "NW-3"))
            bonuses.append((every, points.completion))
        notes.extend(f"+ {show(value)} for {words}" for words, value in bonuses)
        extra = sum((value for _, value in bonuses), Fraction(0))
        event_weight, section_weight = weights
        return Valuation(
            id=len(self.items),
            base=base,
            values=values,
            event_weight=event_weight,
            section_weight=section_weight,
            points=base * product(scale.factors) * event_weight * section_weight + extra,
            notes=tuple(notes),
            factors=scale.factors,
            bonuses=tuple(bonuses),
            terms=terms,
            floored_from=raw if raw != base else None,
        )

    def _terms(
        self,
        scale: Scale,
        table: Sequence[Fraction],
        span: tuple[int, int],
        score: Fraction,
        extras: Extras,
    ) -> tuple[
        Fraction,
        tuple[Fraction, ...],
        list[str],
        tuple[tuple[str, Fraction], ...],
        list[tuple[str, Fraction]],
    ]:
        """The points as ``points.terms`` add them up: the weighted terms' sum (raised to the
        minimum by the caller, LUP-1), the place table's values shared, notes, each weighted term
        in words with its value, and the terms added after the multipliers."""
        points = scale.points
        base, notes = Fraction(0), list[str]()
        values: tuple[Fraction, ...] = ()
        weighted: list[tuple[str, Fraction]] = []
        after: list[tuple[str, Fraction]] = []
        for i, term in enumerate(points.terms):
            kind = TERM_KINDS[term.kind]
            own = extras.own[i] if i < len(extras.own) else None
            worked = kind.value(
                TermResult(
                    term, span, scale.size, score, own, extras.order, table, points, self.rules
                )
            )
            value = worked.value
            values = worked.values or values
            notes += worked.notes
            if term.round == "half-up" and value.denominator != 1:
                value = Fraction(math.floor(value + Fraction(1, 2)))
                notes.append(f"rounded half up to {show(value)}")
            if term.name:
                words: str = term.name
            elif term.kind == "place":
                words = Phrase("place {span}", span=span_text(*span))
            else:
                words = Phrase(TERM_KINDS[term.kind].words, points=show(term.amount))
            if kind.bound is not None:  # a bound on the terms before it (a cap)
                bounded = kind.bound(base, value)
                if bounded == base:
                    continue  # it does not bind: nothing to record
                value, notes = bounded - base, [*notes, f"{words}: {show(bounded)}"]
            (weighted if term.weighted else after).append((words, value))
            base += value if term.weighted else 0
        return base, values, notes, tuple(weighted), after


def event_awards(
    event: SeasonEvent,
    rules: RuleSet,
    directory: Directory,
    valuations: Valuations,
    into: AwardRows | None = None,
) -> AwardRows:
    """Every award of one event, as columns: added to ``into`` (the season's awards, without
    a table of each event's to join), else to a table of their own."""
    awards = AwardRows() if into is None else into
    points = valuations.points_for(event.category)
    start = len(awards)
    for section, weight in earning_sections(event, rules):
        results = section.section
        columns = results.columns
        scale = section_scale(event, results, rules, valuations)
        entrants = directory.entrants(results)
        eligible = [e.eligible for e in entrants]
        took_part = results.rounds_played(points.played)
        if rules.eligibility.min_rounds_percent is not None:  # KW-6
            eligible = [
                ok and plays_enough(played, results.rounds, rules)
                for ok, played in zip(eligible, took_part, strict=True)
            ]
        if rules.eligibility.void_forfeits:  # KEN-6
            eligible = [ok and not f for ok, f in zip(eligible, forfeited(results), strict=True)]
        placed = section_spans(section, event, rules, points)
        extras = None
        if points.per_player:
            extras = _extras(section, event, rules, points, placed, took_part)
            # A figure a term reads and the file cannot give (a performance rating without a
            # game against a rated opponent): the result earns nothing (its problem is said).
            reads = [TERM_KINDS[term.kind].own is not None for term in points.terms]
            if any(reads):
                eligible = [
                    ok and not any(r and v is None for r, v in zip(reads, x.own, strict=True))
                    for ok, x in zip(eligible, extras, strict=True)
                ]
        overall: dict[int, tuple[int, int]] = {}  # each player's place among all, if moved
        skip = rules.eligibility.ineligible_players == "skip"
        outright = False
        if points.first_outright is not None:  # FC-2, among the players who keep a place
            scores = zip(columns.points, eligible, strict=True)
            outright = _alone_on_top([score for score, ok in scores if ok or not skip])
        if skip:
            kept = renumber(placed, eligible)
            if kept != placed:  # someone was skipped: an award moved up says its place among all
                overall = {i: (first, last) for first, last, members in placed for i in members}
            placed = kept
        weights = (event.weight, weight)
        by_score = points.by_score
        score_of = columns.points
        origin = Origin(
            event.index, event.name, event.date, section.name, scale.name, event.category
        )
        everyone = skip or all(eligible)  # the skipped are out of ``placed`` already
        known = valuations.spans(scale, weights, outright)
        rows: list[int] = []  # the players awarded, in the order of their awards
        firsts, lasts, values, moved = awards.first, awards.last, awards.valuation, awards.overall
        for first, last, members in placed:
            span = (first, last)
            if extras is None and not by_score:  # the usual section: one value a span
                if not everyone:
                    members = [i for i in members if eligible[i]]
                if not members:
                    continue  # keep-place: the places are taken, their points go to nobody
                n = len(members)
                same = known.get(span)
                if same is None:
                    same = known[span] = valuations.get(
                        scale, span, score_of[members[0]], weights, NO_EXTRAS, outright
                    )
                rows += members
                firsts += [first] * n
                lasts += [last] * n
                values += [same] * n
            else:
                n = 0
                value = None
                for i in members:
                    if not eligible[i]:
                        continue  # keep-place: the place is taken, its points go to nobody
                    if extras is not None:
                        value = valuations.get(
                            scale, span, score_of[i], weights, extras[i], outright
                        )
                    elif value is None or by_score:  # the same for the span unless by score
                        value = valuations.get(
                            scale, span, score_of[i], weights, NO_EXTRAS, outright
                        )
                    rows.append(i)
                    firsts.append(first)
                    lasts.append(last)
                    values.append(value)
                    n += 1
            if overall and n:  # the players of a span kept shared one span among all
                before = overall[members[0]]
                moved += [span_text(*before) if before != span else ""] * n
        if not overall:
            moved += [""] * len(rows)
        picked = [entrants[i] for i in rows]
        awards.origin += [origin] * len(rows)
        awards.player += map(_KEY, picked)
        awards.name += map(_NAME, picked)
        awards.score += map(score_of.__getitem__, rows)
    if len(set(awards.player[start:])) < len(awards) - start:
        awards.repeats = True  # two rows of the event found to be one person (names, aliases)
    return awards


_KEY, _NAME = itemgetter(0), itemgetter(1)  # an Entrant's key and name


def _alone_on_top(points: list[Fraction]) -> bool:
    """Nobody shares the best score (an outright winner, FC-2)."""
    scores = sorted(points, reverse=True)
    return len(scores) == 1 or (len(scores) > 1 and scores[0] > scores[1])


def _extras(
    section: SeasonSection,
    event: SeasonEvent,
    rules: RuleSet,
    points: PointsBase,
    placed: list[Span],
    took_part: Sequence[int],
) -> list[Extras]:
    """Each player's extras: places gained over the seed (the start rank) to their final place
    in the event, whether they played every round, their tie-break place (FIDE Circuit)."""
    columns = section.section.columns
    rounds = section.section.rounds
    final = {i: first for first, _, members in placed for i in members}
    order: dict[int, tuple[int, int]] = {}
    if points.ties == "split":
        order = {
            i: (f, last) for f, last, members in order_spans(section, event, rules) for i in members
        }
    seeds = _seeds(columns, points.gain.seed if points.gain is not None else "start")
    readers = [TERM_KINDS[term.kind].own for term in points.terms]
    own: list[tuple[Fraction | None, ...]] = [()] * len(took_part)
    if any(readers):  # each term's figures, row by row (None for a term that reads none)
        nothing = [None] * len(took_part)
        figures = [
            read(term, section.section) if read else nothing
            for term, read in zip(points.terms, readers, strict=True)
        ]
        own = list(zip(*figures, strict=True))
    out = []
    for i, played in enumerate(took_part):  # rounds of the kinds ``points.played`` lists
        out.append(
            Extras(
                max(0, seeds[i] - final[i]) if points.gain is not None else None,
                (bool(rounds) and played >= rounds) if points.completion else None,
                order.get(i),
                own[i],
            )
        )
    return out


def _seeds(columns: Columns, by: str) -> list[int]:
    """Each player's seed: their rank by start number (1 for the lowest), or by rating
    (KW-8: equal ratings share the best rank, unrated players share one rank below every rated
    player)."""
    if by == "rating":
        ratings = [rating or 0 for rating in columns.rating]
        return [1 + sum(other > mine for other in ratings) for mine in ratings]
    numbers = columns.start_no
    ranked = sorted(range(len(numbers)), key=numbers.__getitem__)
    seeds = [0] * len(numbers)
    for seed, i in enumerate(ranked, start=1):
        seeds[i] = seed
    return seeds
