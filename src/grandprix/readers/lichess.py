"""lichess tournament results: a Swiss's or an Arena's final standings as NDJSON.

lichess gives a finished tournament's results one JSON object a line, in rank order
(``/api/swiss/{id}/results``, ``/api/tournament/{id}/results``; the lichess-org/api OpenAPI
description names the fields). A Swiss's line has ``rank``, ``points`` (1 a win or bye, ½ a
draw or a missed first round: 5.5 is a score), ``tieBreak``, ``rating``, ``username`` and
optionally ``title``, ``performance`` and ``absent`` (the player left); an Arena's has
``score`` (arena points: 2 a win, doubled on a streak, 1 more for a berserk win) in place of
``points`` and ``tieBreak``, an optional ``team`` and, asked with ``sheet=true``, ``sheet``:
``{"scores": "2042..."}``, one digit a game, most recent first. Further fields (``flair``,
``patronColor``) say nothing about results and are left alone.

Either is read as a standings list (``ListedSection``: no rounds): each player known by the
id ``lichess:<username in lower case>`` (lichess's own user id) with the username as the name,
the rating, title, declared rank and points (an Arena's score, exact) as given; an Arena's
games played are the length of the sheet, when there is one. A round-by-round crosstable of a
Swiss is lichess's TRF export (``/swiss/{id}.trf``), read by the TRF reader.

The file is JSON, so UTF-8; it is read within bounds no tournament comes near (``MAX_BYTES``,
checked from its size before it is opened; as many lines as ``MAX_PLAYERS``, counted before
any is made; ``MAX_LINE``), one line at a time (each decoded and parsed alone: a line's JSON
never holds more than its ``MAX_LINE`` characters make), every field's type checked, and every
problem located by line and column. The ranks must run 1, 2, 3, ... in line order, as lichess
writes them: a line missing from the middle of the file is an error. (Rows cut off at the end
cannot be told: ask lichess for at least as many results, ``nb=``, as the tournament had
players.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any, Final

from grandprix.model import Columns, ListedSection, Location, Problem, Section, Severity
from grandprix.readers.bounds import Bound, within
from grandprix.readers.json_text import exact_number, json_type, json_value, shown_json
from grandprix.readers.text import excerpt
from grandprix.scores import show

MAX_BYTES: Final = 64 * 1024**2  # an Arena of 100,000 players with sheets is about 30 MB
MAX_LINE: Final = 65_536  # characters of one line (a player's line: 100 to 1,000)
MAX_PLAYERS: Final = 100_000
MAX_POINTS: Final = 1000  # a Swiss's points (lichess: 100 rounds at most)
MAX_SCORE: Final = 1_000_000  # an Arena's points
MAX_SHEET: Final = 10_000  # games of one player in one Arena
MAX_PROBLEMS: Final = 100  # errors reported before the reading stops (a file of another kind)
BOUND: Final = Bound(
    MAX_BYTES,
    "lichess results",
    "an Arena of 100,000 players with sheets is about 30 MB",
    "Download the tournament's results again",
    lines=MAX_PLAYERS + 1,  # one line a player, and a last line break
)
_USERNAME = re.compile(r"[A-Za-z0-9_-]{1,30}")  # lichess: 2 to 20 of these characters
_TEAM = re.compile(r"[A-Za-z0-9_-]{1,100}")  # a team's id: its name as a slug
_TITLE = re.compile(r"[A-Z]{1,4}")  # GM, WGM, ..., NM, LM, BOT
_SHEET = re.compile(r"[0-5]*")
_HOW = "download the results again from lichess"


def recognise(suffix: str, head: bytes) -> bool:
    """lichess's results: the first line is an object opening with ``rank`` and naming a
    ``username`` (the order lichess writes its fields in)."""
    first = head.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0]
    return first.startswith(b'{"rank":') and b'"username":' in first


def read_lichess(
    path: str | Path, data: bytes | None = None
) -> tuple[Section | None, list[Problem]]:
    """Read a lichess Swiss's or Arena's results (NDJSON); the standings list and every
    problem found."""
    name = str(path)
    problems: list[Problem] = []
    data = within(path, data, BOUND._replace(limit=MAX_BYTES), problems)  # (as set now)
    if data is None:
        return None, problems
    if data.startswith(_UTF16_BOMS):
        message = "the file is UTF-16 text; JSON is UTF-8: save it as UTF-8"
        return None, [Problem(Location(name), message)]
    reader = _Reader(name)
    for number, raw, cut in _lines(data.removeprefix(_BOM)):
        if not raw.strip():
            continue
        if len(reader.rows) == MAX_PLAYERS:
            reader.error(
                Location(name, number),
                f"more than {MAX_PLAYERS:,} players: no lichess tournament has so many; is "
                "this the results file of one tournament?",
            )
            break
        line = _decoded(raw, Location(name, number), problems)
        if line is None:  # not UTF-8: not a file as lichess writes it
            return None, problems
        reader.line(number, line, cut)
        if len(reader.problems) >= MAX_PROBLEMS:
            reader.problems.append(
                Problem(Location(name, number), f"reading stopped after {MAX_PROBLEMS} problems")
            )
            break
    problems += reader.problems
    if not reader.rows:
        if not problems:
            problems.append(
                Problem(
                    Location(name),
                    "the file has no results (expected one JSON object a line, as lichess "
                    "writes a tournament's results)",
                )
            )
        return None, problems
    return reader.section(), problems


_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def _lines(data: bytes) -> Iterator[tuple[int, bytes, bool]]:
    """Each line of the file (number, bytes without the line break, whether it is the last
    and ends without one), made one at a time."""
    start, number = 0, 1
    while start < len(data):
        end = data.find(b"\n", start)
        if end < 0:
            yield number, data[start:], True
            return
        yield number, data[start:end].removesuffix(b"\r"), False
        start, number = end + 1, number + 1


def _decoded(raw: bytes, where: Location, problems: list[Problem]) -> str | None:
    """A line's text (JSON is UTF-8); None, with the problem at the first byte that is not."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(
            Problem(
                where.at(exc.start + 1),
                f"byte 0x{raw[exc.start]:02X} is not UTF-8 ({exc.reason}); JSON is UTF-8 text: "
                "download the file again rather than saving it from an editor",
            )
        )
        return None


