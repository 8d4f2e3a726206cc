"""The points of real series in words, for the rules page: kinds of event with points of their
own, percentile bands, 1st place alone, the share of the field and the places that earn, an
event's points as a sum of terms, multipliers (rating factor, prize-fund classes) and bonuses
(places gained over the seed, every round played, what counts as played), with the season's own
events as examples (what players on equal scores get: ``ties``).

Each function returns nothing for a rule set that does not use its feature, so the pages of
seasons without them are unchanged (KW-2 to KW-8, FC-1 to FC-4, NW-1 to NW-3).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from grandprix.language import N_, _, ngettext, pgettext
from grandprix.model import TOOK_PART
from grandprix.rules.event_points import PointsBase, Term, TournamentClass, most_specific
from grandprix.rules.schema import RuleSet
from grandprix.rules.terms import TERM_KINDS, PerGame
from grandprix.season.model import SeasonEvent, SeasonSection
from grandprix.season.points import (
    counted_fund,
    earning_sections,
    paid_places,
    rating_factor,
    tournament_class,
)
from grandprix.site.parts import Cell, Table
from grandprix.site.words.common import figure, listing, ordinal, share

Group = tuple[str, PointsBase, list[SeasonEvent]]


def _plural(value: Fraction | int) -> int:
    """The count that chooses the singular or the plural of an amount of points: the amount
    when whole, else one that every language says in the plural."""
    return int(value) if value == int(value) else 2


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
        for section, _earning in earning_sections(event, rules):
            if section.section.players:
                name = event.name
                if len(event.sections) > 1:
                    name = _("{event}, {section} section").format(
                        event=event.name, section=section.name
                    )
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
    if points.bands[-1].percent < 100:
        said = _(
            "A band of the top p% reaches down to the place p% of the number of players, "
            "rounded up; every place earns the points of the first band it falls in, and places "
            "below every band earn nothing{cite}."
        )
    else:
        said = _(
            "A band of the top p% reaches down to the place p% of the number of players, "
            "rounded up; every place earns the points of the first band it falls in{cite}."
        )
    said = said.format(cite=rules.cite("KW-3"))
    said += " " + _("Everyone the results list counts, those who withdrew included{cite}.").format(
        cite=rules.cite("D-KW-2")
    )
    found = _example(events, rules)
    if found is not None:
        name, size = found
        band = next((b for b in points.bands if math.ceil(b.percent * size / 100) >= 3), None)
        if band is not None:
            cut = math.ceil(band.percent * size / 100)
            exact = Fraction(band.percent * size, 100)
            places = (
                ngettext("exactly {n} place", "exactly {n} places", cut).format(n=cut)
                if exact == cut
                else _("{exact} places, rounded up to {n}").format(exact=figure(exact, 2), n=cut)
            )
            said += " " + ngettext(
                "For example, {name} had {size} player: the top {percent}% is {places}, so its "
                "band reaches down to {place} place.",
                "For example, {name} had {size} players: the top {percent}% is {places}, so its "
                "band reaches down to {place} place.",
                size,
            ).format(
                name=name,
                size=size,
                percent=figure(band.percent),
                places=places,
                place=ordinal(cut),
            )
    return [said]


def band_table_of(points: PointsBase, rules: RuleSet, events: Sequence[SeasonEvent]) -> Table:
    """Share of the field -> points, with the places of each band in a real event."""
    found = _example(events, rules)
    head = [_("Finishing in the top"), _("Points")]
    rows: list[tuple[Cell, ...]] = []
    before = 0
    for band in points.bands:
        row: list[Cell] = [
            _("{percent}% of the field").format(percent=figure(band.percent)),
            figure(band.points),
        ]
        if found is not None:
            cut = max(before, math.ceil(band.percent * found[1] / 100))
            row.append(  # none: a band another band already covers
                pgettext("no places", "none") if cut == before else _places(before + 1, cut)
            )
            before = cut
        rows.append(tuple(row))
    if found is not None:
        head.append(
            ngettext(
                "Places in {name} ({n} player)", "Places in {name} ({n} players)", found[1]
            ).format(name=found[0], n=found[1])
        )
    return Table(_("Points by share of the field"), tuple(head), tuple(rows), (1,))


def _places(first: int, last: int) -> str:
    if first == last:
        return ordinal(first)
    return _("{first} to {last}").format(first=ordinal(first), last=ordinal(last))


def placement_words(points: PointsBase, rules: RuleSet, events: Sequence[SeasonEvent]) -> list[str]:
    """FC-2 1st place alone, FC-3 the share of the field and the places that earn."""
    said = []
    if points.first_outright is not None and points.table:
        said.append(
            _(
                "A player who finishes 1st alone, with nobody else on the winner's score, earns "
                "{points} instead of {first}{cite}."
            ).format(
                points=figure(points.first_outright),
                first=figure(points.table[0]),
                cite=rules.cite("FC-2"),
            )
        )
    found = _example(events, rules)
    limits = []
    if points.top_percent is not None and points.top_percent < 100:
        half = share(points.top_percent)
        limits.append(
            _(
                "Only the top {share} of the field earns these points: {share} of the number of "
                "players, rounded down"
            ).format(share=half)
        )
    if points.paid_places:
        steps = sorted(points.paid_places, key=lambda p: p.min_players)
        parts = []
        for step, after in zip(steps, [*steps[1:], None], strict=True):
            if step.min_players == 0 and after is not None:
                whom = ngettext(
                    "the top {places} with fewer than {n} player",
                    "the top {places} with fewer than {n} players",
                    after.min_players,
                ).format(places=step.places, n=after.min_players)
            elif step.min_players == 0:
                whom = _("the top {places} whatever the number of players").format(
                    places=step.places
                )
            else:
                whom = ngettext(
                    "the top {places} from {n} player",
                    "the top {places} from {n} players",
                    step.min_players,
                ).format(places=step.places, n=step.min_players)
            parts.append(whom)
        limits.append(
            _("The places that earn points depend on the size of the field: {places}").format(
                places=listing(parts)
            )
        )
    if limits:
        text = pgettext("between the parts of a sentence", "; ").join(limits)
        if found is not None:
            limit = paid_places(points, found[1])
            if limit is not None:
                earn = min(limit, len(points.table)) if points.table else limit
                text += " " + ngettext(
                    "(in {name}, with {n} player: the top {places})",
                    "(in {name}, with {n} players: the top {places})",
                    found[1],
                ).format(name=found[0], n=found[1], places=earn)
        said.append(f"{text}{rules.cite('FC-3')}.")
    return said


def factor_words(points: PointsBase, rules: RuleSet, events: Sequence[SeasonEvent]) -> list[str]:
    """FC-1 the rating factor, NW-1 the class multiplier, NW-2 based-on funds."""
    said = []
    factor = points.rating_factor
    if factor is not None:
        text = ngettext(
            "The points of every place are multiplied by the event's rating factor: the average "
            "rating of its {top} highest-rated player at the start, less {base}, divided by "
            "{per}; an average of {base} or less gives 0{cite}.",
            "The points of every place are multiplied by the event's rating factor: the average "
            "rating of its {top} highest-rated players at the start, less {base}, divided by "
            "{per}; an average of {base} or less gives 0{cite}.",
            factor.top,
        ).format(
            top=factor.top, base=factor.base, per=factor.per, cite=rules.cite("FC-1", "D-FC-1")
        )
        try:
            name, section = example_section(events, rules)
        except LookupError:
            pass
        else:
            found = rating_factor(section.section, points)
            ratings = sorted((p.rating for p in section.section.players if p.rating), reverse=True)[
                : factor.top
            ]
            if found is not None and ratings:
                mean = figure(Fraction(sum(ratings), len(ratings)))
                text += " " + ngettext(
                    "In {name}, the {n} highest rating averages {mean}, so the factor is "
                    "({mean} - {base}) / {per}, which is {factor}.",
                    "In {name}, the {n} highest ratings average {mean}, so the factor is "
                    "({mean} - {base}) / {per}, which is {factor}.",
                    len(ratings),
                ).format(
                    name=name,
                    n=len(ratings),
                    mean=mean,
                    base=factor.base,
                    per=factor.per,
                    factor=figure(found[0]),
                )
        said.append(text)
    multiplied = [c for c in points.classes if c.factor != 1]
    if multiplied and points.based_on_percent != 100:
        counted = share(points.based_on_percent)
        text = _(
            "A prize fund that depends on the number of entries, rather than being guaranteed, "
            "counts at {share} of its amount when the event's class is chosen{cite}."
        ).format(share=counted, cite=rules.cite("NW-2", "D-NW-1"))
        based = next((e for e in events if e.based_on and e.prize_fund is not None), None)
        if based is not None and based.prize_fund is not None:
            chosen = tournament_class(based, points)
            assert chosen is not None
            text += " " + _(
                "For example, {event} advertised {fund}, which counts as {counted}: class "
                "{tournament_class}."
            ).format(
                event=based.name,
                fund=figure(based.prize_fund),
                counted=figure(counted_fund(based, points)),
                tournament_class=chosen.name,
            )
        said.append(text)
    return said


def fund_ranges(points: PointsBase) -> list[tuple[TournamentClass, str]]:
    """Each tournament class, lowest first, with its range of prize funds in words (ACF-6,
    NW-1): 'under 500', '500 to under 1000', '20000 or more'."""
    classes = sorted(points.classes, key=lambda c: c.min_prize_fund)
    out = []
    for low, high in zip(classes, [*classes[1:], None], strict=True):
        fund = _("{fund} or more").format(fund=figure(low.min_prize_fund))
        if high is not None:
            if low.min_prize_fund == 0:
                fund = _("under {fund}").format(fund=figure(high.min_prize_fund))
            else:
                fund = _("{low} to under {high}").format(
                    low=figure(low.min_prize_fund), high=figure(high.min_prize_fund)
                )
        out.append((low, fund))
    return out


def gain_caps(points: PointsBase) -> list[str]:
    """KW-4: the limits of the places-gained bonus in words."""
    gain = points.gain
    caps: list[str] = []
    if gain is None:
        return caps
    if gain.cap is not None:
        caps.append(_("at most {points}").format(points=figure(gain.cap)))
    if gain.cap_percent is not None:
        part = share(gain.cap_percent)
        if gain.round_down:
            said = _("at most {share} of the points of their place, rounded down")
        else:
            said = _("at most {share} of the points of their place")
        caps.append(said.format(share=part))
    return caps


def class_factor_table(points: PointsBase) -> Table | None:
    """NW-1: each class by prize fund and its multiplier, when a class multiplies."""
    if not any(c.factor != 1 for c in points.classes):
        return None
    rows = [
        (_("Class {name}").format(name=c.name), fund, figure(c.factor))
        for c, fund in fund_ranges(points)
    ]
    return Table(
        _("Classes of event and their multipliers"),
        (pgettext("class of event", "Class"), _("Total prize fund"), _("Points multiplied by")),
        tuple(rows),
        (2,),
    )


def bonus_words(points: PointsBase, rules: RuleSet) -> list[str]:
    """KW-4 and KW-8 places gained over the seed, KW-5 (NW-3) every round played."""
    said = []
    gain = points.gain
    if gain is not None:
        caps = gain_caps(points)
        if gain.seed == "rating":
            seed = _(
                "The seed is the player's rank by rating in the section: players with equal "
                "ratings share the better rank, and unrated players share one rank below every "
                "rated player{cite}."
            ).format(cite=rules.cite("KW-8"))
        else:
            seed = _("The seed is the player's start number.")
        if caps:
            gained = ngettext(
                "A player who finishes above their seed earns {points} more point for each "
                "place gained, {caps}{cite}.",
                "A player who finishes above their seed earns {points} more points for each "
                "place gained, {caps}{cite}.",
                _plural(gain.per_place),
            )
        else:
            gained = ngettext(
                "A player who finishes above their seed earns {points} more point for each "
                "place gained{cite}.",
                "A player who finishes above their seed earns {points} more points for each "
                "place gained{cite}.",
                _plural(gain.per_place),
            )
        gained = gained.format(
            points=figure(gain.per_place), caps=listing(caps, "and"), cite=rules.cite("KW-4")
        )
        said.append(f"{gained} {seed}")
    if points.completion:
        said.append(
            ngettext(
                "A player who plays every round earns {points} more point: {played}{cite}.",
                "A player who plays every round earns {points} more points: {played}{cite}.",
                _plural(points.completion),
            ).format(
                points=figure(points.completion),
                played=played_words(points),
                cite=rules.cite("KW-5", "NW-3", *_decided(points)),
            )
        )
    if said and (points.rating_factor is not None or any(c.factor != 1 for c in points.classes)):
        said.append(_("These extra points are added after the points are multiplied."))
    return said


def min_rounds_words(rules: RuleSet) -> list[str]:
    """KW-6: points only after playing a share of the rounds."""
    needed = rules.eligibility.min_rounds_percent
    if needed is None:
        return []
    part = share(needed)
    if rules.eligibility.ineligible_players == "skip":
        others = _(
            "Players who play fewer rounds may still play, but they are left out when points "
            "are given, and the players below them move up."
        )
    else:
        others = _(
            "Players who play fewer rounds may still play, but they keep their place in the "
            "event, and nobody gets that place's points."
        )
    needs = _(
        "A player earns points in an event only after playing at least {share} of its rounds: "
        "{played}{cite}."
    ).format(
        share=part,
        played=played_words(rules.points),
        cite=rules.cite("KW-6", *_decided(rules.points)),
    )
    return [f"{needs} {others}"]


PLAYED_WORDS = {
    "game": N_("a game"),
    "forfeit-win": N_("a win by forfeit"),
    "pairing-bye": N_("a bye given by the pairing"),
    "forfeit-loss": N_("a forfeit lost"),
    "full-bye": N_("a full-point bye asked for"),
    "half-bye": N_("a half-point bye asked for"),
    "zero-bye": N_("a zero-point bye asked for"),
    "unpaired": N_("a round not paired"),
}


def played_words(points: PointsBase) -> str:
    """What counts as a played round (``points.played``), and what does not, in words."""
    counted = [_(words) for kind, words in PLAYED_WORDS.items() if kind in points.played]
    apart = [
        _(PLAYED_WORDS[kind]) for kind in ("forfeit-loss", "unpaired") if kind not in points.played
    ]
    if apart:
        return _("{counted} counts as played; {apart} does not").format(
            counted=_or(counted), apart=_or(apart)
        )
    return _("{counted} counts as played").format(counted=_or(counted))


def _decided(points: PointsBase) -> tuple[str, ...]:
    """D-KW-3 (what counts as played) where the rule set keeps the default."""
    return ("D-KW-3",) if tuple(points.played) == TOOK_PART else ()


def _or(items: list[str]) -> str:
    """'a', 'a or b', 'a, b or c'."""
    return listing(items, "or")


def limits_words(rules: RuleSet, events: Sequence[SeasonEvent]) -> str:
    """KW-7, FC-5: at most so many results of each category."""
    caps = rules.counting.per_category
    parts = []
    for key, most in caps.items():
        inner = sorted(
            {category_words(e.category) for e in events if e.category.startswith(key + "/")}
        )
        part = ngettext(
            "{n} result of {category} events", "{n} results of {category} events", most
        ).format(n=most, category=category_words(key))
        if inner:
            part = _("{limit} (of every kind: {kinds})").format(limit=part, kinds=listing(inner))
        parts.append(part)
    return _(
        "At most {limits} count; when a player has more, the best within these limits count{cite}."
    ).format(limits=listing(parts), cite=rules.cite("KW-7", "FC-5"))


def terms_in_words(points: PointsBase) -> str:
    """An event's points as the sum ``points.terms`` says, in one sentence, and the bounds on
    it (a cap) in sentences after."""
    said, bounds = [], []
    for term in points.terms:
        what = _term_words(term)
        if TERM_KINDS[term.kind].bound:
            bounds.append(what)
            continue
        if term.name and term.kind != "fixed":
            what += f" ({term.name})"
        if not term.weighted:
            what = _("{term}, added after the event's multipliers").format(term=what)
        said.append(what)
    if len(said) == 1:
        sentence = _("Each player's points in an event are {term}.").format(term=said[0])
    else:
        sentence = _("Each player's points in an event add up {terms}.").format(terms=listing(said))
    return " ".join([sentence, *bounds])


def _per_game(each: PerGame) -> str:
    """What a ``games`` term gives each kind of round: '3 a win, 2 a draw, 1 a loss, 2 a bye'."""
    said = [
        _("{points} a win").format(points=figure(each.win)),
        _("{points} a draw").format(points=figure(each.draw)),
        _("{points} a loss").format(points=figure(each.loss)),
    ]
    if each.bye is not None:
        said.append(_("{points} a bye").format(points=figure(each.bye)))
    return listing(said)


def _term_words(term: Term) -> str:
    """One term of an event's points in words ('2 x the player's score in the event'), as its
    kind says it (``rules/terms.TERM_KINDS``), with its rounding."""
    kind = TERM_KINDS[term.kind]
    said = _(kind.meaning_times if term.factor != 1 and kind.meaning_times else kind.meaning)
    said = said.format(
        factor=figure(term.factor), points=figure(term.amount), games=_per_game(term.per_game)
    )
    if term.round == "half-up":
        said = _("{term}, rounded half up to a whole number").format(term=said)
    return said
