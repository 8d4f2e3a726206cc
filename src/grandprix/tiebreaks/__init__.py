"""Tie-breaks: one small pure function per system, grouped by the rule book that defines it.

Two registries live here. ``Rules`` (in ``context``) is the list of rule books: the CLI's
``--tiebreak-rules`` choices and the schema's ``tiebreak_rules`` type are drawn from it.
``TIEBREAKS`` maps each rule book to the codes it accepts, each with the function computing it,
its name and meaning in words (the pages' words, marked for translation) and the modifiers it
takes; parsing, the error listing the known codes, placing and the pages use it. Every
function takes a prepared ``Context`` and a parsed ``Spec`` and returns one exact value per
player (``None`` where the tie-break cannot be computed, e.g. rating-based ones with unrated
players). Direct encounter depends on who is tied and is computed by ``placings``.
"""

from __future__ import annotations

from grandprix.language import N_
from grandprix.tiebreaks import buchholz, legacy, lichess, own, rating, uschess
from grandprix.tiebreaks.codes import Function, Spec, TieBreak, parse_codes
from grandprix.tiebreaks.context import Context, Rules

# The words of a code that several rule books compute each in its own way.
_BUCHHOLZ = (
    N_("Buchholz"),
    N_("The sum of the scores of the player's opponents: the stronger the field met, the higher."),
)
_SONNEBORN_BERGER = (
    N_("Sonneborn-Berger"),
    N_("The scores of the opponents the player beat, plus half the scores of those drawn with."),
)
_ROUNDS_ELECTED = (
    N_("rounds played"),
    N_(
        "The rounds the player chose to play: every round but half- and zero-point byes, "
        "forfeit losses and the rounds after withdrawing."
    ),
)
_OWN = {
    "WIN": TieBreak(
        own.wins,
        N_("number of wins"),
        N_(
            "The rounds in which the player scored the points of a win, byes and forfeits included."
        ),
    ),
    "WON": TieBreak(
        own.games_won,
        N_("number of games won"),
        N_("The games won over the board (forfeits and byes not counted)."),
    ),
    "BPG": TieBreak(
        own.black_games,
        N_("games played with black"),
        N_("The games played over the board with Black."),
    ),
    "BWG": TieBreak(
        own.black_wins, N_("games won with black"), N_("The games won over the board with Black.")
    ),
    "PS": TieBreak(
        own.progressive,
        N_("progressive score"),
        N_("The player's running scores after each round added up: early points weigh more."),
        cuts=True,
    ),
    "KS": TieBreak(
        own.koya,
        N_("Koya"),
        N_(
            "The points scored against the opponents who finished with at least half the "
            "possible score."
        ),
    ),
}
_RATING = {
    "ARO": TieBreak(
        rating.average_rating,
        N_("average rating of the opponents"),
        N_("The average rating of the opponents met over the board."),
        cuts=True,
    ),
    "TPR": TieBreak(
        rating.performance,
        N_("performance rating"),
        N_(
            "The average rating of the opponents plus the rating difference the player's "
            "percentage score stands for."
        ),
        cuts=True,
    ),
    "PTP": TieBreak(
        rating.perfect_performance,
        N_("perfect tournament performance"),
        N_(
            "The lowest rating whose expected score against these opponents reaches the "
            "player's score."
        ),
        cuts=True,
    ),
    "APRO": TieBreak(
        rating.average_performance,
        N_("average performance of the opponents"),
        N_("The average of the performance ratings of the player's opponents."),
    ),
    "APPO": TieBreak(
        rating.average_perfect_performance,
        N_("average perfect performance of the opponents"),
        N_("The average of the perfect tournament performances of the player's opponents."),
    ),
}
_DIRECT_ENCOUNTER = TieBreak(
    None,
    N_("the games between the tied players"),
    N_(
        "The place among the tied players by the points scored in the games between them "
        "(1 is best)."
    ),
)
_FIDE = {
    **_OWN,
    **_RATING,
    "BH": TieBreak(buchholz.buchholz, *_BUCHHOLZ, cuts=True),
    "FB": TieBreak(
        buchholz.fore_buchholz,
        N_("Fore Buchholz"),
        N_("Buchholz counted as if every game of the last round had been drawn."),
        cuts=True,
    ),
    "AOB": TieBreak(
        buchholz.average_of_buchholz,
        N_("average Buchholz of the opponents"),
        N_("The average of the Buchholz of the player's opponents."),
        cuts=True,
    ),
    "SB": TieBreak(buchholz.sonneborn_berger, *_SONNEBORN_BERGER, cuts=True),
    "REP": TieBreak(own.rounds_elected, *_ROUNDS_ELECTED),
    "GE": TieBreak(own.rounds_elected, *_ROUNDS_ELECTED),
    "DE": _DIRECT_ENCOUNTER,
}

