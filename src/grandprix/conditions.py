"""Who qualifies: a person's profile and the conditions of divisions, prizes and eligibility.

One home for the tests every side applies: attributes required (UT-1, ACF-8), rating bands,
rated or not, ages on a date (ACF-1), sex, and US Chess classes (UCC-1, UCC-9; the classes
themselves are data: ``rules/federations/us-chess.toml``). The season,
the single event and the prizes all ask ``belongs``; none of them repeats a condition.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from grandprix.language import N_, _, short_date
from grandprix.players import PlayerKey
from grandprix.ratings.store import Rated
from grandprix.rules.federation import us_class
from grandprix.rules.schema import Conditions, DateRef

DateOf = Callable[[DateRef], datetime.date]  # a rule set's date ('season-start', ...) as a day


@dataclass(frozen=True)
class Profile:
    """What the conditions need to know of a person."""

    key: PlayerKey
    rating: Rated | None
    birth: datetime.date | None
    attributes: tuple[tuple[str, str], ...]

    def attribute(self, name: str) -> str:
        return dict(self.attributes).get(name, "")


def matches(have: str, wanted: str | list[str]) -> bool:
    """An attribute has (one of) the wanted value(s), ignoring case and surrounding spaces."""
    allowed = [wanted] if isinstance(wanted, str) else wanted
    return have.strip().casefold() in {w.strip().casefold() for w in allowed}


def meets(attribute: Callable[[str], str], require: Mapping[str, str | list[str]]) -> bool:
    """UT-1, ACF-8: every required attribute has (one of) the required value(s)."""
    return all(matches(attribute(name), wanted) for name, wanted in require.items())


def unmet(
    attribute: Callable[[str], str], require: Mapping[str, str | list[str]]
) -> list[tuple[str, str, str | list[str]]]:
    """The required attributes a person lacks: (name, their value, the value(s) wanted)."""
    return [
        (name, attribute(name).strip(), wanted)
        for name, wanted in require.items()
        if not matches(attribute(name), wanted)
    ]


def in_band(rating: int | None, at_least: int | None, below: int | None) -> bool:
    """A rating inside a band (U2000: below 2000); an unrated player is in no bounded band."""
    if at_least is None and below is None:
        return True
    if rating is None:
        return False
    return (at_least is None or rating >= at_least) and (below is None or rating < below)


def age_on(birth: datetime.date, day: datetime.date) -> int:
    """Completed years on the day."""
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def reasons(profile: Profile, conditions: Conditions, date_of: DateOf) -> list[tuple[bool, str]]:
    """Each condition of a division or a prize, in words, with whether the person meets it
    ('rating 1850, below 2000'; 'aged 19 on 2004-01-01, under 18 needed'): what ``belongs``
    decides, said for a reader."""
    out: list[tuple[bool, str]] = []
    rating = profile.rating.rating if profile.rating else None
    if conditions.unrated is not None:
        said = _("unrated") if rating is None else _("rated {rating}").format(rating=rating)
        kind = _("unrated") if conditions.unrated else _("a rating")
        out.append(
            (
                (rating is None) == conditions.unrated,
                _("{have}; {wanted} needed").format(have=said, wanted=kind),
            )
        )
    if conditions.rating_at_least is not None or conditions.rating_below is not None:
        band = []
        if conditions.rating_at_least is not None:
            band.append(_("{rating} or more").format(rating=conditions.rating_at_least))
        if conditions.rating_below is not None:
            band.append(_("below {rating}").format(rating=conditions.rating_below))
        have = _("unrated") if rating is None else _("rating {rating}").format(rating=rating)
        ok = in_band(rating, conditions.rating_at_least, conditions.rating_below)
        out.append((ok, _("{have}; {wanted} needed").format(have=have, wanted=_both(band))))
    if conditions.age_below is not None or conditions.age_at_least is not None:
        day = date_of(conditions.age_on)
        needed = []
        if conditions.age_below is not None:
            needed.append(_("under {age}").format(age=conditions.age_below))
        if conditions.age_at_least is not None:
            needed.append(_("{age} or older").format(age=conditions.age_at_least))
        if profile.birth is None:
            out.append(
                (
                    False,
                    _("no birth date known; {wanted} on {day} needed").format(
                        wanted=_both(needed), day=short_date(day)
                    ),
                )
            )
        else:
            age = age_on(profile.birth, day)
            ok = (conditions.age_below is None or age < conditions.age_below) and (
                conditions.age_at_least is None or age >= conditions.age_at_least
            )
            out.append(
                (
                    ok,
                    _("aged {age} on {day}; {wanted} needed").format(
                        age=age, day=short_date(day), wanted=_both(needed)
                    ),
                )
            )
    if conditions.sex is not None:
        sex = conditions.sex.lower()
        sexes = {"w", "f"} if sex in ("w", "f") else {sex}
        given = profile.attribute("sex")
        ok = bool(given) and given.lower() in sexes
        out.append(
            (
                ok,
                _("{have} ({wanted} only)").format(
                    have=_sex(given) if given else _("sex not recorded"),
                    wanted=_sex(sex, many=True),
                ),
            )
        )
    if conditions.us_class is not None:
        own = profile.attribute("class") or us_class(rating)
        out.append(
            (
                own.casefold() == conditions.us_class.casefold(),
                _("class {have}, {wanted} needed").format(
                    have=own or _("none"), wanted=conditions.us_class
                ),
            )
        )
    for name, wanted in conditions.require.items():
        have = profile.attribute(name)
        out.append((matches(have, wanted), attribute_words(name, have, wanted)))
    return out


def _sex(code: str, many: bool = False) -> str:
    """A sex as players.csv records it (w or f, m), in words: 'a woman', or 'women'."""
    if code.strip().lower() in ("w", "f"):
        return _("women") if many else _("a woman")
    if code.strip().lower() == "m":
        return _("men") if many else _("a man")
    return code


def _both(items: list[str]) -> str:
    """'a', 'a and b' (and so on: 'a and b and c')."""
    said = items[0]
    for item in items[1:]:
        said = _("{first} and {second}").format(first=said, second=item)
    return said


# Columns of players.csv that rules often name, as a reader calls them (the rules page's labels),
# how a person is said to have a value of one, and a yes/no column said of a person without it.
ATTRIBUTES = {
    "region": N_("region"),
    "member": N_("member of the federation"),
    "federation": N_("federation"),
    "attended": N_("present at the prize giving"),
    "club": N_("club"),
}
HAVING = {
    "region": N_("lives in {value}"),
    "federation": N_("plays for {value}"),
    "club": N_("plays for {value}"),
}
WITHOUT = {
    "member": N_("not a member of the federation"),
    "attended": N_("not present at the prize giving"),
}
YES, NO = "yes", "no"


def attribute_label(name: str) -> str:
    """A column of players.csv as a reader calls it: 'member of the federation'."""
    known = ATTRIBUTES.get(name.casefold())
    return _(known) if known is not None else name.replace("_", " ").replace("-", " ")


def value_words(value: str) -> str:
    """A value of a column in words: yes and no in the language spoken, others as written."""
    return {YES: _("yes"), NO: _("no")}.get(value.strip().casefold(), value)


def attribute_words(name: str, have: str, wanted: str | list[str]) -> str:
    """Why a person's column of players.csv does not meet a rule (UT-1), in words: 'lives in ID
    (UT required)', 'not a member of the federation', 'no region recorded (UT required)'."""
    values = [wanted] if isinstance(wanted, str) else wanted
    label = attribute_label(name)
    if values and all(v.strip().casefold() == YES for v in values):
        if not have.strip():
            return _("{attribute}: not recorded").format(attribute=label)
        known = WITHOUT.get(name.casefold())
        return _(known) if known else _("not {attribute}").format(attribute=label)
    needs = value_words(values[0]) if values else ""
    for value in values[1:]:
        needs = _("{first} or {second}").format(first=needs, second=value_words(value))
    if not have.strip():
        said = _("no {attribute} recorded").format(attribute=label)
    elif name.casefold() in HAVING:
        said = _(HAVING[name.casefold()]).format(value=value_words(have))
    else:
        said = _("{attribute} {value}").format(attribute=label, value=value_words(have))
    return _("{have} ({wanted} required)").format(have=said, wanted=needs)


