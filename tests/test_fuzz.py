"""Fuzzing: no input makes grandprix raise an exception it does not mean to raise.

Allowed outcomes: a reader returns ``(record or None, problems)`` or raises ``GrandprixError``;
the command line exits 0, 1 (``check`` found errors) or 2 (bad input), never with a traceback or
an internal error (exit 70). A season that ``check`` passes never fails in another command, and
one it fails is never computed by another command.

Inputs are near-valid: the files of the example seasons (results, players.csv, aliases.csv,
rating lists, season.toml) mutated by bytes, lines, fields, who a player is, TOML values and
rule-set overrides, lines swapped between files; plus fully random bytes. The zip containers (a
chess-results workbook, a zipped rating list) are also damaged as zips: cut short, bytes
flipped, sizes in their headers rewritten (a part declaring gigabytes, or less than it holds),
and given the content of a bomb (a ``<dimension>`` claiming the whole sheet, a far cell, a cell
about the field bound long). A failing season is reported with the diff of what was changed.

Profiles: ``ci`` (the default, about a minute on one core) and ``long`` (``GRANDPRIX_FUZZ=long``,
20,000 inputs or more; ``benchmarks/fuzz_long.py`` runs it and counts them). With
``GRANDPRIX_FUZZ_COUNT=FILE`` the number of inputs tried is appended to FILE at the end.
"""

from __future__ import annotations

import copy
import csv
import datetime
import difflib
import gc
import io
import os
import re
import signal
import tempfile
import threading
import tomllib
import traceback
import typing
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn

import openpyxl
import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, Phase, assume, given, note, settings
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn
from pydantic import BaseModel

import grandprix
from grandprix.cli import main
from grandprix.errors import GrandprixError
from grandprix.model import Problem
from grandprix.players import name_key, normalise
from grandprix.ratings.formats import ListError, read_rows
from grandprix.readers import load_section
from grandprix.readers.chess_results import read_chess_results
from grandprix.readers.standings_csv import read_standings_csv
from grandprix.readers.trf import read_trf
from grandprix.rules.load import merge
from grandprix.rules.schema import RuleSet
from grandprix.season.config import load_season
from grandprix.season.season_file import SeasonFile
from hostile_bounds import crosstable_rows, sheet_xml, workbook, zipped
from synthetic import fide_rating_list

# --------------------------------------------------------------------------------------------
# Profiles

