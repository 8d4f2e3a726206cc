"""Points in plain words, for readers of the site: the sentence under each result of a player,
how a season total is formed, and why an event page shows no points for a player.

A sentence is a tuple of text and links; a rule ID is a footnote link to its meaning on the rules
page (``rules.html#rule-UT-4``), and only the IDs the rule set cites are linked.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from grandprix.numbers import show
from grandprix.rules.books import is_rule_id
from grandprix.rules.schema import Counting, RuleSet
from grandprix.season.model import Award, Line
from grandprix.season.race import ANY_PLACE, CLINCHED, OUT_OF_REACH, REACHABLE, Need, Outlook
from grandprix.site.parts import Cell, Link
from grandprix.site.rules_words import capital, listing, ordinal, place_span, rule_href

Sentence = tuple[Cell, ...]


def places(first: int, last: int) -> str:
    """'3rd' or '2nd-6th'."""
    return ordinal(first) if first == last else f"{ordinal(first)}-{ordinal(last)}"


def footnote(rules: RuleSet, rule: str, root: str) -> tuple[Cell, ...]:
    """A link to the meaning of ``rule`` when the rule set cites it; nothing otherwise. The
    sentence keeps it out of its words: ``ids_at_end`` moves it to the sentence's end."""
    if rule not in rules.cites:
        return ()
    return (" ", Link(rule, root + rule_href(rule)))


def ids_at_end(cells: Sequence[Cell]) -> Sentence:
    """The sentence's words without its rule IDs, then the IDs, once each, in brackets at its
    end ('... = 10.20. (UT-4, UT-6)'): a reader reads the sentence, the IDs are references."""
    words: list[Cell] = []
    ids: list[Link] = []
    for cell in cells:
        if isinstance(cell, Link) and is_rule_id(cell.text):
            if words and words[-1] == " ":
                words.pop()  # the space before the footnote
            if cell.text not in {link.text for link in ids}:
                ids.append(cell)
        else:
            words.append(cell)
    if not ids:
        return tuple(words)
    out: list[Cell] = [*words, " ("]
    for n, link in enumerate(ids):
        out += [", "] if n else []
        out.append(link)
    return (*out, ")")


