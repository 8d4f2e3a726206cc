"""The three tables of a US Chess rating report (``uschess_dbf.py``) gathered as bytes: from a
zip holding them (their names in any case, at any folder depth; refused from the zip's headers
past the bounds, and never unzipped further than ``dbase.TABLE_LIMIT`` whatever they say), or
from ``TDEXPORT.DBF``'s folder (found in any case; a table that is a symbolic link must stay in
the folder, and is read within the same bound)."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

from grandprix.model import Location, Problem
from grandprix.readers.bounds import Bound, too_large
from grandprix.readers.dbase import TABLE_LIMIT
from grandprix.readers.text import excerpt
from grandprix.runtime.files import DAMAGED_ZIP

EVENT, SECTIONS, DETAILS = "THEXPORT.DBF", "TSEXPORT.DBF", "TDEXPORT.DBF"
TABLES = (EVENT, SECTIONS, DETAILS)
ZIP_RATIO = 100  # most bytes unzipped per byte zipped, for a table over ZIP_RATIO_FREE
ZIP_RATIO_FREE = 1024**2  # bytes a table may unzip to at any ratio
TABLE = Bound(
    TABLE_LIMIT,
    "a US Chess report's table",
    "a report's tables are a few KB",
    "Export the rating report from SwissSys or WinTD again",
)


def unzipped(name: str, data: bytes, problems: list[Problem]) -> dict[str, tuple[str, bytes]]:
    """The three tables of a zip, as (name for messages, bytes); empty (with a problem) when
    one is missing, listed twice, or would unzip past the bounds (refused from the zip's
    headers, and never read further than the bound whatever they say)."""
    found: dict[str, zipfile.ZipInfo] = {}
    tables: dict[str, tuple[str, bytes]] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.infolist():
                base = member.filename.replace("\\", "/").rsplit("/", 1)[-1].upper()
                if member.is_dir() or base not in TABLES:
                    continue
                if base in found:
                    problems.append(
                        Problem(
                            Location(name),
                            f"the zip holds {base} twice ({excerpt(found[base].filename)} and "
                            f"{excerpt(member.filename)}): zip one report at a time",
                        )
                    )
                    return {}
                found[base] = member
            missing = [table for table in TABLES if table not in found]
            if missing:
                problems.append(
                    Problem(
                        Location(name),
                        f"the zip has no {' or '.join(missing)}: a US Chess report is the three "
                        f"files {', '.join(TABLES)}; zip all three",
                    )
                )
                return {}
            for base, member in found.items():
                packed = max(1, min(member.compress_size, len(data)))
                bound = min(TABLE_LIMIT, max(ZIP_RATIO_FREE, ZIP_RATIO * packed))
                content = b""
                if member.file_size <= bound:
                    with archive.open(member) as stream:
                        content = stream.read(bound + 1)
                if member.file_size > bound or len(content) > bound:
                    problems.append(
                        Problem(
                            Location(name),
                            f"{excerpt(member.filename)} in the zip unzips to more than "
                            f"{bound:,} bytes (from {packed:,}): no US Chess report is that "
                            "large; zip the report again",
                        )
                    )
                    return {}
                tables[base] = (f"{name}!{member.filename}", content)
    except DAMAGED_ZIP as exc:
        problems.append(
            Problem(Location(name), f"damaged zip archive ({str(exc)[:80]}); zip the report again")
        )
        return {}
    return tables


def beside(path: Path, data: bytes, problems: list[Problem]) -> dict[str, tuple[str, bytes]]:
    """The table ``path`` (its bytes ``data``) and the other two from its folder, each read
    within ``TABLE_LIMIT``; empty (with a problem) when one is missing or not a plain file of
    the folder."""
    own = path.name.upper()
    if own not in TABLES:
        problems.append(
            Problem(
                Location(str(path)),
                f"a US Chess report is read from {DETAILS} (with {EVENT} and {SECTIONS} beside "
                "it) or from a zip of the three; this file has another name: name it "
                f"{DETAILS} or zip the three files",
            )
        )
        return {}
    tables = {own: (str(path), data)}
    folder = path.parent
    try:
        entries = [entry for entry in os.scandir(folder) if entry.name.upper() in TABLES]
        real_folder = os.path.realpath(folder)
        for table in TABLES:
            if table == own:
                continue
            named = [entry for entry in entries if entry.name.upper() == table]
            where = Location(str(path))
            if len(named) != 1:
                what = "no" if not named else f"{len(named)} files named"
                problems.append(
                    Problem(
                        where,
                        f"{what} {table} beside {path.name} in {folder}: a US Chess report is "
                        f"the three files {', '.join(TABLES)} in one folder (or a zip of them)",
                    )
                )
                return {}
            entry = named[0]
            inside = os.path.dirname(os.path.realpath(entry.path)) == real_folder
            if not entry.is_file() or not inside:
                problems.append(
                    Problem(
                        where,
                        f"{entry.name} beside {path.name} is not a plain file of its folder "
                        "(a link out of it, or a folder): copy the report's three files into "
                        "one folder",
                    )
                )
                return {}
            size = entry.stat().st_size
            if size > TABLE_LIMIT:  # refused before it is opened
                problems.append(too_large(str(folder / entry.name), size, TABLE))
                return {}
            with open(entry.path, "rb") as stream:
                content = stream.read(TABLE_LIMIT + 1)
            tables[table] = (str(folder / entry.name), content)
    except OSError as exc:
        problems.append(
            Problem(
                Location(str(path)),
                f"cannot read the report's other files beside it: {exc.strerror or exc}",
            )
        )
        return {}
    return tables