PROFILE = "long" if os.environ.get("GRANDPRIX_FUZZ", "").strip().lower() == "long" else "ci"
_COMMON: dict[str, Any] = {
    "deadline": None,
    "derandomize": False,
    "print_blob": True,
    # The explain phase varies a failing season part by part: minutes per failure, little gain.
    "phases": [phase for phase in Phase if phase is not Phase.explain],
    "suppress_health_check": [
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
}
settings.register_profile("ci", max_examples=100, **_COMMON)
settings.register_profile("long", max_examples=1000, **_COMMON)
# Seconds before one input counts as a hang (reported as a failure).
TIME_LIMIT = {"ci": 30.0, "long": 60.0}[PROFILE]


def fuzz(weight: float) -> settings:
    """The profile's settings with ``weight`` times its number of examples.

    The profile is applied per test (not loaded globally) so the other test modules keep their
    own settings.
    """
    profile = settings.get_profile(PROFILE)
    return settings(profile, max_examples=max(1, round(profile.max_examples * weight)))


_INPUTS = 0


def tried() -> None:
    global _INPUTS
    _INPUTS += 1


@pytest.fixture(scope="module", autouse=True)
def _count_inputs() -> Iterator[None]:
    yield
    target = os.environ.get("GRANDPRIX_FUZZ_COUNT")
    if target:
        with open(target, "a", encoding="utf-8") as out:
            out.write(f"{_INPUTS}\n")


# --------------------------------------------------------------------------------------------
# Seeds: the real example files

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
SEASONS = ("utah-2012", "acf-2004", "lupiae-2012-13")
PRESET_FOLDER = Path(grandprix.__file__).parent / "rules" / "presets"


def _read_folder(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


SEASON_FILES = {name: _read_folder(EXAMPLES / name) for name in SEASONS}
TRF_SEEDS = [
    p.read_bytes()
    for p in sorted([*EXAMPLES.rglob("*.trf"), *(ROOT / "tests" / "fixtures").rglob("*.trf")])
]
_NOT_RESULTS = ("players.csv", "entries.csv", "aliases.csv")
CSV_SEEDS = [
    p.read_bytes()
    for p in sorted(EXAMPLES.rglob("*.csv"))
    if p.name not in _NOT_RESULTS and p.parent.name != "lists"
]
OTHER_CSV_SEEDS = [
    p.read_bytes()
    for p in sorted(EXAMPLES.rglob("*.csv"))
    if p.name in _NOT_RESULTS or p.parent.name == "lists"
]
# A chess-results "Final Ranking crosstable" export: opponents are row positions, a row with
# an empty rank shares the place above, -1 / -½ / 0 are byes and an unpaired round.
CHESS_RESULTS_SEED = """\
From the Tournament-Database of Chess-Results http://chess-results.com
Fuzz Rapid Open 2024
"Organizer(s) : Somebody, Some (123456)"
Federation : Lebanon ( LBN )
Number of rounds : 3
Tournament type : Swiss-System
Date : 2024/07/31
Last update 01.08.2024 10:17:01
Final Ranking crosstable after 3 Rounds
Rk.,,Name,Rtg,FED,1.Rd,2.Rd,3.Rd,Pts. ,TB1,TB2
1,FM,Alpha Anna ,2100,LBN,  5w1,  3b1,  2w½,2.5,0,4
2,,Beta Bob ,2000,LBN,  3w½,  5b1,  1b½,2,0,4.5
3,,Gamma Cy ,1900,LBN,  2b½,  1w0,  5w+,1.5,0,4.5
,,Eps Eve ,0,LBN,-1,-½,0,1.5,0,0
5,,Delta Di ,1800,LBN,  1b0,  2w0,  3b-,0,0,4
You find all details to this tournament under  http://chess-results.com/tnr1.aspx?lan=1
Chess-Tournament-Results-Server: Chess-Results
"""
CHESS_RESULTS_BYTES = CHESS_RESULTS_SEED.encode("utf-8")
FIDE_XML_SEED = b"""<?xml version="1.0" encoding="utf-8"?>
<playerslist>
<player><fideid>9100000</fideid><name>Vance, Aiden</name><country>AUS</country><sex>M</sex>\
<title>FM</title><rating>1981</rating><rapid_rating>1900</rapid_rating><blitz_rating></blitz_rating>\
<birthday>1950</birthday></player>
<player><fideid>9100007</fideid><name>Ford, Boris</name><country>AUS</country><sex>F</sex>\
<title></title><rating>1308</rating><rapid_rating></rapid_rating><blitz_rating>1400</blitz_rating>\
<birthday>0000</birthday></player>
</playerslist>
"""
RATING_LIST_SEEDS = {
    **{f"list{i}.csv": data for i, data in enumerate(OTHER_CSV_SEEDS) if b"rating" in data},
    "fide.txt": fide_rating_list(6, 1).encode("utf-8"),
    "fide.xml": FIDE_XML_SEED,
}
ALL_SEEDS = [
    *TRF_SEEDS,
    *CSV_SEEDS,
    *OTHER_CSV_SEEDS,
    CHESS_RESULTS_BYTES,
    *(data for files in SEASON_FILES.values() for n, data in files.items() if n.endswith("toml")),
]
LINE_POOL = sorted({line for data in ALL_SEEDS for line in data.splitlines(keepends=True)})
PRESETS = {
    p.stem: tomllib.loads(p.read_text("utf-8")) for p in sorted(PRESET_FOLDER.glob("*.toml"))
}
# Ids of players in each example season (for `explain` when the standings give none).
DEFAULT_PLAYER = {"utah-2012": "1214", "acf-2004": "3100006", "lupiae-2012-13": "5012"}

# --------------------------------------------------------------------------------------------
# Values

TEXT_CHARS = st.characters(exclude_categories=["Cs"])
XLSX_CHARS = st.characters(exclude_categories=["Cs", "Cc"])


class Huge(str):
    """A long run of digits (``int(text)`` refuses more than 4300), shown short in reports."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{self[:1]!r} + {self[1:2]!r} * {len(self) - 1}"


LONG_DIGITS = st.builds(
    lambda n, first, rest: Huge(first + rest * (n - 1)),
    st.sampled_from([4300, 4301, 5000]),  # the limit of int(text) is 4300 digits
    st.sampled_from("19"),
    st.sampled_from("09"),
)


HUGE_DIGITS = Huge("1" + "0" * 5000)


def _words(text: str) -> list[str]:
    return text.split()


NASTY = (
    *_words("0 00 -1 -0 +1 1e99999 -1e99999 1e-99999 1E+999999 nan NaN inf -inf Infinity sNaN"),
    *_words("½ 3½ -½ 3,5 .5 5. 1/2 1/0 0x1F 1_000 ² ³² ① ٣ १२ 𝟗 １２ Ⅻ 2012-02-30 2012-13-45"),
    *_words("0000-00-00 9999-12-31 1800-01-01 2012/05/12 12.05.2012 Rk. 001 XXR id:1 w m GM"),
    *("", " ", "\t", "\u00a0", "\ufeff", '"', "'", ",", ";", "\\", "\x00", "\x85", "\u2028"),
    *("\r", "\n", "same", "different", "9" * 40, HUGE_DIGITS),
)


# A round cell of a chess-results crosstable: opponent (row), colour, result.
GAME_CELLS = st.builds(
    lambda opponent, colour, result: f"{opponent}{colour}{result}",
    st.one_of(st.integers(0, 12).map(str), st.integers(0, 10**9).map(str), LONG_DIGITS),
    st.sampled_from("wbs"),
    st.sampled_from("10½=+-"),
)


def field_values() -> st.SearchStrategy[str]:
    """Text for one field: numbers of every shape, dates, separators and random text."""
    return st.one_of(
        st.sampled_from(NASTY),
        LONG_DIGITS,
        LONG_DIGITS,
        GAME_CELLS,
        st.integers(-1000, 10**6).map(str),
        st.integers(min_value=-(2**80), max_value=2**80).map(str),
        st.decimals(allow_nan=True, allow_infinity=True).map(str),
        st.floats().map(repr),
        st.fractions(max_denominator=100).map(str),
        st.dates().map(str),
        st.text(TEXT_CHARS, max_size=30),
    )


@dataclass(frozen=True)
class Raw:
    """TOML text written as is (a literal too long for ``str(int)``, ``1e99999`` ...)."""

    text: str

    def __repr__(self) -> str:
        text = self.text if len(self.text) < 40 else f"{self.text[:10]}...({len(self.text)} chars)"
        return f"Raw({text!r})"


RAW_TOML = tuple(
    Raw(text)
    for text in (
        *(str(HUGE_DIGITS), "-" + HUGE_DIGITS),
        *_words("1e99999 -1e99999 1e-99999 inf -inf nan 0x7fffffffffffffff 00:00:00"),
        "1979-05-27T07:32:00Z",
    )
)
TOML_SCALARS: st.SearchStrategy[Any] = st.one_of(
    st.text(TEXT_CHARS, max_size=20),
    st.sampled_from(NASTY),
    st.integers(-(2**63), 2**63 - 1),
    st.integers(-3, 3),
    st.floats(),
    st.booleans(),
    st.dates(),
    st.datetimes(),
    st.times(),
    st.sampled_from(RAW_TOML),
)


def _toml_containers(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    keys = st.text(TEXT_CHARS, max_size=8)
    return st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=3))


TOML_VALUES: st.SearchStrategy[Any] = st.recursive(TOML_SCALARS, _toml_containers, max_leaves=6)
NUMBERS: st.SearchStrategy[Any] = st.one_of(
    st.integers(-5, 5000),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(),
    st.sampled_from(RAW_TOML[:8]),
    st.sampled_from(["1e99999", "-1e99999", "14/3", "1/0", "-1/3", "0", "½", "1,5", "x"]),
)
TIEBREAK_CODES = (
    *_words("BH BH/C1 BH/M1 SB DE WIN WON BPG BWG ARO TPR PTP APRO MM SOLK CUM KS RB XYZ BH/C99"),
    *("", " "),
)


def _file_names(season: str) -> list[str]:
    names = sorted(SEASON_FILES[season])
    return [*names, "lists", "missing.trf", "", ".", "../season.toml", "cr.csv", "cr.xlsx"]


RATING_KINDS = _words("national national-rapid national- fide-standard fide-rapid fide-blitz")
NUMBER_KEYS = _words(
    "weight prize_fund amount best min_events decimals rating_below rating_at_least age_below "
    "min_players based_on minimum overflow min_prize_fund score_factor"
)


FILE_KEYS = ("results", "file", "players", "ratings_store")


def near_value(draw: DrawFn, key: str, old: Any, season: str) -> Any:
    """A value for ``key`` close to what the schema expects, or anything at all."""
    choices: list[st.SearchStrategy[Any]] = [TOML_VALUES]
    if key in (*FILE_KEYS, "rules", "preset"):
        choices.append(st.sampled_from(_file_names(season)))
        choices.append(st.sampled_from([*sorted(PRESETS), "season.toml", "rules.toml", "x"]))
    if key in ("date", "start", "end", "on") or isinstance(old, datetime.date):
        choices.append(st.dates(datetime.date(1900, 1, 1), datetime.date(2100, 1, 1)))
        if isinstance(old, datetime.date) and not isinstance(old, datetime.datetime):
            day = old
            choices.append(st.integers(-400, 400).map(lambda n: day + datetime.timedelta(n)))
    if (isinstance(old, (int, float)) and not isinstance(old, bool)) or key in NUMBER_KEYS:
        choices.append(NUMBERS)
    if key == "format":
        choices.append(st.sampled_from(["trf", "csv", "chess-results", "xlsx", ""]))
    if key == "kind":
        choices.append(st.sampled_from([*RATING_KINDS, "fide", "unrated", ""]))
    if key == "tiebreaks":
        choices.append(st.lists(st.sampled_from(TIEBREAK_CODES), max_size=4).map(",".join))
        choices.append(st.lists(st.sampled_from(TIEBREAK_CODES), max_size=4))
    if key == "tiebreak_rules":
        choices.append(st.sampled_from(["fide-2024", "fide-2026", "fide-2009", "us-chess", ""]))
    if isinstance(old, str):
        others = sorted({v for v in _strings(PRESETS) if len(v) < 40})
        choices.append(st.sampled_from(others))
        choices.append(st.integers(0, len(old)).map(lambda n: old[:n]))
    if isinstance(old, list):
        choices.append(st.permutations(old).map(list))
        choices.append(st.just([]))
        if old:
            choices.append(st.sampled_from(old).map(lambda x: [*old, x]))
    if isinstance(old, dict):
        choices.append(st.just({}))
    if isinstance(old, bool):
        choices.append(st.booleans())
    return draw(st.one_of(choices))


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def _schema(model: type[BaseModel]) -> dict[str, set[Any]]:
    """Every field name of the model and the models inside it, with the values it may take
    when the schema says (Literal choices, true or false, a small number or a date)."""
    found: dict[str, set[Any]] = {}
    seen: set[type[BaseModel]] = set()

    def visit(name: str, annotation: Any) -> None:
        values = found.setdefault(name, set())
        if typing.get_origin(annotation) is typing.Literal:
            values.update(typing.get_args(annotation))
        elif annotation is bool:
            values.update((True, False))
        elif annotation in (int, Fraction):
            values.update((0, 1, 2, 10, -1, 0.5, "1/3"))
        elif annotation is datetime.date:
            values.update((datetime.date(2012, 1, 1), datetime.date(2013, 6, 30)))
        elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
            if annotation not in seen:
                seen.add(annotation)
                for field_name, info in annotation.model_fields.items():
                    visit(field_name, info.annotation)
        else:
            for arg in typing.get_args(annotation):
                visit(name, arg)

    visit("", model)
    return {name: values for name, values in found.items() if name}


def _is_array_of_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _known_values(docs: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Every value each key has in the presets and the example seasons."""
    found: dict[str, dict[str, Any]] = {}

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if not isinstance(value, dict) and not _is_array_of_tables(value):
                    found.setdefault(key, {})[repr(value)] = value
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    for doc in docs:
        visit(doc)
    return {key: [values[r] for r in sorted(values)] for key, values in found.items()}


LITERALS = _schema(RuleSet) | _schema(SeasonFile)
KNOWN_VALUES = _known_values(
    [*PRESETS.values(), *(tomllib.loads(f["season.toml"].decode()) for f in SEASON_FILES.values())]
)
FIELD_NAMES = sorted(set(LITERALS) | set(KNOWN_VALUES))


def plausible(draw: DrawFn, key: str, old: Any, season: str) -> Any:
    """A value for ``key`` that the schema may well accept: another allowed choice, a value the
    key has elsewhere, a nearby number or date, a list one element shorter or longer."""
    choices: list[st.SearchStrategy[Any]] = []
    if LITERALS.get(key):
        choices.append(st.sampled_from(sorted(LITERALS[key], key=repr)))
    if key in KNOWN_VALUES:
        choices.append(st.sampled_from(KNOWN_VALUES[key]))
    if key in FILE_KEYS:
        choices.append(st.sampled_from(sorted(SEASON_FILES[season])))
    if isinstance(old, bool):
        choices.append(st.just(not old))
    elif isinstance(old, int):
        low, high = sorted((old // 2, old * 2 + 1))
        choices += [st.integers(-1, 10), st.integers(low, high)]
    elif isinstance(old, float):
        choices.append(st.floats(0, 10).map(lambda x: round(x, 2)))
    elif isinstance(old, datetime.date) and not isinstance(old, datetime.datetime):
        day = old
        choices.append(st.integers(-100, 100).map(lambda n: day + datetime.timedelta(n)))
    elif isinstance(old, list) and old:
        items = list(old)
        i = draw(st.integers(0, len(items) - 1))
        choices.append(st.just(items[:i] + items[i + 1 :]))
        choices.append(st.just([*items[: i + 1], *items[i:]]))
        choices.append(st.just(items[::-1]))
        if not isinstance(items[i], (dict, list)):
            new = plausible(draw, key, items[i], season)
            choices.append(st.just([*items[:i], new, *items[i + 1 :]]))
    if not choices:
        return near_value(draw, key, old, season)
    return draw(st.one_of(choices))


# --------------------------------------------------------------------------------------------
# TOML writing (tomllib only reads)

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_string(text: str) -> str:
    out = ['"']
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else _toml_string(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    raise TypeError(f"not a TOML value: {value!r}")


def dump_toml(data: dict[str, Any], inline: bool = False) -> str:
    """TOML text of ``data``: tables and arrays of tables under headers, or all inline."""
    lines: list[str] = []

    def table(path: tuple[str, ...], node: dict[str, Any], header: str | None) -> None:
        if header is not None:
            lines.append(header)
        nested = []
        for key, value in node.items():
            if not inline and (isinstance(value, dict) or _is_array_of_tables(value)):
                nested.append((key, value))
            else:
                lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
        for key, value in nested:
            dotted = ".".join(_toml_key(k) for k in (*path, key))
            if isinstance(value, dict):
                table((*path, key), value, f"[{dotted}]")
            else:
                for item in value:
                    table((*path, key), item, f"[[{dotted}]]")

    table((), data, None)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------
# Byte, line and field mutations

Mutation = Callable[[DrawFn, bytes], bytes]


def _position(draw: DrawFn, data: bytes) -> int:
    return draw(st.integers(0, len(data)))


def flip_byte(draw: DrawFn, data: bytes) -> bytes:
    if not data:
        return data
    i = draw(st.integers(0, len(data) - 1))
    return data[:i] + bytes([data[i] ^ draw(st.integers(1, 255))]) + data[i + 1 :]


SNIPPETS = (
    *(b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\r", b"\n", b"\r\n", b",", b";", b'"', b"\xe9"),
    *("½".encode(), b"\x85", b"\t", b" " * 40, b"#", b"=", b"[", b"]]", b"9" * 4301),
)


def insert_bytes(draw: DrawFn, data: bytes) -> bytes:
    i = _position(draw, data)
    junk = draw(st.one_of(st.sampled_from(SNIPPETS), st.binary(min_size=1, max_size=8)))
    return data[:i] + junk + data[i:]


def delete_bytes(draw: DrawFn, data: bytes) -> bytes:
    i = _position(draw, data)
    return data[:i] + data[i + draw(st.integers(1, 40)) :]


def truncate(draw: DrawFn, data: bytes) -> bytes:
    return data[: _position(draw, data)]


def reencode(draw: DrawFn, data: bytes) -> bytes:
    """The same text as Latin-1, UTF-16, with a BOM or with other line ends."""
    how = draw(st.sampled_from(["latin-1", "utf-16", "bom", "crlf", "cr", "no-final-newline"]))
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "crlf":
        return data.replace(b"\n", b"\r\n")
    if how == "cr":
        return data.replace(b"\n", b"\r")
    if how == "no-final-newline":
        return data.rstrip(b"\r\n")
    try:
        return data.decode("utf-8").encode(how)
    except (UnicodeDecodeError, UnicodeEncodeError):
        return data


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def line_op(draw: DrawFn, data: bytes) -> bytes:
    """Delete, duplicate, swap or move lines, or insert a line of another file."""
    lines = _lines(data)
    how = draw(st.sampled_from(["delete", "duplicate", "swap", "move", "insert", "insert"]))
    if how == "insert" or not lines:
        line = draw(
            st.one_of(
                st.sampled_from(LINE_POOL),
                st.text(TEXT_CHARS, max_size=60).map(lambda t: t.encode("utf-8") + b"\n"),
            )
        )
        lines.insert(draw(st.integers(0, len(lines))), line)
        return b"".join(lines)
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines) - 1))
    if how == "delete":
        del lines[i]
    elif how == "duplicate":
        lines.insert(j, lines[i])
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, lines.pop(i))
    return b"".join(lines)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "surrogateescape")


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def csv_field(draw: DrawFn, data: bytes) -> bytes:
    """Replace, delete or add a field of one row (the header row included)."""
    lines = _text(data).splitlines()
    if not lines:
        return data
    i = draw(st.integers(0, len(lines) - 1))
    k = draw(st.integers(0, len(lines) - 1))
    try:
        row = next(csv.reader([lines[i]]), [])
        other = next(csv.reader([lines[k]]), []) or [""]
    except csv.Error:
        return data
    how = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "copy"]))
    j = draw(st.integers(0, len(row))) if row else 0
    if how == "delete" and j < len(row):
        del row[j]
    elif how == "copy":
        row.insert(j, draw(st.sampled_from(other)))
    elif how == "add" or j >= len(row):
        row.insert(j, draw(field_values()))
    else:
        row[j] = draw(field_values())
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(row)
    lines[i] = out.getvalue()
    return _bytes("\n".join(lines) + "\n")


