"""A tournament's results downloaded from the site that publishes them, into a season folder.

``fetch`` knows three sites, each by the address a browser shows:

- chess-results.com (``https://chess-results.com/tnr123456.aspx?lan=1``, any ``s1.``, ``www.``
  server): the "Final Ranking crosstable" as the site's Excel export (``art=4``, every row:
  ``zeilen=99999``, the details that hold the date: ``turdet=YES``, as .xlsx: ``prt=4&excel=2010``),
  which the ``chess-results`` reader reads;
- lichess (``https://lichess.org/swiss/ID``, ``https://lichess.org/tournament/ID``): the
  tournament's description (``/api/swiss/ID``, ``/api/tournament/ID``: its name, date, players,
  whether it has finished), then its results as NDJSON (``/api/swiss/ID/results``,
  ``/api/tournament/ID/results?sheet=true``) with ``nb=`` its number of players, so that no row
  is cut off (the reader cannot tell a list cut at the end);
- chess.com, what its Published-Data API serves: a round's group
  (``https://api.chess.com/pub/tournament/ID/ROUND/GROUP``), with the tournament's name from
  ``/pub/tournament/ID``. A tournament's or a round's address (or its web page,
  ``https://www.chess.com/tournament/live/ID``) leads to its only group when it has one round
  of one group; otherwise the error lists the groups' (or rounds') addresses to give.

Each download is made with the standard library (``transport.py``): one ``DEADLINE`` for the
whole exchange (the name's look-up, connecting, the answer's headers and body), kept by the
socket before every receive, so that a site trickling its answer is cut at the deadline; at
most the format's size limit read (one byte more is an error, and a ``Content-Length`` over it
is refused before reading); a ``User-Agent`` naming grandprix; redirects followed only on the
site's own host and port, over the same scheme. What comes back is read by the format's reader
before anything is written: a file that does not read is not kept, and a description that is
not what the site's API describes (JSON nested too deeply, a date outside ``EARLIEST`` to
``LATEST``, an arena longer than ``ARENA_MINUTES``, a value of the wrong kind) is an error
naming the address and, where it can, the field. The file is
written inside the season folder under a name made of the event's name and the tournament's id
(``keshmat-circuit-rapid-august-2024-1017236.xlsx``), whole (a temporary file in the same
folder, then linked to its name), and never over an existing file: a name that exists is an
error, since it is nearly always the same tournament downloaded before (its id is in the name)
and a numbered copy would be listed as a second event.
"""

from __future__ import annotations

import datetime
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from urllib.parse import urlsplit

from grandprix.errors import errors_only
from grandprix.fetch import transport
from grandprix.fetch.files import (
    checked_name,
    exists_message,
    file_name,
    stem_of,
    suffix_of,
    write_new,
)
from grandprix.fetch.sources import (
    CHESS_RESULTS_HOST,
    CHESSCOM_API,
    LICHESS_HOST,
    FetchError,
    Source,
    Unreadable,
    shown,
    source_of,
)
from grandprix.fetch.transport import Channel, Deadline, download
from grandprix.model import Location, Problem, Section
from grandprix.readers import FORMATS, chesscom, lichess
from grandprix.readers.json_text import json_text, json_value

__all__ = ["DEADLINE", "FetchError", "Fetched", "Source", "Unreadable", "fetch", "source_of"]

DEADLINE: Final = 300.0  # seconds for one whole download (``fetch``'s ``deadline``)
# Most bytes of each download: the readers' own bounds (an xlsx crosstable of 2,000 players is
# about 500 KB; the reader's bound is on the unzipped parts).
LIMITS: Final = {
    "chess-results": 16 * 1024**2,
    "lichess": lichess.MAX_BYTES,
    "chesscom": chesscom.MAX_BYTES,
    "info": 4 * 1024**2,  # a tournament's description (lichess, chess.com): a few KB
}

# The days a tournament's date may fall on, and an arena's longest length (lichess's longest
# are a day): anything else in a site's description is not a tournament's.
EARLIEST: Final = datetime.date(1900, 1, 1)
LATEST: Final = datetime.date(2100, 12, 31)
ARENA_MINUTES: Final = 7 * 24 * 60

_API = "https://api.chess.com/pub/tournament/"
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
# What reading a download raises when it is not what its site describes: each becomes an error
# naming the download, nothing written (the checks below name the field where they can).
_MALFORMED = (ArithmeticError, AttributeError, LookupError, RecursionError, TypeError, ValueError)


