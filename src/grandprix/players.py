"""The people of the files: a person's key, their id and name as keys, and players.csv.

Used alike by the season (who is who across events), the single event's prizes and the site:
``PlayerKey`` is how every one of them knows a person, ``normal_id`` how two spellings of one
id agree, ``name_key`` how two spellings of one name agree (``look_alike_key`` also when a letter
of another script stands for a Latin one), ``read_players`` the one reader of players.csv (every
problem located). ``hidden_characters`` and ``look_alikes`` find what a name should not hold.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path

from grandprix.dates import parse_birth
from grandprix.model import Location, Problem, Section
from grandprix.readers.bounds import file_bytes
from grandprix.readers.text import CSV_FILE, csv_file, excerpt
from grandprix.runtime.files import FileCache

_SPACES = re.compile(r"\s+")
_SEPARATORS = re.compile(r"[,.;]")
_HIDDEN = ("Cc", "Cf", "Zl", "Zp")  # controls, format characters, line and paragraph breaks


class PlayerKey(str):
    """How a person is known across files: ``id:<FIDE or national id>`` when an id is known,
    else ``name:<name key>`` (with ``|<birth year>`` when two people share the name)."""

    __slots__ = ()

    @classmethod
    def of(cls, ident: str, name: str) -> PlayerKey:
        """The key by id when there is one (as ``normal_id`` spells it), else by the name's
        key (``name_key`` of it)."""
        ident = normal_id(ident)
        return cls(f"id:{ident}") if ident else cls(f"name:{name}")

    @property
    def id(self) -> str:
        """The id in the key, '' for a key by name."""
        return self[3:] if self.startswith("id:") else ""

    @property
    def label(self) -> str:
        """The key without its kind: the id, or the name key."""
        return self.split(":", 1)[-1]


@lru_cache(maxsize=65536)
def normal_id(text: str) -> str:
    """An id as the season knows it, whatever spelling a file gives it.

    The id is taken in Unicode compatibility form (NFKC: a fullwidth '１' is '1') without the
    spaces around it. An id of digits (FIDE ids and US Chess ids are) is the number they
    spell: a trailing '.0' that a spreadsheet adds ('1.0', as Excel writes a number cell) and
    leading zeros ('0001') are dropped, and digits of another script are written as ASCII
    digits; an id of zeros only is no id (as the TRF's empty id field, FIDE C.04 Annex 2). An
    id with anything else in it (some federations' ids have letters) is kept as it is.
    ``normal_id('0012.0') == normal_id('１２') == '12'``; ``normal_id('A0012') == 'A0012'``.
    """
    ident = unicodedata.normalize("NFKC", text).strip()
    digits = ident[:-2] if ident.endswith(".0") else ident
    if not digits.isdecimal():
        return ident
    if not digits.isascii():
        digits = "".join(str(unicodedata.decimal(ch)) for ch in digits)
    return digits.lstrip("0")


def is_normal_id(ident: str) -> bool:
    """Whether ``normal_id`` leaves the id as it is (quickly for the usual ASCII number)."""
    if ident.isascii() and ident.isdigit():
        return ident[:1] != "0"
    return normal_id(ident) == ident


@dataclass(frozen=True)
class ListedPlayer:
    """A row of players.csv: the person and their attributes (region, member, ...)."""

    id: str
    name: str
    attributes: tuple[tuple[str, str], ...] = ()
    location: Location | None = field(default=None, compare=False)

    def attribute(self, name: str) -> str:
        return dict(self.attributes).get(name, "")


@lru_cache(maxsize=65536)
def normalise(name: str) -> str:
    """Case, accents and stray spaces removed: 'Dvořák,  Marek ' -> 'dvorak, marek'; and the
    characters that show nothing (``hidden_characters`` but spaces: a zero-width space, a
    right-to-left override), which a name copied from a web page may carry unseen."""
    if name.isascii() and name.isprintable():  # the usual name: nothing to decompose or hide
        return _SPACES.sub(" ", name.lower().replace(" ,", ",")).strip()
    decomposed = unicodedata.normalize("NFKD", name)
    if not decomposed.isprintable():
        decomposed = "".join(
            ch for ch in decomposed if ch.isspace() or unicodedata.category(ch) not in _HIDDEN
        )
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    plain = plain.replace("ß", "ss").replace("ø", "o").replace("ł", "l").replace("đ", "d")
    return _SPACES.sub(" ", plain.casefold().replace(" ,", ",")).strip()


@lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """The name as a set of words: 'Arkadan, Adib', 'adib arkadan' and 'ARKADAN Adib' agree.
    A name of printable ASCII (most are) is split at once, as ``normalise`` would leave it:
    a season's million names of aliases.csv are keyed in seconds."""
    if name.isascii() and name.isprintable():  # (each of _SEPARATORS a space)
        words = name.lower().replace(",", " ").replace(".", " ").replace(";", " ").split()
    else:
        words = _SEPARATORS.sub(" ", normalise(name)).split()
    return " ".join(sorted(words))


# Letters of the Cyrillic and Greek alphabets drawn like a Latin letter, with that letter: the
# common ones of Unicode's confusables (UTS #39, confusables.txt), a capital kept apart from its
# small letter where only one of them looks Latin (Cyrillic 'В' is a 'B', 'в' is no 'b').
_LOOK_ALIKES = {
    # Cyrillic
    "А": "A",
    "В": "B",
    "Е": "E",
    "К": "K",
    "М": "M",
    "Н": "H",
    "О": "O",
    "Р": "P",
    "С": "C",
    "Т": "T",
    "У": "Y",
    "Х": "X",
    "Ѕ": "S",
    "І": "I",
    "Ј": "J",
    "Ү": "Y",
    "Һ": "H",
    "Ԛ": "Q",
    "Ԝ": "W",
    "Ӏ": "I",
    "а": "a",
    "е": "e",
    "о": "o",
    "р": "p",
    "с": "c",
    "у": "y",
    "х": "x",
    "ѕ": "s",
    "і": "i",
    "ј": "j",
    "һ": "h",
    "ԁ": "d",
    "ԛ": "q",
    "ԝ": "w",
    "ӏ": "l",
    "ѵ": "v",
    # Greek
    "Α": "A",
    "Β": "B",
    "Ε": "E",
    "Ζ": "Z",
    "Η": "H",
    "Ι": "I",
    "Κ": "K",
    "Μ": "M",
    "Ν": "N",
    "Ο": "O",
    "Ρ": "P",
    "Τ": "T",
    "Υ": "Y",
    "Χ": "X",
    "ο": "o",
    "ρ": "p",
    "ν": "v",
    "ι": "i",
    "α": "a",
    "κ": "k",
    "υ": "u",
    "ϲ": "c",
    "ϳ": "j",
}
_FOLD = str.maketrans(_LOOK_ALIKES)


def look_alike_key(name: str) -> str:
    """``name_key`` of the name as it looks: its letters in compatibility form (NFKD: a
    fullwidth or mathematical 'Ａ' is 'A') and each Cyrillic or Greek letter drawn like a Latin
    one taken as that letter, so that 'Аdams' with a Cyrillic 'А' (U+0410) reads 'Adams'
    (UTS #39 confusable skeletons, for the letters names mix up). For comparing names that may
    be one person's (the review of similar names), never for matching them."""
    return name_key(unicodedata.normalize("NFKD", name).translate(_FOLD))


def look_alikes(name: str) -> str:
    """The letters of another script in a name written in Latin letters that look like Latin
    ones ('А' in 'Аdams, Alice'), '' when there are none: such a letter is a slip of the
    keyboard or a copy, and keeps the name from matching its Latin spelling. A name written in
    another script ('Иванов, Иван') has none."""
    if name.isascii() or _FOLD_SET.isdisjoint(name):
        return ""
    folded = unicodedata.normalize("NFKD", name).translate(_FOLD)
    if not any(_latin(ch) for ch in name) or not all(map(_latin, filter(str.isalpha, folded))):
        return ""  # no Latin letter to mistake, or letters of another script left as they are
    return "".join(dict.fromkeys(ch for ch in name if ch in _LOOK_ALIKES))


_FOLD_SET = frozenset(_LOOK_ALIKES)


def _latin(ch: str) -> bool:
    return ch.isalpha() and unicodedata.name(ch, "").startswith("LATIN ")


def hidden_characters(text: str) -> str:
    """The characters of ``text`` that show nothing or change how the rest shows: controls,
    bidirectional overrides, isolates and marks (U+202A-U+202E, U+2066-U+2069, U+200E-U+200F),
    zero-width spaces, soft hyphens, byte order marks (Unicode general categories Cc, Cf, Zl,
    Zp); and the zero-width joiners (U+200C, U+200D) in text with Latin letters, where no
    spelling needs them (Persian and the Indic scripts do). '' for the usual text (checked by
    ``str.isprintable`` first)."""
    if text.isprintable():
        return ""
    latin = any(map(_latin, text))
    return "".join(
        dict.fromkeys(
            ch
            for ch in text
            if unicodedata.category(ch) in _HIDDEN and (latin or ch not in _JOINERS)
        )
    )


_JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner


def shown(text: str, limit: int = 60) -> str:
    """``text`` for a message: at most ``limit`` characters, each hidden character written as
    its code point ('\\u202e'), so that a message never carries one to a terminal."""
    cut = text[:limit]
    if cut.isprintable():
        return cut
    return "".join(_code_point(ch) if unicodedata.category(ch) in _HIDDEN else ch for ch in cut)


def _code_point(ch: str) -> str:
    """'\\u202e' (as Python writes the character in a string; '\\U000e0001' past U+FFFF)."""
    return f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}"


def birth_year(text: str) -> str:
    match = re.match(r"^\s*(\d{4})", text or "")
    return match.group(1) if match and match.group(1) != "0000" else ""


def read_players(path: Path | None, problems: list[Problem]) -> tuple[ListedPlayer, ...]:
    """players.csv, if present: columns id, name, then any attributes."""
    if path is None:
        return ()
    found: list[Problem] = []
    data = file_bytes(path, CSV_FILE, found)  # read once, within its bound
    if data is None:
        problems.extend(found)
        return ()
    try:
        key: tuple[object, ...] | None = FileCache.key(data, path.stat())
    except OSError:
        key = None  # (gone since it was read: read, not kept)
    known = _READ.get(key)
    if isinstance(known, tuple):
        return known
    players = _read_players(path, data, found)
    problems.extend(found)
    if not found:
        _READ.put(key, players)
    return players


_READ = FileCache(limit=64)  # players.csv files read without problems, by their contents


def _read_players(path: Path, data: bytes, problems: list[Problem]) -> tuple[ListedPlayer, ...]:
    rows = csv_file(path, problems, data)
    if not rows:
        return ()
    header = [cell.strip().lower() for cell in rows[0]]
    if "name" not in header and "id" not in header:
        problems.append(
            Problem(
                Location(str(path), 1, 1),
                f"players.csv needs an 'id' or a 'name' column (its first row reads "
                f"{excerpt(','.join(rows[0]), 60)})",
            )
        )
        return ()
    players = []
    seen: dict[str, int] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            problems.append(
                Problem(
                    Location(str(path), number, 1),
                    f"row has {len(row)} fields but the header has {len(header)}",
                )
            )
            continue
        cells = {k: v.strip() for k, v in zip(header, row, strict=True)}
        ident = normal_id(cells.get("id", ""))
        if ident and ident in seen:
            problems.append(
                Problem(
                    Location(str(path), number, header.index("id") + 1),
                    f"id {excerpt(ident)} is listed twice (first on line {seen[ident]})",
                )
            )
            continue
        if ident:
            seen[ident] = number
        if cells.get("birth_date"):
            try:
                parse_birth(cells["birth_date"])
            except ValueError as exc:
                where = Location(str(path), number, header.index("birth_date") + 1)
                problems.append(Problem(where, f"field 'birth_date': {exc}"))
                continue
        attributes = tuple((k, v) for k, v in cells.items() if k not in ("id", "name"))
        players.append(
            ListedPlayer(ident, cells.get("name", ""), attributes, Location(str(path), number))
        )
    return tuple(players)


def with_normal_ids(section: Section, normal: set[str]) -> Section:
    """The section with its players' ids as ``normal_id`` spells them ('1.0', '0001'
    and '１' are id 1), so that every later stage compares ids as they are; the section itself
    when they are so already (the usual file: one set look-up, no record made). ``normal``:
    the ids met so far that are so (added to)."""
    ids = section.columns.fide_id
    if normal.issuperset(ids):
        return section
    new = set(ids).difference(normal)
    spelt = {ident for ident in new if not is_normal_id(ident)}
    normal.update(new - spelt)
    if not spelt:
        return section
    players = tuple(
        replace(p, fide_id=normal_id(p.fide_id)) if p.fide_id in spelt else p
        for p in section.players
    )
    return replace(section, players=players)