def csv_semicolons(draw: DrawFn, data: bytes) -> bytes:
    """The same table written with ';' between fields (and ',' as the decimal mark)."""
    try:
        rows = list(csv.reader(_text(data).splitlines()))
    except csv.Error:
        return data
    decimal_comma = draw(st.booleans())
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\n")
    for row in rows:
        writer.writerow([c.replace(".", ",") if decimal_comma else c for c in row])
    return _bytes(out.getvalue())


def crosstable_cell(draw: DrawFn, data: bytes) -> bytes:
    """Replace a cell of a player row of a chess-results crosstable (rounds, rank, points)."""
    lines = _text(data).splitlines()
    header = next((i for i, line in enumerate(lines) if line.lower().startswith("rk")), None)
    if header is None or header + 1 >= len(lines):
        return csv_field(draw, data)
    i = draw(st.integers(header + 1, len(lines) - 1))
    try:
        row = next(csv.reader([lines[i]]), [])
    except csv.Error:
        return data
    if not row:
        return data
    j = draw(st.integers(0, len(row) - 1))
    byes = st.sampled_from(["-1", "-½", "-0", "0", "", "-", "+", "w1", "1w", "1x1"])
    row[j] = draw(st.one_of(GAME_CELLS, GAME_CELLS, byes, field_values()))
    out = io.StringIO()
    csv.writer(out, lineterminator="").writerow(row)
    lines[i] = out.getvalue()
    return _bytes("\n".join(lines) + "\n")


