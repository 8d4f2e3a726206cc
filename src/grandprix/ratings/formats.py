"""Rating-list file formats: FIDE's fixed-width TXT and XML (zipped or not), and a plain CSV.

Each reader yields ``Row`` tuples and raises ``ListError`` with every located problem it found
(up to a limit) when the list is corrupt; the store then keeps nothing of it.

A list is read within bounds that FIDE's lists stay far from, each checked before the work it
limits: the list in a zip unzipped (``MAX_UNZIPPED`` bytes, and ``MAX_RATIO`` times its zipped
size: a zip bomb is refused from its headers, and no more than the bound is ever unzipped),
lines (``MAX_LINES``) and a CSV field (the csv module's limit, as every CSV grandprix reads). A
FIDE TXT list whose last line is cut short (a download that ended early) is refused, and so is
a list that mixes UTF-8 and Latin-1 (its names would read two ways).
"""

from __future__ import annotations

import csv
import io
import itertools
import operator
import re
import zipfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple
from xml.parsers import expat

from grandprix.errors import InputError
from grandprix.model import Location, Problem
from grandprix.runtime.files import DAMAGED_ZIP
from grandprix.scores import FIELD_LIMIT

MAX_PROBLEMS = 20
PROGRESS_STEP = 10_000  # lines between two calls of ``progress``
KIND_COLUMNS = {  # FIDE's combined list: the rating column of each kind
    "fide-standard": ("SRtng", "rating"),
    "fide-rapid": ("RRtng", "rapid_rating"),
    "fide-blitz": ("BRtng", "blitz_rating"),
}
_MONTH = re.compile(r"^[A-Z]{3}\d{2}$")  # the rating column of a single list: 'JAN25'


# player_id, name, federation, sex, title, birth_year, rating: plain tuples, because a
# million named tuples cost half a second to build.
Row = tuple[str, str, str, str, str, int | None, int | None]


class ListError(InputError):
    """A rating list that cannot be imported; every problem is listed."""


Progress = Callable[[int], None] | None


def read_rows(
    path: Path, kind: str, data: bytes, progress: Progress = None
) -> tuple[str, Iterator[Row]]:
    """The format name and the rows of a list; a zip holds one .txt, .xml or .csv.

    ``progress`` is called with the number of lines read every 10,000 lines.
    """
    name = str(path)
    if data.startswith(b"PK\x03\x04") or zipfile.is_zipfile(io.BytesIO(data)):
        name, data = _unzip(name, data)
    suffix = name.rsplit(".", 1)[-1].lower()
    if suffix == "xml" or data[:4096].removeprefix(_BOM).lstrip().startswith(b"<"):
        return "fide-xml", _xml_rows(name, data, kind)
    text = _text(name, data)
    if suffix == "csv":
        return "csv", _csv_rows(name, text, progress)
    return "fide-txt", _txt_rows(name, text, kind, progress)


MAX_UNZIPPED = 2 * 1024**3  # bytes; FIDE's combined list is about 200 MB unzipped
MAX_RATIO = 100  # bytes unzipped per byte zipped (FIDE's lists: about 6); a zip bomb: 1,000
RATIO_FREE = 1024**2  # bytes a list may unzip to at any ratio (a small list of one rating)
MAX_LINES = 5_000_000  # lines of a TXT or CSV list; FIDE's combined list has about 1.5 million
_BOM = b"\xef\xbb\xbf"


