"""The rules page: the season's rule set in plain words, as blocks of paragraphs and tables.

Everything on it is generated from the rule set, and from the season where the words need its
dates or its events: the points tables, the rates of events and sections, what counts towards
the season total, who scores, divisions and prizes, one result of the season worked through
with the engine's own numbers (``words.example``), and what each rule ID means. Every setting is
said in words: no key names, no values as the settings file spells them.

Each rule ID the page explains has an anchor (``words.common.rule_anchor``), so that other pages
can link a footnote to ``rules.html#rule-UT-5``; its meaning is the first sentence of its
definition in ``rules/rule-books.md`` (``grandprix.rules.books``).
"""

from __future__ import annotations

import re
from fractions import Fraction

from grandprix.conditions import attribute_label
from grandprix.language import _, decimal, ngettext
from grandprix.rules.books import definitions, meaning
from grandprix.rules.event_points import PointsBase
from grandprix.rules.schema import RuleSet
from grandprix.scores import show
from grandprix.season.model import Season, SeasonEvent, Tables
from grandprix.season.points import class_table, earning_sections
from grandprix.season.standings import counted_number, division_standings
from grandprix.site.parts import Block, Cell, Table
from grandprix.site.words.common import (
    SEASON_TIEBREAKS,
    any_of,
    capital,
    day,
    listing,
    number,
    ordinal,
    rule_anchor,
)
from grandprix.site.words.divisions import division_blocks, rating_blocks
from grandprix.site.words.example import example_blocks
from grandprix.site.words.points import (
    band_table_of,
    band_words,
    bonus_words,
    category_words,
    class_factor_table,
    factor_words,
    fund_ranges,
    limits_words,
    min_rounds_words,
    placement_words,
    point_groups,
    terms_in_words,
)
from grandprix.site.words.prizes import prize_blocks
from grandprix.site.words.ties import split_words, ties_in_words

# The page


def _plural_of(amount: Fraction) -> int:
    """The number that chooses the singular or the plural of an amount of points: itself when
    whole, else one that takes the plural (1.5 points)."""
    return int(amount) if amount.denominator == 1 else 2


def rules_intro(season: Season) -> str:
    return _(
        "How {season} turns results into points, standings and prizes. This page is made from "
        "the same rules that compute the standings, so the two always agree."
    ).format(season=season.name)


def rules_page(season: Season, tables: Tables | None = None) -> tuple[Block, ...]:
    """The rules page of the season: its rule set in words, one of its results worked
    through, and the rule IDs. ``tables``: the season's standings (``division_standings``),
    when already computed."""
    standings = division_standings(season) if tables is None else tables
    return (
        *points_blocks(season),
        *rate_blocks(season),
        *total_blocks(
            season, max((ln.events for _name, lines in standings for ln in lines), default=0)
        ),
        *eligibility_blocks(season.rules),
        *rating_blocks(season),
        *division_blocks(season),
        *prize_blocks(season),
        *example_blocks(season, standings),
        *rule_id_blocks(season.rules),
    )


def points_blocks(season: Season) -> list[Block]:
    """The points of an event (one table per class of event, or per kind of event when kinds
    have points of their own), what ties do, and what multiplies or adds to them."""
    rules = season.rules
    groups = point_groups(season.events, rules)
    shared = []
    least = rules.points.minimum
    if least:
        shared.append(
            ngettext(
                "Every player who takes part earns at least {points} point.",
                "Every player who takes part earns at least {points} points.",
                _plural_of(least),
            ).format(points=decimal(show(least)))
        )
    if any(len(e.sections) > 1 for e in season.events):
        shared.append(_sections_in_words(rules))
    if len(groups) == 1 and not groups[0][0]:
        _key, points, events = groups[0]
        intro, said = _points_of(season, points, events, _("Points in each event"), "points")
        return [intro, Block(paragraphs=tuple(said + shared))]
    parts = [
        (key, *_points_of(season, points, events, *_group_heading(key, events)))
        for key, points, events in groups
    ]
    common = [p for p in parts[0][2] if all(p in said for _k, _i, said in parts)]
    kinds = []
    for key, _points, events in groups:
        names = listing([e.name for e in events])
        if key:
            kind = _("{category} events ({events})").format(
                category=category_words(key), events=names
            )
        else:
            kind = _("other events ({events})").format(events=names)
        kinds.append(kind)
    top = Block(
        _("Points in each event"),
        "points",
        (
            _("Each kind of event gives points in its own way: {kinds}.").format(
                kinds=listing(kinds)
            ),
            *common,
            *shared,
        ),
    )
    blocks = [top]
    for _key, intro, said in parts:
        blocks.append(intro)
        rest = [p for p in said if p not in common]
        if rest:
            blocks.append(Block(paragraphs=tuple(rest)))
    return blocks