@dataclass
class Fetched:
    """What ``fetch`` wrote: the file, what it holds, how season.toml lists it."""

    path: Path
    address: str  # the results' address
    format: str  # the name of the format in ``readers.FORMATS``
    event: str  # the event's name ('' when the download does not name it)
    date: datetime.date | None
    section: Section
    rounds: int
    problems: list[Problem]  # the reader's warnings
    notes: list[str] = field(default_factory=list)  # what else is worth a look

    def season_entry(self) -> str:
        """The ``[[events]]`` table that lists the file in season.toml."""
        import tomlkit

        table = tomlkit.table()
        table["name"] = self.event or self.path.stem
        if self.date is not None:
            table["date"] = self.date
        table["results"] = self.path.name
        table["format"] = self.format
        document = tomlkit.document()
        events = tomlkit.aot()
        events.append(table)
        document["events"] = events
        text = tomlkit.dumps(document)
        if self.date is None:
            text += "# date = YYYY-MM-DD  (the last day: the download does not say it)\n"
        return text


def fetch(
    url: str,
    folder: Path,
    name: str | None = None,
    deadline: float | None = None,
    channel: Channel | None = None,
) -> Fetched:
    """Download the results of the tournament at ``url`` into ``folder`` (under ``name``, or one
    made from the event's name and id), read and checked first; ``FetchError`` (nothing
    written) when the address is not known, a download fails, is not over within ``deadline``
    seconds (``DEADLINE``) or does not read, or the file exists. ``channel`` makes the
    connections (``transport.channel``)."""
    source = source_of(url)
    if not folder.is_dir():
        raise FetchError(f"{folder}: no such folder; give the season's folder (it must exist)")
    if name is not None:
        name = checked_name(name, suffix_of(source), folder)
        if os.path.lexists(folder / name):  # said before anything is downloaded
            raise FetchError(exists_message(folder / name))
    seconds = DEADLINE if deadline is None else deadline
    get = _Getter(source, seconds, channel or transport.channel)
    try:
        if source.site == "chess-results":
            plan = _chess_results(source, get)
        elif source.site == "lichess":
            plan = _lichess(source, get)
        else:
            plan = _chesscom(source, get)
        provisional = Path(f"{stem_of(source)}{suffix_of(source)}")
        section, problems = FORMATS[plan.format].read(provisional, plan.data)
        if section is None or errors_only(problems):
            raise Unreadable(
                f"the download of {plan.address} (shown above as {provisional}) does not read "
                f"as {_FORMAT_WORDS[plan.format]}: nothing was written; {plan.hint}",
                problems,
            )
        event = plan.event or (section.name if section.name != provisional.stem else "")
        date = plan.date or _within(_day(section.date), plan.address, "the date it gives")
        notes = plan.notes(section) if plan.notes is not None else []
    except _MALFORMED as exc:
        raise FetchError(_malformed(get.last, exc)) from None
    if name is None:
        name = file_name(event, source)
    path = write_new(folder, name, plan.data)
    rounds = section.rounds or plan.rounds
    return Fetched(path, plan.address, plan.format, event, date, section, rounds, problems, notes)


_FORMAT_WORDS = {
    "chess-results": "a chess-results Final Ranking crosstable export",
    "lichess": "lichess tournament results",
    "chesscom": "a chess.com tournament group",
}


@dataclass
class _Plan:
    """A download made, with what the site's description said of the event."""

    format: str
    address: str
    data: bytes
    hint: str  # what to do when it does not read
    event: str = ""
    date: datetime.date | None = None
    rounds: int = 0
    notes: Callable[[Section], list[str]] | None = None


class _Getter:
    """Downloads from one site, each within its own deadline and its format's size limit; the
    address of the last one made (``last``: the one whose reading fails, if one does)."""

    def __init__(self, source: Source, seconds: float, channel: Channel) -> None:
        self.source = source
        self.seconds = seconds
        self.channel = channel
        self.last = ""

    def allowed(self, host: str) -> bool:
        """Whether ``host`` is one of the site's own (a redirect may lead there)."""
        if self.source.site == "chess-results":
            return CHESS_RESULTS_HOST.fullmatch(host) is not None
        if self.source.site == "lichess":
            return LICHESS_HOST.fullmatch(host) is not None
        return host in ("api.chess.com", "www.chess.com", "chess.com")

    def bytes(self, address: str, limit: int) -> bytes:
        """The body at ``address``, at most ``limit`` bytes; ``FetchError`` saying what failed."""
        self.last = address
        return download(address, limit, Deadline(self.seconds), self.allowed, self.channel)

    def json(self, address: str) -> dict[str, Any]:
        """The JSON object at ``address`` (a tournament's description), read within the bounds
        of the sites' JSON (nesting too deep is an error, not a crash)."""
        data = self.bytes(address, LIMITS["info"])
        problems: list[Problem] = []
        text = json_text(address, data, problems, LIMITS["info"])
        value = json_value(text, Location(address), problems) if text is not None else None
        if not isinstance(value, dict):
            where = problems[0].location if problems else Location(address)
            why = f"{problems[0].message.split('; ')[0]}; " if problems else ""
            raise FetchError(
                f"{where}: the answer is not the JSON object the site's API describes ({why}it "
                f"starts {shown(data[:60].decode('utf-8', 'replace'))}); check the address, or "
                "try again later"
            )
        return value