# (first, last) columns of the fields of a TRF player record, 1-based inclusive.
TRF_FIELDS = (
    *((1, 3), (5, 8), (10, 10), (11, 13), (15, 47), (49, 52), (54, 56), (58, 68), (70, 79)),
    *((81, 84), (86, 89)),
)


def trf_field(draw: DrawFn, data: bytes) -> bytes:
    """Replace a fixed-column field of a record, fitted to its width or not."""
    lines = _text(data).splitlines()
    if not lines:
        return data
    players = [n for n, line in enumerate(lines) if line.startswith("001")]
    on_player = draw(st.booleans())
    if players and on_player:
        i = draw(st.sampled_from(players))
    else:
        i = draw(st.integers(0, len(lines) - 1))
    line = lines[i]
    if line.startswith("001"):
        fields = list(TRF_FIELDS)
        for start in range(92, max(len(line), 92) + 1, 10):  # round blocks
            fields += [(start, start + 3), (start + 5, start + 5), (start + 7, start + 7)]
            fields.append((start, start + 7))
        first, last = draw(st.sampled_from(fields))
    else:
        first, last = 5, max(5, len(line))
    value = draw(
        st.one_of(
            field_values(),
            st.sampled_from(list("10=+-WDLHFUZAwbX? ")),
            st.sampled_from(["0000 - H", "   1 w 1", "9999 b =", "0000 - -", "   0 w 1"]),
        )
    )
    width = last - first + 1
    fit = draw(st.sampled_from(["right", "left", "raw"]))
    if fit == "right":
        value = value[:width].rjust(width)
    elif fit == "left":
        value = value[:width].ljust(width)
    line = line.ljust(first - 1)
    lines[i] = line[: first - 1] + value + line[last:]
    return _bytes("\n".join(lines) + "\n")


HEADER_VALUES = (
    *_words("W=1 D=0.5 WW=1e99999 W=x = W= =1 Swiss Berger all-play-all 2012/02/30"),
    *("  W 1.0  D 0.5", "  W 3.0  D 1.0  L 0.0  A 0.0  P 1.5", "round robin"),
)


def trf_header(draw: DrawFn, data: bytes) -> bytes:
    """Add a header record (rounds, scoring, dates, the kind of tournament)."""
    record = draw(
        st.one_of(
            st.sampled_from(
                _words("XXR 142 XXS 162 BBW BBD BBL BBZ BBF BBU 012 042 052 092 192 XXC 132 122")
            ),
            st.text(TEXT_CHARS, min_size=3, max_size=3),
        )
    )
    value = draw(
        st.one_of(
            field_values(),
            st.sampled_from(HEADER_VALUES),
        )
    )
    lines = _lines(data)
    lines.insert(draw(st.integers(0, len(lines))), _bytes(f"{record} {value}\n"))
    return b"".join(lines)


GENERIC: tuple[Mutation, ...] = (
    *(flip_byte, insert_bytes, delete_bytes, truncate, reencode, line_op, line_op),
)
MUTATIONS: dict[str, tuple[Mutation, ...]] = {
    "trf": (*GENERIC, trf_field, trf_field, trf_field, trf_header),
    "csv": (*GENERIC, csv_field, csv_field, csv_field, csv_semicolons),
    "chess-results": (*GENERIC, crosstable_cell, crosstable_cell, crosstable_cell, csv_field),
    "any": GENERIC,
}


def kind_of(name: str) -> str:
    if name.endswith(".trf"):
        return "trf"
    if name.endswith(".csv"):
        return "csv"
    return "any"


def mutate(draw: DrawFn, data: bytes, kind: str, most: int = 4) -> bytes:
    for _ in range(draw(st.integers(1, most))):
        data = draw(st.sampled_from(MUTATIONS[kind]))(draw, data)
    return data


@st.composite
def mutated(draw: DrawFn, seeds: list[bytes], kind: str) -> bytes:
    return mutate(draw, draw(st.sampled_from(seeds)), kind)


# --------------------------------------------------------------------------------------------
# chess-results workbooks

XLSX_VALUES: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    GAME_CELLS,
    LONG_DIGITS,
    st.text(XLSX_CHARS, max_size=20),
    st.sampled_from([s for s in NASTY if not any(ord(c) < 32 for c in s)]),
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.floats(),
    st.booleans(),
    st.datetimes(datetime.datetime(1900, 3, 1), datetime.datetime(9999, 1, 1)),
    st.sampled_from(
        _words("4w1 3b½ 2w= 1b0 5w+ 3b- 7s1 -1 -½ -0 0 Rk. Name Pts. 1.Rd Rtg FIDE-ID")
    ),
)


def _cell(text: str) -> object:
    """A cell as a real export holds it: numbers as numbers."""
    stripped = text.strip()
    if stripped.isdigit() and stripped.isascii():
        return int(stripped)
    if re.fullmatch(r"\d+\.\d+", stripped):
        return float(stripped)
    return text


SEED_GRID: list[list[object]] = [
    [_cell(c) for c in row] for row in csv.reader(CHESS_RESULTS_SEED.splitlines())
]


_STAMP = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


