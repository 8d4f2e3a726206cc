"""US Chess rating reports: the three dBase III tables that SwissSys and WinTD write for the
upload to US Chess, in the current format "2C".

A report is three tables: ``THEXPORT.DBF`` (one record: the event), ``TSEXPORT.DBF`` (one
record a section) and ``TDEXPORT.DBF`` (one record a player of a section: US Chess id, name,
pre-event rating, pairing number and a result cell a round). It is read from a zip holding the
three (their names in any case, at any folder depth), or from ``TDEXPORT.DBF`` with its two
siblings beside it in the same folder (found in any case; a sibling that is a symbolic link
must stay in the folder; ``uschess_files.py`` gathers them, ``dbase.py`` reads each). Every
table is read within the same bounds: ``TABLE_LIMIT`` bytes
(checked before it is read, and no more read whatever a zip's headers say), ``MAX_RECORDS``
records, ``MAX_FIELDS`` fields, each at most ``MAX_WIDTH`` bytes wide (a dBase field cannot
be wider than 65,535 bytes, far below ``scores.FIELD_LIMIT``; no US Chess field is wider
than 255).

The dBase III container is read here rather than with ``dbfread``: that library reads only
from a file name (not the bytes already read, nor a zip's member), and reads a record cut
short, a record count that disagrees with the file and a wrong version byte without a word.
A report is a few kilobytes, and its header is checked whole before any record is sliced:
version ``0x03``, the field descriptors ending in ``0x0D`` inside the declared header length,
the record length equal to the fields' widths, exactly the declared records present and only
the end-of-file byte ``0x1A`` after them, each record's flag a space (or ``*``, deleted: left
out). Text is ASCII in practice and no code page is ever declared (byte 29 is 0); a byte past
ASCII is read as Windows-1252, the code page of the Windows programs that write the files,
with a warning at its record and field so that the name can be checked.

A report has one section or several; a ``Section`` is one. ``read_uschess_dbf``, the
registry's reader, reads the section it is given by name
(``S_SEC_NAME``, any case, or its number ``S_SEC_NUM``) or, when it is given none, the report's
only section; a report of several sections then names them in the problem.

A round cell is ``<code><opponent's pairing number><colour>`` (``W14B``, ``D7W``, ``H0``);
spaces inside it are left out. The codes map to ``ResultKind`` as the TRF reader's do:
``W``/``L``/``D`` a game won, lost, drawn; ``X``/``F`` a forfeit won or lost (SwissSys writes
opponent 0: then none); ``B`` the full-point bye of the player left unpaired (US Chess rule
28L): a pairing-allocated bye; ``H`` a half-point bye; ``Z`` the half-point forfeit, which US
Chess rates as a half-point bye, read as one; ``U`` a round without a pairing (a zero-point
bye, a round before joining or after leaving), as a TRF ``0000 - -``: absent. The score is the
sum of the rounds (the report declares none). Cells past the section's ``S_TOT_RNDS`` (a
shorter section in a report whose longest has more rounds) must be ``U0`` or blank. A
double-game section (``S_TRN_TYPE`` ``2``, cells ``$``, ``#``, ``%``: two games a cell) is not
read: the model has one game a round.

The legacy (pre-2C) layout, told by a ``D_REC_SEQ`` field in TDEXPORT, has no names or ratings
in its player records; it is refused with a located problem asking for a 2C export.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from grandprix.model import Location, Problem, ResultKind, Section, Severity
from grandprix.readers.bounds import Bound, within
from grandprix.readers.crosstable import RawPlayer, RawRound, SectionInfo, assemble
from grandprix.readers.dbase import TABLE_LIMIT, Table, read_table
from grandprix.readers.text import excerpt
from grandprix.readers.uschess_files import DETAILS, EVENT, SECTIONS, TABLES, beside, unzipped
from grandprix.scores import is_rating

K = ResultKind

# A report of 2,000 players in 99 rounds is 1.4 MB; SwissSys writes a few kilobytes.
MAX_ROUNDS = 99  # round columns are D_RND01 .. D_RND99
# The file named: TDEXPORT.DBF (one table), or a zip of the three tables.
BOUND = Bound(
    3 * TABLE_LIMIT,
    "a US Chess rating report",
    f"each of its three tables is read up to {TABLE_LIMIT:,} bytes; a report is a few KB",
    "Export the rating report from SwissSys or WinTD again",
)

_ROUND_FIELD = re.compile(r"^D_RND(\d\d)$")
_CELL = re.compile(r"^([A-Z$#%])(\d{1,4})([WB]?)$")
CODES: dict[str, ResultKind] = {
    "W": K.WIN,
    "L": K.LOSS,
    "D": K.DRAW,
    "X": K.FORFEIT_WIN,
    "F": K.FORFEIT_LOSS,
    "B": K.PAIRING_BYE,
    "H": K.HALF_BYE,
    "Z": K.HALF_BYE,
    "U": K.ABSENT,
}
EXPECTED_CODES = "W L D X F B H Z U"
_DOUBLE_GAME = "$#%"
_GAMES = frozenset({K.WIN, K.LOSS, K.DRAW})
_NO_OPPONENT = frozenset({K.PAIRING_BYE, K.HALF_BYE, K.ABSENT})
_REQUIRED = {
    EVENT: ("H_NAME",),
    SECTIONS: ("S_SEC_NUM", "S_SEC_NAME", "S_TOT_RNDS"),
    DETAILS: ("D_SEC_NUM", "D_PAIR_NUM", "D_MEM_ID", "D_NAME", "D_RATING", "D_RND01"),
}
_ZIP_HEAD = re.compile(rb"T[HSD]EXPORT\.DBF", re.IGNORECASE)
_TABLE_FIELDS = (b"D_PAIR_NUM\x00", b"S_SEC_NUM\x00", b"H_EVENT_ID\x00")


def recognise(suffix: str, head: bytes) -> bool:
    """A report: a zip naming one of the three tables, or a dBase III table (``.dbf``) with
    the fields of one of them."""
    if suffix == ".zip":
        return head.startswith(b"PK\x03\x04") and _ZIP_HEAD.search(head) is not None
    return (
        suffix == ".dbf"
        and head[:1] == b"\x03"
        and any(name in head[32:] for name in _TABLE_FIELDS)
    )


@dataclass(frozen=True)
class _SectionRecord:
    number: int  # S_SEC_NUM
    name: str  # S_SEC_NAME
    rounds: int  # S_TOT_RNDS
    kind: str  # S_TRN_TYPE
    record: int  # its record in TSEXPORT
    values: dict[str, str]  # the whole record


@dataclass
class _Report:
    event: Table
    sections: Table
    details: Table
    listed: list[_SectionRecord]
    round_fields: list[str]
    players: dict[int, list[tuple[int, dict[str, str]]]]  # TDEXPORT's records by section


def _report(path: Path, data: bytes, problems: list[Problem]) -> _Report | None:
    """The report's three tables checked as a whole: one event, its sections, their players."""
    name = str(path)
    if path.suffix.lower() == ".zip" or data.startswith(b"PK\x03\x04"):
        files = unzipped(name, data, problems)
    else:
        files = beside(path, data, problems)
    if not files:
        return None
    tables = {table: read_table(*files[table], problems) for table in TABLES}
    event, sections, details = tables[EVENT], tables[SECTIONS], tables[DETAILS]
    if event is None or sections is None or details is None:
        return None
    if "D_REC_SEQ" in details.fields:
        problems.append(
            Problem(
                Location(details.name),
                "a report in the legacy layout (before format 2C: its player records have "
                "D_REC_SEQ and no names or ratings); export the report in format 2C from the "
                "pairing program",
            )
        )
        return None
    for key, table in ((EVENT, event), (SECTIONS, sections), (DETAILS, details)):
        absent = [f for f in _REQUIRED[key] if f not in table.fields]
        if absent:
            problems.append(
                Problem(
                    Location(table.name),
                    f"no field {', '.join(absent)}: not a US Chess report in format 2C "
                    "(export the report again from the pairing program)",
                )
            )
            return None
    if len(event.records) != 1:
        problems.append(
            Problem(
                Location(event.name),
                f"{len(event.records)} event records; a report has one (export one event "
                "at a time)",
            )
        )
        return None
    number, head = event.records[0]
    form = head.get("H_FORMAT", "")
    if form.upper() != "2C":
        problems.append(
            Problem(
                event.where(number, "H_FORMAT"),
                f"H_FORMAT is {excerpt(form)}; this reader knows format 2C: read as 2C, check "
                "the results",
                Severity.WARNING,
            )
        )
    round_fields = _round_fields(details, problems)
    if round_fields is None:
        return None
    listed = _listed_sections(sections, head, event, problems)
    if listed is None:
        return None
    known = {s.number for s in listed}
    players: dict[int, list[tuple[int, dict[str, str]]]] = {n: [] for n in known}
    bad = False
    for record, values in details.records:
        section = _whole(values["D_SEC_NUM"], 99)
        if section not in known:
            problems.append(
                Problem(
                    details.where(record, "D_SEC_NUM"),
                    f"section number {excerpt(values['D_SEC_NUM'])} is none of TSEXPORT's "
                    f"sections ({', '.join(str(n) for n in sorted(known))}): correct D_SEC_NUM",
                )
            )
            bad = True
            continue
        players[section].append((record, values))
    if bad:
        return None
    return _Report(event, sections, details, listed, round_fields, players)