def result_sentence(
    award: Award, rules: RuleSet, decimals: int, root: str, division: str = ""
) -> Sentence:
    """How one result earned its points, e.g. 'Tied 2nd-6th with 4 others, so the average of
    15, 12, 10, 8 and 6 = 10.20.' (UT-3, UT-4, UT-5, LUP-1, LUP-2, ACF-13). ``division``: the
    division whose own places the award's are ('3rd place in Under 2000'), else ''."""
    points = rules.points.for_category(award.category)
    out: list[Cell] = []
    others = award.last - award.first
    among = f" in {division}" if division else ""
    if others:
        mates = "other" if others == 1 else "others"
        out.append(f"Tied {places(award.first, award.last)}{among} with {others} {mates}")
    else:
        out.append(f"{ordinal(award.first)} place{among}")
    if award.overall:
        out.append(
            f" among the Grand Prix players ({place_span(award.overall)} in the event: players "
            "who are not eligible are skipped"
        )
        out.extend(footnote(rules, "D-UT-1", root))
        out.append(")")
    values = [show(v) for v in award.values]
    terms = award.valuation.terms
    if terms:  # a sum of terms: '5 for the score + 8 for place 4 = 13'
        worked = sum((value for _, value in terms), Fraction(0))
        out.append(": " + " + ".join(f"{show(v, decimals)} for {words}" for words, v in terms))
        if len(terms) > 1:
            out.append(f" = {show(worked, decimals)}")
        if len(values) > 1 and points.ties in ("full", "best"):
            out.append(f" (tied players all take the points of {ordinal(award.first)})")
        elif len(values) > 1 and any(award.values) and points.ties != "split":
            out.append(f" (the place's points are the average of {listing(values)})")
            out.extend(footnote(rules, "UT-4", root))
    elif points.from_score:
        worked = award.score * points.score_factor
        if award.valuation.factors and points.score_factor == 1:
            out.append(f": a score of {show(award.score)}")  # its multiplier follows
        else:
            out.append(
                f": a score of {show(award.score)} x {show(points.score_factor)} = {show(worked)}"
            )
    elif len(values) > 1 and points.ties in ("full", "best"):
        worked = award.values[0]
        out.append(f": tied players all take the points of {ordinal(award.first)}, {values[0]}")
    elif len(values) > 1 and not any(award.values):
        worked = Fraction(0)
        out.append(": these places score no points")
    elif len(values) > 1 and points.ties == "split":
        worked = award.base
        out.extend(_split(award, decimals))
        out.extend(footnote(rules, "FC-4", root))
    elif len(values) > 1:
        worked = sum(award.values, Fraction(0)) / len(values)
        out.append(f", so the average of {listing(values)} = {show(worked, decimals)}")
        out.extend(footnote(rules, "UT-4", root))
    else:
        worked = award.values[0] if award.values else Fraction(0)
        alone = points.first_outright is not None and award.first == 1 and bool(values)
        if alone and points.table and worked == points.first_outright != points.table[0]:
            out.append(f" alone, worth {values[0]} instead of {show(points.table[0])}")
            out.extend(footnote(rules, "FC-2", root))
        else:
            out.append(f", worth {values[0]}" if values and worked else ", which scores no points")
        if points.bands and worked:
            out.extend(footnote(rules, "KW-3", root))
        elif worked and award.category and points is not rules.points and points.table:
            out.extend(footnote(rules, "KW-2", root))  # a kind of event's own table
    if award.table_name:
        out.append(f" in the table of class {award.table_name} tournaments")
        out.extend(footnote(rules, "ACF-13", root))
    if award.base != worked:
        out.append(f", raised to the minimum of {show(award.base, decimals)} for taking part")
        out.extend(footnote(rules, "LUP-1", root))
    if award.event_weight != 1:  # UT-6: an event's multiplier
        out.append(f" x {show(award.event_weight)} for this event")
        out.extend(footnote(rules, "UT-6", root))
    if award.section_weight != 1:  # UT-7: a section's rate
        out.append(f" x {show(award.section_weight)} for this section")
        out.extend(footnote(rules, "UT-7", root))
    factors, bonuses = award.valuation.factors, award.valuation.bonuses
    for reason, value in factors:  # FC-1 rating factor, NW-1 class of the prize fund
        out.append(f" x {show(value)} for {reason}")
        rules_ = ("NW-1", "NW-2") if "based-on" in reason else ("NW-1",)
        for rule in rules_ if "prize fund" in reason else ("FC-1",):
            out.extend(footnote(rules, rule, root))
    multiplied = award.event_weight != 1 or award.section_weight != 1 or bool(factors)
    if multiplied and bonuses:
        out.append(f" = {show(award.points - award.extra, decimals)}")
    for reason, value in bonuses:  # KW-4 places above the seed, KW-5 (NW-3) every round
        out.append(f" + {show(value, decimals)} for {reason}")
        cited = {"playing every round": ("KW-5", "NW-3")}.get(reason, ())  # a term: no rule
        for rule in ("KW-4",) if "above the seed" in reason else cited:
            out.extend(footnote(rules, rule, root))
    if multiplied or bonuses:
        out.append(f" = {show(award.points, decimals)}")
    out.append(".")
    return ids_at_end(out)


def _split(award: Award, decimals: int) -> list[Cell]:
    """FC-4 in words: half the points of the place on tie-break plus half the tie's average."""
    mean = sum(award.values, Fraction(0)) / len(award.values)
    own = 2 * award.base - mean
    spots = [award.first + i for i, v in enumerate(award.values) if v == own]
    place = f"{ordinal(spots[0])} place" if len(spots) == 1 else "the place"
    return [
        f": half of {show(own)} ({place} on tie-break) plus half of {show(mean)} (the average "
        f"of {listing([show(v) for v in award.values])}) = {show(award.base, decimals)}"
    ]


