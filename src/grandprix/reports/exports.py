"""Exports of the standings and results: CSV, JSON (with its schema) and XLSX (UT-8).

The CSV and XLSX rows are the same rows: their text from input files (division, player id and
name, event and section names) goes through ``safe_text``, so that no cell is a formula in a
spreadsheet. The XLSX writes the columns of numbers (``NUMBER_COLUMNS``: ranks, points, events,
places, scores) as number cells wherever the value is a plain decimal ('72.00', '3'; a shared
'9-10' stays text), their decimals as the CSV has them, and every other cell as a string cell
(``writers/xlsx.py``). JSON is no formula surface and keeps the text as the files give it.

A player's counted rows of results.csv add up to their total in standings.csv: a season's
bonus for events played (``counting.bonus_per_event``, LUP-3), which belongs to no event, is a
row of its own after the player's results, counted. Each row shows its own exact value rounded
to the rule set's decimals; the total is the exact values' sum rounded once, so where the
points are not whole numbers of those decimals (14/3 shown as 4.67) the shown rows' sum can
differ from the total by the rows' rounding, never more.
"""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from grandprix.language import _, decimal, in_english, ngettext
from grandprix.reports.document import SCHEMA, compact_entries, standings_document
from grandprix.reports.standings import standings_columns, standings_csv, standings_rows
from grandprix.scores import show
from grandprix.season.ineligible import unplaced
from grandprix.season.model import Line, Season, Tables, Unplaced
from grandprix.writers import xlsx
from grandprix.writers.cells import CsvRows, safe_text
from grandprix.writers.xlsx import Sheet, write_workbook

RESULTS_COLUMNS = [
    "division",
    "player_id",
    "name",
    "date",
    "event",
    "section",
    "place",
    "score",
    "points",
    "counted",
]
# The columns the XLSX writes as numbers where their value is a plain decimal.
NUMBER_COLUMNS = frozenset({"rank", "points", "events", "place", "score"})


Columns = tuple[tuple[str, str], ...]  # each column's name and meaning
ColumnDictionary = tuple[tuple[str, Columns], ...]  # each file's caption and its columns


def column_dictionary(season: Season) -> ColumnDictionary:
    """What each column of standings.csv and results.csv holds (and of the sheets of
    season.xlsx, which hold the same rows), for the downloads page: each file's caption and
    its columns, in order, each with its meaning under this season's rules (its decimals, its
    bonus for events played, the players listed in no standings), in the language spoken (the
    columns' names, and the values the files hold, stay as the files write them)."""
    rules = season.rules
    decimals = rules.standings.decimals
    shown = (
        ngettext("shown with {n} decimal", "shown with {n} decimals", decimals).format(n=decimals)
        if decimals
        else _("shown as whole numbers")
    )
    per_event = rules.counting.bonus_per_event
    total = _(
        "The season's total: the points of the counted results; {shown}, the exact sum "
        "rounded once."
    ).format(shown=shown)
    # 'yes' and 'no' as the files write them
    counted = _(
        "'{yes}' when the row counts toward the total, '{no}' when the rules drop it."
    ).format(yes="yes", no="no")
    if per_event:
        total = _(
            "The season's total: the points of the counted results, plus the bonus for "
            "events played ({points} points each); {shown}, the exact sum rounded "
            "once."
        ).format(points=decimal(show(per_event)), shown=shown)
        date = _("The event's date, YYYY-MM-DD; empty on a bonus row.")
        event = _("The event's name; on a bonus row, '{bonus}'.").format(
            bonus="Bonus for N events played"
        )
        bonus_counts = _("A bonus row always counts.")
        counted = f"{counted} {bonus_counts}"
    else:
        date, event = _("The event's date, YYYY-MM-DD."), _("The event's name.")
    player: Columns = (
        (
            "player_id",
            _(
                "The player's id, as players.csv or the results files give it; empty "
                "when there is none."
            ),
        ),
        ("name", _("The player's name.")),
    )
    division = (
        "division",
        _("The standings table the line belongs to; empty in a season without divisions."),
    )
    standings: Columns = (
        division,
        (
            "rank",
            _(
                "The place in the table: '3', or '9-10' for players sharing places 9 to 10 "
                "(in season.xlsx a single place is a number, a shared one is text)."
            ),
        ),
        *player,
        ("points", total),
        ("events", _("The events the player took part in.")),
    )
    if rules.standings.ineligible == "listed":
        note = _(
            "Only on the rows after the standings: why a player of the season's events is "
            "in no standings (no rank, 0 points)."
        )
        standings += (("note", note),)
    results: Columns = (
        division,
        *player,
        ("date", date),
        ("event", event),
        ("section", _("The section of the event the result is in.")),
        ("place", _("The place in the section: '3', or '6-8' for a place three players share.")),
        ("score", _("The player's score in the section, in game points (6.5).")),
        (
            "points",
            _(
                "The Grand Prix points of the result, {shown}: each row is its own value "
                "rounded, so a sum of rows can differ from the total by their rounding."
            ).format(shown=shown),
        ),
        ("counted", counted),
    )
    caption = _("{file} (season.xlsx: sheet '{sheet}')")
    return (
        (caption.format(file="standings.csv", sheet="Standings"), standings),
        (caption.format(file="results.csv", sheet="Results"), results),
    )


