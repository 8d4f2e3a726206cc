"""Tie-breaks: one small pure function per system, grouped by the rule book that defines it.

``rules_table(rules)`` maps each code accepted under a rule book to its function; every function
takes a prepared ``Context`` and a parsed ``Spec`` and returns one exact value per player
(``None`` where the tie-break cannot be computed, e.g. rating-based ones with unrated players).
Direct encounter depends on who is tied and is computed by ``placings``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from grandprix.tiebreaks import buchholz, legacy, own, rating, uschess
from grandprix.tiebreaks.codes import FIDE_NAMES, US_NAMES, Spec, parse_codes
from grandprix.tiebreaks.context import Context, Rules

Values = list[Fraction | None]
Function = Callable[[Context, Spec], Values]

_OWN: dict[str, Function] = {
    "WIN": own.wins,
    "WON": own.games_won,
    "BPG": own.black_games,
    "BWG": own.black_wins,
    "PS": own.progressive,
    "KS": own.koya,
}
_RATING: dict[str, Function] = {
    "ARO": rating.average_rating,
    "TPR": rating.performance,
    "PTP": rating.perfect_performance,
    "APRO": rating.average_performance,
    "APPO": rating.average_perfect_performance,
}
_FIDE: dict[str, Function] = {
    **_OWN,
    **_RATING,
    "BH": buchholz.buchholz,
    "FB": buchholz.fore_buchholz,
    "AOB": buchholz.average_of_buchholz,
    "SB": buchholz.sonneborn_berger,
    "REP": own.rounds_elected,
    "GE": own.rounds_elected,
}
_FIDE_2009: dict[str, Function] = {
    **_OWN,
    **_RATING,
    "BH": legacy.buchholz_2009,
    "SB": legacy.sonneborn_berger_2009,
}
_US: dict[str, Function] = {
    "MM": uschess.modified_median,
    "MED": uschess.median,
    "SOLK": uschess.solkoff,
    "CUM": uschess.cumulative,
    "OCUM": uschess.opposition_cumulative,
    "KASH": uschess.kashdan,
    "SB": uschess.sonneborn_berger_us,
    "BPG": own.black_games,
    "WIN": own.wins,
}


def rules_table(rules: Rules) -> dict[str, Function]:
    """The tie-break functions of a rule book, by code (DE is handled by placings)."""
    if rules is Rules.US_CHESS:
        return _US
    if rules is Rules.FIDE_2009:
        return _FIDE_2009
    return _FIDE


def accepted_names(rules: Rules) -> frozenset[str]:
    """Codes accepted under a rule book, DE included."""
    if rules is Rules.US_CHESS:
        return US_NAMES
    return frozenset(rules_table(rules)) | {"DE"}


def parse(text: str, rules: Rules) -> list[Spec]:
    """Parse a list of codes for a rule book; unknown codes raise ``UsageError``."""
    return parse_codes(text, accepted_names(rules))


__all__ = ["FIDE_NAMES", "Context", "Rules", "Spec", "accepted_names", "parse", "rules_table"]
