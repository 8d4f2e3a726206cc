"""The rules page: the season's rule set in plain words, as blocks of paragraphs and tables.

Everything on it is generated from the rule set, and from the season where the words need its
dates or its events: the points tables, the rates of events and sections, what counts towards
the season total, who scores, divisions and prizes, one result of the season worked through
with the engine's own numbers (``rules_example``), and what each rule ID means. Every setting is
said in words: no key names, no values as the settings file spells them.

Each rule ID the page explains has an anchor (``rules_words.rule_anchor``), so that other pages
can link a footnote to ``rules.html#rule-UT-5``; its meaning is the first sentence of its
definition in ``rules/rule-books.md`` (``grandprix.rules.books``).
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction

from grandprix.numbers import show
from grandprix.rules.books import definitions, meaning
from grandprix.rules.event_points import PointsBase
from grandprix.rules.schema import Division, RuleSet
from grandprix.season.model import Season, SeasonEvent
from grandprix.season.points import class_table, earning_sections
from grandprix.season.report import Tables
from grandprix.season.standings import counted_number, division_standings
from grandprix.site.parts import Block, Cell, Table
from grandprix.site.rules_example import example_blocks
from grandprix.site.rules_points import (
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
    split_words,
    terms_in_words,
    ties_in_words,
)
from grandprix.site.rules_words import (
    SEASON_TIEBREAKS,
    any_of,
    attribute,
    band,
    capital,
    count,
    has,
    listing,
    number,
    on_day,
    ordinal,
    rating_list,
    rule_anchor,
    who,
)

# The page


def rules_intro(season: Season) -> str:
    return (
        f"How {season.name} turns results into points, standings and prizes. This page is made "
        "from the same rules that compute the standings, so the two always agree."
    )


def rules_page(season: Season, tables: Tables | None = None) -> tuple[Block, ...]:
    """The rules page of the season: its rule set in words, one of its results worked
    through, and the rule IDs. ``tables``: the season's standings (``division_standings``),
    when already computed."""
    standings = division_standings(season) if tables is None else tables
    return (
        *points_blocks(season),
        *rate_blocks(season),
        *total_blocks(
            season, max((ln.events for _, lines in standings for ln in lines), default=0)
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
    if rules.points.minimum:
        unit = "point" if rules.points.minimum == 1 else "points"
        shared.append(
            f"Every player who takes part earns at least {show(rules.points.minimum)} {unit}."
        )
    if any(len(e.sections) > 1 for e in season.events):
        shared.append(_sections_in_words(rules))
    if len(groups) == 1 and not groups[0][0]:
        _, points, events = groups[0]
        intro, said = _points_of(season, points, events, "Points in each event", "points")
        return [intro, Block(paragraphs=tuple(said + shared))]
    parts = [(key, *_points_of(season, points, events, *_group_heading(key, events)))
             for key, points, events in groups]  # fmt: skip
    common = [p for p in parts[0][2] if all(p in said for _, _, said in parts)]
    kinds = [
        f"{category_words(key) if key else 'other'} events ({listing([e.name for e in events])})"
        for key, _, events in groups
    ]
    top = Block(
        "Points in each event",
        "points",
        (f"Each kind of event gives points in its own way: {listing(kinds)}.", *common, *shared),
    )
    blocks = [top]
    for _, intro, said in parts:
        blocks.append(intro)
        rest = [p for p in said if p not in common]
        if rest:
            blocks.append(Block(paragraphs=tuple(rest)))
    return blocks


def _group_heading(key: str, events: list[SeasonEvent]) -> tuple[str, str]:
    if not key:
        return "Points in other events", "points-other"
    return f"Points in {category_words(key)} events", "points-" + re.sub(
        r"[^a-z0-9]+", "-", key.lower()
    ).strip("-")


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
        factor = "" if points.score_factor == 1 else f", multiplied by {show(points.score_factor)}"
        if factors is None:
            intro = Block(
                heading, anchor, (f"Each player earns their score in the event{factor}.",)
            )
        else:
            score = (
                f"Each player earns their score in the event{factor}, multiplied by the "
                f"multiplier of the event's class, which goes by its total prize fund"
                f"{rules.cite('NW-1')}; there are {count(len(factors.rows), 'class', 'classes')}:"
            )
            intro = Block(heading, anchor, (score,), tables=(factors,))
    elif points.bands:
        share = (
            "Each event gives points by the share of the field a player finishes in"
            f"{rules.cite('KW-3')}:"
        )
        intro = Block(heading, anchor, (share,), tables=(band_table_of(points, rules, events),))
    elif points.classes:
        ranges = fund_ranges(points)
        classes = [c for c, _ in ranges]
        rows = [(f"Class {c.name}", fund) for c, fund in ranges]
        classes_said = (
            "The points for each place depend on the event's class, which goes by its total "
            f"prize fund. There are {count(len(rows), 'class', 'classes')}:",
        )
        tables: tuple[Table, ...] = (
            Table("Classes of event", ("Class", "Total prize fund"), tuple(rows)),
            points_table(
                [(f"Class {c.name}", list(class_table(c, points))) for c in classes], points
            ),
        )
        tables += (factors,) if factors is not None else ()
        intro = Block(heading, anchor, classes_said, tables=tables)
    else:
        table = points_table([("Points", list(points.table))], points)
        by_place = "Each event gives points by place"
        if points.table and rules.points.categories and points is not rules.points:
            by_place += rules.cite("KW-2")
        intro = Block(heading, anchor, (f"{by_place}:",), tables=(table,))
    if points.terms:
        sentence = terms_in_words(points)
        if points.by_place:
            intro = Block(intro.heading, intro.anchor, (sentence, *intro.paragraphs),
                          tables=intro.tables)  # fmt: skip
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
    length = max(len(values) for _, values in columns)
    rows: list[tuple[Cell, ...]] = []
    for place in range(1, length + 1):
        cells = [
            show(max(v[place - 1] if place <= len(v) else Fraction(0), least)) for _, v in columns
        ]
        rows.append((ordinal(place), *cells))
    if least:
        rows.append((f"{ordinal(length + 1)} and below", *[show(least)] * len(columns)))
    caption = "Points for each place" + (", by class" if len(columns) > 1 else "")
    head = ("Place", *(name for name, _ in columns))
    return Table(caption, head, tuple(rows), tuple(range(1, len(columns) + 1)))


def _sections_in_words(rules: RuleSet) -> str:
    if rules.sections.unweighted == "first":
        text = (
            "When an event has several sections, only its first (top) section earns these "
            "points, unless its sections are given rates of their own."
        )
    else:
        text = (
            "When an event has several sections, every section earns these points, at its "
            "own rate when it has one."
        )
    if any(d.section or d.cascade for d in rules.divisions):
        text += " Some divisions also give their own points in other sections (see Divisions)."
    return text


def rate_blocks(season: Season) -> list[Block]:
    """The events and sections whose points are multiplied, when the season has any."""
    rows: list[tuple[Cell, ...]] = []
    for event in season.events:
        if event.weight == 1 and all(s.weight is None for s in event.sections):
            continue
        name = event.name + (" (to be played)" if event.planned else "")
        rates = {id(s): rate for s, rate in earning_sections(event, season.rules)}
        for section in event.sections or [None]:
            part = section.name if section and len(event.sections) > 1 else "the whole event"
            rate = rates.get(id(section), Fraction(1)) if section else Fraction(1)
            earns = section is None or id(section) in rates
            rows.append((name, part, show(event.weight * rate) if earns else "no points"))
    if not rows:
        return []
    said = (
        "Some events and sections count more or less than others: their points are "
        "multiplied by the rate below. Every other event counts its points as they are.",
    )
    table = Table(
        "Events and sections with their own rate",
        ("Event", "Section", "Points multiplied by"),
        tuple(rows),
        (2,),
    )
    return [Block("Events that count more or less", "rates", said, tables=(table,))]


def total_blocks(season: Season, most: int = 0) -> list[Block]:
    """Which results count, the bonus, and the order of equal totals. ``most``: the most
    events any player has played so far (for the best n - 1, KC-2)."""
    rules = season.rules
    counting = rules.counting
    if counting.mode == "all" and counting.per_category:
        said = [
            "A player's season total is the sum of their points from their events, within "
            "limits for each kind of event."
        ]
    elif counting.mode == "most-minus":
        kept = max(0, most - counting.drop)
        said = [
            "Only a player's best results count: as many as the most events any player has "
            f"played so far, less {number(counting.drop)}{rules.cite('KC-2')}. So far the most "
            f"is {most}, so the best {kept} count; the number grows when someone plays more "
            "events."
        ]
    elif counting.mode == "all":
        said = [
            "Every result counts: a player's season total is the sum of their points from "
            "every event."
        ]
    elif counting.mode == "best":
        best = (
            "best result counts"
            if counting.best == 1
            else f"{number(counting.best)} best results count"
        )
        said = [f"Only a player's {best}: any other results are dropped."]
    else:
        events = len(season.events)
        said = [
            f"Only a player's best results count: {show(counting.percent)}% of the "
            f"{count(events, 'event')} on the season's calendar, rounded up, which makes "
            f"{counted_number(counting, events, 0)}. The number comes from the whole calendar, "
            "so it stays the same all season."
        ]
    if counting.per_category:
        said.append(limits_words(rules, season.events))
    said += [
        f"In the {d.name} division, the {d.best} best results count."
        for d in rules.divisions
        if d.best is not None
    ]
    if any(d.award == "rerank" for d in rules.divisions):
        said.append("Each division keeps its own points and its own total.")
    if counting.bonus_per_event:
        said.append(
            f"Every event a player takes part in adds {show(counting.bonus_per_event)} points to "
            "their total, whether its result counts or not."
        )
    if counting.min_events:
        said.append(f"The season is planned with at least {count(counting.min_events, 'event')}.")
    chain = [SEASON_TIEBREAKS[name] for name in rules.standings.tiebreaks]
    if chain:
        said.append(
            f"Players with equal totals are separated first by {', then by '.join(chain)}; "
            "players still level share a rank."
        )
    else:
        said.append("Players with equal totals share a rank.")
    decimals = rules.standings.decimals
    shown = "as whole numbers" if decimals == 0 else f"rounded to {count(decimals, 'decimal')}"
    said.append(
        f"Points are kept exact and shown {shown}; a total adds the exact values, so it can "
        "differ slightly from the sum of the rounded figures."
    )
    return [Block("The season total", "total", tuple(said))]


def eligibility_blocks(rules: RuleSet) -> list[Block]:
    """Who may score, and what happens to the places of those who may not."""
    heading, anchor = "Who can score", "who"
    wanted = rules.eligibility.require
    rounds = min_rounds_words(rules)
    if not wanted:
        everyone = "Everyone who plays enough rounds" if rounds else "Everyone who plays"
        return [Block(heading, anchor, (f"{everyone} can earn points.", *rounds))]
    rows = tuple((capital(attribute(name)), any_of(v)) for name, v in wanted.items())
    said = (
        f"To earn points, a player must meet {count(len(rows), 'condition')}, as the season's "
        "list of players records them:",
    )
    if rules.eligibility.ineligible_players == "skip":
        others = (
            "they are left out when points are given, and the players below them move up a place."
        )
    else:
        others = "they keep their place in the event, and nobody gets that place's points."
    table = Table("Who can earn points", ("Condition", "Must be"), rows)
    after = f"Players who do not meet them may still play, but {others}"
    return [Block(heading, anchor, said, tables=(table,)), Block(paragraphs=(after, *rounds))]


def rating_blocks(season: Season) -> list[Block]:
    """Where ratings come from: the chain of lists, each on its date."""
    sources = season.rules.ratings.sources
    if not sources:
        return []
    first, *others = sources
    said = f"A player's rating is the one on the {rating_list(first.kind)} in force on "
    said += f"{on_day(first.on, season)}."
    for source in others:
        when = "that day" if source.on == first.on else on_day(source.on, season)
        said += (
            f" A player who is not on it takes their rating from the "
            f"{rating_list(source.kind)} in force on {when}."
        )
    return [Block("Ratings", "ratings", (said + " A player on no list is unrated.",))]


def _division_points(d: Division) -> str:
    if d.award == "filter":
        text = (
            "The overall standings: its players keep their totals and are ranked among themselves"
        )
    else:
        again = "the division's players are placed again from 1st down"
        if d.cascade:
            text = f"Each event's sections in order, the top section first; {again}"
        elif d.section:
            text = f"The {d.section} section in events that have one, else each event; {again}"
        else:
            text = f"Each event; {again}"
    return text + (f"; the {d.best} best results count" if d.best is not None else "")


def division_blocks(season: Season) -> list[Block]:
    """The divisions, who belongs to each, and the limits by where a rating comes from."""
    rules = season.rules
    if not rules.divisions:
        return []
    barred = {d.name for d in rules.divisions for r in rules.restrictions if d.name not in r.only}
    rows = tuple(
        (d.name, capital(who(d, season)) + (", but for the limits by rating list below"
                                           if d.name in barred else ""), _division_points(d))
        for d in rules.divisions
    )  # fmt: skip
    said = (f"The season has {count(len(rows), 'division')}, each with its own standings:",)
    table = Table("Divisions", ("Division", "Who belongs", "Where its points come from"), rows)
    blocks = [Block("Divisions", "divisions", said, tables=(table,))]
    after = []
    if any(d.award == "rerank" for d in rules.divisions):
        after.append("A player can be in several divisions at once and earns points in each.")
    limits = []
    for r in rules.restrictions:
        origin = (
            "Unrated players"
            if r.source == "unrated"
            else f"Players whose rating comes from the {rating_list(r.source)}"
        )
        rated = band(r.rating_at_least, r.rating_below)
        limits.append((f"{origin}, {rated}" if rated else origin, listing(r.only)))
    tables: tuple[Table, ...] = ()
    if limits:
        after.append("Where a player's rating comes from limits their divisions:")
        tables = (Table("Limits by rating list", ("Players", "Can only be in"), tuple(limits)),)
    if after:
        blocks.append(Block(paragraphs=tuple(after), tables=tables))
    return blocks


def prize_rows(season: Season) -> tuple[tuple[Cell, ...], ...]:
    """One row per prize: its name, its standings, its place among the prizes of its kind, who
    can win it, and its amount or title."""
    places: Counter[tuple[str, str]] = Counter()
    rows = []
    for p in season.rules.prizes.prize:
        whom = who(p, season)
        if p.each:
            place = f"best of each {attribute(p.each)} without another prize"
        else:
            places[p.ranking, whom] += 1
            place = ordinal(places[p.ranking, whom])
        notes = [] if whom == "everyone" else [capital(whom)]
        if p.min_players:
            notes.append(f"paid only if at least {p.min_players} such players take part")
        if p.based_on:
            notes.append(f"smaller in proportion with fewer than {p.based_on} such players")
        value = (
            f"{season.rules.prizes.currency}{show(p.amount, 2)}"
            if p.amount is not None
            else f"the title {p.title}"
        )
        whole = "; ".join(notes) or "Anyone in these standings"
        rows.append((p.name, p.ranking or "Overall", place, whole, value))
    return tuple(rows)


def prize_blocks(season: Season) -> list[Block]:
    prizes = season.rules.prizes
    if not prizes.prize:
        return [Block("Prizes", "prizes", ("These rules give no season prizes.",))]
    rows = prize_rows(season)
    money = all(p.amount is not None for p in prizes.prize)
    head = ["Prize", "Standings", "Place", "Who can win it", "Amount" if money else "Prize given"]
    if all(row[3] == "Anyone in these standings" for row in rows):
        rows = tuple(row[:3] + row[4:] for row in rows)
        del head[3]
    table = Table("Season prizes", tuple(head), rows, (len(head) - 1,) if money else ())
    said = (f"The season has {count(len(rows), 'prize')}, given on the final standings:",)
    after = [
        "Each prize goes down its standings: the 1st prize of a kind to the best player there, "
        "the 2nd to the next, and so on.",
        "Nobody wins more than one prize: a player who could win several gets the most "
        "valuable, and the others go to the next players.",
    ]
    if any(p.title for p in prizes.prize):
        after.append(
            "A title is given apart from the money: winning one does not stop a player "
            "from winning money."
        )
    after.append(
        {
            "pool": "Players who tie in the standings put together the prizes of the places they "
            "share and divide them equally.",
            "hort": "Players who tie in the standings get half of each prize in the order of the "
            "season's tie-breaks and share the other half equally.",
            "tiebreak": "Prizes are not split between players who tie: the order of the standings "
            "decides.",
        }[prizes.ties]
    )
    if prizes.played_last_event:
        after.append("Only players who play the season's last event can win a prize.")
    if prizes.require:
        wanted = listing([has(name, v) for name, v in prizes.require.items()])
        after.append(f"A prize winner must also be {wanted}.")
    if prizes.based_on:
        after.append(
            f"The amounts assume {prizes.based_on} players; with fewer, every prize is paid in "
            "proportion, but never below half when the prizes add up to more than 500."
        )
    return [Block("Prizes", "prizes", said, tables=(table,)), Block(paragraphs=tuple(after))]


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
        f"Other pages of this site name rules by short IDs such as {ids[0]}; each is explained "
        "here in a line. They are labels for the rules of the rule book these rules follow; "
        "an ID starting with D- is a decision taken where the rule book is silent or unclear.",
    )
    return [Block("Rule IDs", "rule-ids", said)] + [
        Block(
            i, rule_anchor(i), (meaning(i) or "A rule of this rule set's own rule book.",), level=3
        )
        for i in ids
    ]