def _round_fields(details: Table, problems: list[Problem]) -> list[str] | None:
    """TDEXPORT's round columns, D_RND01 .. D_RNDnn in order; None (with a problem) if not."""
    found = [f for f in details.fields if _ROUND_FIELD.match(f)]
    expected = [f"D_RND{n:02d}" for n in range(1, len(found) + 1)]
    if found != expected:
        problems.append(
            Problem(
                Location(details.name),
                f"the round columns are {excerpt(' '.join(found))}; a report numbers them "
                "D_RND01, D_RND02, ... without a gap (export the report again)",
            )
        )
        return None
    return found


def _listed_sections(
    sections: Table, head: dict[str, str], event: Table, problems: list[Problem]
) -> list[_SectionRecord] | None:
    listed: list[_SectionRecord] = []
    for record, values in sections.records:
        number = _whole(values["S_SEC_NUM"], 99)
        rounds = _whole(values["S_TOT_RNDS"], MAX_ROUNDS)
        if number is None or rounds is None or any(s.number == number for s in listed):
            field, what = (
                (
                    "S_SEC_NUM",
                    f"section number {excerpt(values['S_SEC_NUM'])} is not a "
                    "number from 1 to 99, or is used twice",
                )
                if number is None or rounds is not None
                else (
                    "S_TOT_RNDS",
                    f"number of rounds {excerpt(values['S_TOT_RNDS'])} is not "
                    f"a number from 1 to {MAX_ROUNDS}",
                )
            )
            problems.append(Problem(sections.where(record, field), f"{what}: correct {field}"))
            return None
        kind = values.get("S_TRN_TYPE", "").upper()
        listed.append(_SectionRecord(number, values["S_SEC_NAME"], rounds, kind, record, values))
    declared = head.get("H_TOT_SECT", "")
    if declared and _whole(declared, 99) != len(listed):
        problems.append(
            Problem(
                event.where(event.records[0][0], "H_TOT_SECT"),
                f"H_TOT_SECT says {excerpt(declared)} sections but TSEXPORT lists "
                f"{len(listed)}; the sections read are TSEXPORT's",
                Severity.WARNING,
            )
        )
    return listed


