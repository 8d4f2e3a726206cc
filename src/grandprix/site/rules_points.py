"""The points of real series in words, for the rules page: kinds of event with points of their
own, percentile bands, 1st place alone, the share of the field and the places that earn, the
FIDE Circuit tie split, what players on equal scores get, an event's points as a sum of terms,
multipliers (rating factor, prize-fund classes) and bonuses (places gained over the seed, every
round played, what counts as played), with the season's own events as examples.

Each function returns nothing for a rule set that does not use its feature, so the pages of
seasons without them are unchanged (KW-2 to KW-8, FC-1 to FC-4, NW-1 to NW-3).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from grandprix.model import TOOK_PART
from grandprix.numbers import show
from grandprix.rules.event_points import PointsBase, TournamentClass, most_specific
from grandprix.rules.schema import RuleSet
from grandprix.season.model import SeasonEvent, SeasonSection
from grandprix.season.place_values import base_points, split_points
from grandprix.season.points import (
    class_table,
    counted_fund,
    earning_sections,
    paid_places,
    rating_factor,
    tournament_class,
)
from grandprix.site.parts import Cell, Table
from grandprix.site.rules_words import (
    listing,
    ordinal,
    share,
    tiebreak_meaning,
    tiebreak_name,
    tiebreak_names,
)

Group = tuple[str, PointsBase, list[SeasonEvent]]


def point_groups(events: Sequence[SeasonEvent], rules: RuleSet) -> list[Group]:
    """The kinds of event that have points of their own: ('', the rule set's points, its
    events) first when some event uses them, then each category of ``categories`` the season's
    events fall under, in the order of the calendar."""
    points = rules.points
    found: dict[str, list[SeasonEvent]] = {}
    for event in events:
        found.setdefault(most_specific(event.category, points.categories) or "", []).append(event)
    if not found:
        found[""] = []
    keys = sorted(found, key=lambda k: k != "")
    return [(k, points.for_category(k) if k else points, found[k]) for k in keys]


def category_words(category: str) -> str:
    """An event category in words: 'classical/group-a' -> 'classical group a'."""
    return " ".join(category.split("/")).replace("-", " ")


def example_section(events: Sequence[SeasonEvent], rules: RuleSet) -> tuple[str, SeasonSection]:
    """The first played event's first earning section (its name with the section's), if any."""
    for event in events:
        if event.planned:
            continue
        for section, _ in earning_sections(event, rules):
            if section.section.players:
                name = event.name
                if len(event.sections) > 1:
                    name = f"{event.name}, {section.name} section"
                return name, section
    raise LookupError("no played event")


def _example(events: Sequence[SeasonEvent], rules: RuleSet) -> tuple[str, int] | None:
    """(name, players) of the section the examples come from."""
    try:
        name, section = example_section(events, rules)
    except LookupError:
        return None
    return name, len(section.section.players)


def band_words(points: PointsBase, rules: RuleSet, events: Sequence[SeasonEvent]) -> list[str]:
    """KW-3: how a band's cutoff is found, with a real event of the season."""
    if not points.bands:
        return []
    said = (
        "A band of the top p% reaches down to the place p% of the number of players, rounded "
        "up; every place earns the points of the first band it falls in"
    )
    if points.bands[-1].percent < 100:
        said += ", and places below every band earn nothing"
    said += f"{rules.cite('KW-3')}. Everyone the results list counts, those who withdrew "
    said += f"included{rules.cite('D-KW-2')}."
    found = _example(events, rules)
    if found is not None:
        name, size = found
        band = next((b for b in points.bands if math.ceil(b.percent * size / 100) >= 3), None)
        if band is not None:
            cut = math.ceil(band.percent * size / 100)
            exact = Fraction(band.percent * size, 100)
            places = (
                f"exactly {cut} places"
                if exact == cut
                else f"{show(exact, 2)} places, rounded up to {cut}"
            )
            said += (
                f" For example, {name} had {size} players: the top {show(band.percent)}% is "
                f"{places}, so its band reaches down to {ordinal(cut)} place."
            )
    return [said]


def band_table_of(points: PointsBase, rules: RuleSet, events: Sequence[SeasonEvent]) -> Table:
    """Share of the field -> points, with the places of each band in a real event."""
    found = _example(events, rules)
    head = ["Finishing in the top", "Points"]
    rows: list[tuple[Cell, ...]] = []
    before = 0
    for band in points.bands:
        row: list[Cell] = [f"{show(band.percent)}% of the field", show(band.points)]
        if found is not None:
            cut = max(before, math.ceil(band.percent * found[1] / 100))
            row.append(
                "none" if cut == before else _places(before + 1, cut)
            )  # a band another band already covers
            before = cut
        rows.append(tuple(row))
    if found is not None:
        head.append(f"Places in {found[0]} ({found[1]} players)")
    return Table("Points by share of the field", tuple(head), tuple(rows), (1,))