def _unzip(name: str, data: bytes) -> tuple[str, bytes]:
    """The one list a zip holds, as (name for messages, bytes); refused from the zip's headers
    when it would unzip past ``MAX_UNZIPPED`` or ``MAX_RATIO`` times its zipped size, and read
    no further than that bound whatever the headers say."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = [
                m
                for m in archive.infolist()
                if m.filename.lower().endswith((".txt", ".xml", ".csv"))
            ]
            if len(members) != 1:
                raise ListError(
                    [Problem(Location(name), "the zip must hold one .txt, .xml or .csv list")]
                )
            member = members[0]
            packed = max(1, min(member.compress_size, len(data)))
            bound = min(MAX_UNZIPPED, max(RATIO_FREE, MAX_RATIO * packed))
            if member.file_size > bound:
                raise ListError([_too_big(name, member.filename, member.file_size, packed)])
            with archive.open(member) as stream:
                content = stream.read(bound + 1)
            if len(content) > bound:  # (the zip module reads no more than declared: never)
                raise ListError([_too_big(name, member.filename, len(content), packed)])
            return f"{name}!{member.filename}", content
    except DAMAGED_ZIP as exc:
        raise ListError(
            [
                Problem(
                    Location(name),
                    f"damaged zip archive ({str(exc)[:80]}); download the list again",
                )
            ]
        ) from None


def _too_big(name: str, member: str, size: int, packed: int) -> Problem:
    if size > MAX_UNZIPPED:
        why = f"more than {MAX_UNZIPPED:,}, far more than any rating list"
    else:
        why = f"more than {MAX_RATIO} times its {packed:,} bytes in the zip, as only a zip bomb is"
    return Problem(
        Location(name),
        f"the list {member[:80]!r} in the zip unzips to {size:,} bytes, {why}; download the "
        "list again from the federation's site",
    )


def _text(name: str, data: bytes) -> str:
    """A TXT or CSV list as text: UTF-8 (with or without a byte-order mark) or Latin-1. A list
    that mixes the two (a UTF-8 sequence and a byte that is not UTF-8) is refused at the first
    byte that is not UTF-8: its names would not read the same as in the results files."""
    data = data.removeprefix(_BOM)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = exc.start
    escaped = data.decode("utf-8", "surrogateescape")  # each byte not UTF-8: one U+DCxx
    try:  # only ASCII and bytes that are not UTF-8: a Latin-1 list
        escaped.encode("ascii", "surrogateescape")
    except UnicodeEncodeError as exc:
        line = data.count(b"\n", 0, bad) + 1
        column = bad - data.rfind(b"\n", 0, bad)
        wide = escaped[exc.start]
        raise ListError(
            [
                Problem(
                    Location(name, line, column),
                    f"byte 0x{data[bad]:02X} is not UTF-8, though the list holds UTF-8 text "
                    f"(such as {wide!r}): it mixes two encodings; save the whole list as UTF-8",
                )
            ]
        ) from None
    return data.decode("latin-1")


def _lines(name: str, text: str) -> tuple[list[str], bool]:
    """The lines of a list, and whether the last one ends with a line break: split at LF
    (a CR before it stays, white space at the line's end) or, in a file without one, at CR.
    More than ``MAX_LINES`` lines are refused before they are made."""
    lines = text.split("\n" if "\n" in text or "\r" not in text else "\r", MAX_LINES)
    if len(lines) > MAX_LINES:
        raise ListError(
            [
                Problem(
                    Location(name, MAX_LINES + 1),
                    f"the list has more than {MAX_LINES:,} lines, more than any rating list "
                    "(FIDE's has about 1.5 million); is it a rating list? download it again",
                )
            ]
        )
    ended = lines[-1].strip() == ""
    if lines[-1] == "":
        lines.pop()
    return lines, ended


class _Problems:
    """Collects located problems and stops the read once there are too many."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def add(self, where: Location, message: str) -> None:
        self.items.append(Problem(where, message))
        if len(self.items) >= MAX_PROBLEMS:
            self.items.append(Problem(where, f"stopped after {MAX_PROBLEMS} problems"))
            raise ListError(self.items)

    def check(self) -> None:
        if self.items:
            raise ListError(self.items)


def _twice(ident: str, first: int) -> str:
    return f"id {ident[:20]!r} is listed twice (first on line {first}); remove one of the rows"


def _rating(text: str, where: tuple[str, int, int], problems: _Problems) -> int | None:
    """A rating from its text; ``where`` is (file, line, column) for the message."""
    text = text.strip()
    if not text or text == "0":
        return None
    if not text.isdecimal() or len(text) > 4:
        problems.add(
            Location(*where), f"rating {text[:20]!r} is not a rating (1 to 4 digits, or blank)"
        )
        return None
    return int(text)


def _year(text: str) -> int | None:
    text = text.strip()[:4]
    return int(text) if text.isdecimal() and int(text) > 0 else None


_HEADER_LIMIT = 10_000  # characters of a FIDE TXT list's header line (FIDE's: about 160)


def _columns(header: str) -> dict[str, tuple[int, int]]:
    """Start and end of every column of a fixed-width header ('ID Number', 'Name', ...)."""
    spots = [(m.start(), m.group()) for m in re.finditer(r"ID Number|B-day|\S+", header)]
    out = {}
    for i, (start, label) in enumerate(spots):
        end = spots[i + 1][0] if i + 1 < len(spots) else 10_000
        out[label] = (start, end)
    return out


def _txt_rows(name: str, text: str, kind: str, progress: Progress) -> Iterator[Row]:
    lines, ended = _lines(name, text)
    problems = _Problems()
    if not lines:
        raise ListError([Problem(Location(name), "the list is empty")])
    if len(lines[0]) > _HEADER_LIMIT:
        raise ListError(
            [
                Problem(
                    Location(name, 1, 1),
                    f"the first line has {len(lines[0]):,} characters, more than "
                    f"{_HEADER_LIMIT:,}: not a FIDE list (its header names the columns)",
                )
            ]
        )
    cols = _columns(lines[0])
    rating_label = next((label for label in cols if _MONTH.match(label)), None)
    if kind in KIND_COLUMNS and KIND_COLUMNS[kind][0] in cols:
        rating_label = KIND_COLUMNS[kind][0]
    missing = [c for c in ("ID Number", "Name") if c not in cols]
    if rating_label is None:
        missing.append("a rating column (SRtng/RRtng/BRtng or a month such as JAN25)")
    if missing:
        raise ListError(
            [Problem(Location(name, 1, 1), f"header lacks {', '.join(missing)}: not a FIDE list")]
        )
    assert rating_label is not None
    nothing = (0, 0)  # an absent column reads as ''
    spans = _Spans(
        cols["ID Number"],
        cols["Name"],
        cols.get("Fed") or nothing,
        cols.get("Sex") or nothing,
        cols.get("Tit") or nothing,
        cols.get("B-day") or nothing,
        cols[rating_label],
    )
    # A line may stop after its last filled field; one that stops inside the name is cut short.
    need = (cols.get("Fed") or cols["Name"])[0] + 1
    if not ended and len(lines) > 1:
        _whole_last_line(name, lines, need)
    seen: set[str] = set()  # the player ids read so far
    quick = _quick_chunk(spans, need, seen)
    i0, i1 = spans.ident

    def chunks() -> Iterator[Iterable[Row]]:
        # Blocks of lines that start where the progress is reported (line 10,000, 20,000, ...).
        # Once a block has a problem, the rest of the list is read line by line: the list is
        # not imported, but every problem is reported as it was found.
        starts = [1, *range(PROGRESS_STEP - 1, len(lines), PROGRESS_STEP)]
        first_lines: dict[str, int] | None = None  # player id -> the line that first listed it
        for start, stop in zip(starts, [*starts[1:], len(lines)], strict=True):
            first = start + 1  # line numbers count from 1, the header's
            if progress is not None and first % PROGRESS_STEP == 0:
                progress(first)
            chunk = lines[start:stop]
            if first_lines is None:
                rows = quick(chunk)
                if rows is not None:
                    yield rows
                    continue
                # Every line before this block that is not blank is a player, listed once.
                first_lines = {
                    line[i0:i1].strip(): number
                    for number, line in enumerate(lines[1:start], start=2)
                    if len(line) >= need
                }
            yield _careful(name, spans, need, first_lines, problems, first, chunk)
        problems.check()

    return itertools.chain.from_iterable(chunks())


def _whole_last_line(name: str, lines: list[str], need: int) -> None:
    """Refuse a list whose last line, with no line break after it, is shorter than a whole
    line: the end of a download cut short, whose last player would be imported with a rating
    or a birth year cut in two. A whole line reaches as far as the longest of the thousand
    lines before it (FIDE pads every line to the same width), or the header's last label."""
    last = lines[-1].rstrip()
    before = lines[max(1, len(lines) - 1_001) : -1]
    reach = min(len(lines[0].rstrip()), max((len(line.rstrip()) for line in before), default=0))
    if not last or len(last) >= max(reach, need):
        return
    raise ListError(
        [
            Problem(
                Location(name, len(lines), len(last) + 1),
                f"the list ends in the middle of line {len(lines)}: no line break after it, "
                f"and it ends at column {len(last)}, where the lines before it reach column "
                f"{max(reach, need)} (was the download cut short?); download the list again "
                "(if that line is whole, end it with a line break)",
            )
        ]
    )


class _Spans(NamedTuple):
    """Start and end of each column of a FIDE TXT list that the store keeps ((0, 0): absent)."""

    ident: tuple[int, int]
    name: tuple[int, int]
    federation: tuple[int, int]
    sex: tuple[int, int]
    title: tuple[int, int]
    born: tuple[int, int]
    rating: tuple[int, int]


class _NotARating(Exception):
    """A rating column that holds something other than digits (the careful reader reports it)."""


def _rating_value(text: str) -> int | None:
    value = text.strip()
    if value and not value.isdecimal():
        raise _NotARating
    return int(value) if value and value != "0" else None


def _birth_year(text: str) -> int | None:
    year = text.strip()[:4]
    return int(year) if year.isdecimal() and year != "0000" else None


def _lower(text: str) -> str:
    return text.strip().lower()


class _Memo(dict[str, Any]):
    """``convert(text)`` for each text, worked out once per distinct text (ratings, years, ...)."""

    def __init__(self, convert: Callable[[str], Any]) -> None:
        super().__init__()
        self.convert = convert

    def __missing__(self, text: str) -> Any:
        value = self[text] = self.convert(text)
        return value


def _quick_chunk(
    spans: _Spans, need: int, seen: set[str]
) -> Callable[[list[str]], Iterator[Row] | None]:
    """The reader of a block of lines with nothing wrong in it, which builds the rows column by
    column with C loops (``map``, ``zip``) rather than a Python loop over the lines: most of the
    time of a 1.2-million-line import. It returns None when anything in the block is wrong (a
    short line that is not blank, an id that is not a number, a rating that is not one, an id
    listed twice), and the careful reader then reads the block line by line."""
    get_id, get_name, get_fed, get_sex, get_title, get_born, get_rating = (
        operator.itemgetter(slice(*span)) for span in spans
    )
    # Few distinct texts in these columns: each is converted once.
    ratings, years, sexes = _Memo(_rating_value), _Memo(_birth_year), _Memo(_lower)

    def quick(chunk: list[str]) -> Iterator[Row] | None:
        if min(map(len, chunk), default=0) < need:
            if any(line.strip() for line in chunk if len(line) < need):
                return None
            chunk = [line for line in chunk if len(line) >= need]  # blank lines are skipped
        ids = list(map(str.strip, map(get_id, chunk)))
        if not all(ids) or not "".join(ids).isdecimal():
            return None
        try:
            values = list(map(ratings.__getitem__, map(get_rating, chunk)))
        except _NotARating:
            return None
        known = len(seen)
        seen.update(ids)
        if len(seen) < known + len(ids):  # listed twice (the set is of no further use)
            return None
        return zip(
            ids,
            map(str.strip, map(get_name, chunk)),
            map(str.strip, map(get_fed, chunk)),
            map(sexes.__getitem__, map(get_sex, chunk)),
            map(str.strip, map(get_title, chunk)),
            map(years.__getitem__, map(get_born, chunk)),
            values,
            strict=True,
        )

    return quick


def _careful(
    name: str,
    spans: _Spans,
    need: int,
    seen: dict[str, int],
    problems: _Problems,
    first: int,
    chunk: list[str],
) -> Iterator[Row]:
    """The rows of a block of lines read one by one, each problem reported where it is."""
    (i0, i1), (n0, n1), (f0, f1), (s0, s1), (t0, t1), (b0, b1), (r0, r1) = spans
    for number, line in enumerate(chunk, start=first):
        if len(line) < need:
            if line.strip():
                problems.add(
                    Location(name, number, len(line) + 1),
                    f"truncated line: {len(line)} characters, a player line reaches at "
                    f"least column {need}",
                )
            continue
        player_id = line[i0:i1].strip()
        value = line[r0:r1].strip()
        year = line[b0:b1].strip()[:4]
        if not player_id.isdecimal():
            problems.add(Location(name, number, i0 + 1), f"id {player_id[:20]!r} is not a number")
            continue
        if value and not value.isdecimal():
            _rating(value, (name, number, r0 + 1), problems)
            continue
        if seen.setdefault(player_id, number) != number:
            problems.add(Location(name, number, i0 + 1), _twice(player_id, seen[player_id]))
            continue
        yield (
            player_id,
            line[n0:n1].strip(),
            line[f0:f1].strip(),
            line[s0:s1].strip().lower(),
            line[t0:t1].strip(),
            int(year) if year.isdecimal() and year != "0000" else None,
            int(value) if value and value != "0" else None,
        )


def _csv_rows(name: str, text: str, progress: Progress) -> Iterator[Row]:
    # Lines split first: a bare CR (old Mac line ends) would stop csv.reader mid-file.
    reader = csv.reader(_lines(name, text)[0])
    try:
        first = next(reader, [])
    except csv.Error as exc:
        raise _csv_error(name, 1, reader.line_num, exc) from None
    header = [cell.strip().lower() for cell in first]
    missing = [c for c in ("id", "name", "rating") if c not in header]
    if missing:
        raise ListError(
            [
                Problem(
                    Location(name, 1, 1),
                    f"missing column(s) {', '.join(missing)} (id, name, rating)",
                )
            ]
        )
    at = {key: header.index(key) for key in header}
    problems = _Problems()

    def get(row: list[str], key: str) -> str:
        return row[at[key]].strip() if key in at and at[key] < len(row) else ""

    def rows() -> Iterator[Row]:
        seen: dict[str, int] = {}
        done = reader.line_num  # the line the last row read ends on
        try:
            for number, row in enumerate(reader, start=2):
                done = reader.line_num
                if progress is not None and number % 10_000 == 0:
                    progress(number)
                if not any(cell.strip() for cell in row):
                    continue
                if len(row) < len(header):
                    problems.add(
                        Location(name, number, 1),
                        f"row has {len(row)} fields, the header {len(header)} (truncated?)",
                    )
                    continue
                value = _rating(get(row, "rating"), (name, number, at["rating"] + 1), problems)
                ident = get(row, "id")
                if seen.setdefault(ident, number) != number:
                    problems.add(Location(name, number, at["id"] + 1), _twice(ident, seen[ident]))
                    continue
                born = get(row, "birth_year") or get(row, "birth_date")
                yield (
                    get(row, "id"),
                    get(row, "name"),
                    get(row, "federation"),
                    get(row, "sex").lower(),
                    get(row, "title"),
                    _year(born),
                    value,
                )
        except csv.Error as exc:
            raise _csv_error(name, done + 1, reader.line_num, exc) from None
        problems.check()

    return rows()


def _csv_error(name: str, start: int, end: int, exc: csv.Error) -> ListError:
    """A row of a CSV list that the csv module could not read: it starts on line ``start``,
    the module had reached line ``end``. A field past the module's limit is the usual cause."""
    limit = FIELD_LIMIT  # the csv module's own default limit
    if "field limit" not in str(exc):
        message = f"not readable as CSV ({str(exc)[:80]}); save the list again as CSV"
    elif end > start:
        message = (
            f"a field is longer than {limit:,} characters: it starts on line {start} and runs "
            f'past line {end}; the quote (") that opens it is not closed: close it, and double '
            'each quote inside a field ("")'
        )
    else:
        message = (
            f"a field is longer than {limit:,} characters (no id, name or rating is this long); "
            "shorten it or remove the line"
        )
    return ListError([Problem(Location(name, start), message)])


def _xml_rows(name: str, data: bytes, kind: str) -> Iterator[Row]:
    """FIDE's XML list, read with expat so that problems carry line numbers."""
    tag = KIND_COLUMNS.get(kind, ("", "rating"))[1]
    problems = _Problems()
    parser = expat.ParserCreate()
    found: list[tuple[dict[str, str], int]] = []
    current: dict[str, str] = {}
    text: list[str] = []
    start_line = 0

    def start(element: str, _attrs: dict[str, str]) -> None:
        nonlocal current, start_line
        text.clear()
        if element == "player":
            current = {}
            start_line = parser.CurrentLineNumber

    def end(element: str) -> None:
        if element == "player":
            found.append((current, start_line))
        else:
            current[element] = "".join(text).strip()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text.append
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise ListError(
            [Problem(Location(name, exc.lineno, exc.offset + 1), f"not well-formed XML: {exc}")]
        ) from None
    except (LookupError, ValueError) as exc:  # an encoding expat does not know, and the like
        raise ListError(
            [Problem(Location(name, 1), f"not a readable XML list ({str(exc)[:80]})")]
        ) from None

    def rows() -> Iterator[Row]:
        seen: dict[str, int] = {}
        for fields, line in found:
            if "fideid" not in fields or tag not in fields:
                problems.add(Location(name, line), f"player without <fideid> or <{tag}>")
                continue
            if seen.setdefault(fields["fideid"], line) != line:
                problems.add(Location(name, line), _twice(fields["fideid"], seen[fields["fideid"]]))
                continue
            value = _rating(fields[tag], (name, line, 0), problems)
            yield (
                fields["fideid"],
                fields.get("name", ""),
                fields.get("country", ""),
                fields.get("sex", "").lower(),
                fields.get("title", ""),
                _year(fields.get("birthday", "")),
                value,
            )
        problems.check()

    return rows()
