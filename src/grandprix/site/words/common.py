"""Settings said in words, for the rules page and the others: numbers and places, dates of the
rule set as days of the season, conditions on players, rating lists, tie-breaks (each code's
name and meaning are its rule book's, ``tiebreaks.TIEBREAKS``) and the links to a rule ID.

Each function turns one kind of setting into the words a reader understands; none shows a key
name or a value as the settings file spells it.
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Sequence
from fractions import Fraction

from grandprix.conditions import attribute_label, value_words
from grandprix.language import N_, _, decimal, long_date, ngettext, pgettext, spoken
from grandprix.language import ordinal as ordinal
from grandprix.rules.schema import Conditions, DateRef
from grandprix.scores import show
from grandprix.season.divisions import resolve
from grandprix.season.model import Season
from grandprix.tiebreaks import TIEBREAKS, Rules, parse

# The number words (the first, 'no', is said through pgettext in ``number``: a word that short
# needs its context).
NUMBER_WORDS = (
    "no",
    N_("one"),
    N_("two"),
    N_("three"),
    N_("four"),
    N_("five"),
    N_("six"),
    N_("seven"),
    N_("eight"),
    N_("nine"),
    N_("ten"),
    N_("eleven"),
    N_("twelve"),
)
# Kinds of rating list in words, the whole name said (a kind without a name here: see
# ``rating_list``).
LISTS = {
    "fide-standard": N_("FIDE standard rating list"),
    "fide-rapid": N_("FIDE rapid rating list"),
    "fide-blitz": N_("FIDE blitz rating list"),
    "national": N_("national rating list"),
    "national-standard": N_("national standard rating list"),
    "national-rapid": N_("national rapid rating list"),
    "national-blitz": N_("national blitz rating list"),
}
# The tie-breaks of the season's standings, said in the language spoken by ``season_tiebreak``.
SEASON_TIEBREAKS = {
    "discarded": N_("the total of their results that did not count (more is better)"),
    "best": N_("their best single result"),
    "last-event": N_(
        "their place in the season's last event (players who missed it come after "
        "those who played it)"
    ),
    "events": N_("the number of events they played (more is better)"),
    "per-event": N_("their total divided by the number of results counted (more is better)"),
    "countback": N_(
        "their best result, then their second best, and so on (counted or not; more is better)"
    ),
}
DATE_NAMES = {
    "season-start": N_("the first day of the season"),
    "season-end": N_("the last day of the season"),
    "last-event": N_("the day of the season's last event"),
}


def number(n: int) -> str:
    """'six', 'twelve', '14' (in the language spoken)."""
    if n == 0:
        return pgettext("how many: none", "no")
    return _(NUMBER_WORDS[n]) if 0 < n < len(NUMBER_WORDS) else str(n)


def count(n: int, noun: str, plural: str = "") -> str:
    """'six divisions', 'one prize', '14 prizes' (the noun as the caller gives it: a word said
    in every language needs ``ngettext`` around a whole phrase instead)."""
    return f"{number(n)} {noun if n == 1 else plural or noun + 's'}"


def listing(items: Sequence[str], last: str = "and") -> str:
    """'a', 'a and b', 'a, b and c' ('a, b or c' when ``last`` is 'or')."""
    if len(items) <= 1:
        return "".join(items)
    head = pgettext("between the items of a list", ", ").join(items[:-1])
    if last == "and":
        return _("{items} and {last}").format(items=head, last=items[-1])
    if last == "or":
        return _("{items} or {last}").format(items=head, last=items[-1])
    return f"{head} {last} {items[-1]}"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def day(date: datetime.date) -> str:
    """'1 January 2004', '1 gennaio 2004'."""
    return long_date(date)


def on_day(ref: DateRef, season: Season) -> str:
    """A date of the rule set as a day of this season: '20 April 2013 (the day of the season's
    last event)'."""
    found = day(resolve(ref, season))
    if isinstance(ref, datetime.date):
        return found
    return _("{date} ({which_day})").format(date=found, which_day=_(DATE_NAMES[ref]))


def figure(value: Fraction | int, places: int | None = None) -> str:
    """A number of a sentence (points, a share, an amount) as the language writes it: '3.5',
    '3,5'; with ``places`` decimals, '10.20'."""
    return decimal(show(value, places))


def share(percent: Fraction) -> str:
    """A share of something in words: 'half' for 50, else '30%'."""
    if percent == 50:
        return pgettext("a share of something", "half")
    return _("{percent}%").format(percent=decimal(show(percent)))


def place_span(span: str) -> str:
    """'3' -> '3rd', '3-4' -> '3rd-4th' (in the language spoken)."""
    return _place_span(span, spoken())


@functools.lru_cache(maxsize=4096)
def _place_span(span: str, language: str) -> str:
    """``place_span`` for the language spoken (the cache keeps each language's apart)."""
    return "-".join(ordinal(int(p)) for p in span.split("-"))


def any_of(wanted: str | list[str]) -> str:
    """Values of a column of players.csv, one of which is wanted ('UT or NV', 'yes')."""
    values = [wanted] if isinstance(wanted, str) else wanted
    return listing([value_words(v) for v in values], "or")


def has(name: str, wanted: str | list[str]) -> str:
    """A condition on a column of the players list: 'federation member', 'region VIC'."""
    label, value = attribute_label(name), any_of(wanted)
    if value in (_("yes"), _("no")):
        return label if value == _("yes") else _("not {attribute}").format(attribute=label)
    return _("{attribute} {value}").format(attribute=label, value=value)


def rating_list(kind: str) -> str:
    """A kind of rating list in words: 'FIDE standard rating list', 'national rapid ...'."""
    known = LISTS.get(kind)
    if known is not None:
        return _(known)
    if kind.startswith("national-"):
        national = kind.removeprefix("national-").replace("-", " ")
        return _("national {kind} rating list").format(kind=national)
    return _("{kind} rating list").format(kind=kind)


