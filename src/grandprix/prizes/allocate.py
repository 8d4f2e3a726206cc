"""Prize allocation: one prize per player, the most valuable first, down each ranking.

Pure: rankings and eligibility in, awards with their reasons out. Money and titles are
allocated apart (a title never blocks money, prizes.md §1.1). Rules: ACF-10 and LUP-E3 (one
prize, the most valuable; the one left passes on), UCC-10 (US Chess pooling, rule 32B3 with its
exception), the Hort system, indivisible prizes by tie-break (LUP-6), ACF-8 (state prizes).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from grandprix.conditions import attribute_label
from grandprix.language import _, decimal, ngettext
from grandprix.players import PlayerKey
from grandprix.rules.schema import Prize
from grandprix.scores import show


@dataclass(frozen=True)
class Ranked:
    """A player's place in a ranking; ``first``..``last`` is the span of equal standing."""

    key: PlayerKey
    name: str
    first: int
    last: int

    @property
    def place(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


@dataclass(frozen=True)
class Offer:
    """A prize as it will be offered, after reductions and conditions of attendance."""

    index: int  # position in the prize list: equal values follow the list's order
    prize: Prize
    amount: Fraction | None
    note: str = ""  # e.g. the reduction applied

    @property
    def series(self) -> tuple[str, str]:
        """Prizes of one ranking with the same conditions: places of one list (1st, 2nd...)."""
        conditions = self.prize.model_dump(
            exclude={"name", "amount", "title", "min_players", "based_on", "each"}
        )
        return self.prize.ranking, repr(sorted(conditions.items()))


@dataclass(frozen=True)
class Won:
    prize: str
    ranking: str
    key: PlayerKey
    name: str
    place: str
    amount: Fraction | None
    title: str | None
    reason: str


@dataclass(frozen=True)
class NotAwarded:
    prize: str
    reason: str


Eligible = Callable[[Prize, PlayerKey], bool]
Attribute = Callable[[PlayerKey, str], str]


def allocate(
    offers: list[Offer],
    rankings: dict[str, list[Ranked]],
    eligible: Eligible,
    ties: str,
    attribute: Attribute,
) -> tuple[list[Won], list[NotAwarded]]:
    """Award every prize; return the awards and the prizes nobody could take, with reasons."""
    state = _State(rankings, eligible)
    cash = [o for o in offers if o.amount is not None and not o.prize.each]
    cash.sort(key=lambda o: (-(o.amount or 0), o.index))
    for offer in cash:
        if offer.index not in state.paid:
            state.cash(offer, [o for o in cash if o.series == offer.series], ties, cash)
    for offer in sorted((o for o in offers if o.prize.each), key=lambda o: o.index):
        state.each(offer, attribute)
    for offer in sorted((o for o in offers if o.amount is None), key=lambda o: o.index):
        state.title(offer)
    return state.won, state.missed


class _State:
    def __init__(self, rankings: dict[str, list[Ranked]], eligible: Eligible):
        self.rankings = rankings
        self.eligible = eligible
        self.paid: set[int] = set()
        self.winners: set[PlayerKey] = set()
        self.titled: set[PlayerKey] = set()
        self.won: list[Won] = []
        self.missed: list[NotAwarded] = []
        self.series_of: dict[PlayerKey, tuple[str, str]] = {}  # the series of each winner's prize

    def candidates(self, offer: Offer, taken: set[PlayerKey]) -> list[Ranked]:
        ranking = self.rankings.get(offer.prize.ranking, [])
        return [s for s in ranking if s.key not in taken and self.eligible(offer.prize, s.key)]

    def give(self, offer: Offer, who: Ranked, amount: Fraction | None, reason: str) -> None:
        note = f"; {offer.note}" if offer.note else ""
        if amount is not None:
            self.series_of.setdefault(who.key, offer.series)
        self.won.append(
            Won(
                offer.prize.name,
                offer.prize.ranking,
                who.key,
                who.name,
                who.place,
                amount,
                offer.prize.title,
                reason + note,
            )
        )

    def cash(self, offer: Offer, series: list[Offer], ties: str, every: list[Offer]) -> None:
        found = self.candidates(offer, self.winners)
        if not found:
            self.paid.add(offer.index)
            self.missed.append(
                NotAwarded(offer.prize.name, _("no eligible player without a prize"))
            )
            return
        top = found[0]
        tied = [s for s in found if (s.first, s.last) == (top.first, top.last)]
        above = self.candidates(offer, set())
        higher = above[: above.index(top)] if top in above else []
        passed = sum(1 for s in higher if self.series_of.get(s.key) != offer.series)
        down = (
            "; "
            + ngettext(
                "{n} eligible player above took another prize (one prize each)",
                "{n} eligible players above took another prize (one prize each)",
                passed,
            ).format(n=passed)
            if passed
            else ""
        )
        if len(tied) == 1 or ties == "tiebreak":
            how = _("place {place}").format(place=top.place)
            if len(tied) > 1:
                how += ", " + ngettext(
                    "ahead of {n} tied player by the tie-break order",
                    "ahead of {n} tied players by the tie-break order",
                    len(tied) - 1,
                ).format(n=len(tied) - 1)
            self._take(offer, top, offer.amount, how + down)
            return
        free = [o for o in series if o.index not in self.paid]
        free.sort(key=lambda o: o.index)
        if ties == "hort":
            self._hort(free, tied)
        else:
            self._pool(offer, free, tied, every)

    def _take(self, offer: Offer, who: Ranked, amount: Fraction | None, reason: str) -> None:
        self.paid.add(offer.index)
        self.winners.add(who.key)
        self.give(offer, who, amount, reason)

    def _hort(self, free: list[Offer], tied: list[Ranked]) -> None:
        """Hort system: half of each place's prize by tie-break order, half shared equally."""
        shared = free[: len(tied)]
        amounts = [o.amount or Fraction(0) for o in shared] + [Fraction(0)] * len(tied)
        total = sum(amounts[: len(tied)], Fraction(0))
        for i, who in enumerate(tied):
            value = amounts[i] / 2 + total / (2 * len(tied))
            offer = shared[i] if i < len(shared) else shared[-1]
            reason = _(
                "tied {place} ({n} players): half of the prize of the {rank}. place of the tie "
                "+ half of {amount} shared (Hort)"
            ).format(place=who.place, n=len(tied), rank=i + 1, amount=decimal(show(total, 2)))
            self.winners.add(who.key)
            self.give(offer, who, value, reason)
        self.paid.update(o.index for o in shared)

    def _pool(
        self, offer: Offer, free: list[Offer], tied: list[Ranked], every: list[Offer]
    ) -> None:
        """US Chess 32B3: the tied players split the prizes of the places they share, one prize
        each; a player who would get more from a prize the others cannot win leaves the pool."""
        pool = list(tied)
        while True:
            share = self._share(free, len(pool))
            leave = [t for t in pool if self._alternative(t, offer, tied, every) > share]
            if not leave or len(leave) == len(pool):
                break
            pool = [t for t in pool if t not in leave]
        used = free[: len(pool)]
        total = sum((o.amount or Fraction(0) for o in used), Fraction(0))
        names = " + ".join(o.prize.name for o in used)
        for who in pool:
            reason = _(
                "tied {place} ({n} sharing): {prizes} = {amount} split {n} ways (UCC-10, "
                "US Chess 32B3)"
            ).format(place=who.place, n=len(pool), prizes=names, amount=decimal(show(total, 2)))
            self.winners.add(who.key)
            self.give(offer, who, total / len(pool), reason)
        self.paid.update(o.index for o in used)

    @staticmethod
    def _share(free: list[Offer], players: int) -> Fraction:
        used = free[:players]
        return sum((o.amount or Fraction(0) for o in used), Fraction(0)) / players

    def _alternative(
        self, who: Ranked, offer: Offer, tied: list[Ranked], every: list[Offer]
    ) -> Fraction:
        """The most this player could get from another prize, shared with the tied players
        also eligible for it."""
        best = Fraction(0)
        for other in every:
            if other.index in self.paid or other.series == offer.series or other.amount is None:
                continue
            if not self.eligible(other.prize, who.key):
                continue
            if who not in self.rankings.get(other.prize.ranking, []):
                continue
            sharing = sum(1 for t in tied if self.eligible(other.prize, t.key))
            best = max(best, other.amount / max(1, sharing))
        return best

    def each(self, offer: Offer, attribute: Attribute) -> None:
        """ACF-8: one prize to the best player of each region that has no prize winner."""
        name = offer.prize.each or ""
        covered = {attribute(k, name) for k in self.winners}
        given = set()
        for who in self.candidates(offer, self.winners):
            value = attribute(who.key, name)
            if value and value not in covered and value not in given:
                given.add(value)
                self.winners.add(who.key)
                self.give(
                    offer,
                    who,
                    offer.amount,
                    _(
                        "best player of {attribute} {value}, which has no other prize winner "
                        "(ACF-8)"
                    ).format(attribute=attribute_label(name), value=value),
                )
        if not given:
            self.missed.append(
                NotAwarded(
                    offer.prize.name,
                    _("every {attribute} has a prize winner").format(
                        attribute=attribute_label(name)
                    ),
                )
            )

    def title(self, offer: Offer) -> None:
        """Trophies and titles: the tie-break order decides, never shared (UCC-12)."""
        found = self.candidates(offer, self.titled)
        if not found:
            self.missed.append(NotAwarded(offer.prize.name, _("no eligible player")))
            return
        who = found[0]
        self.titled.add(who.key)
        tied = sum(1 for s in found if (s.first, s.last) == (who.first, who.last))
        if tied > 1:
            reason = _(
                "highest placed eligible player (place {place}, first of {n} tied players "
                "by tie-break)"
            ).format(place=who.place, n=tied)
        else:
            reason = _("highest placed eligible player (place {place})").format(place=who.place)
        self.give(offer, who, None, reason)