def _results(tables: Tables, decimals: int) -> list[list[str]]:
    return list(_result_rows(tables, decimals))


def _result_rows(tables: Tables, decimals: int) -> Iterator[list[str]]:
    """Every award of every line, a row each, made as they are taken (the XLSX writer turns a
    thousand at a time into XML, so the half million rows of a large season never sit in
    memory together). The same few texts and numbers recur hundreds of thousands of times, so
    each is made once: a line's division, id and name for all its awards; an event section's
    date and names once for the section (by its shared ``Origin``); a result's place, score and
    points once for each span, score (by numerator and denominator: hashing a Fraction costs
    more than showing it) and shared Valuation. A line with a bonus for events played has it as
    its last row (``_bonus_row``)."""
    sections: dict[int, tuple[str, str, str]] = {}  # by id() of the Origin, kept by the awards
    # (the Valuation by id(): the awards keep it beyond this call)
    rests: dict[tuple[int, int, int, int, int], tuple[str, str, str]] = {}
    for division, lines in tables:
        shown_division = safe_text(division)
        for line in lines:
            player, name = safe_text(line.player.id), safe_text(line.name)
            for award, counted in line.results():
                origin, score, valuation = award.origin, award.score, award.valuation
                if (section := sections.get(id(origin))) is None:
                    section = sections[id(origin)] = (
                        origin.date.isoformat(),
                        safe_text(origin.event_name),
                        safe_text(origin.section),
                    )
                key = (award.first, award.last, score.numerator, score.denominator, id(valuation))
                if (rest := rests.get(key)) is None:
                    rest = rests[key] = (award.place, show(score), show(valuation.points, decimals))
                yield [shown_division, player, name, *section, *rest, "yes" if counted else "no"]
            if line.bonus:
                yield _bonus_row(shown_division, player, name, line, decimals)


def _bonus_row(division: str, player: str, name: str, line: Line, decimals: int) -> list[str]:
    """The row of a line's bonus for events played (LUP-3: 2 points for each, counted or not):
    no date, section, place or score; its points; counted, as it always is in the total."""
    each = show(line.bonus / line.events)  # a bonus is for one event played at least
    played = f"{line.events} event{'' if line.events == 1 else 's'} played"
    event = f"Bonus for {played} ({each} point{'' if each == '1' else 's'} each)"
    return [division, player, name, "", event, "", "", "", show(line.bonus, decimals), "yes"]


def _left_out(season: Season, tables: Tables) -> list[Unplaced]:
    """The players the standings list as in none (``standings.ineligible = "listed"``)."""
    if season.rules.standings.ineligible != "listed":
        return []
    return unplaced(season, tables)


