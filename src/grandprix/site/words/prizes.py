"""The rules page on the season's prizes: each prize with its standings, its place among the
prizes of its kind, who can win it and its amount or title; then how prizes go down the
standings, ties and the conditions on winners.
"""

from __future__ import annotations

from collections import Counter

from grandprix.conditions import attribute_label
from grandprix.language import _, money, ngettext
from grandprix.rules.schema import Conditions
from grandprix.scores import show
from grandprix.season.model import Season
from grandprix.site.parts import Block, Cell, Table
from grandprix.site.words.common import capital, has, listing, number, ordinal, who


def prize_rows(season: Season) -> tuple[tuple[Cell, ...], ...]:
    """One row per prize: its name, its standings, its place among the prizes of its kind, who
    can win it, and its amount or title."""
    places: Counter[tuple[str, str]] = Counter()
    rows = []
    everyone = who(Conditions(), season)  # the words for a prize with no condition
    for p in season.rules.prizes.prize:
        whom = who(p, season)
        if p.each:
            place = _("best of each {attribute} without another prize").format(
                attribute=attribute_label(p.each)
            )
        else:
            places[p.ranking, whom] += 1
            place = ordinal(places[p.ranking, whom])
        notes = [] if whom == everyone else [capital(whom)]
        if p.min_players:
            notes.append(
                _("paid only if at least {n} such players take part").format(n=p.min_players)
            )
        if p.based_on:
            notes.append(
                _("smaller in proportion with fewer than {n} such players").format(n=p.based_on)
            )
        value = (
            money(season.rules.prizes.currency, show(p.amount, 2))
            if p.amount is not None
            else _("the title {title}").format(title=p.title)
        )
        whole = "; ".join(notes) or _("Anyone in these standings")
        rows.append((p.name, p.ranking or _("Overall"), place, whole, value))
    return tuple(rows)


def prize_blocks(season: Season) -> list[Block]:
    prizes = season.rules.prizes
    if not prizes.prize:
        return [Block(_("Prizes"), "prizes", (_("These rules give no season prizes."),))]
    rows = prize_rows(season)
    money = all(p.amount is not None for p in prizes.prize)
    head = [
        _("Prize"),
        _("Standings"),
        _("Place"),
        _("Who can win it"),
        _("Amount") if money else _("Prize given"),
    ]
    if all(row[3] == _("Anyone in these standings") for row in rows):
        rows = tuple(row[:3] + row[4:] for row in rows)
        del head[3]
    table = Table(_("Season prizes"), tuple(head), rows, (len(head) - 1,) if money else ())
    said = (
        ngettext(
            "The season has {n} prize, given on the final standings:",
            "The season has {n} prizes, given on the final standings:",
            len(rows),
        ).format(n=number(len(rows))),
    )
    after = [
        _(
            "Each prize goes down its standings: the 1st prize of a kind to the best player "
            "there, the 2nd to the next, and so on."
        ),
        _(
            "Nobody wins more than one prize: a player who could win several gets the most "
            "valuable, and the others go to the next players."
        ),
    ]
    if any(p.title for p in prizes.prize):
        after.append(
            _(
                "A title is given apart from the money: winning one does not stop a player from "
                "winning money."
            )
        )
    if prizes.ties == "pool":
        ties = _(
            "Players who tie in the standings put together the prizes of the places they share "
            "and divide them equally."
        )
    elif prizes.ties == "hort":
        ties = _(
            "Players who tie in the standings get half of each prize in the order of the "
            "season's tie-breaks and share the other half equally."
        )
    else:
        ties = _(
            "Prizes are not split between players who tie: the order of the standings decides."
        )
    after.append(ties)
    if prizes.played_last_event:
        after.append(_("Only players who play the season's last event can win a prize."))
    if prizes.require:
        wanted = listing([has(name, v) for name, v in prizes.require.items()])
        after.append(_("A prize winner must also be {conditions}.").format(conditions=wanted))
    if prizes.based_on:
        after.append(
            _(
                "The amounts assume {n} players; with fewer, every prize is paid in proportion, "
                "but never below half when the prizes add up to more than 500."
            ).format(n=prizes.based_on)
        )
    return [Block(_("Prizes"), "prizes", said, tables=(table,)), Block(paragraphs=tuple(after))]
