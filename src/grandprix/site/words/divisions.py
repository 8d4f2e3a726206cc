"""The rules page on the standings a player is in: where a rating comes from (the chain of
rating lists, each on its date), the divisions with who belongs to each and where its points come
from, and the limits on divisions by the list a rating comes from.
"""

from __future__ import annotations

from grandprix.language import _, ngettext
from grandprix.rules.schema import Division
from grandprix.season.model import Season
from grandprix.site.parts import Block, Table
from grandprix.site.words.common import band, capital, listing, number, on_day, rating_list, who


def rating_blocks(season: Season) -> list[Block]:
    """Where ratings come from: the chain of lists, each on its date."""
    sources = season.rules.ratings.sources
    if not sources:
        return []
    first, *others = sources
    said = [
        _("A player's rating is the one on the {list} in force on {day}.").format(
            list=rating_list(first.kind), day=on_day(first.on, season)
        )
    ]
    for source in others:
        if source.on == first.on:
            then = _(
                "A player who is not on it takes their rating from the {list} in force on that day."
            )
        else:
            then = _(
                "A player who is not on it takes their rating from the {list} in force on {day}."
            )
        said.append(then.format(list=rating_list(source.kind), day=on_day(source.on, season)))
    said.append(_("A player on no list is unrated."))
    return [Block(_("Ratings"), "ratings", (" ".join(said),))]


def _division_points(d: Division) -> str:
    if d.award == "filter":
        text = _(
            "The overall standings: its players keep their totals and are ranked among themselves"
        )
    elif d.cascade:
        text = _(
            "Each event's sections in order, the top section first; the division's players are "
            "placed again from 1st down"
        )
    elif d.section:
        text = _(
            "The {section} section in events that have one, else each event; the division's "
            "players are placed again from 1st down"
        ).format(section=d.section)
    else:
        text = _("Each event; the division's players are placed again from 1st down")
    if d.best is None:
        return text
    return _("{points_from}; the {n} best results count").format(points_from=text, n=d.best)


def _division_members(d: Division, season: Season, barred: set[str]) -> str:
    members = capital(who(d, season))
    if d.name not in barred:
        return members
    return _("{who}, but for the limits by rating list below").format(who=members)


def division_blocks(season: Season) -> list[Block]:
    """The divisions, who belongs to each, and the limits by where a rating comes from."""
    rules = season.rules
    if not rules.divisions:
        return []
    barred = {d.name for d in rules.divisions for r in rules.restrictions if d.name not in r.only}
    rows = tuple(
        (d.name, _division_members(d, season, barred), _division_points(d)) for d in rules.divisions
    )
    said = (
        ngettext(
            "The season has {n} division, each with its own standings:",
            "The season has {n} divisions, each with its own standings:",
            len(rows),
        ).format(n=number(len(rows))),
    )
    table = Table(
        _("Divisions"), (_("Division"), _("Who belongs"), _("Where its points come from")), rows
    )
    blocks = [Block(_("Divisions"), "divisions", said, tables=(table,))]
    after = []
    if any(d.award == "rerank" for d in rules.divisions):
        after.append(_("A player can be in several divisions at once and earns points in each."))
    limits = []
    for r in rules.restrictions:
        rated = band(r.rating_at_least, r.rating_below)
        if r.source == "unrated":
            origin = _("Unrated players, {rating}") if rated else _("Unrated players")
        elif rated:
            origin = _("Players whose rating comes from the {list}, {rating}")
        else:
            origin = _("Players whose rating comes from the {list}")
        kind = "" if r.source == "unrated" else rating_list(r.source)
        players = origin.format(list=kind, rating=rated)
        limits.append((players, listing(r.only)))
    tables: tuple[Table, ...] = ()
    if limits:
        after.append(_("Where a player's rating comes from limits their divisions:"))
        tables = (
            Table(_("Limits by rating list"), (_("Players"), _("Can only be in")), tuple(limits)),
        )
    if after:
        blocks.append(Block(paragraphs=tuple(after), tables=tables))
    return blocks