def _group_heading(key: str, events: list[SeasonEvent]) -> tuple[str, str]:
    if not key:
        return _("Points in other events"), "points-other"
    heading = _("Points in {category} events").format(category=category_words(key))
    return heading, "points-" + re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


def _points_of(
    season: Season,
    points: PointsBase,
    events: list[SeasonEvent],
    heading: str,
    anchor: str,
) -> tuple[Block, list[str]]:
    """The points of one kind of event: its table (or classes, or bands, or the score) as a
    block, and what ties, the field, multipliers and bonuses do, in sentences."""
    rules = season.rules
    factors = class_factor_table(points)
    if points.from_score:
        factor = decimal(show(points.score_factor))
        if factors is None:
            earns = (
                _("Each player earns their score in the event.")
                if points.score_factor == 1
                else _("Each player earns their score in the event, multiplied by {factor}.")
            )
            intro = Block(heading, anchor, (earns.format(factor=factor),))
        else:
            n = len(factors.rows)
            score = (
                ngettext(
                    "Each player earns their score in the event, multiplied by the multiplier of "
                    "the event's class, which goes by its total prize fund{cite}; there are {n} "
                    "class:",
                    "Each player earns their score in the event, multiplied by the multiplier of "
                    "the event's class, which goes by its total prize fund{cite}; there are {n} "
                    "classes:",
                    n,
                )
                if points.score_factor == 1
                else ngettext(
                    "Each player earns their score in the event, multiplied by {factor}, "
                    "multiplied by the multiplier of the event's class, which goes by its total "
                    "prize fund{cite}; there are {n} class:",
                    "Each player earns their score in the event, multiplied by {factor}, "
                    "multiplied by the multiplier of the event's class, which goes by its total "
                    "prize fund{cite}; there are {n} classes:",
                    n,
                )
            ).format(factor=factor, cite=rules.cite("NW-1"), n=number(n))
            intro = Block(heading, anchor, (score,), tables=(factors,))
    elif points.bands:
        share = _(
            "Each event gives points by the share of the field a player finishes in{cite}:"
        ).format(cite=rules.cite("KW-3"))
        intro = Block(heading, anchor, (share,), tables=(band_table_of(points, rules, events),))
    elif points.classes:
        ranges = fund_ranges(points)
        classes = [c for c, _fund in ranges]
        rows = [(_("Class {name}").format(name=c.name), fund) for c, fund in ranges]
        classes_said = (
            ngettext(
                "The points for each place depend on the event's class, which goes by its total "
                "prize fund. There are {n} class:",
                "The points for each place depend on the event's class, which goes by its total "
                "prize fund. There are {n} classes:",
                len(rows),
            ).format(n=number(len(rows))),
        )
        tables: tuple[Table, ...] = (
            Table(_("Classes of event"), (_("Class"), _("Total prize fund")), tuple(rows)),
            points_table(
                [
                    (_("Class {name}").format(name=c.name), list(class_table(c, points)))
                    for c in classes
                ],
                points,
            ),
        )
        tables += (factors,) if factors is not None else ()
        intro = Block(heading, anchor, classes_said, tables=tables)
    else:
        table = points_table([(_("Points"), list(points.table))], points)
        cite = ""
        if points.table and rules.points.categories and points is not rules.points:
            cite = rules.cite("KW-2")
        by_place = _("Each event gives points by place{cite}:").format(cite=cite)
        intro = Block(heading, anchor, (by_place,), tables=(table,))
    if points.terms:
        sentence = terms_in_words(points)
        if points.by_place:
            intro = Block(
                intro.heading, intro.anchor, (sentence, *intro.paragraphs), tables=intro.tables
            )
        else:
            intro = Block(heading, anchor, (sentence,))
    said = placement_words(points, rules, events)
    if points.by_place and not points.from_score:
        said += (
            split_words(points, rules) if points.ties == "split" else ties_in_words(rules, points)
        )
    said += band_words(points, rules, events)
    said += factor_words(points, rules, events)
    said += bonus_words(points, rules)
    return intro, said


