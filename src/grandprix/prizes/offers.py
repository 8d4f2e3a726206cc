"""Prizes as offered: conditions of size (UCC-7, UCC-8, LUP-E3) applied before allocation."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from grandprix.language import _, decimal, ngettext
from grandprix.players import PlayerKey
from grandprix.prizes.allocate import NotAwarded, Offer, Ranked
from grandprix.rules.schema import Prize
from grandprix.scores import show


def based_on_fraction(fund: Fraction, entries: int, based_on: int) -> Fraction:
    """The share of a 'based on N entries' fund that is paid (US Chess, prizes.md §1.6):
    entries/N, at most all of it, and never below half when the fund is above 500."""
    paid = min(Fraction(1), Fraction(entries, based_on))
    return max(Fraction(1, 2), paid) if fund > 500 else paid


def offers(
    prizes: list[Prize],
    rankings: dict[str, list[Ranked]],
    qualifies: Callable[[Prize, PlayerKey], bool],
    fund_based_on: int | None = None,
) -> tuple[list[Offer], list[NotAwarded]]:
    """Each prize with its amount after reductions, or the reason it is not offered.

    ``qualifies`` says whether a player meets a prize's own conditions (not whether they may
    collect it): the counts are of the players of that kind who took part.
    """
    out, dropped = [], []
    fund = sum((p.amount for p in prizes if p.amount is not None), Fraction(0))
    entries = len({s.key for ranking in rankings.values() for s in ranking})
    share = based_on_fraction(fund, entries, fund_based_on) if fund_based_on else Fraction(1)
    for index, prize in enumerate(prizes):
        ranking = rankings.get(prize.ranking, [])
        count = sum(1 for s in ranking if qualifies(prize, s.key))
        if prize.min_players is not None and count < prize.min_players:
            dropped.append(
                NotAwarded(
                    prize.name,
                    ngettext(
                        "only {n} eligible player took part; it needs {needed} (UCC-8, LUP-E3)",
                        "only {n} eligible players took part; it needs {needed} (UCC-8, LUP-E3)",
                        count,
                    ).format(n=count, needed=prize.min_players),
                )
            )
            continue
        amount, note = prize.amount, ""
        if amount is not None and prize.based_on and count < prize.based_on:
            amount = amount * Fraction(count, prize.based_on)
            note = _(
                "reduced to {n}/{based_on} of {amount}: {n} entries of its kind, based on "
                "{based_on} (UCC-7)"
            ).format(n=count, based_on=prize.based_on, amount=decimal(show(prize.amount, 2)))
        if amount is not None and share < 1:
            amount = amount * share
            note = "; ".join(
                filter(
                    None,
                    [
                        note,
                        _("fund paid at {percent}%: {n} entries, based on {based_on}").format(
                            percent=decimal(show(share * 100, 1)), n=entries, based_on=fund_based_on
                        ),
                    ],
                )
            )
        out.append(Offer(index, prize, amount, note))
    return out, dropped