def _whole(text: str, most: int) -> int | None:
    """A whole number from 1 to ``most`` written in ASCII digits, else None."""
    if text.isascii() and text.isdecimal() and 0 < int(text) <= most:
        return int(text)
    return None


def _read_section(
    path: Path, report: _Report, listed: _SectionRecord, problems: list[Problem]
) -> Section | None:
    """One section of the report, its players' rounds checked by ``crosstable.assemble``."""
    sections, details = report.sections, report.details
    where = sections.where(listed.record, "S_TRN_TYPE")
    label = f"section {listed.number} {excerpt(listed.name)}"
    if listed.kind == "2":
        problems.append(Problem(where, _double_game(label)))
        return None
    for record, row in report.players[listed.number]:
        for field in report.round_fields[: listed.rounds]:
            if row[field][:1] in _DOUBLE_GAME and row[field]:
                problems.append(Problem(details.where(record, field), _double_game(label)))
                return None
    rounds = listed.rounds
    if rounds > len(report.round_fields):
        problems.append(
            Problem(
                sections.where(listed.record, "S_TOT_RNDS"),
                f"{label} has {rounds} rounds (S_TOT_RNDS) but TDEXPORT has "
                f"{len(report.round_fields)} round columns: correct S_TOT_RNDS or export the "
                "report again",
            )
        )
        return None
    head = report.event.records[0][1]
    event = head.get("H_NAME", "")
    info = SectionInfo(
        name=f"{event}: {listed.name}" if event and listed.name else event or listed.name,
        source=str(path),
        rounds=rounds,
        rounds_location=sections.where(listed.record, "S_TOT_RNDS"),
        round_robin={"R": True, "S": False}.get(listed.kind),
    )
    values = listed.values
    start = _iso(values.get("S_BEG_DATE", "")) or _iso(head.get("H_BEG_DATE", ""))
    end = _iso(values.get("S_END_DATE", "")) or _iso(head.get("H_END_DATE", ""))
    info.date = start.replace("/", "-")
    kind = {"R": "Round robin", "S": "Swiss System"}.get(listed.kind, "")
    info.headers = tuple(
        (code, text)
        for code, text in (
            ("012", info.name),
            ("022", head.get("H_CITY", "")),
            ("042", start),
            ("052", end),
            ("092", kind),
            ("122", values.get("S_TIMECTL", "")),
        )
        if text
    )
    players = []
    for record, row in report.players[listed.number]:
        player = _player(details, record, row, report.round_fields, rounds, label, problems)
        if player is not None:
            players.append(player)
    return assemble(info, players, problems)


