"""The language a season's pages speak: its words from the gettext catalogs, its numbers and
dates as the language writes them.

Every word a reader sees on a page goes through ``_`` (or ``ngettext``, ``pgettext``), which
looks it up in the catalog of the language spoken at that moment (``speaking``); English is the
language of the source and needs no catalog. A word that must be known before a language is
chosen (a module's table of meanings) is marked with ``N_`` and looked up where it is shown.

The catalogs are ``locale/<code>/LC_MESSAGES/grandprix.po`` beside this module, kept up to date
with ``make messages`` (Babel extracts the words from the source and the templates); a language
is added by adding its catalog and its line in ``LANGUAGES``. What is written for programs (CSV
and JSON downloads, the command line) stays in English with plain decimals.

Babel, which reads the catalogs and knows each language's numbers and dates, is imported the
first time a language other than English is spoken: a module that only marks its words with
``N_`` (the tie-breaks' names) costs a command that shows no page nothing to import.
"""

from __future__ import annotations

import datetime
import functools
import gettext
import io
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import ParamSpec, TypeVar

ENGLISH = "en"
# Each language the pages can speak: its code (season.toml's `language`), its own name, and how
# it writes a place ("1st", "1º"): English by its rule, the others by a pattern for {n}.
LANGUAGES: dict[str, str] = {"en": "English", "it": "Italiano", "es": "Español"}
ORDINALS: dict[str, str] = {"it": "{n}º", "es": "{n}.º"}
DOMAIN = "grandprix"

_spoken: ContextVar[str] = ContextVar("grandprix_language", default=ENGLISH)
_P = ParamSpec("_P")
_R = TypeVar("_R")


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Everything said inside the block is said in language ``code``."""
    if code not in LANGUAGES:
        raise ValueError(f"no language '{code}': choose one of {', '.join(LANGUAGES)}")
    token = _spoken.set(code)
    try:
        yield
    finally:
        _spoken.reset(token)


def in_english(function: Callable[_P, _R]) -> Callable[_P, _R]:
    """``function`` always speaking English: what it writes is read by programs (downloads)."""

    @functools.wraps(function)
    def english(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with speaking(ENGLISH):
            return function(*args, **kwargs)

    return english


def spoken() -> str:
    """The code of the language spoken now."""
    return _spoken.get()


def catalog_path(code: str) -> str:
    """The catalog of a language, inside the package."""
    return f"locale/{code}/LC_MESSAGES/{DOMAIN}.po"


@functools.cache
def translations(code: str) -> gettext.NullTranslations:
    """The catalog of ``code`` read once (English: the words as written). A catalog's fuzzy
    entries are not used: a word only a machine matched stays in English until a person checks
    it (and the catalog test fails until then)."""
    if code == ENGLISH:
        return gettext.NullTranslations()
    from importlib.resources import files

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with (files("grandprix") / catalog_path(code)).open("rb") as po:
        catalog = read_po(po, locale=code, domain=DOMAIN)
    data = io.BytesIO()
    write_mo(data, catalog, use_fuzzy=False)
    data.seek(0)
    return gettext.GNUTranslations(data)


def _(message: str) -> str:
    """``message`` in the language spoken now."""
    code = _spoken.get()
    return message if code == ENGLISH else translations(code).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form of a message for ``n``, as the language counts."""
    code = _spoken.get()
    if code == ENGLISH:
        return singular if n == 1 else plural
    return translations(code).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as it is said in ``context`` (one English word, two meanings)."""
    code = _spoken.get()
    return message if code == ENGLISH else translations(code).pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without looking it up: ``_`` does where it is shown."""
    return message


_NUMBER = re.compile(r"-?\d+\.\d+")


class Phrase(str):
    """Words the engine makes before any page is (a multiplier's reason, a bonus's name), said
    where they are shown: the English text is the value (compared, kept with the awards, written
    to the downloads and the command line); ``str()`` and formatting give it in the language
    spoken then, its decimals with the language's mark. ``make messages`` finds the message of
    ``Phrase("...")`` as it finds ``_("...")``. ``cites``: the rule IDs the words stand for (a
    multiplier's or a bonus's rule), which a page shows as footnotes, so that no page has to
    infer a rule from the words."""

    message: str
    values: dict[str, object]
    cites: tuple[str, ...]

    def __new__(cls, message: str, /, *, cites: tuple[str, ...] = (), **values: object) -> Phrase:
        made = super().__new__(cls, message.format(**values))
        made.message, made.values, made.cites = message, values, cites
        return made

    def __str__(self) -> str:
        if _spoken.get() == ENGLISH:
            return str.__str__(self)
        values = {name: _shown(value) for name, value in self.values.items()}
        return _(self.message).format(**values)

    def __format__(self, spec: str) -> str:
        return format(self.__str__(), spec)

    def __reduce__(self) -> tuple[object, ...]:
        return _phrase, (self.message, self.values, self.cites)


def _phrase(message: str, values: dict[str, object], cites: tuple[str, ...] = ()) -> Phrase:
    return Phrase(message, cites=cites, **values)


def _shown(value: object) -> str:
    text = str(value)
    return decimal(text) if isinstance(value, str) and _NUMBER.fullmatch(text) else text


def ordinal(n: int) -> str:
    """A place as the language writes it: '1st', '22nd', '13th'; '1º'; '1.º'."""
    pattern = ORDINALS.get(_spoken.get())
    if pattern is not None:
        return pattern.format(n=n)
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def decimal(text: str) -> str:
    """A plain decimal as ``numbers.show`` writes it ('1234.50', '-3') with the language's
    decimal mark ('1234,50'); its digits stay as they are (no rounding, no grouping)."""
    code = _spoken.get()
    if code == ENGLISH or "." not in text:
        return text
    from babel.numbers import get_decimal_symbol

    return text.replace(".", get_decimal_symbol(code))


def money(symbol: str, amount: str) -> str:
    """An amount with its currency's symbol where the language puts it: '$250.00' in English,
    '250,00 €' in Italian and Spanish (``amount`` as ``numbers.show`` writes it)."""
    if _spoken.get() == ENGLISH:
        return f"{symbol}{amount}"
    return f"{decimal(amount)}\u00a0{symbol}" if symbol else decimal(amount)


def count(n: int) -> str:
    """A whole number with the language's grouping: '12,345', '12.345'."""
    code = _spoken.get()
    if code == ENGLISH:
        return f"{n:,}"
    from babel.numbers import format_decimal

    return format_decimal(n, locale=code)


def long_date(date: datetime.date) -> str:
    """'1 January 2004', '1 gennaio 2004', '1 de enero de 2004'."""
    code = _spoken.get()
    if code == ENGLISH:
        return f"{date.day} {date:%B} {date.year}"
    from babel.dates import format_date

    return format_date(date, format="long", locale=code)


def short_date(date: datetime.date) -> str:
    """A date in a table: '2013-03-04' in English (as the results files write it), the
    language's medium form otherwise ('4 mar 2013')."""
    code = _spoken.get()
    if code == ENGLISH:
        return date.isoformat()
    from babel.dates import format_date

    return format_date(date, format="medium", locale=code)