def _csv(header: list[str], rows: list[list[str]]) -> str:
    out = io.StringIO()
    writer = CsvRows(out)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


@in_english
def export_json(season: Season, tables: Tables) -> str:
    """season.json: the standings document (``reports/document.py``), as SCHEMA describes it."""
    document = standings_document(season, tables, left_out=_left_out(season, tables))
    # Compact: the indented form is three times the size and four times slower to write.
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")) + "\n"


TEXT_EXPORTS = ("standings.csv", "results.csv", "season.json", "season.schema.json")
XLSX_EXPORT = "season.xlsx"


@in_english
def text_exports(season: Season, tables: Tables) -> dict[str, str]:
    """standings.csv, results.csv, season.json and season.schema.json by name, in that order."""
    decimals = season.rules.standings.decimals
    left_out = _left_out(season, tables)
    results = _csv(RESULTS_COLUMNS, _results(tables, decimals))
    texts = (
        standings_csv(tables, decimals, left_out),
        results,
        export_json(season, tables),
        json.dumps(SCHEMA, indent=1),
    )
    return dict(zip(TEXT_EXPORTS, texts, strict=True))


@in_english
def write_exports(folder: Path, season: Season, tables: Tables) -> list[str]:
    """Every export written into ``folder``; their names (``TEXT_EXPORTS``, then season.xlsx).
    Each is written as it is made: whole, the results and season.json of a 30,000-event season
    would hold over a gigabyte of memory at once. The rows of the results are made once for
    results.csv and the XLSX's Results sheet: each thousand goes into the CSV as the XLSX
    writer takes them."""
    decimals = season.rules.standings.decimals
    left_out = _left_out(season, tables)
    standings = standings_rows(tables, decimals, left_out)
    _write_csv(folder / "standings.csv", standings_columns(left_out), standings)
    with (folder / "results.csv").open("w", encoding="utf-8") as out:  # as _write_csv
        writer = CsvRows(out)
        writer.writerow(RESULTS_COLUMNS)
        results = _written(writer, _result_rows(tables, decimals))
        sheets = _sheets(standings_columns(left_out), standings, results, _result_count(tables))
        write_workbook(folder / XLSX_EXPORT, sheets)
    with (folder / "season.json").open("w", encoding="utf-8") as out:
        out.writelines(json_pieces(season, tables))
    (folder / "season.schema.json").write_text(json.dumps(SCHEMA, indent=1), encoding="utf-8")
    return [*TEXT_EXPORTS, XLSX_EXPORT]


def _written(writer: CsvRows, rows: Iterable[list[str]]) -> Iterator[list[str]]:
    """``rows`` as they are taken, each thousand written by ``writer`` first."""
    it = iter(rows)
    while chunk := list(itertools.islice(it, CsvRows.CHUNK)):
        writer.writerows(chunk)
        yield from chunk


def _write_csv(path: Path, header: list[str], rows: Iterable[list[str]]) -> None:
    with path.open("w", encoding="utf-8") as out:  # the newlines of write_text
        writer = CsvRows(out)
        writer.writerow(header)
        writer.writerows(rows)


JSON_LINES = 1000  # players' lines put into season.json at a time
EMPTY_STANDINGS = '"standings":[]'  # a table without lines in the compact JSON


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def json_pieces(season: Season, tables: Tables) -> Iterator[str]:
    """season.json in pieces, the bytes of ``export_json``: each table's lines a thousand at a
    time, set where the document of the tables without lines has that table's empty standings.
    The first thousand of a table are the standings document's (``reports/document.py``), which
    must equal that frame but for the lines' own entries, and whose text ``compact_entries``
    must give; the rest are ``compact_entries``'s. Should either ever fail, the document is
    made whole, as before."""
    left_out = _left_out(season, tables)
    frame = standings_document(season, [(name, []) for name, _ in tables], left_out=left_out)
    pieces = _dump(frame).split(EMPTY_STANDINGS)
    entries = compact_entries(season)
    firsts = [
        _entries(season, frame, i, name, lines[:JSON_LINES], entries, left_out)
        for i, (name, lines) in enumerate(tables)
    ]
    if len(pieces) != len(tables) + 1 or None in firsts:
        yield export_json(season, tables)
        return
    for (_name, lines), piece, first in zip(tables, pieces, firsts, strict=False):
        yield f'{piece}"standings":[{first}'
        for start in range(JSON_LINES, len(lines), JSON_LINES):
            yield "," + entries(lines[start : start + JSON_LINES])
        yield "]"
    yield pieces[-1] + "\n"