TIEBREAKS: dict[Rules, dict[str, TieBreak]] = {
    Rules.FIDE_2024: _FIDE,
    Rules.FIDE_2026: _FIDE,
    Rules.FIDE_2009: {
        **_OWN,
        **_RATING,
        "BH": TieBreak(legacy.buchholz_2009, *_BUCHHOLZ, cuts=True),
        "SB": TieBreak(legacy.sonneborn_berger_2009, *_SONNEBORN_BERGER, cuts=True),
        "DE": _DIRECT_ENCOUNTER,
    },
    Rules.US_CHESS: {
        "MM": TieBreak(
            uschess.modified_median,
            N_("modified median"),
            N_(
                "The sum of the opponents' scores less the lowest for a plus score, the highest "
                "for a minus score and both for an even score (two at each end from nine rounds)."
            ),
        ),
        "MED": TieBreak(
            uschess.median,
            N_("median"),
            N_(
                "The sum of the opponents' scores less the highest and the lowest (two of each "
                "from nine rounds)."
            ),
        ),
        "SOLK": TieBreak(
            uschess.solkoff,
            N_("Solkoff"),
            N_("The sum of the opponents' scores, their unplayed games counted as draws."),
        ),
        "CUM": TieBreak(
            uschess.cumulative,
            N_("cumulative score"),
            N_(
                "The player's running scores after each round added up, less the points of "
                "unplayed rounds: early points weigh more."
            ),
            rule_book=True,
        ),
        "OCUM": TieBreak(
            uschess.opposition_cumulative,
            N_("opponents' cumulative score"),
            N_("The sum of the opponents' cumulative scores."),
            rule_book=True,
        ),
        "KASH": TieBreak(
            uschess.kashdan,
            N_("Kashdan"),
            N_(
                "Four for each win, two for each draw and one for each loss over the board: "
                "playing for a win counts."
            ),
        ),
        "SB": TieBreak(uschess.sonneborn_berger_us, *_SONNEBORN_BERGER, cuts=True),
        "BPG": _OWN["BPG"],
        "WIN": _OWN["WIN"],
        "DE": _DIRECT_ENCOUNTER,
    },
    Rules.LICHESS: {
        "SB": TieBreak(
            lichess.sonneborn_berger,
            _SONNEBORN_BERGER[0],
            N_(
                "As lichess counts it: the points of the opponents the player beat, plus half "
                "those of the opponents drawn with; a bye given by the pairing counts as a win "
                "over an opponent with the player's points before that round and a draw in "
                "every later round."
            ),
        )
    },
}


def rules_table(rules: Rules) -> dict[str, Function]:
    """The tie-break functions of a rule book, by code (DE is handled by placings)."""
    return {code: t.compute for code, t in TIEBREAKS[rules].items() if t.compute is not None}


def parse(text: str, rules: Rules) -> list[Spec]:
    """Parse a list of codes for a rule book; unknown codes raise ``UsageError``."""
    return parse_codes(text, TIEBREAKS[rules])


__all__ = ["TIEBREAKS", "Context", "Rules", "Spec", "TieBreak", "parse", "rules_table"]