def _places(first: int, last: int) -> str:
    return ordinal(first) if first == last else f"{ordinal(first)} to {ordinal(last)}"


def placement_words(points: PointsBase, rules: RuleSet, events: Sequence[SeasonEvent]) -> list[str]:
    """FC-2 1st place alone, FC-3 the share of the field and the places that earn."""
    said = []
    if points.first_outright is not None and points.table:
        said.append(
            f"A player who finishes 1st alone, with nobody else on the winner's score, earns "
            f"{show(points.first_outright)} instead of {show(points.table[0])}"
            f"{rules.cite('FC-2')}."
        )
    found = _example(events, rules)
    limits = []
    if points.top_percent is not None and points.top_percent < 100:
        half = share(points.top_percent)
        limits.append(
            f"Only the top {half} of the field earns these points: {half} of the number of "
            "players, rounded down"
        )
    if points.paid_places:
        steps = sorted(points.paid_places, key=lambda p: p.min_players)
        parts = []
        for step, after in zip(steps, [*steps[1:], None], strict=True):
            if step.min_players == 0 and after is not None:
                whom = f"with fewer than {after.min_players} players"
            elif step.min_players == 0:
                whom = "whatever the number of players"
            else:
                whom = f"from {step.min_players} players"
            parts.append(f"the top {step.places} {whom}")
        limits.append(f"The places that earn points depend on the size of the field: "
                      f"{listing(parts)}")  # fmt: skip
    if limits:
        text = "; ".join(limits)
        if found is not None:
            limit = paid_places(points, found[1])
            if limit is not None:
                earn = min(limit, len(points.table)) if points.table else limit
                text += f" (in {found[0]}, with {found[1]} players: the top {earn})"
        said.append(f"{text}{rules.cite('FC-3')}.")
    return said


def split_words(points: PointsBase, rules: RuleSet) -> list[str]:
    """FC-4: half the points of the place on tie-break plus half the average of the tie."""
    table = list(points.table)
    length = len(table)
    said = [
        "Players who finish on the same score each get half the points of the place the "
        "event's tie-breaks give them plus half the average of the points of the places they "
        f"share{rules.cite('FC-4')}."
    ]
    if length >= 2:
        mean = (table[0] + table[1]) / 2
        upper, _, _ = split_points((1, 1), (1, 2), table, points)
        lower, _, _ = split_points((2, 2), (1, 2), table, points)
        said[0] += (
            f" For example, of two players tied for 1st and 2nd, the one 1st on tie-break gets "
            f"half of {show(table[0])} plus half of {show(mean)} (the average of "
            f"{show(table[0])} and {show(table[1])}), which is {show(upper)}; the other gets "
            f"half of {show(table[1])} plus half of {show(mean)}, which is {show(lower)}."
        )
    if length:
        said.append(f"Places after {ordinal(length)} earn nothing.")
    return said


def factor_words(points: PointsBase, rules: RuleSet, events: Sequence[SeasonEvent]) -> list[str]:
    """FC-1 the rating factor, NW-1 the class multiplier, NW-2 based-on funds."""
    said = []
    factor = points.rating_factor
    if factor is not None:
        text = (
            "The points of every place are multiplied by the event's rating factor: the average "
            f"rating of its {factor.top} highest-rated players at the start, less {factor.base}, "
            f"divided by {factor.per}; an average of {factor.base} or less gives 0"
            f"{rules.cite('FC-1', 'D-FC-1')}."
        )
        try:
            name, section = example_section(events, rules)
        except LookupError:
            pass
        else:
            found = rating_factor(section.section, points)
            ratings = sorted((p.rating for p in section.section.players if p.rating),
                             reverse=True)[: factor.top]  # fmt: skip
            if found is not None and ratings:
                mean = show(Fraction(sum(ratings), len(ratings)))
                text += (
                    f" In {name}, the {len(ratings)} highest ratings average {mean}, so the "
                    f"factor is ({mean} - {factor.base}) / {factor.per}, which is "
                    f"{show(found[0])}."
                )
        said.append(text)
    multiplied = [c for c in points.classes if c.factor != 1]
    if multiplied and points.based_on_percent != 100:
        counted = share(points.based_on_percent)
        text = (
            "A prize fund that depends on the number of entries, rather than being guaranteed, "
            f"counts at {counted} of its amount when the event's class is chosen"
            f"{rules.cite('NW-2', 'D-NW-1')}."
        )
        based = next((e for e in events if e.based_on and e.prize_fund is not None), None)
        if based is not None and based.prize_fund is not None:
            chosen = tournament_class(based, points)
            assert chosen is not None
            text += (
                f" For example, {based.name} advertised {show(based.prize_fund)}, which counts as "
                f"{show(counted_fund(based, points))}: class {chosen.name}."
            )
        said.append(text)
    return said


