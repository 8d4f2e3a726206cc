"""Settings said in words, for the rules page: numbers and places, dates of the rule set as
days of the season, conditions on players, rating lists and tie-breaks.

Each function turns one kind of setting into the words a reader understands; none shows a key
name or a value as the settings file spells it.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Sequence
from fractions import Fraction

from grandprix.language import long_date
from grandprix.language import ordinal as ordinal
from grandprix.numbers import show
from grandprix.rules.schema import Conditions, DateRef
from grandprix.season.divisions import resolve
from grandprix.season.model import Season

NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
)
# Columns of players.csv that rules often name, as a reader calls them.
ATTRIBUTES = {
    "region": "region",
    "member": "federation member",
    "federation": "federation",
    "attended": "present at the prize giving",
    "club": "club",
}
LISTS = {
    "fide-standard": "FIDE standard",
    "fide-rapid": "FIDE rapid",
    "fide-blitz": "FIDE blitz",
    "national": "national",
}
TIEBREAK_NAMES = {
    "BH": "Buchholz",
    "FB": "Fore Buchholz",
    "AOB": "average Buchholz of the opponents",
    "SB": "Sonneborn-Berger",
    "KS": "Koya",
    "DE": "the games between the tied players",
    "WIN": "number of wins",
    "WON": "number of games won",
    "BPG": "games played with black",
    "BWG": "games won with black",
    "PS": "progressive score",
    "REP": "rounds played",
    "GE": "rounds played",
    "ARO": "average rating of the opponents",
    "TPR": "performance rating",
    "PTP": "perfect tournament performance",
    "APRO": "average performance of the opponents",
    "APPO": "average perfect performance of the opponents",
    "MM": "modified median",
    "MED": "median",
    "SOLK": "Solkoff",
    "CUM": "cumulative score",
    "OCUM": "opponents' cumulative score",
    "KASH": "Kashdan",
}
# What each tie-break measures, in one sentence (an event page explains its columns with them).
TIEBREAK_MEANINGS = {
    "BH": "The sum of the scores of the player's opponents: the stronger the field met, the "
    "higher.",
    "FB": "Buchholz counted as if every game of the last round had been drawn.",
    "AOB": "The average of the Buchholz of the player's opponents.",
    "SB": "The scores of the opponents the player beat, plus half the scores of those drawn with.",
    "KS": "The points scored against the opponents who finished with at least half the "
    "possible score.",
    "DE": "The place among the tied players by the points scored in the games between them "
    "(1 is best).",
    "WIN": "The rounds in which the player scored the points of a win, byes and forfeits included.",
    "WON": "The games won over the board (forfeits and byes not counted).",
    "BPG": "The games played over the board with Black.",
    "BWG": "The games won over the board with Black.",
    "PS": "The player's running scores after each round added up: early points weigh more.",
    "REP": "The rounds the player chose to play: every round but half- and zero-point byes, "
    "forfeit losses and the rounds after withdrawing.",
    "GE": "The rounds the player chose to play: every round but half- and zero-point byes, "
    "forfeit losses and the rounds after withdrawing.",
    "ARO": "The average rating of the opponents met over the board.",
    "TPR": "The average rating of the opponents plus the rating difference the player's "
    "percentage score stands for.",
    "PTP": "The lowest rating whose expected score against these opponents reaches the "
    "player's score.",
    "APRO": "The average of the performance ratings of the player's opponents.",
    "APPO": "The average of the perfect tournament performances of the player's opponents.",
    "MM": "The sum of the opponents' scores less the lowest for a plus score, the highest for a "
    "minus score and both for an even score (two at each end from nine rounds).",
    "MED": "The sum of the opponents' scores less the highest and the lowest (two of each from "
    "nine rounds).",
    "SOLK": "The sum of the opponents' scores, their unplayed games counted as draws.",
    "CUM": "The player's running scores after each round added up, less the points of "
    "unplayed rounds: early points weigh more.",
    "OCUM": "The sum of the opponents' cumulative scores.",
    "KASH": "Four for each win, two for each draw and one for each loss over the board: playing "
    "for a win counts.",
}
TIEBREAK_BOOKS = {
    "fide-2009": "FIDE's 2009 rules",
    "fide-2024": "FIDE's 2024 rules",
    "fide-2026": "FIDE's 2026 rules",
    "us-chess": "the US Chess rules",
}
SEASON_TIEBREAKS = {
    "discarded": "the total of their results that did not count (more is better)",
    "best": "their best single result",
    "last-event": "their place in the season's last event (players who missed it come after "
    "those who played it)",
    "events": "the number of events they played (more is better)",
    "per-event": "their total divided by the number of results counted (more is better)",
}
DATE_NAMES = {
    "season-start": "the first day of the season",
    "season-end": "the last day of the season",
    "last-event": "the day of the season's last event",
}


def number(n: int) -> str:
    """'six', 'twelve', '14'."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


def count(n: int, noun: str, plural: str = "") -> str:
    """'six divisions', 'one prize', '14 prizes'."""
    return f"{number(n)} {noun if n == 1 else plural or noun + 's'}"


