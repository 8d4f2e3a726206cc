"""The tournament an address names (``source_of``): the three sites ``fetch`` knows, each by
the addresses a browser or the site's API shows; the errors of a download."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final
from urllib.parse import urlsplit

from grandprix.errors import UsageError
from grandprix.model import Problem

SITES: Final = (
    "chess-results.com tournaments (https://chess-results.com/tnr123456.aspx), lichess Swiss "
    "and arena tournaments (https://lichess.org/swiss/ID, https://lichess.org/tournament/ID) "
    "and chess.com tournament groups (https://api.chess.com/pub/tournament/ID/ROUND/GROUP)"
)


CHESS_RESULTS_HOST = re.compile(r"(?:(?:www|s\d{1,2})\.)?chess-results\.com")


_CHESS_RESULTS_PATH = re.compile(r"/tnr(\d{1,9})\.aspx", re.IGNORECASE)


_SNODE = re.compile(r"(?:^|&)snode=(S\d{1,3})(?:&|$)", re.IGNORECASE)


LICHESS_HOST = re.compile(r"(?:www\.)?lichess\.org")


_LICHESS_PATH = re.compile(r"(?:/api)?/(swiss|tournament)/([A-Za-z0-9]{4,16})(?:/results)?/?")


CHESSCOM_API = re.compile(r"/pub/tournament/([A-Za-z0-9_-]{1,200})(?:/(\d{1,4})(?:/(\d{1,4}))?)?/?")


_CHESSCOM_PAGE = re.compile(r"/tournament/(?:live/)?([A-Za-z0-9_-]{1,200})/?")


class FetchError(UsageError):
    """A download that could not be made, or kept; nothing was written."""


class Unreadable(FetchError):
    """A download that does not read as its format; its located problems say why."""

    def __init__(self, message: str, problems: list[Problem]) -> None:
        super().__init__(message)
        self.problems = problems


@dataclass(frozen=True)
class Source:
    """A tournament on a site, as its address names it."""

    site: str  # "chess-results", "lichess", "chess.com"
    kind: str  # chess-results: "crosstable"; lichess: "swiss", "arena"; chess.com: "group", ...
    ident: str  # the tournament's number or id (chess.com: its url-ID)
    host: str = ""  # chess-results: the server named
    node: str = ""  # chess-results: the SNode parameter, when given
    round: int | None = None  # chess.com
    group: int | None = None


def source_of(url: str) -> Source:
    """The tournament an address names; ``FetchError`` naming the known sites otherwise."""
    text = url.strip()
    parts = urlsplit(text if "://" in text else f"https://{text}")
    host = (parts.hostname or "").lower()
    path = parts.path
    if parts.scheme.lower() not in ("http", "https") or not host:
        raise FetchError(f"{shown(url)} is not a web address; grandprix fetch knows {SITES}")
    if CHESS_RESULTS_HOST.fullmatch(host):
        found = _CHESS_RESULTS_PATH.fullmatch(path)
        if found is None:
            raise FetchError(
                f"{shown(url)}: give a chess-results tournament's address, "
                "https://chess-results.com/tnrNNNNNN.aspx (its number after 'tnr')"
            )
        node = _SNODE.search(parts.query)
        return Source(
            "chess-results", "crosstable", str(int(found[1])), host, node[1].upper() if node else ""
        )
    if LICHESS_HOST.fullmatch(host):
        found = _LICHESS_PATH.fullmatch(path)
        if found is None:
            raise FetchError(
                f"{shown(url)}: give a lichess tournament's address, "
                "https://lichess.org/swiss/ID (a Swiss) or https://lichess.org/tournament/ID "
                "(an arena)"
            )
        return Source("lichess", "swiss" if found[1] == "swiss" else "arena", found[2])
    if host == "api.chess.com" or host in ("chess.com", "www.chess.com"):
        api = CHESSCOM_API.fullmatch(path) if host == "api.chess.com" else None
        page = _CHESSCOM_PAGE.fullmatch(path) if host != "api.chess.com" else None
        if api is not None:
            round_, group = (int(n) if n else None for n in (api[2], api[3]))
            kind = "group" if group is not None else "round" if round_ is not None else "tournament"
            return Source("chess.com", kind, api[1], round=round_, group=group)
        if page is not None and page[1] not in ("live", "arena"):
            return Source("chess.com", "tournament", page[1])
        raise FetchError(
            f"{shown(url)}: chess.com's results are what its Published-Data API serves: give "
            "a tournament group's address, https://api.chess.com/pub/tournament/ID/ROUND/GROUP "
            "(ID as in the tournament's page, https://www.chess.com/tournament/live/ID; arenas "
            "are not served)"
        )
    raise FetchError(
        f"{shown(url)}: grandprix fetch knows {SITES}; for another site, download the "
        "results file yourself, put it in the season folder and list it in season.toml"
    )


def shown(text: str) -> str:
    """A text from an address or a site, cut to a length a message can show."""
    return repr(text[:100] + ("..." if len(text) > 100 else ""))