def fund_ranges(points: PointsBase) -> list[tuple[TournamentClass, str]]:
    """Each tournament class, lowest first, with its range of prize funds in words (ACF-6,
    NW-1): 'under 500', '500 to under 1000', '20000 or more'."""
    classes = sorted(points.classes, key=lambda c: c.min_prize_fund)
    out = []
    for low, high in zip(classes, [*classes[1:], None], strict=True):
        fund = f"{show(low.min_prize_fund)} or more"
        if high is not None:
            below = f"under {show(high.min_prize_fund)}"
            fund = below if low.min_prize_fund == 0 else f"{show(low.min_prize_fund)} to {below}"
        out.append((low, fund))
    return out


def gain_caps(points: PointsBase) -> list[str]:
    """KW-4: the limits of the places-gained bonus in words."""
    gain = points.gain
    caps: list[str] = []
    if gain is None:
        return caps
    if gain.cap is not None:
        caps.append(f"at most {show(gain.cap)}")
    if gain.cap_percent is not None:
        part = share(gain.cap_percent)
        down = ", rounded down" if gain.round_down else ""
        caps.append(f"at most {part} of the points of their place{down}")
    return caps


def class_factor_table(points: PointsBase) -> Table | None:
    """NW-1: each class by prize fund and its multiplier, when a class multiplies."""
    if not any(c.factor != 1 for c in points.classes):
        return None
    rows = [(f"Class {c.name}", fund, show(c.factor)) for c, fund in fund_ranges(points)]
    return Table(
        "Classes of event and their multipliers",
        ("Class", "Total prize fund", "Points multiplied by"),
        tuple(rows),
        (2,),
    )


def bonus_words(points: PointsBase, rules: RuleSet) -> list[str]:
    """KW-4 and KW-8 places gained over the seed, KW-5 (NW-3) every round played."""
    said = []
    gain = points.gain
    if gain is not None:
        caps = gain_caps(points)
        capped = f", {listing(caps, 'and')}" if caps else ""
        unit = "point" if gain.per_place == 1 else "points"
        if gain.seed == "rating":
            seed = (
                "The seed is the player's rank by rating in the section: players with equal "
                "ratings share the better rank, and unrated players share one rank below every "
                f"rated player{rules.cite('KW-8')}."
            )
        else:
            seed = "The seed is the player's start number."
        said.append(
            f"A player who finishes above their seed earns {show(gain.per_place)} more {unit} "
            f"for each place gained{capped}{rules.cite('KW-4')}. {seed}"
        )
    if points.completion:
        unit = "point" if points.completion == 1 else "points"
        said.append(
            f"A player who plays every round earns {show(points.completion)} more {unit}: "
            f"{played_words(points)}{rules.cite('KW-5', 'NW-3', *_decided(points))}."
        )
    if said and (points.rating_factor is not None or any(c.factor != 1 for c in points.classes)):
        said.append("These extra points are added after the points are multiplied.")
    return said


def min_rounds_words(rules: RuleSet) -> list[str]:
    """KW-6: points only after playing a share of the rounds."""
    needed = rules.eligibility.min_rounds_percent
    if needed is None:
        return []
    part = share(needed)
    if rules.eligibility.ineligible_players == "skip":
        others = "they are left out when points are given, and the players below them move up"
    else:
        others = "they keep their place in the event, and nobody gets that place's points"
    return [
        f"A player earns points in an event only after playing at least {part} of its rounds: "
        f"{played_words(rules.points)}{rules.cite('KW-6', *_decided(rules.points))}. Players "
        f"who play fewer rounds may still play, but {others}."
    ]


PLAYED_WORDS = {
    "game": "a game",
    "forfeit-win": "a win by forfeit",
    "pairing-bye": "a bye given by the pairing",
    "forfeit-loss": "a forfeit lost",
    "full-bye": "a full-point bye asked for",
    "half-bye": "a half-point bye asked for",
    "zero-bye": "a zero-point bye asked for",
    "unpaired": "a round not paired",
}


def played_words(points: PointsBase) -> str:
    """What counts as a played round (``points.played``), and what does not, in words."""
    counted = [words for kind, words in PLAYED_WORDS.items() if kind in points.played]
    apart = [
        PLAYED_WORDS[kind] for kind in ("forfeit-loss", "unpaired") if kind not in points.played
    ]
    said = f"{_or(counted)} counts as played"
    return f"{said}; {_or(apart)} does not" if apart else said