def listing(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def day(date: datetime.date) -> str:
    """'1 January 2004', '1 gennaio 2004'."""
    return long_date(date)


def on_day(ref: DateRef, season: Season) -> str:
    """A date of the rule set as a day of this season: '20 April 2013 (the day of the season's
    last event)'."""
    found = day(resolve(ref, season))
    return found if isinstance(ref, datetime.date) else f"{found} ({DATE_NAMES[ref]})"


def share(percent: Fraction) -> str:
    """A share of something in words: 'half' for 50, else '30%'."""
    return "half" if percent == 50 else f"{show(percent)}%"


@functools.lru_cache(maxsize=4096)
def place_span(span: str) -> str:
    """'3' -> '3rd', '3-4' -> '3rd-4th'."""
    return "-".join(ordinal(int(p)) for p in span.split("-"))


def attribute(name: str) -> str:
    return ATTRIBUTES.get(name.casefold(), name.replace("_", " ").replace("-", " "))


def any_of(wanted: str | list[str]) -> str:
    return listing([wanted] if isinstance(wanted, str) else wanted, "or")


def has(name: str, wanted: str | list[str]) -> str:
    """A condition on a column of the players list: 'federation member', 'region VIC'."""
    label, value = attribute(name), any_of(wanted)
    if value.casefold() in ("yes", "no"):
        return label if value.casefold() == "yes" else f"not {label}"
    return f"{label} {value}"


def rating_list(kind: str) -> str:
    """A kind of rating list in words: 'FIDE standard rating list', 'national rapid ...'."""
    national = kind.removeprefix("national-").replace("-", " ")
    words = LISTS.get(kind) or (f"national {national}" if kind.startswith("national-") else kind)
    return f"{words} rating list"


def band(at_least: int | None, below: int | None) -> str:
    if at_least is not None and below is not None:
        return f"rated {at_least} to {below - 1}"
    if below is not None:
        return f"rated under {below}"
    return f"rated {at_least} or more" if at_least is not None else ""


def who(c: Conditions, season: Season) -> str:
    """The players a division or a prize is for: 'rated under 1400 and under 18 on ...'."""
    parts = [band(c.rating_at_least, c.rating_below)]
    if c.unrated is not None:
        parts.append("unrated (on no rating list)" if c.unrated else "with a rating")
    if c.age_below is not None:
        parts.append(f"under {c.age_below} on {on_day(c.age_on, season)}")
    if c.age_at_least is not None:
        parts.append(f"{c.age_at_least} or older on {on_day(c.age_on, season)}")
    if c.sex:
        parts.append("women and girls" if c.sex.lower() in ("w", "f") else "men and boys")
    if c.us_class:
        parts.append(f"in US Chess class {c.us_class}")
    parts += [has(name, wanted) for name, wanted in c.require.items()]
    return ", ".join(p for p in parts if p) or "everyone"


def tiebreak_name(code: str) -> str:
    """A tie-break code with its modifiers in words: 'BH/C1' -> 'Buchholz less the lowest 1',
    'BH/M1' -> 'Buchholz less the highest and lowest 1' (an unknown code as it is)."""
    base, *modifiers = code.strip().upper().split("/")
    name = TIEBREAK_NAMES.get(base, base)
    for m in modifiers:
        if re.fullmatch(r"C\d", m):
            return f"{name} less the lowest {m[1]}"
        if re.fullmatch(r"M\d", m):
            return f"{name} less the highest and lowest {m[1]}"
    return name


def tiebreak_names(codes: str, book: str) -> str:
    """'BH,SB' of a rule book in words: 'Buchholz, then Sonneborn-Berger, as ... define them'."""
    names = [tiebreak_name(code) for code in filter(None, (c.strip() for c in codes.split(",")))]
    return f"{', then '.join(names)}, as {tiebreak_book(book)} define them"


def tiebreak_book(book: str) -> str:
    """A tie-break rule book in words: 'FIDE's 2024 rules'."""
    return TIEBREAK_BOOKS.get(book, book)


def tiebreak_meaning(code: str) -> str:
    """What a tie-break code with its modifiers measures, in a sentence or two: 'BH/C1' -> 'The
    sum of the scores of the player's opponents ... The lowest value is left out.' ('' for a
    code without a meaning here)."""
    base, *modifiers = code.strip().upper().split("/")
    said = [TIEBREAK_MEANINGS.get(base, "")]
    for m in modifiers:
        said.append(_modifier_meaning(base, m))
    return " ".join(s for s in said if s)


def _modifier_meaning(base: str, modifier: str) -> str:
    """A modifier of a tie-break code in a sentence (C.07 art. 14 for the cuts; 34E3 for /R)."""
    kind, rest = modifier[:1], modifier[1:]
    if kind in "CM" and rest.isdigit():
        n = int(rest)
        what = count(n, "round" if base == "PS" else "value")
        are = "is" if n == 1 else "are"
        if base == "PS":  # the progressive score's cut drops its first terms
            return f"The first {what.removeprefix('one ')} {are} left out."
        if kind == "C":
            return f"The lowest {what.removeprefix('one ')} {are} left out."
        return f"The highest and the lowest {what.removeprefix('one ')} are left out."
    if modifier == "P":
        return "Forfeited games count as played."
    if modifier == "F":
        return "It averages their Fore Buchholz instead."
    if modifier == "R":
        return "Only unplayed wins are taken off (the rule book's reading)."
    if kind == "L" and rest[:1] in ("+", "-") and rest[1:].isdigit():
        steps = int(rest)
        side = "above" if steps > 0 else "below"
        return f"The limit is {count(abs(steps), 'half-point')} {side} half the possible score."
    if kind == "L" and rest.isdigit():
        return f"The limit is {rest}% of the possible score instead."
    return ""


RULES_PAGE = "rules.html"


def rule_anchor(rule_id: str) -> str:
    """The anchor of a rule ID on the rules page: 'rule-UT-5'."""
    return f"rule-{rule_id}"


def rule_href(rule_id: str) -> str:
    """The link to a rule ID's meaning from the site's top folder: 'rules.html#rule-UT-5'."""
    return f"{RULES_PAGE}#{rule_anchor(rule_id)}"