def _stable(xlsx: bytes) -> bytes:
    """The workbook without the time it was saved, so that one input always gives one file."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(xlsx)) as source, zipfile.ZipFile(out, "w") as target:
        for info in source.infolist():
            content = _STAMP.sub(b"2024-01-01T00:00:00Z", source.read(info))
            target.writestr(
                zipfile.ZipInfo(info.filename, (2024, 1, 1, 0, 0, 0)), content, zipfile.ZIP_DEFLATED
            )
    return out.getvalue()


PLAYER_ROWS = (
    next(i for i, row in enumerate(SEED_GRID) if row and row[0] == "Rk.") + 1,
    max(i for i, row in enumerate(SEED_GRID) if len(row) > 5),
)


@st.composite
def workbooks(draw: DrawFn) -> bytes:
    """The seed crosstable with some cells, rows or columns changed, saved as xlsx."""
    grid = [list(row) for row in SEED_GRID]
    for _ in range(draw(st.integers(0, 5))):
        how = draw(
            st.sampled_from(
                ["cell", "cell", "cell", "delete", "dup", "swap", "column", "truncate", "sheet"]
            )
        )
        if how == "sheet":
            continue  # handled below
        if not grid:
            grid.append([])
        i = draw(st.integers(0, len(grid) - 1))
        j = draw(st.integers(0, len(grid) - 1))
        if how == "cell":
            if draw(st.booleans()) and len(grid) > PLAYER_ROWS[0]:  # a player row
                i = draw(st.integers(PLAYER_ROWS[0], min(PLAYER_ROWS[1], len(grid) - 1)))
            row = grid[i]
            k = draw(st.integers(0, len(row)))
            value = draw(XLSX_VALUES)
            if k < len(row):
                row[k] = value
            else:
                row.append(value)
        elif how == "delete":
            del grid[i]
        elif how == "dup":
            grid.insert(j, list(grid[i]))
        elif how == "swap":
            grid[i], grid[j] = grid[j], grid[i]
        elif how == "column":
            k = draw(st.integers(0, 12))
            value = draw(XLSX_VALUES)
            for row in grid:
                row.insert(min(k, len(row)), value)
        else:
            del grid[i:]
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    if draw(st.booleans()) and draw(st.booleans()):
        sheet.append(["Rk.", "Name"])  # a first sheet that is not the crosstable
        sheet = book.create_sheet("crosstable")
    try:
        for row in grid:
            sheet.append(row)
        out = io.BytesIO()
        book.save(out)
    except Exception:  # openpyxl refuses some values (illegal characters, odd dates)
        assume(False)
    data = _stable(out.getvalue())
    if draw(st.integers(0, 3)) == 0:
        data = mutate(draw, data, "any", most=2)  # a damaged file
    return data


# --------------------------------------------------------------------------------------------
# Zip containers: workbooks and zipped rating lists

_LOCAL, _CENTRAL = b"PK\x03\x04", b"PK\x01\x02"
# Where a header's sizes are: (signature, offset of the compressed size, of the uncompressed).
_SIZE_FIELDS = ((_LOCAL, 18, 22), (_CENTRAL, 20, 24))
DECLARED = st.sampled_from([0, 1, 100, 2**16, 2**20, 2**24, 2**31, 2**32 - 1])


def declare_size(draw: DrawFn, data: bytes) -> bytes:
    """A zip whose local or central header declares another compressed or unzipped size."""
    spots = [
        (at + compressed, at + unzipped)
        for signature, compressed, unzipped in _SIZE_FIELDS
        for at in (m.start() for m in re.finditer(re.escape(signature), data))
        if at + unzipped + 4 <= len(data)
    ]
    if not spots:
        return data
    compressed, unzipped = draw(st.sampled_from(spots))
    at = draw(st.sampled_from([compressed, unzipped]))
    size = draw(DECLARED).to_bytes(4, "little")
    return data[:at] + size + data[at + 4 :]


ZIP_DAMAGE: tuple[Mutation, ...] = (declare_size, declare_size, flip_byte, truncate, delete_bytes)


def damage_zip(draw: DrawFn, data: bytes) -> bytes:
    for _ in range(draw(st.integers(1, 3))):
        data = draw(st.sampled_from(ZIP_DAMAGE))(draw, data)
    return data


COLUMN = st.builds(
    "".join, st.lists(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ"), min_size=1, max_size=3)
)
ROW = st.integers(1, 1_048_576)


@st.composite
def bomb_workbooks(draw: DrawFn) -> bytes:
    """The crosstable as a workbook with the content of a bomb, zip damage, or both."""
    rows = crosstable_rows()
    dimension = None
    tail: list[bytes] = []
    for _ in range(draw(st.integers(0, 3))):
        how = draw(st.sampled_from(["dimension", "claim", "far", "long", "rows"]))
        if how == "dimension":
            dimension = f"A1:{draw(COLUMN)}{draw(ROW)}"
        elif how == "claim":  # the dimension claims what one far cell reaches
            column, row = draw(COLUMN), draw(st.integers(len(rows) + 1, 1_048_576))
            dimension = f"A1:{column}{row}"
            tail.append(f'<row r="{row}"><c r="{column}{row}"><v>1</v></c></row>'.encode())
        elif how == "far":
            ref = f"{draw(COLUMN)}{draw(st.integers(len(rows) + 1, 1_048_576))}"
            number = "".join(ch for ch in ref if ch.isdigit())
            tail.append(f'<row r="{number}"><c r="{ref}"><v>1</v></c></row>'.encode())
        elif how == "long":
            i = draw(st.integers(0, len(rows) - 1))
            rows[i] = [*rows[i], "x" * draw(st.integers(131_000, 131_200))]
        else:
            first = len(rows) + 1
            tail.append(b"".join(f'<row r="{n}"/>'.encode() for n in range(first, first + 200)))
    data = workbook(sheet_xml(rows, dimension, sorted(tail, key=len)))
    return damage_zip(draw, data) if draw(st.booleans()) else data


@st.composite
def zipped_lists(draw: DrawFn) -> tuple[str, bytes]:
    """A rating list seed, maybe mutated, zipped, and maybe damaged as a zip."""
    name = draw(st.sampled_from(sorted(RATING_LIST_SEEDS)))
    content = RATING_LIST_SEEDS[name]
    if draw(st.booleans()):
        content = mutate(draw, content, kind_of(name), most=2)
    data = zipped(f"players_list.{name.rsplit('.', 1)[-1]}", [content])
    return name, damage_zip(draw, data) if draw(st.integers(0, 3)) else data


def check_list_zip(data: bytes, kind: str) -> None:
    """A zipped list is read, or refused in problems located in the zip."""
    tried()
    try:
        with time_limit():
            _format, rows = read_rows(Path("fuzz.zip"), kind, data)
            list(rows)
    except ListError as exc:
        assert exc.problems, "a refusal without a problem"
        assert all(str(p).startswith("fuzz.zip") for p in exc.problems), exc.problems
        for problem in exc.problems:
            assert problem.message.strip(), "an empty message"


# --------------------------------------------------------------------------------------------
# Whole seasons


class Files(dict[str, bytes]):
    """The files of a season folder by path; shown by name only (the diff is noted apart)."""

    def __repr__(self) -> str:
        return f"<{len(self)} files: {', '.join(sorted(self))}>"


TEXT_FILE = re.compile(r"\.(toml|csv|trf)$")


def _parse_toml(data: bytes) -> dict[str, Any] | None:
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError):
        return None


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, (*prefix, index))


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def mutate_tree(draw: DrawFn, doc: dict[str, Any], season: str) -> dict[str, Any]:
    """Change one value of a parsed TOML document: replace, delete, duplicate or add a key."""
    doc = copy.deepcopy(doc)
    paths = list(_paths(doc))
    path = draw(st.sampled_from(paths))
    node = _get(doc, path)
    how = draw(st.sampled_from(["replace", "replace", "replace", "delete", "duplicate", "add"]))
    # Two times in three a value the schema may accept (deeper code runs), else anything.
    value = plausible if draw(st.integers(0, 2)) else near_value
    if (how == "add" and isinstance(node, (dict, list))) or not path:
        if isinstance(node, dict):
            key = draw(st.one_of(st.sampled_from(FIELD_NAMES), st.text(TEXT_CHARS, max_size=8)))
            node[key] = value(draw, key, node.get(key), season)
        elif isinstance(node, list):
            node.append(copy.deepcopy(draw(st.sampled_from(node))) if node else None)
            if node[-1] is None:
                node[-1] = near_value(draw, "", None, season)
        return doc
    parent = _get(doc, path[:-1])
    last = path[-1]
    if how == "delete":
        del parent[last]
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(node))
    else:
        key = last if isinstance(last, str) else str(path[-2]) if len(path) > 1 else ""
        parent[last] = value(draw, key, node, season)
    return doc


def override_rules(draw: DrawFn, doc: dict[str, Any], season: str) -> dict[str, Any]:
    """Override one part of the preset in [rules], near its valid values."""
    doc = copy.deepcopy(doc)
    rules = doc.get("rules")
    if isinstance(rules, str) and rules in PRESETS:
        base, overrides = rules, {}
    elif isinstance(rules, dict) and rules.get("preset") in PRESETS:
        base = rules["preset"]
        overrides = {k: v for k, v in rules.items() if k != "preset"}
    else:
        base, overrides = draw(st.sampled_from(sorted(PRESETS))), {}
    merged = merge(PRESETS[base], overrides)  # as load_rules merges them
    part = draw(st.sampled_from(sorted(merged)))
    value = mutate_tree(draw, {part: merged[part]}, season)
    overrides.update(value)
    if part not in value:
        overrides.pop(part, None)
    doc["rules"] = {"preset": base, **overrides}
    return doc


# Columns of a TRF player record holding who the player is, 1-based inclusive.
TRF_COLUMNS = {
    "name": (15, 47),
    "id": (58, 68),
    "rating": (49, 52),
    "birth_date": (70, 79),
    "sex": (10, 10),
    "federation": (54, 56),
    "title": (11, 13),
}
_CSV_ALIASES = {"fide_id": "id", "elo": "rating", "fed": "federation", "pts": "points"}


def _csv_rows(data: bytes) -> list[list[str]]:
    try:
        return list(csv.reader(_text(data).splitlines()))
    except csv.Error:
        return []


def _header(row: list[str]) -> list[str]:
    names = [cell.strip().lower() for cell in row]
    return [_CSV_ALIASES.get(name, name) for name in names]


def _values(files: Files, column: str) -> list[str]:
    """The values of one column (name, id, rating, region...) in the season's files."""
    found: set[str] = set()
    for name, data in files.items():
        if name.endswith(".trf") and column in TRF_COLUMNS:
            first, last = TRF_COLUMNS[column]
            lines = _text(data).splitlines()
            found.update(line[first - 1 : last].strip() for line in lines if line[:3] == "001")
        elif name.endswith(".csv"):
            rows = _csv_rows(data)
            header = _header(rows[0]) if rows else []
            if column in header:
                at = header.index(column)
                found.update(r[at].strip() for r in rows[1:] if len(r) > at)
    return sorted(v for v in found if v)