def _decided(points: PointsBase) -> tuple[str, ...]:
    """D-KW-3 (what counts as played) where the rule set keeps the default."""
    return ("D-KW-3",) if tuple(points.played) == TOOK_PART else ()


def _or(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} or {items[-1]}"


def limits_words(rules: RuleSet, events: Sequence[SeasonEvent]) -> str:
    """KW-7, FC-5: at most so many results of each category."""
    caps = rules.counting.per_category
    parts = []
    for key, most in caps.items():
        results = "result" if most == 1 else "results"
        inner = sorted({category_words(e.category) for e in events
                        if e.category.startswith(key + "/")})  # fmt: skip
        within = f" (of every kind: {listing(inner)})" if inner else ""
        parts.append(f"{most} {results} of {category_words(key)} events{within}")
    return (
        f"At most {listing(parts)} count; when a player has more, the best within these limits "
        f"count{rules.cite('KW-7', 'FC-5')}."
    )


def terms_in_words(points: PointsBase) -> str:
    """An event's points as the sum ``points.terms`` says, in one sentence."""
    said = []
    for term in points.terms:
        factor = "" if term.factor == 1 else f"{show(term.factor)} x "
        what = {
            "place": "the points of the player's place (below)",
            "score": f"{factor}the player's score in the event",
            "from-bottom": f"{factor}their place counted from the bottom of the field (the "
            "last player 1, the one above 2, and so on)",
            "fixed": f"{show(term.amount)} for taking part",
        }[term.kind]
        if term.name and term.kind != "fixed":
            what += f" ({term.name})"
        said.append(what + ("" if term.weighted else ", added after the event's multipliers"))
    return "Each player's points in an event add up " + listing(said) + "."


def _tiebreak_meanings(codes: str) -> list[str]:
    """Each tie-break of ``codes`` with what it measures: 'Buchholz: the sum of ...'."""
    out = []
    for code in filter(None, (c.strip() for c in codes.split(","))):
        meaning = tiebreak_meaning(code)
        if meaning:
            out.append(f"{tiebreak_name(code)}: {meaning[0].lower()}{meaning[1:]}")
    return out


def ties_in_words(rules: RuleSet, points: PointsBase | None = None) -> list[str]:
    """What players on equal scores get, with an example computed by the engine, and what the
    places below the table get."""
    points = rules.points if points is None else points
    tables = [list(class_table(c, points)) for c in points.classes] or [list(points.table)]
    lengths = {len(t) for t in tables}
    last = ordinal(lengths.pop()) if len(lengths) == 1 else "the last place with points"
    if points.ties == "tiebreak":
        how = ""
        if points.tiebreaks:
            how = f" ({tiebreak_names(points.tiebreaks, points.tiebreak_rules)})"
        return [
            "Places are not shared: players on the same score are placed in the order of the "
            f"event's results, which its tie-breaks decide{how}. Only players whom every "
            "tie-break leaves level share the points of their places.",
            *_tiebreak_meanings(points.tiebreaks),
        ]
    if points.ties == "best":
        how = ""
        if points.tiebreaks:
            how = f" ({tiebreak_names(points.tiebreaks, points.tiebreak_rules)})"
        return [
            "Players on the same score are placed in the order of the event's results, which its "
            f"tie-breaks decide{how}; players given the same place there (the results repeat the "
            "place, or every tie-break leaves them level) each get the points of the best place "
            "they share.",
            *_tiebreak_meanings(points.tiebreaks),
        ]
    if points.ties == "full":
        said = [
            "Players who finish on the same score each get the points of the best place they share."
        ]
    else:
        example = ""
        if len(tables[0]) >= 2:
            value, values, _ = base_points(1, 2, Fraction(0), tables[0], rules, points)
            example = (
                " For example, two players tied for 1st and 2nd each get the average of "
                f"{listing([show(v) for v in values])}, which is {show(value)}."
            )
        said = [
            "Players who finish on the same score share the places they cover: each gets the "
            f"average of the points of those places.{example}"
        ]
    if points.bands:
        return said
    if points.overflow is not None:
        said.append(
            f"When a tie includes {last} place and goes further down, each place after {last} "
            f"counts as {show(points.overflow)} in that average; players tied only below {last} "
            "earn nothing."
        )
    elif not points.minimum:
        zero = " and count as 0 in the average of a tie" if points.ties == "share" else ""
        said.append(f"Places after {last} earn nothing{zero}.")
    return said