def _double_game(label: str) -> str:
    return (
        f"{label} is a double-game section (S_TRN_TYPE '2', or cells $ # %: two games a "
        "round), which grandprix does not read; report each game as its own round"
    )


def _player(
    details: Table,
    record: int,
    row: dict[str, str],
    round_fields: list[str],
    rounds: int,
    label: str,
    problems: list[Problem],
) -> RawPlayer | None:
    start_no = _whole(row["D_PAIR_NUM"], 9999)
    if start_no is None:
        problems.append(
            Problem(
                details.where(record, "D_PAIR_NUM"),
                f"pairing number {excerpt(row['D_PAIR_NUM'])} is not a number from 1 to 9999: "
                "correct D_PAIR_NUM",
            )
        )
        return None
    player = RawPlayer(start_no, row["D_NAME"], details.where(record))
    if not player.name:
        problems.append(
            Problem(details.where(record, "D_NAME"), f"player {start_no} of {label} has no name")
        )
    member = row["D_MEM_ID"]
    if member.strip("0"):
        if member.isascii() and member.isdecimal() and len(member) <= 8:
            player.fide_id = member
        else:
            problems.append(
                Problem(
                    details.where(record, "D_MEM_ID"),
                    f"US Chess id {excerpt(member)} of player {start_no} is not a number of up "
                    "to 8 digits: correct D_MEM_ID (blank or 00000000 for a player without one)",
                )
            )
    rating = row["D_RATING"]
    if rating and rating.strip("0"):
        if is_rating(rating):
            player.rating = int(rating)
        else:
            problems.append(
                Problem(
                    details.where(record, "D_RATING"),
                    f"rating {excerpt(rating)} of player {start_no} is not a number: correct "
                    "D_RATING (0 or blank for an unrated player)",
                )
            )
    for number, field in enumerate(round_fields, start=1):
        where = details.where(record, field)
        cell = row[field].replace(" ", "").upper()
        if number > rounds:
            if cell and not re.fullmatch(r"U0*", cell):
                problems.append(
                    Problem(
                        where,
                        f"{field} holds {excerpt(row[field])} but {label} has {rounds} rounds "
                        "(S_TOT_RNDS): correct S_TOT_RNDS, or the cell to U0",
                    )
                )
                player.damaged = True
            continue
        found = _round(cell, number, where, problems)
        if found is None:
            player.damaged = True
            found = RawRound(number, K.ABSENT, None, None, where, damaged=True)
        player.rounds.append(found)
    return player