def total_sentence(
    line: Line,
    counting: Counting,
    calendar: int,
    rules: RuleSet,
    decimals: int,
    root: str,
    most: int = 0,
) -> Sentence:
    """Which results make the total, the bonus, and the total (ACF-14, LUP-3, KC-2, KW-7).
    ``most``: the most events any player has played so far (KC-2)."""
    kept, played = len(line.counted), len(line.awards)
    out: list[Cell]
    if not line.dropped:
        out = ["The one result counts" if played == 1 else f"All {played} results count"]
    elif counting.mode == "percent":
        out = [
            f"The best {kept} of {played} results count ({show(counting.percent)}% of the "
            f"{calendar} events of the season, rounded up)"
        ]
        out.extend(footnote(rules, "LUP-3", root))
    elif counting.mode == "most-minus" and not counting.per_category:
        out = [
            f"The best {kept} of {played} results count (the most events anyone has played, "
            f"{most}, less {counting.drop})"
        ]
        out.extend(footnote(rules, "KC-2", root))
    elif counting.per_category:
        limits = listing([f"{n} {key.replace('/', ' ').replace('-', ' ')}"
                          for key, n in counting.per_category.items()])  # fmt: skip
        best = f"The best {kept} of {played} results count"
        if counting.mode == "best":
            best += f" (at most {counting.best}"
        elif counting.mode == "most-minus":
            best += f" (at most {most} less {counting.drop}"
        else:
            best += " (at most"
        out = [f"{best}{',' if counting.mode != 'all' else ''} {limits} results)"]
        out.extend(footnote(rules, "KW-7", root))
        out.extend(footnote(rules, "FC-5", root))
    else:
        out = [f"The best {kept} of {played} results count"]
        out.extend(footnote(rules, "ACF-14", root))
    out.append(f": {show(line.total - line.bonus, decimals)} points.")  # the results counted
    if counting.bonus_per_event:
        out.append(
            f" Bonus: {show(counting.bonus_per_event)} for each of the {line.events} events "
            f"played = {show(line.bonus, decimals)}."
        )
        out.extend(footnote(rules, "LUP-3", root))
    out.append(f" Total: {show(line.total, decimals)}.")
    return ids_at_end(out)


def tie_note(upper: Line, lower: Line, criterion: str | None, decimals: int, last: int) -> str:
    """Why ``upper`` ranks above ``lower`` on the same total: the season tie-break that decided
    (LUP-6, D-LUP-2), with both players' values."""
    if criterion is None:
        return ""

    def value(line: Line) -> str:
        if criterion == "discarded":
            return show(sum((a.points for a in line.dropped), Fraction(0)), decimals)
        if criterion == "best":
            return show(max((a.points for a in line.awards), default=Fraction(0)), decimals)
        if criterion == "last-event":
            places_ = [a.first for a in line.awards if a.event == last]
            return ordinal(min(places_)) if places_ else "absent"
        if criterion == "per-event":
            each = line.total / len(line.counted) if line.counted else Fraction(0)
            return show(each, decimals)
        return str(line.events)

    what = {
        "per-event": "the total per result counted",
        "discarded": "the points of the results not counted",
        "best": "the best single result",
        "last-event": "the place in the last event",
        "events": "the number of events played",
    }[criterion]
    return f"Level on points with {lower.name}; ahead on {what}: {value(upper)} to {value(lower)}."


