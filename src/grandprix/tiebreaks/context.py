"""What every tie-break needs of a section, computed once, in exact integer units.

Points are held as integers in units of ``1/scale`` (``scale`` is 2 for 1/½/0 scoring), so the
tie-breaks run on plain ints and are turned back into ``Fraction`` only when returned.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from grandprix.language import N_
from grandprix.model import ResultKind, Section

K = ResultKind


class Rules(enum.Enum):
    """Which rule book defines the tie-breaks; always chosen explicitly, never from a date.

    The registry of rule books, in the order the CLI lists them: a new one is a member here with
    its name in ``TITLES``, and its codes in ``tiebreaks.TIEBREAKS``.
    """

    FIDE_2024 = "fide-2024"  # C.07 approved 29/07/2024, applied 1 Aug 2024 (art. 16, no cap)
    FIDE_2026 = "fide-2026"  # C.07 approved 02/02/2026, applied 1 Mar 2026 (art. 16.4 capped)
    FIDE_2009 = "fide-2009"  # 2009 Congress "virtual opponent" (Handbook 2012 C.02 §13.15)
    US_CHESS = "us-chess"  # US Chess Official Rules, 7th ed., rule 34E
    LICHESS = "lichess"  # lichess's Swiss tie-break (lila SwissScoring.computePlayers)

    @property
    def title(self) -> str:
        """The rule book in words, marked for translation (shown through ``_``): 'FIDE's 2024
        rules'."""
        return TITLES[self]


TITLES = {
    Rules.FIDE_2024: N_("FIDE's 2024 rules"),
    Rules.FIDE_2026: N_("FIDE's 2026 rules"),
    Rules.FIDE_2009: N_("FIDE's 2009 rules"),
    Rules.US_CHESS: N_("the US Chess rules"),
    Rules.LICHESS: N_("lichess's rules"),
}


@dataclass(frozen=True)
class Adjusted:
    """Scores as seen by others (art. 16.3) and as used for own dummy rounds (art. 16.4)."""

    as_opponent: list[int]  # AdjScore: category-5 rounds valued as a draw
    own: list[int]  # the participant's own score (Fore-adjusted for FB)


class Context:
    """One section prepared for tie-breaks: players by index 0..N-1, rounds by index 0..n-1."""

    def __init__(self, section: Section, rules: Rules, unrated_rating: int | None = None):
        self.section = section
        self.rules = rules
        self.n = section.rounds
        self.round_robin = section.round_robin
        self.unrated_rating = unrated_rating
        players = section.players
        self.index = {p.start_no: i for i, p in enumerate(players)}
        scoring = section.scoring
        denominators = {r.points.denominator for p in players for r in p.rounds}
        self.scale = math.lcm(scoring.win.denominator, scoring.draw.denominator, *denominators)
        self.win = self._units(scoring.win)
        self.draw = self._units(scoring.draw)
        self.kinds: list[list[ResultKind]] = []
        self.pts: list[list[int]] = []
        self.opp: list[list[int]] = []
        self.colour: list[list[str | None]] = []
        for p in players:
            self.kinds.append([r.kind for r in p.rounds])
            self.pts.append([self._units(r.points) for r in p.rounds])
            self.opp.append(
                [self.index.get(r.opponent, -1) if r.opponent is not None else -1 for r in p.rounds]
            )
            self.colour.append([r.colour for r in p.rounds])
        self.score = [sum(p) for p in self.pts]
        self.ratings: list[int | None] = [p.rating for p in players]
        self._adjusted: dict[bool, Adjusted] = {}

    def _units(self, value: Fraction) -> int:
        return value.numerator * (self.scale // value.denominator)

    def value(self, units: int | None, power: int = 1) -> Fraction | None:
        """Units back to points (``power`` 2 for products of two scores, as in SB)."""
        return None if units is None else Fraction(units, self.scale**power)

    @property
    def size(self) -> int:
        return len(self.pts)

    @cached_property
    def last_not_vur(self) -> list[int]:
        """The last round (1-based) that is not a voluntary unplayed round; 0 if none (16.2)."""
        out = []
        for kinds in self.kinds:
            last = 0
            for r, kind in enumerate(kinds, start=1):
                if not kind.voluntary_unplayed:
                    last = r
            out.append(last)
        return out

    @cached_property
    def last_paired(self) -> list[int]:
        """The last round (1-based) with an opponent, a game or a pairing-allocated bye."""
        out = []
        for i, kinds in enumerate(self.kinds):
            last = 0
            for r, kind in enumerate(kinds, start=1):
                if self.opp[i][r - 1] >= 0 or kind.played or kind is K.PAIRING_BYE:
                    last = r
            out.append(last)
        return out

    @cached_property
    def unplayed_as_draws(self) -> list[int]:
        """Scores with every unplayed round counted as a draw (FIDE 2009 rule (b), US Chess 34E)."""
        return [
            sum(p if k.played else self.draw for k, p in zip(kinds, pts, strict=True))
            for kinds, pts in zip(self.kinds, self.pts, strict=True)
        ]

    def adjusted(self, fore: bool = False) -> Adjusted:
        """FIDE C.07 art. 16.3 adjusted scores; with ``fore`` the art. 8.3 Fore hypothesis too.

        A round of category 16.2.5 (a requested bye followed only by voluntary unplayed rounds,
        i.e. the player left) counts as a draw for the player's opponents. With ``fore`` every
        paired final-round game counts as a draw for both players. In a pre-determined (round
        robin) event such rounds count zero, as in the FIDE TEC reference program.
        """
        cached = self._adjusted.get(fore)
        if cached is not None:
            return cached
        as_opp, own = [], []
        no_opponent = 0 if self.round_robin else self.draw
        for i in range(self.size):
            lna = self.last_not_vur[i]
            fore_player = fore and self.n > 0 and self.last_paired[i] == self.n
            if fore_player:
                lna = self.n
            total = 0
            for r in range(self.n):
                has_opp = r < lna or self.opp[i][r] >= 0
                total += self.pts[i][r] if has_opp else no_opponent
            own_score = self.score[i]
            if fore_player and self.opp[i][self.n - 1] >= 0:
                shift = self.draw - self.pts[i][self.n - 1]
                total += shift
                own_score += shift
            as_opp.append(total)
            own.append(own_score)
        result = Adjusted(as_opp, own)
        self._adjusted[fore] = result
        return result

    def opponents_mean(self, values: Sequence[Fraction | None]) -> list[Fraction | None]:
        """Each player's exact mean of ``values`` over the opponents met over the board whose value
        is known, None if none is: the average of the opponents' Buchholz (C.07 art. 8.2), TPR
        (art. 10.4) or PTP (art. 10.5), which the caller rounds as its article says."""
        out: list[Fraction | None] = []
        for opp, kinds in zip(self.opp, self.kinds, strict=True):
            met = [values[opp[r]] for r in range(self.n) if opp[r] >= 0 and kinds[r].played]
            known = [v for v in met if v is not None]
            out.append(sum(known, Fraction(0)) / len(known) if known else None)
        return out

    def met_over_the_board(self, i: int, r: int, forfeits_count: bool = False) -> bool:
        """Round r of player i is a game against a real opponent for type-C tie-breaks.

        Forfeits count as played in pre-determined events (art. 15) or with the /P modifier.
        """
        if self.opp[i][r] < 0:
            return False
        return self.kinds[i][r].played or self.round_robin or forfeits_count