def belongs(profile: Profile, conditions: Conditions, date_of: DateOf) -> bool:
    """Whether the person meets every condition of a division or a prize; ``date_of`` turns the
    rule set's dates (``age_on``) into days: the season's, or the event's."""
    rating = profile.rating.rating if profile.rating else None
    if conditions.unrated is not None and (rating is None) != conditions.unrated:
        return False
    if not in_band(rating, conditions.rating_at_least, conditions.rating_below):
        return False
    if conditions.age_below is not None or conditions.age_at_least is not None:
        if profile.birth is None:
            return False
        age = age_on(profile.birth, date_of(conditions.age_on))
        if conditions.age_below is not None and age >= conditions.age_below:
            return False  # ACF-1: a junior is under 18 on 1 January
        if conditions.age_at_least is not None and age < conditions.age_at_least:
            return False
    if conditions.sex is not None:
        sex = conditions.sex.lower()
        wanted = {"w", "f"} if sex in ("w", "f") else {sex}
        if profile.attribute("sex").lower() not in wanted:
            return False
    if conditions.us_class is not None:
        own = profile.attribute("class") or us_class(rating)
        if own.casefold() != conditions.us_class.casefold():
            return False  # UCC-9: a player wins only their own class's prizes
    return meets(profile.attribute, conditions.require)