def points_table(columns: list[tuple[str, list[Fraction]]], points: PointsBase) -> Table:
    """Place -> points, a column per table; a last row for the places below the tables when
    every player earns something."""
    least = points.minimum
    length = max(len(values) for _name, values in columns)
    rows: list[tuple[Cell, ...]] = []
    for place in range(1, length + 1):
        cells = [
            decimal(show(max(v[place - 1] if place <= len(v) else Fraction(0), least)))
            for _name, v in columns
        ]
        rows.append((ordinal(place), *cells))
    if least:
        below = _("{place} and below").format(place=ordinal(length + 1))
        rows.append((below, *[decimal(show(least))] * len(columns)))
    caption = (
        _("Points for each place, by class") if len(columns) > 1 else _("Points for each place")
    )
    head = (_("Place"), *(name for name, _values in columns))
    return Table(caption, head, tuple(rows), tuple(range(1, len(columns) + 1)))


def _sections_in_words(rules: RuleSet) -> str:
    if rules.sections.unweighted == "first":
        text = _(
            "When an event has several sections, only its first (top) section earns these "
            "points, unless its sections are given rates of their own."
        )
    else:
        text = _(
            "When an event has several sections, every section earns these points, at its "
            "own rate when it has one."
        )
    if any(d.section or d.cascade for d in rules.divisions):
        text += " " + _(
            "Some divisions also give their own points in other sections (see Divisions)."
        )
    return text


def rate_blocks(season: Season) -> list[Block]:
    """The events and sections whose points are multiplied, when the season has any."""
    rows: list[tuple[Cell, ...]] = []
    for event in season.events:
        if event.weight == 1 and all(s.weight is None for s in event.sections):
            continue
        name = _("{event} (to be played)").format(event=event.name) if event.planned else event.name
        rates = {id(s): rate for s, rate in earning_sections(event, season.rules)}
        for section in event.sections or [None]:
            part = section.name if section and len(event.sections) > 1 else _("the whole event")
            rate = rates.get(id(section), Fraction(1)) if section else Fraction(1)
            earns = section is None or id(section) in rates
            rows.append(
                (name, part, decimal(show(event.weight * rate)) if earns else _("no points"))
            )
    if not rows:
        return []
    said = (
        _(
            "Some events and sections count more or less than others: their points are "
            "multiplied by the rate below. Every other event counts its points as they are."
        ),
    )
    table = Table(
        _("Events and sections with their own rate"),
        (_("Event"), _("Section"), _("Points multiplied by")),
        tuple(rows),
        (2,),
    )
    return [Block(_("Events that count more or less"), "rates", said, tables=(table,))]