def _malformed(address: str, exc: Exception) -> str:
    """What a download that raised ``exc`` as it was read is, in a message."""
    said = str(exc).strip()
    if isinstance(exc, RecursionError):
        why = "arrays or objects nested too deeply"
    else:
        why = f"{type(exc).__name__}: {said[:100]}" if said else type(exc).__name__
    return (
        f"{address}: the download does not read as what the site's API describes ({why}); "
        "nothing was written; check the address, or try again later"
    )


def _chess_results(source: Source, get: _Getter) -> _Plan:
    node = f"&SNode={source.node}" if source.node else ""
    address = (
        f"https://{source.host}/tnr{source.ident}.aspx?lan=1&art=4&zeilen=99999&turdet=YES"
        f"&flag=30&prt=4&excel=2010{node}"
    )
    data = get.bytes(address, LIMITS["chess-results"])
    hint = "download the Final Ranking crosstable (Excel) in a browser and look at it"
    if not data.startswith(b"PK"):
        looks = data[:1024].lstrip().lower()
        what = "a web page" if looks.startswith((b"<!doctype", b"<html", b"<")) else "no workbook"
        raise FetchError(
            f"{address}: chess-results sent {what}, not the Excel workbook: check the "
            "tournament's number; chess-results keeps the details of old tournaments from "
            f"downloads (and blocks addresses that download too often); {hint}"
        )
    return _Plan("chess-results", address, data, hint)