# A player read: start number, username, rating, title, extra fields, points, rank, games
# played (None without a sheet), line.
_Row = tuple[int, str, int | None, str, tuple[tuple[str, str], ...], Fraction, str, int | None, int]


class _Reader:
    """The lines of one file, read one by one: the rows read, the problems found."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rows: list[_Row] = []
        self.problems: list[Problem] = []
        self.kind = ""  # "swiss" or "arena": what the first line is
        self.seen: dict[str, int] = {}  # user id -> line
        # The rank the next line should have: one more than the last line's, read or not (a
        # line refused is one problem, not a wrong rank on every line after it).
        self.expected = 1

    def error(self, where: Location, message: str) -> None:
        self.problems.append(Problem(where, message))

    def line(self, number: int, line: str, cut: bool) -> None:
        """One line read (``cut``: the last line, without the line break lichess ends each
        line with)."""
        rank = self._line(number, line, cut)
        self.expected = (rank or self.expected) + 1

    def _line(self, number: int, line: str, cut: bool) -> int | None:
        """One line read; the rank it declares (None when it cannot be read)."""
        where = Location(self.name, number)
        if len(line) > MAX_LINE:
            self.error(
                where,
                f"line is {len(line):,} characters long; a player's line of lichess results "
                f"holds far fewer (at most {MAX_LINE:,} are read): is this lichess results "
                f"NDJSON? It starts {excerpt(line)}",
            )
            return None
        record = json_value(line, where, self.problems, cut)
        if record is None:
            return None
        if not isinstance(record, dict):
            self.error(
                where.at(1),
                f"the line is a JSON {json_type(record)}, not an object; each line of lichess "
                'results is one player: {"rank": 1, "username": ...}',
            )
            return None
        fields = _Fields(record, line, where, self.problems)
        if not self.kind:
            self.kind = "swiss" if "points" in record else "arena" if "score" in record else ""
            if not self.kind:
                self.error(
                    where.at(1),
                    "the line has neither 'points' (a Swiss's results) nor 'score' (an Arena's): "
                    f"is this lichess results NDJSON? It starts {excerpt(line)}",
                )
                return None
        before = len(self.problems)
        username = fields.text("username", _USERNAME, "a lichess username (letters, digits, _ -)")
        rank = fields.whole("rank", 1, MAX_PLAYERS)
        if self.kind == "swiss":
            points = fields.exact("points", MAX_POINTS)
            tie_break = fields.exact("tieBreak", MAX_POINTS**2, optional=True, low=-(MAX_POINTS**2))
            absent = fields.flag("absent")
            more = [("tie_break", show(tie_break)), ("absent", "yes" if absent else "")]
            played = None
        else:
            score = fields.whole("score", 0, MAX_SCORE)
            points = Fraction(score) if score is not None else None
            team = fields.text("team", _TEAM, "a lichess team id", optional=True)
            played, summed = fields.sheet()
            more = [("team", team or "")]
            if summed is not None and score is not None and summed != score:
                self.problems.append(
                    Problem(
                        fields.at("sheet"),
                        f"the sheet's games add up to {summed} but the score is {score}: read "
                        f"as {score}, as lichess ranks by it; {_HOW} if this is not a bonus",
                        Severity.WARNING,
                    )
                )
        rating = fields.whole("rating", 0, 9999, optional=True)
        title = fields.text("title", _TITLE, "a title such as GM or NM", optional=True)
        performance = fields.whole("performance", 0, 9999, optional=True)
        wrong = any(p.severity is Severity.ERROR for p in self.problems[before:])
        if wrong or username is None or rank is None or points is None:
            return rank
        ident = username.lower()
        if ident in self.seen:
            self.error(
                fields.at("username"),
                f"player {username!r} is listed twice (first on line {self.seen[ident]}); "
                f"remove the second line or {_HOW}",
            )
            return rank
        if rank != self.expected:
            self.error(
                fields.at("rank"),
                f"rank {rank} where rank {self.expected} was expected: lichess writes "
                "one line a player in rank order, so a line is missing or out of place; "
                f"{_HOW} (with nb= at least the number of players)",
            )
            return rank
        self.seen[ident] = number
        extra = (("performance", str(performance) if performance else ""), *more)
        self.rows.append(
            (rank, username, rating or None, title or "", extra, points, str(rank), played, number)
        )
        return rank

    def section(self) -> ListedSection:
        """The standings list of the rows read."""
        start, names, ratings, titles, extra, points, ranks, played, lines = zip(
            *self.rows, strict=True
        )
        size = len(start)
        empty = ("",) * size
        columns = Columns(
            start_no=start,
            name=names,
            rating=ratings,
            title=titles,
            sex=empty,
            federation=empty,
            fide_id=tuple(f"lichess:{n.lower()}" for n in names),
            birth_date=empty,
            extra=extra,
            points=points,
            rank=ranks,
            played=tuple(n or 0 for n in played),
            line=lines,
        )
        # An Arena has no rounds: its players play as many games as the time allows.
        rounds = 0 if self.kind == "arena" else None
        return ListedSection.of(Path(self.name).stem, columns, played, self.name, rounds)


class _Fields:
    """The fields of one line's object, each read with its type checked and its problem
    located at the field's name in the line."""

    def __init__(
        self, record: dict[str, Any], line: str, where: Location, problems: list[Problem]
    ) -> None:
        self.record = record
        self.line = line
        self.where = where
        self.problems = problems

    def at(self, key: str) -> Location:
        """Where the field's name is in the line (the line's start if it is not found)."""
        return self.where.at(self.line.find(f'"{key}"') + 1 or 1)

    def _get(self, key: str, optional: bool, what: str) -> Any:
        value = self.record.get(key)
        if value is None and not optional:
            shown = "null" if key in self.record else "missing"
            self.problems.append(
                Problem(self.at(key), f"field '{key}' is {shown} (expected {what}); {_HOW}")
            )
        return value

    def wrong(self, key: str, value: object, what: str) -> None:
        self.problems.append(
            Problem(self.at(key), f"field '{key}' = {shown_json(value)} is not {what}")
        )

    def whole(self, key: str, low: int, high: int, optional: bool = False) -> int | None:
        what = f"a whole number from {low} to {high:,}"
        value = self._get(key, optional, what)
        if value is None:
            return None
        if type(value) is not int or not low <= value <= high:
            self.wrong(key, value, what)
            return None
        return value

    def exact(self, key: str, high: int, optional: bool = False, low: int = 0) -> Fraction | None:
        what = f"a number from {low:,} to {high:,}"
        value = self._get(key, optional, what)
        if value is None:
            return None
        number = exact_number(value, low, high)
        if number is None:
            self.wrong(key, value, what)
        return number

    def text(
        self, key: str, pattern: re.Pattern[str], what: str, optional: bool = False
    ) -> str | None:
        value = self._get(key, optional, what)
        if value is None:
            return None
        if not isinstance(value, str) or not pattern.fullmatch(value):
            self.wrong(key, value, what)
            return None
        return value

    def flag(self, key: str) -> bool:
        value = self.record.get(key)
        if value is not None and not isinstance(value, bool):
            self.wrong(key, value, "true or false")
            return False
        return bool(value)

    def sheet(self) -> tuple[int | None, int | None]:
        """The games of an Arena's sheet (``{"scores": "2042"}``) and the points its digits add
        up to (lichess's score is that sum); None and None without a sheet."""
        sheet = self.record.get("sheet")
        if sheet is None:
            return None, None
        what = '{"scores": "..."}: one digit 0-5 a game'
        scores = sheet.get("scores") if isinstance(sheet, dict) else None
        if (
            not isinstance(scores, str)
            or len(scores) > MAX_SHEET
            or not _SHEET.fullmatch(scores)
            or not isinstance(sheet.get("fire", False), bool)
        ):
            self.wrong("sheet", sheet, what + f" (at most {MAX_SHEET:,})")
            return None, None
        return len(scores), sum(map(int, scores))
