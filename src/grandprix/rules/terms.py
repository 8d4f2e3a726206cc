"""The kinds of term an event's points can add up (``points.terms``), as the rule language
knows them: ``TERM_KINDS``, one entry a kind, holds what is said of it: the rule-set
reference's description, what the points are for in an award's sentence, its meaning on the
rules page, what of an event still to play the race cannot bound when a rule set uses it,
whether it reads the size of the field or a figure of the player's own from the results file.
Its value is worked out by ``season/terms.TERM_VALUES`` (the season layer, where places become
points), entry for entry: a new kind is an entry in each, and its words reach the catalogs by
``make messages``."""

from __future__ import annotations

from dataclasses import dataclass

from grandprix.language import N_


@dataclass(frozen=True)
class TermKind:
    """One kind of term, in words."""

    doc: str  # the rule-set reference's words for the kind
    words: str  # what the points are for, in an award's sentence: '2.00 for the score'
    # On the rules page: '{factor}' the term's factor, '{points}' its amount, '{games}' what each
    # kind of round is worth to it.
    meaning: str
    meaning_times: str = ""  # the same with a factor other than 1 ('' when it has none)
    depends: str = ""  # what of an event left the race cannot bound ('': its place table)
    by_size: bool = False  # reads the size of the section
    own: bool = False  # reads a figure of the player's own (a percentage, the games' points)
    # Its value bounds the sum of the terms before it (the points of an event capped at N:
    # recorded, where it binds, as what it changes) rather than adding to it.
    bound: bool = False


TERM_KINDS: dict[str, TermKind] = {
    "place": TermKind(
        "the points table of the player's place, with `ties` and the other place keys",
        N_("the place"),
        N_("the points of the player's place (below)"),
    ),
    "score": TermKind(
        "the player's game score in the event x `factor`",
        N_("the score"),
        N_("the player's score in the event"),
        N_("{factor} x the player's score in the event"),
        depends=N_("the scores its players make"),
    ),
    "from-bottom": TermKind(
        "the place counted from the bottom, N - place + 1 for N players of the section, x "
        "`factor` (tied players as `ties` says: the mean of their places', or the best "
        "place's for `full` and `best`)",
        N_("the places below"),
        N_(
            "their place counted from the bottom of the field (the last player 1, the one "
            "above 2, and so on)"
        ),
        N_(
            "{factor} x their place counted from the bottom of the field (the last player 1, "
            "the one above 2, and so on)"
        ),
        depends=N_("the size of its field"),
        by_size=True,
    ),
    "fixed": TermKind(
        "`amount` for taking part",
        N_("taking part"),
        N_("{points} for taking part"),
        depends=N_("who takes part"),
    ),
    "percent": TermKind(
        "the player's score as a percentage of the most they could have scored, x `factor`: "
        "the results file's `percent` column (`%`) where the program printed it, else 100 x "
        "the score / the section's rounds (DWS-1, D-DWS-1)",
        N_("the percentage score"),
        N_("the player's percentage score in the event"),
        N_("{factor} x the player's percentage score in the event"),
        depends=N_("the scores its players make"),
        own=True,
    ),
    "games": TermKind(
        "the player's rounds added up, each worth what `per_game` gives its kind: a win, a "
        "draw, a loss, a forfeit, a bye, a round not played (DWO-1: 3, 2, 1, and 2 a bye); "
        "the event's file must give its games (a crosstable or a list of games)",
        N_("the games"),
        N_("the player's games in the event ({games})"),
        depends=N_("the games its players play"),
        own=True,
    ),
    "performance": TermKind(
        "the player's performance rating in the event x `factor`: the results file's "
        "`performance` column (Rp, TPR) as the pairing program published it, else worked out "
        "from the crosstable as FIDE's tie-break rules define it (C.07 art. 10.2) (KEN-2)",
        N_("the performance rating"),
        N_("the player's performance rating in the event"),
        N_("{factor} x the player's performance rating in the event"),
        depends=N_("the games its players play"),
        own=True,
    ),
    "at-most": TermKind(
        "the terms before it capped: their sum is at most `amount` (a player's points in an "
        "event capped at N); recorded, where it binds, as the points it takes away",
        N_("the cap of {points}"),
        N_("A player's points in an event are at most {points}."),
        bound=True,
    ),
}