def _lichess(source: Source, get: _Getter) -> _Plan:
    base = f"https://lichess.org/api/{'swiss' if source.kind == 'swiss' else 'tournament'}/"
    described = base + source.ident
    info = get.json(described)
    swiss = source.kind == "swiss"
    name = _text(info.get("name" if swiss else "fullName"))
    state = info.get("status" if swiss else "isFinished")
    if not isinstance(state, str if swiss else bool):
        raise FetchError(
            f"{base}{source.ident}: the answer is not lichess's description of a tournament "
            f"(it has no '{'status' if swiss else 'isFinished'}'); check the address"
        )
    if state not in ("finished", True):
        raise FetchError(
            f"{base}{source.ident}: the tournament{' ' + shown(name) if name else ''} has not "
            "finished: its results can still change; fetch it when it has finished"
        )
    players = _count(info.get("nbPlayers"))
    if not players:
        raise FetchError(f"{base}{source.ident}: the tournament has no players: no results")
    if swiss:
        date = _within(_day(info.get("startsAt")), described, "'startsAt'")
    else:
        date = _arena_end(info, described)
    # Every player's line (the reader cannot tell a list cut at its end); an arena's sheets
    # give each player's games.
    extra = "" if swiss else "&sheet=true"
    address = f"{base}{source.ident}/results?nb={min(players, lichess.MAX_PLAYERS)}{extra}"
    data = get.bytes(address, LIMITS["lichess"])

    def notes(section: Section) -> list[str]:
        if section.size >= players:
            return []
        return [
            f"lichess listed {section.size} players of the {players} the tournament counts "
            "(closed accounts are left out of the results; if many are missing, fetch again)"
        ]

    rounds = _count(info.get("nbRounds")) if swiss else 0
    return _Plan("lichess", address, data, "try again later", name, date, rounds, notes)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _count(value: object) -> int:
    """A whole number of an API's description (0 for anything else)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _arena_end(info: dict[str, Any], address: str) -> datetime.date | None:
    """The day an arena ended: its start (``startsAt``) plus its ``minutes``, each within
    bounds (``FetchError`` naming the field otherwise); None when it gives no start."""
    starts, minutes = info.get("startsAt"), info.get("minutes")
    if not isinstance(starts, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(starts[:40])
    except ValueError:
        return _within(_day(starts), address, "'startsAt'")
    _within(moment.date(), address, "'startsAt'")
    if type(minutes) is int and not 0 <= minutes <= ARENA_MINUTES:
        raise FetchError(
            f"{address}: 'minutes' is {minutes:,}: an arena lasts from 0 to {ARENA_MINUTES:,} "
            "minutes (a week); the answer is not lichess's description of a tournament: "
            "nothing was written; check the address"
        )
    if type(minutes) is int:
        moment += datetime.timedelta(minutes=minutes)
    return _within(moment.date(), address, "'startsAt' plus 'minutes'")


def _chesscom(source: Source, get: _Getter) -> _Plan:
    tournament = f"{_API}{source.ident}"
    info = get.json(tournament)
    name = _text(info.get("name"))
    round_, group = source.round, source.group
    if round_ is None:
        rounds = _children(info.get("rounds"), source.ident, 1)
        if len(rounds) != 1:
            raise FetchError(_listing(tournament, "rounds", rounds, info))
        round_ = rounds[0][0]
    if group is None:
        round_info = get.json(f"{tournament}/{round_}")
        groups = [g for g in _children(round_info.get("groups"), source.ident, 2) if g[0] == round_]
        if len(groups) != 1:
            raise FetchError(_listing(f"{tournament}/{round_}", "groups", groups, round_info))
        group = groups[0][1]
    event = name if source.group is None else f"{name}, round {round_}, group {group}"
    address = f"{tournament}/{round_}/{group}"
    data = get.bytes(address, LIMITS["chesscom"])
    hint = "check the address (a group's: .../ROUND/GROUP)"
    date = _last_game(data, address)
    return _Plan("chesscom", address, data, hint, event if name else "", date)


def _children(value: object, ident: str, depth: int) -> list[tuple[int, int]]:
    """The (round, group) numbers of the API addresses listed under ``rounds`` (depth 1) or
    ``groups`` (depth 2) of tournament ``ident``; addresses of other tournaments left out."""
    found: list[tuple[int, int]] = []
    for item in value if isinstance(value, list) else []:
        match = CHESSCOM_API.fullmatch(_path(item))
        if match is None or match[1] != ident or (match[3] is None) != (depth == 1):
            continue
        found.append((int(match[2]), int(match[3] or 0)))
    return found


def _path(item: object) -> str:
    """The path of an address a description lists ('' for what is not an address)."""
    try:
        return urlsplit(item).path if isinstance(item, str) else ""
    except ValueError:  # 'https://[x': no address
        return ""


def _listing(address: str, what: str, found: list[tuple[int, int]], info: dict[str, Any]) -> str:
    if not found:
        return (
            f"{address}: chess.com lists no {what} of this tournament (status: "
            f"{shown(_text(info.get('status')) or '?')}): it has no results yet"
        )
    addresses = [
        f"{_API}{address.removeprefix(_API).split('/')[0]}/{r}" + (f"/{g}" if g else "")
        for r, g in found[:12]
    ]
    more = f" and {len(found) - 12} more" if len(found) > 12 else ""
    step = "" if what == "groups" else " (each round's address lists its groups)"
    return (
        f"{address}: the tournament has {len(found)} {what}: give one group's address, "
        f"https://api.chess.com/pub/tournament/ID/ROUND/GROUP; its {what}{step}: "
        + ", ".join(addresses)
        + more
    )


def _last_game(data: bytes, address: str) -> datetime.date | None:
    """The day the group's last game ended (the event's date, as season.toml wants it); None
    when the group does not read (its reader then says why)."""
    text = json_text(address, data, [], chesscom.MAX_BYTES)
    top = json_value(text, Location(address), []) if text is not None else None
    games = top.get("games") if isinstance(top, dict) else None
    ends = (
        [_count(g.get("end_time")) for g in games if isinstance(g, dict)]
        if isinstance(games, list)
        else []
    )
    ends = [end for end in ends if 0 < end <= chesscom.MAX_TIME]
    if not ends:
        return None
    last = datetime.datetime.fromtimestamp(max(ends), datetime.UTC).date()
    return _within(last, address, "the last game's 'end_time'")


def _day(value: object) -> datetime.date | None:
    """The last ``YYYY-MM-DD`` date of a text (an ISO moment, a range), if a real one."""
    days = _DAY.findall(value) if isinstance(value, str) else []
    try:
        return datetime.date.fromisoformat(days[-1]) if days else None
    except ValueError:
        return None


def _within(day: datetime.date | None, address: str, what: str) -> datetime.date | None:
    """``day``, the date ``what`` of the download at ``address`` gives, if it falls from
    ``EARLIEST`` to ``LATEST`` (``FetchError`` naming it otherwise); None stays None."""
    if day is not None and not EARLIEST <= day <= LATEST:
        raise FetchError(
            f"{address}: {what} is {day.isoformat()}, not a day from {EARLIEST.year} to "
            f"{LATEST.year}; the answer is not what the site's API describes of a tournament: "
            "nothing was written; check the address"
        )
    return day
