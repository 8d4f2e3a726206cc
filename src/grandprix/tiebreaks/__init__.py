"""Tie-breaks: one small pure function per system, grouped by the rule book that defines it.

Two registries live here. ``Rules`` (in ``context``) is the list of rule books: the CLI's
``--tiebreak-rules`` choices and the schema's ``tiebreak_rules`` type are drawn from it.
``TIEBREAKS`` maps each rule book to the codes it accepts, each with the function computing it
and the modifiers it takes; parsing, the error listing the known codes and placing use it. Every
function takes a prepared ``Context`` and a parsed ``Spec`` and returns one exact value per
player (``None`` where the tie-break cannot be computed, e.g. rating-based ones with unrated
players). Direct encounter depends on who is tied and is computed by ``placings``.
"""

from __future__ import annotations

from grandprix.tiebreaks import buchholz, legacy, lichess, own, rating, uschess
from grandprix.tiebreaks.codes import Function, Spec, TieBreak, parse_codes
from grandprix.tiebreaks.context import Context, Rules

_OWN = {
    "WIN": TieBreak(own.wins),
    "WON": TieBreak(own.games_won),
    "BPG": TieBreak(own.black_games),
    "BWG": TieBreak(own.black_wins),
    "PS": TieBreak(own.progressive, cuts=True),
    "KS": TieBreak(own.koya),
}
_RATING = {
    "ARO": TieBreak(rating.average_rating, cuts=True),
    "TPR": TieBreak(rating.performance, cuts=True),
    "PTP": TieBreak(rating.perfect_performance, cuts=True),
    "APRO": TieBreak(rating.average_performance),
    "APPO": TieBreak(rating.average_perfect_performance),
}
_DIRECT_ENCOUNTER = TieBreak(None)
_FIDE = {
    **_OWN,
    **_RATING,
    "BH": TieBreak(buchholz.buchholz, cuts=True),
    "FB": TieBreak(buchholz.fore_buchholz, cuts=True),
    "AOB": TieBreak(buchholz.average_of_buchholz, cuts=True),
    "SB": TieBreak(buchholz.sonneborn_berger, cuts=True),
    "REP": TieBreak(own.rounds_elected),
    "GE": TieBreak(own.rounds_elected),
    "DE": _DIRECT_ENCOUNTER,
}

TIEBREAKS: dict[Rules, dict[str, TieBreak]] = {
    Rules.FIDE_2024: _FIDE,
    Rules.FIDE_2026: _FIDE,
    Rules.FIDE_2009: {
        **_OWN,
        **_RATING,
        "BH": TieBreak(legacy.buchholz_2009, cuts=True),
        "SB": TieBreak(legacy.sonneborn_berger_2009, cuts=True),
        "DE": _DIRECT_ENCOUNTER,
    },
    Rules.US_CHESS: {
        "MM": TieBreak(uschess.modified_median),
        "MED": TieBreak(uschess.median),
        "SOLK": TieBreak(uschess.solkoff),
        "CUM": TieBreak(uschess.cumulative, rule_book=True),
        "OCUM": TieBreak(uschess.opposition_cumulative, rule_book=True),
        "KASH": TieBreak(uschess.kashdan),
        "SB": TieBreak(uschess.sonneborn_berger_us, cuts=True),
        "BPG": TieBreak(own.black_games),
        "WIN": TieBreak(own.wins),
        "DE": _DIRECT_ENCOUNTER,
    },
    Rules.LICHESS: {"SB": TieBreak(lichess.sonneborn_berger)},
}


def rules_table(rules: Rules) -> dict[str, Function]:
    """The tie-break functions of a rule book, by code (DE is handled by placings)."""
    return {code: t.compute for code, t in TIEBREAKS[rules].items() if t.compute is not None}


def parse(text: str, rules: Rules) -> list[Spec]:
    """Parse a list of codes for a rule book; unknown codes raise ``UsageError``."""
    return parse_codes(text, TIEBREAKS[rules])


__all__ = ["TIEBREAKS", "Context", "Rules", "Spec", "TieBreak", "parse", "rules_table"]
