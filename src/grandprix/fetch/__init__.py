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

Each download is made with the standard library: a ``TIMEOUT`` for each wait, a ``DEADLINE``
for the whole, at most the format's size limit read (one byte more is an error, and a
``Content-Length`` over it is refused before reading), a ``User-Agent`` naming grandprix,
redirects followed only to the site's own hosts over https. What comes back is read by the
format's reader before anything is written: a file that does not read is not kept. The file is
written inside the season folder under a name made of the event's name and the tournament's id
(``keshmat-circuit-rapid-august-2024-1017236.xlsx``), whole (a temporary file in the same
folder, then linked to its name), and never over an existing file: a name that exists is an
error, since it is nearly always the same tournament downloaded before (its id is in the name)
and a numbered copy would be listed as a second event.
"""

from __future__ import annotations

import datetime
import http.client
import json
import os
import re
import socket
import ssl
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Final
from urllib.parse import urlsplit

from grandprix import __version__
from grandprix.errors import errors_only
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
from grandprix.model import Problem, Section
from grandprix.readers import FORMATS, chesscom, lichess

__all__ = ["FetchError", "Fetched", "Source", "Unreadable", "fetch", "open_url", "source_of"]

USER_AGENT: Final = f"grandprix/{__version__} (chess Grand Prix results import; Python urllib)"
TIMEOUT: Final = 20.0  # seconds of any one wait: connecting, each read
DEADLINE: Final = 300.0  # seconds for one whole download
CHUNK: Final = 64 * 1024
# Most bytes of each download: the readers' own bounds (an xlsx crosstable of 2,000 players is
# about 500 KB; the reader's bound is on the unzipped parts).
LIMITS: Final = {
    "chess-results": 16 * 1024**2,
    "lichess": lichess.MAX_BYTES,
    "chesscom": chesscom.MAX_BYTES,
    "info": 4 * 1024**2,  # a tournament's description (lichess, chess.com): a few KB
}

_API = "https://api.chess.com/pub/tournament/"
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


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


# Opening an address: the tests put a local server in place of the sites.
Opener = Callable[[urllib.request.Request, float, Callable[[str], bool]], Any]


def open_url(
    request: urllib.request.Request, timeout: float, allowed: Callable[[str], bool]
) -> Any:
    """The response to ``request``; a redirect only to an address ``allowed`` says yes to."""
    opener = urllib.request.build_opener(_Redirects(allowed))
    return opener.open(request, timeout=timeout)


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Redirects followed to the site's own hosts over https, no further."""

    def __init__(self, allowed: Callable[[str], bool]) -> None:
        self.allowed = allowed

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: Any,
        newurl: str,
    ) -> urllib.request.Request | None:
        if not self.allowed(newurl):
            raise FetchError(
                f"{req.full_url}: the site sends the download to {shown(newurl)}, another "
                "site; nothing was downloaded (download the file in a browser and list it "
                "in season.toml)"
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def fetch(url: str, folder: Path, name: str | None = None, opener: Opener | None = None) -> Fetched:
    """Download the results of the tournament at ``url`` into ``folder`` (under ``name``, or one
    made from the event's name and id), read and checked first; ``FetchError`` (nothing
    written) when the address is not known, the download fails or does not read, or the file
    exists."""
    source = source_of(url)
    if not folder.is_dir():
        raise FetchError(f"{folder}: no such folder; give the season's folder (it must exist)")
    if name is not None:
        name = checked_name(name, suffix_of(source), folder)
        if os.path.lexists(folder / name):  # said before anything is downloaded
            raise FetchError(exists_message(folder / name))
    get = _Getter(opener or open_url, source)
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
            f"the download of {plan.address} (shown above as {provisional}) does not read as "
            f"{_FORMAT_WORDS[plan.format]}: nothing was written; {plan.hint}",
            problems,
        )
    event = plan.event or (section.name if section.name != provisional.stem else "")
    date = plan.date or _day(section.date)
    notes = plan.notes(section) if plan.notes is not None else []
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
    """Downloads from one site: its hosts allowed, each response bounded."""

    def __init__(self, opener: Opener, source: Source) -> None:
        self.opener = opener
        self.source = source

    def allowed(self, address: str) -> bool:
        parts = urlsplit(address)
        host = (parts.hostname or "").lower()
        if parts.scheme != "https":
            return False
        if self.source.site == "chess-results":
            return CHESS_RESULTS_HOST.fullmatch(host) is not None
        if self.source.site == "lichess":
            return LICHESS_HOST.fullmatch(host) is not None
        return host in ("api.chess.com", "www.chess.com", "chess.com")

    def bytes(self, address: str, limit: int) -> bytes:
        """The body at ``address``, at most ``limit`` bytes; ``FetchError`` saying what failed."""
        request = urllib.request.Request(address, headers={"User-Agent": USER_AGENT})
        start = time.monotonic()
        try:
            with self.opener(request, TIMEOUT, self.allowed) as response:
                length = response.headers.get("Content-Length") or ""
                if length.strip().isdigit() and int(length) > limit:
                    raise FetchError(_too_big(address, limit, int(length)))
                return _bounded(response, address, limit, start)
        except urllib.error.HTTPError as exc:
            exc.close()
            raise FetchError(_http_error(address, exc.code, str(exc.reason))) from None
        except urllib.error.URLError as exc:
            raise FetchError(_connection_error(address, exc.reason)) from None
        except TimeoutError:
            raise FetchError(_timed_out(address)) from None
        except http.client.IncompleteRead:
            raise FetchError(
                f"{address}: the connection closed before the whole file came; try again"
            ) from None
        except (http.client.HTTPException, OSError) as exc:
            raise FetchError(_connection_error(address, exc)) from None

    def json(self, address: str) -> dict[str, Any]:
        """The JSON object at ``address`` (a tournament's description)."""
        data = self.bytes(address, LIMITS["info"])
        try:
            value = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            value = None
        if not isinstance(value, dict):
            raise FetchError(
                f"{address}: the answer is not the JSON object the site's API describes "
                f"(it starts {shown(data[:60].decode('utf-8', 'replace'))}); check the "
                "address, or try again later"
            )
        return value