def total_blocks(season: Season, most: int = 0) -> list[Block]:
    """Which results count, the bonus, and the order of equal totals. ``most``: the most
    events any player has played so far (for the best n - 1, KC-2)."""
    rules = season.rules
    counting = rules.counting
    if counting.mode == "all" and counting.per_category:
        said = [
            _(
                "A player's season total is the sum of their points from their events, within "
                "limits for each kind of event."
            )
        ]
    elif counting.mode == "most-minus":
        said = [
            _(
                "Only a player's best results count: as many as the most events any player has "
                "played so far, less {drop}{cite}. So far the most is {most}, so the best {kept} "
                "count; the number grows when someone plays more events."
            ).format(
                drop=number(counting.drop),
                cite=rules.cite("KC-2"),
                most=most,
                kept=max(0, most - counting.drop),
            )
        ]
    elif counting.mode == "all":
        said = [
            _(
                "Every result counts: a player's season total is the sum of their points from "
                "every event."
            )
        ]
    elif counting.mode == "best":
        said = [
            _("Only a player's best result counts: any other results are dropped.")
            if counting.best == 1
            else ngettext(
                "Only a player's {n} best result counts: any other results are dropped.",
                "Only a player's {n} best results count: any other results are dropped.",
                counting.best,
            ).format(n=number(counting.best))
        ]
    else:
        events = season.calendar
        said = [
            ngettext(
                "Only a player's best results count: {percent}% of the {n} event on the "
                "season's calendar, rounded up, which makes {counted}. The number comes from the "
                "whole calendar, so it stays the same all season.",
                "Only a player's best results count: {percent}% of the {n} events on the "
                "season's calendar, rounded up, which makes {counted}. The number comes from the "
                "whole calendar, so it stays the same all season.",
                events,
            ).format(
                percent=decimal(show(counting.percent)),
                n=number(events),
                counted=counted_number(counting, events, 0),
            )
        ]
    if counting.per_category:
        said.append(limits_words(rules, season.events))
    said += [  # DWO-2: the number changed during the season
        _("From {date}, the {n} best results count.").format(date=day(c.date), n=c.best)
        for c in sorted(counting.changes, key=lambda c: c.date)
    ]
    said += [
        _("In the {division} division, the {n} best results count.").format(
            division=d.name, n=d.best
        )
        for d in rules.divisions
        if d.best is not None
    ]
    if any(d.award == "rerank" for d in rules.divisions):
        said.append(_("Each division keeps its own points and its own total."))
    if counting.total == "mean":  # KEN-3
        said.append(
            _("A player's season value is the mean of the results that count, not their sum.")
        )
    if counting.round == "half-up":
        said.append(_("The season value is rounded to a whole number, a half upwards."))
    if rules.standings.first_by_counted:  # KEN-4
        said.append(
            _(
                "Players with more results counted rank above all those with fewer, whatever "
                "their values; the season value orders the players with as many."
            )
        )
    if counting.bonus_per_event:
        said.append(
            _(
                "Every event a player takes part in adds {points} points to their total, whether "
                "its result counts or not."
            ).format(points=decimal(show(counting.bonus_per_event)))
        )
    if counting.min_events:
        said.append(
            ngettext(
                "The season is planned with at least {n} event.",
                "The season is planned with at least {n} events.",
                counting.min_events,
            ).format(n=number(counting.min_events))
        )
    chain = [_(SEASON_TIEBREAKS[name]) for name in rules.standings.tiebreaks]
    if chain:
        order = chain[0]
        for later in chain[1:]:
            order = _("{earlier}, then by {later}").format(earlier=order, later=later)
        said.append(
            _(
                "Players with equal totals are separated first by {tiebreaks}; players still "
                "level share a rank."
            ).format(tiebreaks=order)
        )
    else:
        said.append(_("Players with equal totals share a rank."))
    decimals = rules.standings.decimals
    said.append(
        _(
            "Points are kept exact and shown as whole numbers; a total adds the exact values, so "
            "it can differ slightly from the sum of the rounded figures."
        )
        if decimals == 0
        else ngettext(
            "Points are kept exact and shown rounded to {n} decimal; a total adds the exact "
            "values, so it can differ slightly from the sum of the rounded figures.",
            "Points are kept exact and shown rounded to {n} decimals; a total adds the exact "
            "values, so it can differ slightly from the sum of the rounded figures.",
            decimals,
        ).format(n=number(decimals))
    )
    return [Block(_("The season total"), "total", tuple(said))]