def _round(cell: str, number: int, where: Location, problems: list[Problem]) -> RawRound | None:
    """A round cell (its spaces left out) as a round; None (with a problem) if unreadable."""
    if not cell:
        problems.append(
            Problem(
                where,
                f"round {number} is blank; read as a round without a pairing (SwissSys writes U0)",
                Severity.WARNING,
            )
        )
        return RawRound(number, K.ABSENT, None, None, where, blank=True)
    match = _CELL.match(cell)
    kind = CODES.get(match.group(1)) if match else None
    if match is None or kind is None:
        problems.append(
            Problem(
                where,
                f"round {number} reads {excerpt(cell)}: expected a result code "
                f"({EXPECTED_CODES}), the opponent's pairing number and a colour W or B for "
                "a game, e.g. W14B, D7W, H0",
            )
        )
        return None
    opponent = int(match.group(2)) or None
    colour = match.group(3).lower() or None
    if kind in _GAMES and opponent is None:
        problems.append(
            Problem(
                where,
                f"round {number} reads {excerpt(cell)}: a game needs the opponent's pairing "
                "number (e.g. W14B)",
            )
        )
        return None
    if kind in _NO_OPPONENT and opponent is not None:
        problems.append(
            Problem(
                where,
                f"round {number} reads {excerpt(cell)}: a bye or an unpaired round has "
                f"opponent 0, not {opponent}; read without an opponent",
                Severity.WARNING,
            )
        )
        opponent = None
    return RawRound(number, kind, opponent, colour if kind in _GAMES else None, where)


def _iso(text: str) -> str:
    """YYYYMMDD as the TRF date YYYY/MM/DD; '' for anything else."""
    if len(text) == 8 and text.isascii() and text.isdecimal():
        return f"{text[:4]}/{text[4:6]}/{text[6:]}"
    return ""


def _opened(path: str | Path, data: bytes | None) -> tuple[Path, _Report | None, list[Problem]]:
    """The report whose TDEXPORT.DBF (or zip) is ``path`` (``data``: its bytes, read here when
    None), with every problem found."""
    path = Path(path)
    problems: list[Problem] = []
    data = within(path, data, BOUND, problems)
    return path, None if data is None else _report(path, data, problems), problems


def read_uschess_dbf(
    path: str | Path, data: bytes | None = None, section: str | None = None
) -> tuple[Section | None, list[Problem]]:
    """The section of a report named ``section`` (its S_SEC_NAME in any case, or its number),
    or, when None, the report's only section; every problem of the report and of that section."""
    path, report, problems = _opened(path, data)
    if report is None:
        return None, problems
    listed = report.listed
    names = ", ".join(f"{s.number} {excerpt(s.name)}" for s in listed) or "none"
    if section is None:
        if len(listed) != 1:
            problems.append(
                Problem(
                    Location(report.sections.name),
                    f"the report holds {len(listed)} sections ({names}) and a results file "
                    "is read as one: name the section to read (list the event's sections, each "
                    "with its name as the report writes it)",
                )
            )
            return None, problems
        chosen = listed[0]
    else:
        wanted = section.strip().casefold()
        matches = [s for s in listed if s.name.casefold() == wanted or str(s.number) == wanted]
        if not matches:
            problems.append(
                Problem(
                    Location(report.sections.name),
                    f"the report has no section {excerpt(section)}; its sections are {names}",
                )
            )
            return None, problems
        chosen = matches[0]
    return _read_section(path, report, chosen, problems), problems
