"""Rating-list file formats: FIDE's fixed-width TXT and XML (zipped or not), and a plain CSV.

Each reader yields ``Row`` tuples and raises ``ListError`` with every located problem it found
(up to a limit) when the list is corrupt; the store then keeps nothing of it.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from xml.parsers import expat

from grandprix.errors import InputError
from grandprix.model import Location, Problem

MAX_PROBLEMS = 20
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
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if suffix == "xml" or text.lstrip().startswith("<"):
        return "fide-xml", _xml_rows(name, data, kind)
    if suffix == "csv":
        return "csv", _csv_rows(name, text, progress)
    return "fide-txt", _txt_rows(name, text, kind, progress)


MAX_UNZIPPED = 2 * 1024**3  # FIDE's combined list is about 200 MB unzipped


def _unzip(name: str, data: bytes) -> tuple[str, bytes]:
    """The one list a zip holds, as (name for messages, bytes)."""
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
            if members[0].file_size > MAX_UNZIPPED:
                raise ListError(
                    [Problem(Location(name), f"the list in the zip is over {MAX_UNZIPPED:,} bytes")]
                )
            return f"{name}!{members[0].filename}", archive.read(members[0])
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError) as exc:
        raise ListError(
            [
                Problem(
                    Location(name),
                    f"damaged zip archive ({str(exc)[:80]}); download the list again",
                )
            ]
        ) from None


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


def _columns(header: str) -> dict[str, tuple[int, int]]:
    """Start and end of every column of a fixed-width header ('ID Number', 'Name', ...)."""
    spots = [(m.start(), m.group()) for m in re.finditer(r"ID Number|B-day|\S+", header)]
    out = {}
    for i, (start, label) in enumerate(spots):
        end = spots[i + 1][0] if i + 1 < len(spots) else 10_000
        out[label] = (start, end)
    return out


def _txt_rows(name: str, text: str, kind: str, progress: Progress) -> Iterator[Row]:
    lines = text.splitlines()
    problems = _Problems()
    if not lines:
        raise ListError([Problem(Location(name), "the list is empty")])
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
    ident, full, rating = cols["ID Number"], cols["Name"], cols[rating_label]
    fed, sex, tit = cols.get("Fed"), cols.get("Sex"), cols.get("Tit")
    born = cols.get("B-day")
    # A line may stop after its last filled field; one that stops inside the name is cut short.
    need = (fed or full)[0] + 1

    nothing = (0, 0)  # an absent column reads as ''
    i0, i1 = ident
    n0, n1 = full
    f0, f1 = fed or nothing
    s0, s1 = sex or nothing
    t0, t1 = tit or nothing
    b0, b1 = born or nothing
    r0, r1 = rating

    def rows() -> Iterator[Row]:
        # The hot loop of a 1.2-million-line import: plain slices, no helper calls per field.
        seen: dict[str, int] = {}
        for number, line in enumerate(lines[1:], start=2):
            if progress is not None and number % 10_000 == 0:
                progress(number)
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
                problems.add(
                    Location(name, number, i0 + 1), f"id {player_id[:20]!r} is not a number"
                )
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
        problems.check()

    return rows()


def _csv_rows(name: str, text: str, progress: Progress) -> Iterator[Row]:
    # Lines split first: a bare CR (old Mac line ends) would stop csv.reader mid-file.
    reader = csv.reader(text.splitlines())
    header = [cell.strip().lower() for cell in next(reader, [])]
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
        for number, row in enumerate(reader, start=2):
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
                get(row, "id"), get(row, "name"), get(row, "federation"), get(row, "sex").lower(),
                get(row, "title"), _year(born), value,
            )  # fmt: skip
        problems.check()

    return rows()


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
                fields["fideid"], fields.get("name", ""), fields.get("country", ""),
                fields.get("sex", "").lower(), fields.get("title", ""),
                _year(fields.get("birthday", "")), value,
            )  # fmt: skip
        problems.check()

    return rows()