def eligibility_blocks(rules: RuleSet) -> list[Block]:
    """Who may score, and what happens to the places of those who may not."""
    heading, anchor = _("Who can score"), "who"
    wanted = rules.eligibility.require
    rounds = [*min_rounds_words(rules), *_result_rules(rules)]
    if not wanted:
        everyone = (
            _("Everyone who plays enough rounds can earn points.")
            if min_rounds_words(rules)
            else _("Everyone who plays can earn points.")
        )
        return [Block(heading, anchor, (everyone, *rounds))]
    rows = tuple((capital(attribute_label(name)), any_of(v)) for name, v in wanted.items())
    said = (
        ngettext(
            "To earn points, a player must meet {n} condition, as the season's list of players "
            "records them:",
            "To earn points, a player must meet {n} conditions, as the season's list of players "
            "records them:",
            len(rows),
        ).format(n=number(len(rows))),
    )
    if rules.eligibility.ineligible_players == "skip":
        after = _(
            "Players who do not meet them may still play, but they are left out when points are "
            "given, and the players below them move up a place."
        )
    else:
        after = _(
            "Players who do not meet them may still play, but they keep their place in the "
            "event, and nobody gets that place's points."
        )
    table = Table(_("Who can earn points"), (_("Condition"), _("Must be")), rows)
    return [Block(heading, anchor, said, tables=(table,)), Block(paragraphs=(after, *rounds))]


def _result_rules(rules: RuleSet) -> list[str]:
    """The players listed as never scoring (KEN-5), and the results voided by a forfeit
    (KEN-6), in words."""
    said = []
    excluded = rules.eligibility.exclude
    if excluded:
        said.append(
            capital(
                ngettext(
                    "{n} player named by the rules never earns points.",
                    "{n} players named by the rules never earn points.",
                    len(excluded),
                ).format(n=number(len(excluded)))
            )
        )
    if rules.eligibility.void_forfeits:
        said.append(
            _(
                "A result in which the player won or lost a game by forfeit earns nothing and "
                "is not counted as an event played."
            )
        )
    return said


# Rule IDs


def _book(rule_id: str) -> str:
    return rule_id.removeprefix("D-").split("-")[0]


def page_rule_ids(rules: RuleSet) -> list[str]:
    """The rule IDs the page explains: the rule set's ``cites`` and the project's decisions on
    the books it cites, in the order of the books; IDs that no book defines come last."""
    known = definitions()
    books = {_book(i) for i in rules.cites}
    wanted = set(rules.cites) | {i for i in known if i.startswith("D-") and _book(i) in books}
    unknown = [i for i in dict.fromkeys(rules.cites) if i not in known]
    return [i for i in known if i in wanted] + unknown


def rule_id_blocks(rules: RuleSet) -> list[Block]:
    """A block per rule ID, its heading the ID with its anchor, its paragraph the meaning."""
    ids = page_rule_ids(rules)
    if not ids:
        return []
    said = (
        _(
            "Other pages of this site name rules by short IDs such as {rule_id}; each is "
            "explained here in a line. They are labels for the rules of the rule book these rules "
            "follow; an ID starting with D- is a decision taken where the rule book is silent or "
            "unclear."
        ).format(rule_id=ids[0]),
    )
    return [Block(_("Rule IDs"), "rule-ids", said)] + [
        Block(i, rule_anchor(i), (_meaning_of(i),), level=3) for i in ids
    ]


def _meaning_of(rule_id: str) -> str:
    """A rule ID's meaning as the rule books say it, in the language spoken now."""
    said = meaning(rule_id)
    return _(said) if said else _("A rule of this rule set's own rule book.")