def _names(files: Files) -> list[str]:
    """Player names of the season's files (for aliases.csv)."""
    return _values(files, "name") or ["Nobody"]


def identity_value(draw: DrawFn, files: Files, column: str) -> str:
    """A believable value of a column: another player's name or id, a rating, a date..."""
    pool = _values(files, column)
    choices: list[st.SearchStrategy[str]] = [st.just(""), LONG_DIGITS]
    if pool:
        choices.append(st.sampled_from(pool))
    if column == "name" and pool:
        name = draw(st.sampled_from(pool))
        choices.append(st.just(_similar(draw, name)))
    elif column == "id":
        choices.append(st.integers(1, 99_999_999).map(str))
    elif column in ("rating", "rtg"):
        choices.append(st.integers(0, 3000).map(str))
    elif column == "birth_date":
        days = st.dates(datetime.date(1920, 1, 1), datetime.date(2020, 12, 31))
        choices += [
            days.map(str),
            days.map(lambda d: d.strftime("%Y/%m/%d")),
            days.map(lambda d: str(d.year)),
        ]
    elif column == "sex":
        choices.append(st.sampled_from(["m", "w", "f", "M", "W"]))
    elif column == "federation":
        choices.append(st.sampled_from(["USA", "AUS", "ITA", "LBN", "FID"]))
    elif column == "title":
        choices.append(st.sampled_from(["GM", "IM", "FM", "CM", "WGM", "WIM", "WFM"]))
    elif column == "points":
        choices.append(st.integers(0, 24).map(lambda n: str(n / 2).removesuffix(".0")))
    elif column == "rank":
        first = st.integers(1, 30)
        choices += [first.map(str), st.tuples(first, first).map(lambda t: f"{min(t)}-{max(t)}")]
    return draw(st.one_of(choices))


def change_identity(draw: DrawFn, files: Files) -> None:
    """Change who a player is (name, id, rating, birth date, sex, ...) or add such a column,
    keeping the file readable: the change reaches matching, divisions and prizes."""
    names = sorted(n for n in files if n.endswith((".trf", ".csv")))
    if not names:
        return
    name = draw(st.sampled_from(names))
    if name.endswith(".trf"):
        lines = _text(files[name]).splitlines()
        players = [i for i, line in enumerate(lines) if line[:3] == "001"]
        if not players:
            return
        i = draw(st.sampled_from(players))
        column = draw(st.sampled_from(sorted(TRF_COLUMNS)))
        first, last = TRF_COLUMNS[column]
        width = last - first + 1
        value = identity_value(draw, files, column)[:width]
        value = value.ljust(width) if column == "name" else value.rjust(width)
        line = lines[i].ljust(last)
        lines[i] = line[: first - 1] + value + line[last:]
        files[name] = _bytes("\n".join(lines) + "\n")
        return
    rows = _csv_rows(files[name])
    if len(rows) < 2:
        return
    header = _header(rows[0])
    columns = [
        "name",
        "id",
        "rating",
        "birth_date",
        "sex",
        "federation",
        "title",
        "points",
        "rank",
        "region",
        "member",
        "attended",
    ]
    column = draw(st.sampled_from(columns))
    if column in header:
        j = header.index(column)
        i = draw(st.integers(1, len(rows) - 1))
        if j < len(rows[i]):
            rows[i][j] = identity_value(draw, files, column)
    else:  # a new column, every row its own value
        rows[0].append(column)
        for row in rows[1:]:
            if row:
                row.append(identity_value(draw, files, column))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    files[name] = _bytes(out.getvalue())


def _similar(draw: DrawFn, name: str) -> str:
    how = draw(st.sampled_from(["same", "drop", "swap", "case", "other"]))
    if how == "drop" and len(name) > 1:
        i = draw(st.integers(0, len(name) - 1))
        return name[:i] + name[i + 1 :]
    if how == "swap" and "," in name:
        surname, _, given = name.partition(",")
        return f"{given.strip()} {surname.strip()}"
    if how == "case":
        return name.upper()
    return name


def aliases_csv(draw: DrawFn, files: Files) -> bytes:
    """An aliases.csv deciding on names of the season's files and names like them."""
    people = _names(files)
    header = ["name,other,decision"] * 3 + ["name,other", "other,name,decision", ""]
    rows = [draw(st.sampled_from(header))]
    for _ in range(draw(st.integers(0, 5))):
        first = draw(st.sampled_from(people))
        other = draw(st.one_of(st.sampled_from(people), st.just(_similar(draw, first))))
        decision = draw(st.sampled_from(["same", "same", "different", "SAME", "maybe", ""]))
        out = io.StringIO()
        csv.writer(out, lineterminator="").writerow([first, other, decision])
        rows.append(out.getvalue())
    data = _bytes("\n".join(rows) + "\n")
    return mutate(draw, data, "csv", 2) if draw(st.booleans()) else data


SEASON_MUTATIONS = _words(
    "bytes bytes swap-lines toml toml toml rules rules rules identity identity identity identity "
    "rules-file aliases remove replace chess-results store"
)


@st.composite
def season_files(draw: DrawFn, season: str) -> Files:
    """The files of an example season after one to three mutations."""
    files = Files(SEASON_FILES[season])
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(SEASON_MUTATIONS))
        names = sorted(files)
        text_names = [n for n in names if TEXT_FILE.search(n)] or ["season.toml"]
        doc = _parse_toml(files.get("season.toml", b""))
        if how == "bytes":
            name = draw(st.sampled_from(text_names))
            files[name] = mutate(draw, files.get(name, b""), kind_of(name), most=2)
        elif how == "swap-lines":
            a, b = draw(st.sampled_from(text_names)), draw(st.sampled_from(text_names))
            la, lb = _lines(files.get(a, b"")), _lines(files.get(b, b""))
            if la and lb:
                i, j = draw(st.integers(0, len(la) - 1)), draw(st.integers(0, len(lb) - 1))
                if a == b:
                    la[i], la[j] = la[j], la[i]
                    files[a] = b"".join(la)
                elif draw(st.booleans()):
                    la[i], lb[j] = lb[j], la[i]
                    files[a], files[b] = b"".join(la), b"".join(lb)
                else:
                    lb.insert(j, la[i])
                    files[b] = b"".join(lb)
        elif how in ("toml", "rules") and doc is not None:
            change = mutate_tree if how == "toml" else override_rules
            files["season.toml"] = _bytes(dump_toml(change(draw, doc, season), draw(st.booleans())))
        elif how == "rules-file" and doc is not None:
            base = draw(st.sampled_from(sorted(PRESETS)))
            rules = PRESETS[base]
            for _ in range(draw(st.integers(0, 2))):
                rules = mutate_tree(draw, rules, season)
            files["my-rules.toml"] = _bytes(dump_toml(rules))
            if draw(st.booleans()):
                doc["rules"] = "my-rules.toml"
            else:  # the file, with overrides
                overrides = override_rules(draw, {"rules": base}, season)["rules"]
                doc["rules"] = {**overrides, "file": "my-rules.toml"}
                doc["rules"].pop("preset", None)
            files["season.toml"] = _bytes(dump_toml(doc))
        elif how == "identity":
            change_identity(draw, files)
        elif how == "aliases":
            files["aliases.csv"] = aliases_csv(draw, files)
        elif how == "remove":
            files.pop(draw(st.sampled_from(names)), None)
        elif how == "replace":
            name = draw(st.sampled_from(names))
            files[name] = draw(
                st.one_of(
                    st.sampled_from([files[n] for n in names]),
                    st.just(b""),
                    st.binary(max_size=200),
                )
            )
        elif how == "chess-results" and doc is not None and doc.get("events"):
            xlsx = draw(st.booleans())
            target = "cr.xlsx" if xlsx else "cr.csv"
            if xlsx:
                files[target] = draw(workbooks())
            elif draw(st.booleans()):
                files[target] = mutate(draw, CHESS_RESULTS_BYTES, "chess-results", 2)
            else:
                files[target] = CHESS_RESULTS_BYTES
            events = doc["events"]
            if isinstance(events, list) and events and all(isinstance(e, dict) for e in events):
                event = draw(st.sampled_from(events))
                sections = event.get("sections")
                if isinstance(sections, list) and sections and isinstance(sections[0], dict):
                    draw(st.sampled_from(sections))["results"] = target
                else:
                    event["results"] = target
                files["season.toml"] = _bytes(dump_toml(doc))
        elif how == "store" and "ratings.sqlite" in files:
            files["ratings.sqlite"] = mutate(draw, files["ratings.sqlite"], "any", 2)
    return files