def race_note(outlook: Outlook) -> str:
    """The race of a standings row in a few words: 'Clinched 1st', 'Can still finish 1st',
    'Sure to finish 3rd or better', 'Can still reach 3rd'; '' when every place is out of
    reach."""
    for place, status in outlook.places:
        if status == CLINCHED:
            return "Clinched 1st" if place == 1 else f"Sure to finish {ordinal(place)} or better"
        if status == REACHABLE:
            said = "Can still finish 1st" if place == 1 else f"Can still reach {ordinal(place)}"
            need = outlook.need
            if need is not None and need.sure is not None:
                return f"{said}; sure of it with {_need_place(need, need.sure)}"
            if need is not None and need.chance is not None:
                return f"{said}; needs {_need_place(need, need.chance)}"
            return said
    return ""


def _need_place(need: Need, place: int, at: bool = True) -> str:
    """'4th or better at the Perth Open', '1st among the Club players at L1', 'a place at L1'
    (without 'at ...' when ``at`` is false)."""
    where = f" at {need.event}" if at else ""
    if place == ANY_PLACE:
        return f"a place{where}"
    among = f" among the {need.among} players" if need.among else ""
    better = "" if place == 1 else " or better"
    return f"{ordinal(place)}{better}{among}{where}"


def need_sentence(need: Need) -> str:
    """What the next event asks of a player for the best place still within reach, in words:
    the place there that makes it sure and the least place that keeps it within reach; ''
    when no result there decides it on its own."""
    goal = "1st place" if need.place == 1 else f"{ordinal(need.place)} place or better"
    said = []
    if need.sure is not None:
        said.append(f"{_need_place(need, need.sure, False)}, not shared, makes {goal} sure")
    if need.chance == ANY_PLACE:
        said.append(f"missing it puts {goal} out of reach")
    elif need.chance is not None:
        worse = _need_place(need, need.chance, False).replace(" or better", "")
        said.append(f"anything worse than {worse} puts {goal} out of reach")
    if not said:
        return ""  # no result there decides the place on its own: nothing worth saying
    return f"At {need.event}, the next event: {'; '.join(said)}."


def race_sentence(outlook: Outlook, left: int, decimals: int) -> str:
    """A player's race in a sentence: the most still possible (the events still planned, each at
    its weight, as the race assumes), the best place they are sure of, those they can still
    reach and those they can no longer reach."""
    events = "event" if left == 1 else "events"
    most = (
        "there is no limit to the points still possible"
        if outlook.best is None
        else f"a total of at most {show(outlook.best, decimals)} points is still possible"
    )
    of = {status: [place for place, s in outlook.places if s == status]
          for status in (CLINCHED, REACHABLE, OUT_OF_REACH)}  # fmt: skip
    said = []
    if of[CLINCHED]:
        said.append(f"sure to finish {ordinal(min(of[CLINCHED]))} or better")
    if of[REACHABLE]:
        said.append(f"can still reach {_either(of[REACHABLE])}")
    if of[OUT_OF_REACH]:
        said.append(f"can no longer reach {_either(of[OUT_OF_REACH])}")
    need = need_sentence(outlook.need) if outlook.need is not None else ""
    need = f" {need}" if need else ""
    return (f"With {left} {events} left ({'it counts' if left == 1 else 'they count'} at "
            f"{'its' if left == 1 else 'their'} weight{'' if left == 1 else 's'}), {most}. "
            f"{capital('; '.join(said))}.{need}")  # fmt: skip


def _either(places: list[int]) -> str:
    """'1st', '1st or 2nd', '1st, 2nd or 3rd'."""
    names = [ordinal(place) for place in places]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def race_summary(outlooks: list[Outlook], left: int) -> str:
    """Who can still finish 1st in a table, in a sentence."""
    events = "event" if left == 1 else "events"
    sure = [o.name for o in outlooks if o.places and o.places[0] == (1, CLINCHED)]
    if sure:
        return f"{sure[0]} has clinched 1st place, with {left} {events} still to play."
    able = [o.name for o in outlooks if o.places and o.places[0] == (1, REACHABLE)]
    if len(able) == 1:
        return f"With {left} {events} left, only {able[0]} can still finish 1st."
    return f"With {left} {events} left, {len(able)} players can still finish 1st."