def _entries(
    season: Season,
    frame: dict[str, Any],
    index: int,
    name: str,
    lines: list[Line],
    compact: Callable[[Iterable[Line]], str],
    left_out: Sequence[Unplaced] = (),
) -> str | None:
    """The JSON of these lines' entries in the table at ``index`` (no brackets), or None when
    their document differs from ``frame`` beyond them or ``compact`` (``compact_entries``, which
    writes the rest of the table's lines) does not give the text of their entries."""
    document = standings_document(season, [(name, lines)], left_out=left_out)
    table = dict(document["divisions"][0])
    entries = _dump(table.pop("standings"))[1:-1]
    expected = {k: v for k, v in frame["divisions"][index].items() if k != "standings"}
    if {**document, "divisions": None} != {**frame, "divisions": None} or table != expected:
        return None
    return entries if compact(lines) == entries else None


def xlsx_sheets(season: Season, tables: Tables) -> list[Sheet]:
    """The sheets of season.xlsx: Standings and Results, each its header and then the rows of
    standings.csv and results.csv (the results made as the writer takes them). The XLSX is
    written by a streaming writer (``writers/xlsx.py``: about 5 s for the 4.6 million cells of
    a 10,000-event season, a twelfth of openpyxl's time), the plain decimals of the columns of
    numbers as number cells, every other cell a string cell."""
    decimals = season.rules.standings.decimals
    results = _result_rows(tables, decimals)
    left_out = _left_out(season, tables)
    standings = standings_rows(tables, decimals, left_out)
    return _sheets(standings_columns(left_out), standings, results, _result_count(tables))


def _sheets(
    columns: list[str], standings: list[list[str]], results: Iterable[list[str]], count: int
) -> list[Sheet]:
    """The sheets of ``standings`` and of the ``count`` rows of ``results``: one Results sheet
    while they fit in a sheet (``xlsx.MAX_ROWS``, the most Excel opens), else Results, Results
    2, Results 3, ..., each its header and as many rows as fit (a season of 100,000 events has
    5 million results)."""
    per_sheet = xlsx.MAX_ROWS - 1
    rows = iter(results)
    sheets = [Sheet("Standings", [columns, *standings], _numbers(columns))]
    for n in range(max(1, -(-count // per_sheet))):  # taken in turn as the writer takes them
        name = f"Results {n + 1}" if n else "Results"
        part = itertools.chain([RESULTS_COLUMNS], itertools.islice(rows, per_sheet))
        sheets.append(Sheet(name, part, _numbers(RESULTS_COLUMNS)))
    return sheets


def _numbers(columns: Sequence[str]) -> frozenset[int]:
    """The places of the columns of numbers among ``columns``."""
    return frozenset(i for i, column in enumerate(columns) if column in NUMBER_COLUMNS)


def _result_count(tables: Tables) -> int:
    """The rows of results.csv: a line's awards, and its bonus when it has one."""
    return sum(len(line.awards) + bool(line.bonus) for _, lines in tables for line in lines)


@in_english
def xlsx_bytes(season: Season, tables: Tables) -> bytes:
    """season.xlsx as bytes, the same bytes write_exports writes (for serving it on request)."""
    out = io.BytesIO()
    write_workbook(out, xlsx_sheets(season, tables))
    return out.getvalue()
