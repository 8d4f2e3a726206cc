"""Points in plain words, for readers of the site: the sentence under each result of a player,
how a season total is formed, and why an event page shows no points for a player.

A sentence is a tuple of text and links; a rule ID is a footnote link to its meaning on the rules
page (``rules.html#rule-UT-4``), and only the IDs the rule set cites are linked.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from grandprix.language import Phrase, _, decimal, ngettext, pgettext
from grandprix.rules.books import is_rule_id
from grandprix.rules.schema import Counting, RuleSet
from grandprix.scores import show
from grandprix.season.model import Award, Line, Season
from grandprix.season.race import (
    ANY_PLACE,
    CLINCHED,
    OUT_OF_REACH,
    REACHABLE,
    Need,
    Outlook,
    by_score,
    remaining_events,
    section_rate,
    unbounded_by,
)
from grandprix.season.standings import countback
from grandprix.site.parts import Cell, Link
from grandprix.site.words.common import capital, figure, listing, ordinal, place_span, rule_href

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
    span, first = places(award.first, award.last), ordinal(award.first)
    if others and division:
        out.append(
            ngettext(
                "Tied {places} in {division} with {n} other",
                "Tied {places} in {division} with {n} others",
                others,
            ).format(places=span, division=division, n=others)
        )
    elif others:
        out.append(
            ngettext(
                "Tied {places} with {n} other", "Tied {places} with {n} others", others
            ).format(places=span, n=others)
        )
    elif division:
        out.append(_("{place} place in {division}").format(place=first, division=division))
    else:
        out.append(_("{place} place").format(place=first))
    if award.overall:
        out.append(
            " "
            + _(
                "among the Grand Prix players ({place} in the event: players who are not "
                "eligible are skipped)"
            ).format(place=place_span(award.overall))
        )
        out.extend(footnote(rules, "D-UT-1", root))  # moved to the end by ids_at_end
    values = [figure(v) for v in award.values]
    terms = award.valuation.terms
    if terms:  # a sum of terms: '5 for the score + 8 for place 4 = 13'
        worked = sum((value for _words, value in terms), Fraction(0))
        out.append(
            ": "
            + "".join(
                (" - " if v < 0 else " + " if k else "")
                + _("{points} for {what}").format(points=figure(abs(v), decimals), what=words)
                for k, (words, v) in enumerate(terms)
            )
        )
        if len(terms) > 1:
            out.append(f" = {figure(worked, decimals)}")
        if len(values) > 1 and points.ties in ("full", "best"):
            out.append(" " + _("(tied players all take the points of {place})").format(place=first))
        elif len(values) > 1 and any(award.values) and points.ties != "split":
            out.append(
                " "
                + _("(the place's points are the average of {values})").format(
                    values=listing(values)
                )
            )
            out.extend(footnote(rules, "UT-4", root))
    elif points.from_score:
        worked = award.score * points.score_factor
        score = figure(award.score)
        if award.valuation.factors and points.score_factor == 1:
            out.append(": " + _("a score of {score}").format(score=score))  # its multiplier follows
        else:
            out.append(
                ": "
                + _("a score of {score} x {factor} = {points}").format(
                    score=score, factor=figure(points.score_factor), points=figure(worked)
                )
            )
    elif len(values) > 1 and points.ties in ("full", "best"):
        worked = award.values[0]
        out.append(
            ": "
            + _("tied players all take the points of {place}, {points}").format(
                place=first, points=values[0]
            )
        )
    elif len(values) > 1 and not any(award.values):
        worked = Fraction(0)
        out.append(": " + _("these places score no points"))
    elif len(values) > 1 and points.ties == "split":
        worked = award.base
        out.extend(_split(award, decimals))
        out.extend(footnote(rules, "FC-4", root))
    elif len(values) > 1:
        worked = sum(award.values, Fraction(0)) / len(values)
        out.append(
            ", "
            + _("so the average of {values} = {points}").format(
                values=listing(values), points=figure(worked, decimals)
            )
        )
        out.extend(footnote(rules, "UT-4", root))
    else:
        worked = award.values[0] if award.values else Fraction(0)
        alone = points.first_outright is not None and award.first == 1 and bool(values)
        if alone and points.table and worked == points.first_outright != points.table[0]:
            out.append(
                " "
                + _("alone, worth {points} instead of {table_points}").format(
                    points=values[0], table_points=figure(points.table[0])
                )
            )
            out.extend(footnote(rules, "FC-2", root))
        elif values and worked:
            out.append(", " + _("worth {points}").format(points=values[0]))
        else:
            out.append(", " + _("which scores no points"))
        if points.bands and worked:
            out.extend(footnote(rules, "KW-3", root))
        elif worked and award.category and points is not rules.points and points.table:
            out.extend(footnote(rules, "KW-2", root))  # a kind of event's own table
    if award.table_name:
        out.append(
            " " + _("in the table of class {name} tournaments").format(name=award.table_name)
        )
        out.extend(footnote(rules, "ACF-13", root))
    if award.base != worked:
        out.append(
            ", "
            + _("raised to the minimum of {points} for taking part").format(
                points=figure(award.base, decimals)
            )
        )
        out.extend(footnote(rules, "LUP-1", root))
    # Multipliers scale the place's points: when it has none, the sentence has said so and a
    # product of nothing ('no points x 1.5 for this event = 0.00') would only repeat it.
    scaled = award.base != 0
    if scaled and award.event_weight != 1:  # UT-6: an event's multiplier
        out.append(" " + _("x {factor} for this event").format(factor=figure(award.event_weight)))
        out.extend(footnote(rules, "UT-6", root))
    if scaled and award.section_weight != 1:  # UT-7: a section's rate
        out.append(
            " " + _("x {factor} for this section").format(factor=figure(award.section_weight))
        )
        out.extend(footnote(rules, "UT-7", root))
    bonuses = award.valuation.bonuses
    factors = award.valuation.factors if scaled else ()
    for reason, value in factors:  # FC-1 rating factor, NW-1 class of the prize fund
        out.append(" " + _("x {factor} for {reason}").format(factor=figure(value), reason=reason))
        for rule in cites(reason):
            out.extend(footnote(rules, rule, root))
    multiplied = scaled and (award.event_weight != 1 or award.section_weight != 1 or bool(factors))
    if multiplied and bonuses:
        out.append(f" = {figure(award.points - award.extra, decimals)}")
    for reason, value in bonuses:  # KW-4 places above the seed, KW-5 (NW-3) every round
        out.append(
            " " + _("+ {points} for {reason}").format(points=figure(value, decimals), reason=reason)
        )
        for rule in cites(reason):  # a term added after the multipliers: none
            out.extend(footnote(rules, rule, root))
    if multiplied or bonuses:
        out.append(f" = {figure(award.points, decimals)}")
    out.append(".")
    return ids_at_end(out)


def cites(reason: str) -> tuple[str, ...]:
    """The rule IDs the engine gave a multiplier's or a bonus's words (``Phrase.cites``)."""
    return reason.cites if isinstance(reason, Phrase) else ()


def _split(award: Award, decimals: int) -> list[Cell]:
    """FC-4 in words: half the points of the place on tie-break plus half the tie's average."""
    mean = sum(award.values, Fraction(0)) / len(award.values)
    own = 2 * award.base - mean
    spots = [award.first + i for i, v in enumerate(award.values) if v == own]
    place = (
        _("{place} place").format(place=ordinal(spots[0])) if len(spots) == 1 else _("the place")
    )
    return [
        ": "
        + _(
            "half of {own} ({place} on tie-break) plus half of {mean} (the average of "
            "{values}) = {points}"
        ).format(
            own=figure(own),
            place=place,
            mean=figure(mean),
            values=listing([figure(v) for v in award.values]),
            points=figure(award.base, decimals),
        )
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
        out = [
            _("The one result counts")
            if played == 1
            else ngettext("All {n} result counts", "All {n} results count", played).format(n=played)
        ]
    elif counting.mode == "percent":
        out = [
            _(
                "The best {kept} of {played} results count ({percent}% of the {calendar} events "
                "of the season, rounded up)"
            ).format(kept=kept, played=played, percent=figure(counting.percent), calendar=calendar)
        ]
        out.extend(footnote(rules, "LUP-3", root))
    elif counting.mode == "most-minus" and not counting.per_category:
        out = [
            _(
                "The best {kept} of {played} results count (the most events anyone has played, "
                "{most}, less {drop})"
            ).format(kept=kept, played=played, most=most, drop=counting.drop)
        ]
        out.extend(footnote(rules, "KC-2", root))
    elif counting.per_category:
        limits = listing(
            [
                f"{n} {key.replace('/', ' ').replace('-', ' ')}"
                for key, n in counting.per_category.items()
            ]
        )
        if counting.mode == "best":
            best = _("The best {kept} of {played} results count (at most {best}, {limits} results)")
        elif counting.mode == "most-minus":
            best = _(
                "The best {kept} of {played} results count (at most {most} less {drop}, "
                "{limits} results)"
            )
        else:
            best = _("The best {kept} of {played} results count (at most {limits} results)")
        out = [
            best.format(
                kept=kept,
                played=played,
                best=counting.best,
                most=most,
                drop=counting.drop,
                limits=limits,
            )
        ]
        out.extend(footnote(rules, "KW-7", root))
        out.extend(footnote(rules, "FC-5", root))
    else:
        out = [_("The best {kept} of {played} results count").format(kept=kept, played=played)]
        out.extend(footnote(rules, "ACF-14", root))
    counted = figure(line.total - line.bonus, decimals)  # the results counted
    if counting.total == "mean":  # KEN-3: their mean, not their sum
        mean = (
            _("their mean, rounded half up, {points}.")
            if counting.round == "half-up"
            else (_("their mean, {points}."))
        )
        out.append(": " + mean.format(points=counted))
        out.extend(footnote(rules, "KEN-3", root))
    elif counting.round == "half-up":
        out.append(": " + _("{points} points, rounded half up.").format(points=counted))
    else:
        out.append(": " + _("{points} points.").format(points=counted))
    if counting.bonus_per_event:
        out.append(
            " "
            + _("Bonus: {bonus} for each of the {n} events played = {points}.").format(
                bonus=figure(counting.bonus_per_event),
                n=line.events,
                points=figure(line.bonus, decimals),
            )
        )
        out.extend(footnote(rules, "LUP-3", root))
    out.append(" " + _("Total: {points}.").format(points=figure(line.total, decimals)))
    return ids_at_end(out)


def tie_note(upper: Line, lower: Line, criterion: str | None, decimals: int, last: int) -> str:
    """Why ``upper`` ranks above ``lower`` on the same total: the season tie-break that decided
    (LUP-6, D-LUP-2), with both players' values."""
    if criterion is None:
        return ""

    def value(line: Line) -> str:
        if criterion == "discarded":
            return figure(sum((a.points for a in line.dropped), Fraction(0)), decimals)
        if criterion == "best":
            return figure(max((a.points for a in line.awards), default=Fraction(0)), decimals)
        if criterion == "last-event":
            places_ = [a.first for a in line.awards if a.event == last]
            return ordinal(min(places_)) if places_ else pgettext("from an event", "absent")
        if criterion == "per-event":
            each = line.total / len(line.counted) if line.counted else Fraction(0)
            return figure(each, decimals)
        if criterion == "countback":
            return listing([figure(-v, decimals) for v in countback(line)[:-1]])
        if criterion == "counted":
            return str(len(line.counted))
        return str(line.events)

    what = {
        "per-event": _("the total per result counted"),
        "countback": _("their results, the best first"),
        "counted": _("the number of results counted"),
        "discarded": _("the points of the results not counted"),
        "best": _("the best single result"),
        "last-event": _("the place in the last event"),
        "events": _("the number of events played"),
    }[criterion]
    return _("Level on points with {name}; ahead on {what}: {upper} to {lower}.").format(
        name=lower.name, what=what, upper=value(upper), lower=value(lower)
    )


def race_note(outlook: Outlook) -> str:
    """The race of a standings row in a few words: 'Clinched 1st', 'Can still finish 1st',
    'Sure to finish 3rd or better', 'Can still reach 3rd'; '' when every place is out of
    reach."""
    for place, status in outlook.places:
        if status == CLINCHED:
            if place == 1:
                return _("Clinched 1st")
            return _("Sure to finish {place} or better").format(place=ordinal(place))
        if status == REACHABLE:
            if place == 1:
                said = _("Can still finish 1st")
            else:
                said = _("Can still reach {place}").format(place=ordinal(place))
            need = outlook.need
            if need is not None and need.sure is not None:
                return _("{status}; sure of it with {place}").format(
                    status=said, place=_need_place(need, need.sure)
                )
            if need is not None and need.chance is not None:
                return _("{status}; needs {place}").format(
                    status=said, place=_need_place(need, need.chance)
                )
            return said
    return ""


def _need_place(need: Need, place: int, at: bool = True, better: bool = True) -> str:
    """'4th or better at the Perth Open', '1st among the Club players at L1', 'a place at L1'
    (without 'at ...' when ``at`` is false, without 'or better' when ``better`` is)."""
    if place == ANY_PLACE:
        return _("a place at {event}").format(event=need.event) if at else _("a place")
    said = ordinal(place)
    if better and place != 1:
        said = _("{place} or better").format(place=said)
    if need.among:
        said = _("{place} among the {division} players").format(place=said, division=need.among)
    return _("{place} at {event}").format(place=said, event=need.event) if at else said


def need_sentence(need: Need) -> str:
    """What the next event asks of a player for the best place still within reach, in words:
    the place there that makes it sure and the least place that keeps it within reach; ''
    when no result there decides it on its own."""
    if need.place == 1:
        goal = _("1st place")
    else:
        goal = _("{place} place or better").format(place=ordinal(need.place))
    said = []
    if need.sure is not None:
        said.append(
            _("finishing {place}, without a tie, makes {goal} certain").format(
                place=_need_place(need, need.sure, False), goal=goal
            )
        )
    if need.chance == ANY_PLACE:
        said.append(_("not playing there puts {goal} out of reach").format(goal=goal))
    elif need.chance is not None:
        worse = _need_place(need, need.chance, False, False)
        said.append(
            _("finishing below {place} puts {goal} out of reach").format(place=worse, goal=goal)
        )
    if need.tie is not None:  # LUP-6, D-LUP-2: sure but for a tie-break still to be decided
        said.append(
            _(
                "finishing {place} makes {goal} certain unless a season tie-break, decided by "
                "later results, goes against them"
            ).format(place=_need_place(need, need.tie, False), goal=goal)
        )
    if not said:
        return ""  # no result there decides the place on its own: nothing worth saying
    return _("At {event}, the next event: {said}.").format(event=need.event, said="; ".join(said))


def race_sentence(outlook: Outlook, left: int, decimals: int) -> str:
    """A player's race in a sentence: the most still possible (the events still planned, each at
    its weight, as the race assumes), the best place they are sure of, those they can still
    reach and those they can no longer reach."""
    if outlook.best is None:
        most = _("there is no limit to the points they can still win")
    else:
        most = _("their total can reach at most {points} points").format(
            points=figure(outlook.best, decimals)
        )
    of = {
        status: [place for place, s in outlook.places if s == status]
        for status in (CLINCHED, REACHABLE, OUT_OF_REACH)
    }
    said = []
    if of[CLINCHED]:
        best = min(of[CLINCHED])
        said.append(
            _("already certain to finish 1st")
            if best == 1
            else _("already certain to finish {place} or better").format(place=ordinal(best))
        )
    if of[REACHABLE]:
        said.append(_("can still finish {places}").format(places=_either(of[REACHABLE])))
    if of[OUT_OF_REACH]:
        said.append(_("can no longer finish {places}").format(places=_either(of[OUT_OF_REACH])))
    if outlook.undecided:  # equal totals whose season tie-break results still to come decide
        said.append(
            _("{places} may come down to a season tie-break that is not decided yet").format(
                places=_either(list(outlook.undecided))
            )
        )
    need = need_sentence(outlook.need) if outlook.need is not None else ""
    need = f" {need}" if need else ""
    left_words = ngettext(
        "With {n} event still to play, {most}.",
        "With {n} events still to play, {most}.",
        left,
    ).format(n=left, most=most)
    return f"{left_words} {capital('; '.join(said))}.{need}"


def _either(places: list[int]) -> str:
    """'1st', '1st or 2nd', '1st, 2nd or 3rd'."""
    names = [ordinal(place) for place in places]
    if len(names) == 1:
        return names[0]
    return _("{places} or {last}").format(places=", ".join(names[:-1]), last=names[-1])


def race_summary(outlooks: list[Outlook], left: int) -> str:
    """Who can still finish 1st in a table, in a sentence."""
    sure = [o.name for o in outlooks if o.places and o.places[0] == (1, CLINCHED)]
    if sure:
        return ngettext(
            "{name} is already certain to finish 1st, with {n} event still to play.",
            "{name} is already certain to finish 1st, with {n} events still to play.",
            left,
        ).format(name=sure[0], n=left)
    able = [o.name for o in outlooks if o.places and o.places[0] == (1, REACHABLE)]
    if len(able) == 1:
        return ngettext(
            "With {n} event left, only {name} can still finish 1st.",
            "With {n} events left, only {name} can still finish 1st.",
            left,
        ).format(n=left, name=able[0])
    return ngettext(
        "With {n} event left, {players} players can still finish 1st.",
        "With {n} events left, {players} players can still finish 1st.",
        left,
    ).format(n=left, players=len(able))


def race_assumptions(season: Season, newcomers: int | None = None) -> list[str]:
    """What the race assumes about the events left, in words, for a footnote."""
    planned = remaining_events(season)
    if not planned:
        return [_("No events are left: places are those of the final standings.")]
    rules = season.rules
    notes: list[str] = []
    unknown = unbounded_by(rules)
    if unknown and not by_score(rules):
        notes.append(
            _(
                "What an event not yet played gives depends on {what}, unknown until it is "
                "played: no limit is set on what a player can still score."
            ).format(what=listing([_(what) for what in unknown]))
        )
    if by_score(rules):
        notes.append(
            _(
                "Points are the event scores and an event not yet played has no known number of "
                "rounds: there is no limit to what a player can still score."
            )
        )
    if rules.points.classes:
        for event in planned:
            if event.prize_fund is None:
                notes.append(
                    _(
                        "{event} has no prize fund yet: it may be of the class worth the most "
                        "points{rule_ids}."
                    ).format(event=event.name, rule_ids=rules.cite("ACF-6"))
                )
    rate = section_rate(season)
    notes.append(
        _(
            "A player plays one section of each event left, earning at most its top section's "
            "rate ({rate}, the highest of the season) times the event's weight{rule_ids}."
        ).format(rate=decimal(show(rate, 2)), rule_ids=rules.cite("UT-6", "UT-7"))
    )
    if rules.divisions:
        notes.append(_("Who belongs to each division is as known today."))
    if not unknown and not by_score(rules):
        notes.append(
            _(
                "What a player needs at {event}, the next event, is about that event alone: "
                "finishing that high there makes the place in the standings certain, whatever "
                "the others do; finishing lower puts it out of reach, whatever happens "
                "afterwards."
            ).format(event=planned[0].name)
        )
    if newcomers is None:
        notes.append(_("Players not yet in a table may still enter it, any number of them."))
    else:
        notes.append(
            ngettext(
                "At most {n} player not yet in a table may still enter it.",
                "At most {n} players not yet in a table may still enter it.",
                newcomers,
            ).format(n=newcomers)
        )
    return notes