@contextmanager
def season_folder(files: Files) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="grandprix-fuzz-") as tmp:
        folder = Path(tmp) / "season"
        folder.mkdir()
        for name, data in files.items():
            path = folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        yield folder


def changes(season: str, files: Files) -> str:
    """What the mutations changed, as a diff of every changed file."""
    original = SEASON_FILES[season]
    out = []
    for name in sorted(set(original) | set(files)):
        before, after = original.get(name), files.get(name)
        if before == after:
            continue
        if after is None:
            out.append(f"--- {name} removed")
        elif not TEXT_FILE.search(name) or name.endswith(".xlsx"):
            out.append(
                f"--- {name} changed ({0 if before is None else len(before)} -> "
                f"{len(after)} bytes): {after[:120]!r}"
            )
        else:
            doc = _parse_toml(before or b"") if name.endswith(".toml") else None
            if doc is not None and after.startswith(b"name = "):  # written by dump_toml
                before = _bytes(dump_toml(doc))
            old = (before or b"").decode("utf-8", "backslashreplace").splitlines()
            new = after.decode("utf-8", "backslashreplace").splitlines()
            diff = list(difflib.unified_diff(old, new, name, name, n=1, lineterm=""))
            if len(diff) > 80:
                diff = [*diff[:80], f"... ({len(diff) - 80} more diff lines)"]
            out.extend(line[:300] for line in diff)
    return "\n".join(out)


# --------------------------------------------------------------------------------------------
# Running the code under test


class FuzzTimeout(Exception):
    """One input ran longer than TIME_LIMIT seconds."""


@contextmanager
def time_limit(seconds: float = TIME_LIMIT) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        yield
        return

    def expired(signum: int, frame: FrameType | None) -> None:
        raise FuzzTimeout(f"one input ran longer than {seconds} s (a hang?)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def check_reader(read: Callable[[], object]) -> None:
    """The reader returns (record or None, problems) or raises GrandprixError; nothing else."""
    tried()
    try:
        with time_limit():
            result = read()
    except GrandprixError:
        return
    assert isinstance(result, tuple) and len(result) == 2, f"not (record, problems): {result!r}"
    record, problems = result
    assert isinstance(problems, list), f"problems is not a list: {problems!r}"
    assert all(isinstance(p, Problem) for p in problems), f"not problems: {problems!r}"
    for problem in problems:
        str(problem)  # every message can be shown
    assert record is not None or problems, "returned no record and no problem saying why"


def invoke(args: list[str]) -> Result:
    try:
        with time_limit():
            return CliRunner().invoke(main, args)
    finally:
        gc.enable()  # `main` turns the cyclic collector off for the life of the process


EXIT_INTERNAL = 70
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)', re.MULTILINE)


class InternalError(AssertionError):
    """A command ended in an internal error of grandprix (exit 70, or an exception)."""


def internal_error(args: list[str], output: str) -> NoReturn:
    """Fail with the traceback of ``grandprix --debug ARGS``, raised from its deepest line.

    Hypothesis tells bugs apart by where their exception is raised: raising every internal
    error from this function would merge them all into one, so the error is raised from a
    line numbered as the traceback's deepest frame, in that frame's file.
    """
    debug = invoke(["--debug", *args])
    text = debug.output + debug.stderr
    frames = _FRAME.findall(text)
    ours = [f"{Path(f).relative_to(ROOT)}:{n}" for f, n in frames if Path(f).is_relative_to(ROOT)]
    error = InternalError(
        f"grandprix {' '.join(args)} ended in an internal error (exit {EXIT_INTERNAL}) "
        f"at {ours[-1] if ours else '?'}:\n{output[-1500:]}\n--- with --debug:\n{text[-4000:]}"
    )
    if frames:
        filename, line = frames[-1]
        exec(compile("\n" * (int(line) - 1) + "raise error", filename, "exec"), {"error": error})
    raise error


def expect(result: Result, args: list[str], codes: tuple[int, ...]) -> None:
    """The command ended on purpose with one of ``codes`` and printed no traceback."""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        exc.add_note(f"grandprix {' '.join(args)} raised {type(exc).__name__}")
        if result.exc_info is not None:
            exc.add_note("".join(traceback.format_exception(*result.exc_info))[-3000:])
        raise exc  # re-raised from where it was raised, so each bug is reported apart
    output = result.output + result.stderr
    if result.exit_code == EXIT_INTERNAL:
        internal_error(args, output)
    assert "Traceback" not in output, f"grandprix {' '.join(args)} printed a traceback:\n{output}"
    assert result.exit_code in codes, (
        f"grandprix {' '.join(args)} exited {result.exit_code} (expected one of {codes}):\n"
        + output[-2000:]
    )


def _unquoted(cell: str) -> str:
    """A CSV cell without the quote that keeps a spreadsheet from reading it as a formula."""
    return cell[1:] if cell[:1] == "'" and cell[1:2] in ("=", "+", "-", "@", "\t", "\r") else cell


def unambiguous_players(standings_csv: str) -> list[str]:
    """Ids (or names) of the standings that `explain` finds as exactly one player.

    A name matches when it is equal ignoring case, accents and spaces, or has the same words
    in any order: the candidates are unique under both, so explain must find them."""
    try:
        rows = list(csv.DictReader(io.StringIO(standings_csv)))
    except csv.Error:
        return []
    entries = [
        tuple(_unquoted(r.get(k) or "") for k in ("division", "player_id", "name")) for r in rows
    ]

    def same(name: str, wanted: str) -> bool:
        return normalise(name) == normalise(wanted) or name_key(name) == name_key(wanted)

    found = []
    for _, ident, name in entries:
        wanted = ident or name
        if not wanted.strip():
            continue
        match = [e for e in entries if e[1] == wanted or same(e[2], wanted)]
        per_table = max(sum(1 for e in match if e[0] == m[0]) for m in match)
        if per_table == 1 and len({e[1:] for e in match}) == 1:
            found.append(wanted)
    return sorted(set(found))


# --------------------------------------------------------------------------------------------
# Readers


@fuzz(8)
@given(data=mutated(TRF_SEEDS, "trf"))
def test_trf_reader_on_mutated_files(data: bytes) -> None:
    check_reader(lambda: read_trf(Path("fuzz.trf"), data))


@fuzz(2)
@given(
    head=st.sampled_from([b"", b"001 ", b"012 ", b"XXR "]),
    data=st.one_of(st.binary(max_size=2000), st.text(TEXT_CHARS).map(_bytes)),
)
def test_trf_reader_on_random_bytes(head: bytes, data: bytes) -> None:
    check_reader(lambda: read_trf(Path("fuzz.trf"), head + data))


@fuzz(10)
@given(data=mutated([*CSV_SEEDS, *OTHER_CSV_SEEDS], "csv"))
def test_standings_csv_reader_on_mutated_files(data: bytes) -> None:
    check_reader(lambda: read_standings_csv(Path("fuzz.csv"), data))