def band(at_least: int | None, below: int | None) -> str:
    if at_least is not None and below is not None:
        return _("rated {low} to {high}").format(low=at_least, high=below - 1)
    if below is not None:
        return _("rated under {rating}").format(rating=below)
    if at_least is not None:
        return _("rated {rating} or more").format(rating=at_least)
    return ""


def who(c: Conditions, season: Season) -> str:
    """The players a division or a prize is for: 'rated under 1400 and under 18 on ...'."""
    parts = [band(c.rating_at_least, c.rating_below)]
    if c.unrated is not None:
        parts.append(_("unrated (on no rating list)") if c.unrated else _("with a rating"))
    if c.age_below is not None:
        parts.append(
            _("under {age} on {day}").format(age=c.age_below, day=on_day(c.age_on, season))
        )
    if c.age_at_least is not None:
        parts.append(
            _("{age} or older on {day}").format(age=c.age_at_least, day=on_day(c.age_on, season))
        )
    if c.sex:
        parts.append(_("women and girls") if c.sex.lower() in ("w", "f") else _("men and boys"))
    if c.us_class:
        parts.append(_("in US Chess class {us_class}").format(us_class=c.us_class))
    parts += [has(name, wanted) for name, wanted in c.require.items()]
    separator = pgettext("between the conditions on a player", ", ")
    return separator.join(p for p in parts if p) or _("everyone")


def tiebreak_name(code: str, book: Rules) -> str:
    """A tie-break code of a rule book with its modifiers in words: 'BH/C1' -> 'Buchholz less
    the lowest 1', 'BH/M1' -> 'Buchholz less the highest and lowest 1'."""
    base, *modifiers = code.strip().upper().split("/")
    name = _(TIEBREAKS[book][base].name)
    for m in modifiers:
        if re.fullmatch(r"C\d", m):
            return _("{tiebreak} less the lowest {n}").format(tiebreak=name, n=m[1])
        if re.fullmatch(r"M\d", m):
            return _("{tiebreak} less the highest and lowest {n}").format(tiebreak=name, n=m[1])
    return name


def tiebreak_names(codes: str, book: Rules) -> str:
    """'BH,SB' of a rule book in words: 'Buchholz, then Sonneborn-Berger, as ... define them'."""
    names = [tiebreak_name(spec.code, book) for spec in parse(codes, book)]
    return _("{tiebreaks}, as {book} define them").format(
        tiebreaks=_(", then ").join(names), book=_(book.title)
    )


def season_tiebreak(name: str) -> str:
    """A tie-break of the season's standings (``standings.tiebreaks``) in words, in the language
    spoken: 'their best single result'."""
    return _(SEASON_TIEBREAKS[name])


def tiebreak_meaning(code: str, book: Rules) -> str:
    """What a tie-break code of a rule book with its modifiers measures, in a sentence or two:
    'BH/C1' -> 'The sum of the scores of the player's opponents ... The lowest value is left
    out.'"""
    base, *modifiers = code.strip().upper().split("/")
    said = [_(TIEBREAKS[book][base].meaning)]
    for m in modifiers:
        said.append(_modifier_meaning(base, m))
    return " ".join(s for s in said if s)


def _modifier_meaning(base: str, modifier: str) -> str:
    """A modifier of a tie-break code in a sentence (C.07 art. 14 for the cuts; 34E3 for /R)."""
    kind, rest = modifier[:1], modifier[1:]
    if kind in "CM" and rest.isdigit():
        n = int(rest)
        return _cut_meaning(base, kind, n).format(n=number(n))
    if modifier == "P":
        return _("Forfeited games count as played.")
    if modifier == "F":
        return _("It averages their Fore Buchholz instead.")
    if modifier == "R":
        return _("Only unplayed wins are taken off (the rule book's reading).")
    if kind == "L" and rest[:1] in ("+", "-") and rest[1:].isdigit():
        steps = int(rest)
        if steps > 0:
            said = ngettext(
                "The limit is {n} half-point above half the possible score.",
                "The limit is {n} half-points above half the possible score.",
                abs(steps),
            )
        else:
            said = ngettext(
                "The limit is {n} half-point below half the possible score.",
                "The limit is {n} half-points below half the possible score.",
                abs(steps),
            )
        return said.format(n=number(abs(steps)))
    if kind == "L" and rest.isdigit():
        return _("The limit is {percent}% of the possible score instead.").format(percent=rest)
    return ""


def _cut_meaning(base: str, kind: str, n: int) -> str:
    """The sentence of a cut (/C, /M) of ``n`` values, with ``{n}`` for the number in words:
    the progressive score's cut drops its first rounds."""
    if base == "PS":
        if n == 1:
            return _("The first round is left out.")
        return ngettext("The first {n} round is left out.", "The first {n} rounds are left out.", n)
    if kind == "C":
        if n == 1:
            return _("The lowest value is left out.")
        return ngettext(
            "The lowest {n} value is left out.", "The lowest {n} values are left out.", n
        )
    if n == 1:
        return _("The highest and the lowest value are left out.")
    return ngettext(
        "The highest and the lowest {n} value are left out.",
        "The highest and the lowest {n} values are left out.",
        n,
    )


RULES_PAGE = "rules.html"


def rule_anchor(rule_id: str) -> str:
    """The anchor of a rule ID on the rules page: 'rule-UT-5'."""
    return f"rule-{rule_id}"


def rule_href(rule_id: str) -> str:
    """The link to a rule ID's meaning from the site's top folder: 'rules.html#rule-UT-5'."""
    return f"{RULES_PAGE}#{rule_anchor(rule_id)}"