def _bounded(response: IO[bytes], address: str, limit: int, start: float) -> bytes:
    """At most ``limit`` bytes of the response (one more is an error), within ``DEADLINE``."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = response.read(min(CHUNK, limit + 1 - size))
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise FetchError(_too_big(address, limit, None))
        if time.monotonic() - start > DEADLINE:
            raise FetchError(
                f"{address}: the download took more than {DEADLINE:.0f} seconds and was "
                "stopped; try again later"
            )


def _too_big(address: str, limit: int, length: int | None) -> str:
    size = f"{length:,} bytes" if length is not None else f"more than {limit:,} bytes"
    return (
        f"{address}: the answer is {size}; one tournament's results are far smaller (at most "
        f"{limit:,} bytes are taken): nothing was written; check the address"
    )


def _http_error(address: str, code: int, reason: str) -> str:
    why = {
        404: "not found: check the tournament's address (open it in a browser)",
        410: "gone: the site no longer serves this tournament",
        403: "refused: the site does not let this tournament be downloaded (a private one?)",
        429: "too many requests: wait a few minutes, then try again",
    }.get(code, "the site could not answer; try again later" if code >= 500 else reason)
    return f"{address}: HTTP {code}, {why}; nothing was written"


def _connection_error(address: str, reason: object) -> str:
    if isinstance(reason, TimeoutError):
        return _timed_out(address)
    if isinstance(reason, socket.gaierror):
        why = "the site's name could not be looked up (no network, or no DNS?)"
    elif isinstance(reason, ConnectionRefusedError):
        why = "the connection was refused (no network, or the site is down?)"
    elif isinstance(reason, ssl.SSLError):
        why = f"the secure connection failed ({reason})"
    else:
        why = f"the connection failed ({reason})"
    return f"{address}: {why}; nothing was written"


def _timed_out(address: str) -> str:
    return (
        f"{address}: the site did not answer within {TIMEOUT:.0f} seconds; try again later; "
        "nothing was written"
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
    info = get.json(base + source.ident)
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

    date = _day(info.get("startsAt")) if swiss else _arena_end(info)
    rounds = _count(info.get("nbRounds")) if swiss else 0
    return _Plan("lichess", address, data, "try again later", name, date, rounds, notes)


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def _count(value: object) -> int:
    """A whole number of an API's description (0 for anything else)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _arena_end(info: dict[str, Any]) -> datetime.date | None:
    """The day an arena ended: its start plus its minutes."""
    starts, minutes = info.get("startsAt"), info.get("minutes")
    if not isinstance(starts, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(starts[:40])
    except ValueError:
        return _day(starts)
    if 0 < _count(minutes) < 10**6:
        moment += datetime.timedelta(minutes=_count(minutes))
    return moment.date()


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
    return _Plan("chesscom", address, data, hint, event if name else "", _last_game(data))


def _children(value: object, ident: str, depth: int) -> list[tuple[int, int]]:
    """The (round, group) numbers of the API addresses listed under ``rounds`` (depth 1) or
    ``groups`` (depth 2) of tournament ``ident``; addresses of other tournaments left out."""
    found: list[tuple[int, int]] = []
    for item in value if isinstance(value, list) else []:
        match = CHESSCOM_API.fullmatch(urlsplit(item).path) if isinstance(item, str) else None
        if match is None or match[1] != ident or (match[3] is None) != (depth == 1):
            continue
        found.append((int(match[2]), int(match[3] or 0)))
    return found


def _listing(address: str, what: str, found: list[tuple[int, int]], info: dict[str, Any]) -> str:
    if not found:
        return (
            f"{address}: chess.com lists no {what} of this tournament (status: "
            f"{shown(str(info.get('status', '?')))}): it has no results yet"
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


def _last_game(data: bytes) -> datetime.date | None:
    """The day the group's last game ended (the event's date, as season.toml wants it)."""
    try:
        games = json.loads(data.decode("utf-8")).get("games")
    except (UnicodeDecodeError, ValueError, AttributeError):
        return None
    ends = (
        [_count(g.get("end_time")) for g in games if isinstance(g, dict)]
        if isinstance(games, list)
        else []
    )
    ends = [end for end in ends if 0 < end <= chesscom.MAX_TIME]
    if not ends:
        return None
    return datetime.datetime.fromtimestamp(max(ends), datetime.UTC).date()


def _day(value: object) -> datetime.date | None:
    """The last ``YYYY-MM-DD`` date of a text (an ISO moment, a range), if a real one."""
    days = _DAY.findall(value) if isinstance(value, str) else []
    try:
        return datetime.date.fromisoformat(days[-1]) if days else None
    except ValueError:
        return None