@fuzz(2)
@given(data=st.one_of(st.binary(max_size=2000), st.text(TEXT_CHARS).map(_bytes)))
def test_standings_csv_reader_on_random_bytes(data: bytes) -> None:
    check_reader(lambda: read_standings_csv(Path("fuzz.csv"), b"name,points\n" + data))


@fuzz(8)
@given(data=mutated([CHESS_RESULTS_BYTES], "chess-results"))
def test_chess_results_csv_on_mutated_files(data: bytes) -> None:
    check_reader(lambda: read_chess_results(Path("fuzz.csv"), data))


@fuzz(2)
@given(data=workbooks())
def test_chess_results_xlsx_on_mutated_workbooks(data: bytes) -> None:
    check_reader(lambda: read_chess_results(Path("fuzz.xlsx"), data))


@fuzz(1)
@given(
    data=st.one_of(
        st.binary(max_size=2000), st.binary(max_size=200).map(lambda b: b"PK\x03\x04" + b)
    )
)
def test_chess_results_xlsx_on_random_bytes(data: bytes) -> None:
    check_reader(lambda: read_chess_results(Path("fuzz.xlsx"), data))


@fuzz(3)
@given(
    data=mutated(ALL_SEEDS, "any") | mutated(ALL_SEEDS, "csv") | mutated(ALL_SEEDS, "trf"),
    suffix=st.sampled_from([".trf", ".csv", ".txt", ".xlsx", ""]),
    fmt=st.sampled_from([None, "trf", "csv", "chess-results"]),
)
def test_any_reader_on_any_file(data: bytes, suffix: str, fmt: str | None) -> None:
    """Format detection, and each reader on the others' files."""
    with tempfile.TemporaryDirectory(prefix="grandprix-fuzz-") as tmp:
        path = Path(tmp) / f"fuzz{suffix}"
        path.write_bytes(data)
        check_reader(lambda: load_section(path, fmt))


@fuzz(2)
@given(
    name=st.sampled_from(sorted(RATING_LIST_SEEDS)),
    kind=st.sampled_from([*RATING_KINDS, "national-x", ""]),
    data=st.data(),
)
def test_rating_list_reader_on_mutated_files(name: str, kind: str, data: st.DataObject) -> None:
    """The rating lists a season imports: CSV, FIDE's fixed-width TXT and XML."""
    mutated_list = data.draw(mutated([RATING_LIST_SEEDS[name]], kind_of(name)), label="list")

    def read() -> tuple[object, list[Problem]]:
        _format, rows = read_rows(Path(name), kind, mutated_list)
        return list(rows), []  # the rows are read lazily

    check_reader(read)


@fuzz(1)
@given(data=bomb_workbooks())
def test_chess_results_xlsx_on_bombs_and_damaged_zips(data: bytes) -> None:
    """Read or refused; never refused for running out of memory (a bound not kept)."""

    def read() -> tuple[object, list[Problem]]:
        section, problems = read_chess_results(Path("fuzz.xlsx"), data)
        assert not any("MemoryError" in p.message for p in problems), problems
        return section, problems

    check_reader(read)


@fuzz(1)
@given(named=zipped_lists(), kind=st.sampled_from(["fide-standard", "fide-blitz", "national"]))
def test_rating_list_reader_on_damaged_zips(named: tuple[str, bytes], kind: str) -> None:
    check_list_zip(named[1], kind)


@fuzz(0.3)
@given(named=zipped_lists())
def test_ratings_import_of_damaged_zips(named: tuple[str, bytes]) -> None:
    """The command line imports a damaged zip or refuses it (exit 2), never exit 70, and a
    refused list leaves no store behind."""
    tried()
    with tempfile.TemporaryDirectory(prefix="grandprix-fuzz-") as tmp:
        path, store = Path(tmp) / "list.zip", Path(tmp) / "store.sqlite"
        path.write_bytes(named[1])
        args = [
            "ratings",
            "import",
            str(path),
            "--kind",
            "fide-standard",
            "--date",
            "2025-01-01",
            "--store",
            str(store),
        ]
        result = invoke(args)
        expect(result, args, (0, 2))
        assert store.exists() == (result.exit_code == 0), "a store after a refusal, or none"


# --------------------------------------------------------------------------------------------
# Season files: season.toml, players.csv, aliases.csv


def check_load_season(season: str, files: Files) -> None:
    note(changes(season, files))
    with season_folder(files) as folder:
        check_reader(lambda: load_season(folder))


@st.composite
def season_toml_changed(draw: DrawFn, season: str) -> Files:
    """The season with its season.toml changed: values, keys, rule-set overrides or bytes."""
    files = Files(SEASON_FILES[season])
    how = draw(st.sampled_from(["tree", "tree", "rules", "text"]))
    doc = _parse_toml(files["season.toml"])
    if how == "text" or doc is None:
        files["season.toml"] = mutate(draw, files["season.toml"], "any")
        return files
    first = mutate_tree if how == "tree" else override_rules
    new = first(draw, doc, season)
    for _ in range(draw(st.integers(0, 2))):
        new = mutate_tree(draw, new, season)
    files["season.toml"] = _bytes(dump_toml(new, draw(st.booleans())))
    return files


@st.composite
def players_changed(draw: DrawFn, season: str) -> Files:
    """The season with its players.csv mutated and an aliases.csv, near-valid or not."""
    files = Files(SEASON_FILES[season])
    if draw(st.booleans()):
        files["players.csv"] = mutate(draw, files["players.csv"], "csv")
    if draw(st.booleans()):
        files["aliases.csv"] = aliases_csv(draw, files)
    return files


@fuzz(3)
@given(season=st.sampled_from(SEASONS), data=st.data())
def test_load_season_on_mutated_season_toml(season: str, data: st.DataObject) -> None:
    check_load_season(season, data.draw(season_toml_changed(season), label="files"))


@fuzz(2)
@given(season=st.sampled_from(SEASONS), data=st.data())
def test_load_season_on_mutated_players_and_aliases(season: str, data: st.DataObject) -> None:
    check_load_season(season, data.draw(players_changed(season), label="files"))


# --------------------------------------------------------------------------------------------
# Whole seasons through the command line


@fuzz(1.5)
@given(season=st.sampled_from(SEASONS), data=st.data())
def test_commands_on_mutated_seasons(season: str, data: st.DataObject) -> None:
    files = data.draw(season_files(season), label="files")
    note(changes(season, files))
    tried()
    with season_folder(files) as folder:
        where = str(folder)
        check_args = ["check", where]
        check = invoke(check_args)
        expect(check, check_args, (0, 1))
        standings_args = ["standings", where, "--format", "csv"]
        standings = invoke(standings_args)
        expect(standings, standings_args, (0, 2))
        candidates = unambiguous_players(standings.stdout) if standings.exit_code == 0 else []
        # Mostly a player of the standings (explain must find them), at times any text at all.
        if data.draw(st.integers(0, 4), label="any text as the player") == 0:
            player, known = data.draw(st.text(TEXT_CHARS, max_size=20), label="player"), False
        else:
            pick = st.sampled_from(candidates or [DEFAULT_PLAYER[season]])
            player, known = data.draw(pick, label="player"), bool(candidates)
        review = data.draw(st.booleans(), label="players --review")
        runs = [("standings", standings)]
        for args in (
            ["explain", where, *(["--"] if player.startswith("-") else []), player],
            ["prizes", where],
            ["players", where, *(["--review"] if review else [])],
        ):
            result = invoke(args)
            expect(result, args, (0, 2))
            runs.append((args[0], result))
        if check.exit_code == 0:
            for command, result in runs:
                if command == "explain" and not known:
                    continue
                assert result.exit_code == 0, (
                    f"check passes the season but `grandprix {command}` exits "
                    f"{result.exit_code}:\n{(result.output + result.stderr)[-2000:]}"
                )
        else:
            for command, result in runs:
                if command == "explain":
                    continue
                assert result.exit_code == 2, (
                    f"check finds errors but `grandprix {command}` exits {result.exit_code} "
                    f"(a season with errors is never computed):\n{check.output[-2000:]}"
                )
