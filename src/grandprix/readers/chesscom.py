"""chess.com tournaments: one group of one round, as the Published-Data API gives it.

``https://api.chess.com/pub/tournament/{url-ID}/{round}/{group}`` is a group's results: its
``players`` (``username``, ``points``, ``tie_break``, ``is_advancing``), its ``games`` (each side
``white`` and ``black`` an object with ``username``, ``rating`` and ``result``, or, for a game
still being played, the player's API address) and ``fair_play_removals``. The tournament's own
address (``/pub/tournament/{url-ID}``) and a round's (``.../{round}``) list rounds and groups,
not games: such a file is refused with the addresses to save instead.

A group is read as a crosstable. Each player is known by the id ``chesscom:<username in lower
case>`` (chess.com's usernames are case-insensitive), named as the games spell the username,
rated as in their first game. Each game is a round of both its players, with its colours and
each side's result code: ``win`` is a win; ``agreed``, ``repetition``, ``stalemate``,
``insufficient``, ``50move`` and ``timevsinsufficient`` are draws; every other code
(``checkmated``, ``resigned``, ``timeout``, ``abandoned``, ...) is a loss. chess.com plays a
group in no rounds that its data names (a daily group's games all run at once; the PGN's
``Round`` tag is ``-``), so the rounds are the games in the order they started (then ended),
each game numbered after both its players' previous games: a player's rounds are their games in time
order, the two players of a game have it as the same round, and a round in which a player had
no game is ``ABSENT`` (not paired, no points). When every game's PGN names its round by a
number, those numbers are the rounds. The players are listed by points, then chess.com's
``tie_break``; the declared rank is that order (equal points and tie-break share a place).
Each player's games must add up to the points the group declares.

A game still being played, or against a player removed for fair play, is left out with a
warning. The file is read within bounds (``MAX_BYTES``, its size checked before it is opened;
``MAX_TOKENS``, the values its JSON would make, counted before it is parsed; ``MAX_PLAYERS``,
``MAX_GAMES``, ``MAX_ROUNDS``), each field's type checked, each problem located by its JSON
path (``players[3].points``).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import groupby
from pathlib import Path
from typing import Any, Final

from grandprix.model import (
    Location,
    Player,
    Problem,
    ResultKind,
    Round,
    Scoring,
    Section,
    Severity,
    total_points,
)
from grandprix.readers.bounds import Bound, within
from grandprix.readers.json_text import (
    exact_number,
    json_text,
    json_tokens,
    json_type,
    json_value,
    shown_json,
)
from grandprix.readers.text import excerpt
from grandprix.scores import show

K = ResultKind

MAX_BYTES: Final = 64 * 1024**2  # a live group of 1,000 players: 5,000 games, 20 MB of PGN
# Values, keys and separators of the JSON (``json_tokens``), counted before it is parsed: a
# game is about 90 (its PGN one string), a group of 5,000 games about 430,000. Parsing makes
# at most about 120 bytes of records a token (a number with a fraction is a ``Decimal``).
MAX_TOKENS: Final = 2_000_000
BOUND: Final = Bound(
    MAX_BYTES,
    "chess.com results",
    "a live group of 1,000 players and 5,000 games is about 20 MB",
    "Download the group's results again",
)
MAX_PLAYERS: Final = 10_000
MAX_GAMES: Final = 200_000
MAX_ROUNDS: Final = 1000  # rounds (games of one player), after the numbering above
MAX_CELLS: Final = 5_000_000  # players times rounds: the Round records made
MAX_POINTS: Final = 1000
MAX_TIME: Final = 253_402_300_799  # seconds since 1970: the last second of the year 9999
_USERNAME = re.compile(r"[A-Za-z0-9_-]{1,50}")
_PLAYER_URL = re.compile(r"https?://api\.chess\.com/pub/player/([A-Za-z0-9_-]{1,50})/?")
_ROUND_TAG = re.compile(r'^\[Round "(\d{1,4})"\]', re.MULTILINE)
_WIN, _DRAW, _LOSS = "win", "draw", "loss"
# chess.com's result codes, each side its own (Published-Data API, "Game results codes").
RESULT_CODES: Final = {
    "win": _WIN,
    "checkmated": _LOSS,
    "agreed": _DRAW,
    "repetition": _DRAW,
    "timeout": _LOSS,
    "resigned": _LOSS,
    "stalemate": _DRAW,
    "lose": _LOSS,
    "insufficient": _DRAW,
    "50move": _DRAW,
    "abandoned": _LOSS,
    "kingofthehill": _LOSS,
    "threecheck": _LOSS,
    "timevsinsufficient": _DRAW,
    "bughousepartnerlose": _LOSS,
}
_KIND = {_WIN: K.WIN, _DRAW: K.DRAW, _LOSS: K.LOSS}
_MIRROR = {_WIN: _LOSS, _LOSS: _WIN, _DRAW: _DRAW}


def recognise(suffix: str, head: bytes) -> bool:
    """A .json file from chess.com's API: a group's, a round's or a tournament's."""
    return suffix == ".json" and (
        b'"fair_play_removals"' in head
        or b"api.chess.com/pub/tournament/" in head
        or b"www.chess.com/tournament/" in head
    )


def read_chesscom(
    path: str | Path, data: bytes | None = None
) -> tuple[Section | None, list[Problem]]:
    """Read a chess.com tournament group's results (PubAPI JSON); the section and every
    problem found."""
    name = str(path)
    problems: list[Problem] = []
    data = within(path, data, BOUND._replace(limit=MAX_BYTES), problems)  # (as set now)
    if data is None:
        return None, problems
    tokens = json_tokens(data)
    if tokens > MAX_TOKENS:
        problems.append(
            Problem(
                Location(name),
                f"the file's JSON counts {tokens:,} values, keys and separators; at most "
                f"{MAX_TOKENS:,} of one chess.com group are read (a group of 5,000 games counts "
                "about 430,000): is this one group's results? Download the group's results "
                "again",
            )
        )
        return None, problems
    text = json_text(path, data, problems, MAX_BYTES)
    if text is None:
        return None, problems
    top = json_value(text, Location(name), problems, cut=not text.rstrip().endswith("}"))
    if problems:
        return None, problems
    where = Location(name)
    if not isinstance(top, dict):
        what = json_type(top)
        problems.append(
            Problem(where, f"the file is a JSON {what}; a chess.com group's results are an object")
        )
        return None, problems
    refused = _not_a_group(top)
    if refused:
        return None, [Problem(where, refused)]
    group = _Group(name)
    group.read(top)
    if any(p.severity is Severity.ERROR for p in group.problems):
        return None, group.problems
    return group.section(), group.problems


def _not_a_group(top: dict[str, Any]) -> str:
    """Why a file of chess.com's API is not a group's results, with what to save instead;
    '' for a group's."""
    fix = (
        "save the results of each group: https://api.chess.com/pub/tournament/{url-ID}/"
        "{round}/{group}, one file a group"
    )
    if "groups" in top:
        groups = top["groups"]
        first = groups[0] if isinstance(groups, list) and groups else None
        example = f" (the first: {excerpt(first, 100)})" if isinstance(first, str) else ""
        return (
            "this is a round of a chess.com tournament: it lists the round's groups, not "
            f"their games; {fix}: the addresses under 'groups'{example}"
        )
    if "rounds" in top or "settings" in top:
        rounds = top.get("rounds")
        first = rounds[0] if isinstance(rounds, list) and rounds else None
        example = f" (the first: {excerpt(first, 100)})" if isinstance(first, str) else ""
        return (
            "this is a chess.com tournament's overview (name, settings, rounds): it has no "
            f"games; {fix}: each round's address under 'rounds'{example} lists its groups"
        )
    if not isinstance(top.get("players"), list) or not isinstance(top.get("games"), list):
        return (
            "not a chess.com group's results: expected an object with 'players' and 'games' "
            f"lists (found: {excerpt(', '.join(map(str, top)), 80)}); {fix}"
        )
    return ""


@dataclass
class _Entrant:
    username: str  # as the group's list of players spells it
    points: Fraction
    path: str  # its JSON path: players[3]
    tie_break: Fraction | None
    advancing: bool | None
    name: str = ""  # as the games spell it
    rating: int | None = None
    games: list[_Game] = field(default_factory=list)


@dataclass
class _Game:
    path: str
    white: str  # user ids (lower case)
    black: str
    white_outcome: str
    black_outcome: str
    start: int
    end: int
    order: int
    tagged: int | None  # the PGN's Round tag, when a number
    ratings: tuple[int | None, int | None] = (None, None)  # white's and black's
    number: int = 0  # the round given to it


class _Group:
    """One group's JSON, read field by field; each problem located by its JSON path."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.problems: list[Problem] = []
        self.entrants: dict[str, _Entrant] = {}
        self.games: list[_Game] = []

    def problem(self, path: str, message: str, severity: Severity = Severity.ERROR) -> None:
        self.problems.append(Problem(Location(self.name), f"{path}: {message}", severity))

    def wrong(self, path: str, value: object, what: str) -> None:
        shown = "missing" if value is None else f"{shown_json(value)} is not {what}"
        self.problem(path, f"{shown}" + (f" (expected {what})" if value is None else ""))

    def read(self, top: dict[str, Any]) -> None:
        players, games = top["players"], top["games"]
        if len(players) > MAX_PLAYERS or len(games) > MAX_GAMES:
            self.problem(
                "players" if len(players) > MAX_PLAYERS else "games",
                f"{len(players):,} players and {len(games):,} games: a group holds at most "
                f"{MAX_PLAYERS:,} players and {MAX_GAMES:,} games here; is this one group?",
            )
            return
        removed = self._removals(top.get("fair_play_removals"))
        for i, player in enumerate(players):
            self._player(f"players[{i}]", player)
        for i, game in enumerate(games):
            self._game(f"games[{i}]", game, i, removed)

    def _removals(self, value: object) -> set[str]:
        if value is None:
            return set()
        if not isinstance(value, list) or not all(
            isinstance(u, str) and _USERNAME.fullmatch(u) for u in value
        ):
            self.wrong("fair_play_removals", value, "a list of usernames")
            return set()
        return {u.lower() for u in value}

    def _player(self, path: str, player: object) -> None:
        if not isinstance(player, dict):
            self.wrong(path, player, 'an object {"username": ..., "points": ...}')
            return
        before = len(self.problems)
        username = player.get("username")
        if not isinstance(username, str) or not _USERNAME.fullmatch(username):
            self.wrong(f"{path}.username", username, "a chess.com username")
        points = exact_number(player.get("points"), 0, MAX_POINTS)
        if points is None:
            self.wrong(f"{path}.points", player.get("points"), f"a score from 0 to {MAX_POINTS}")
        tie_break = None
        if player.get("tie_break") is not None:
            tie_break = exact_number(player["tie_break"], -(MAX_POINTS**2), MAX_POINTS**2)
            if tie_break is None:
                self.wrong(f"{path}.tie_break", player["tie_break"], "a number")
        advancing = player.get("is_advancing")
        if advancing is not None and not isinstance(advancing, bool):
            self.wrong(f"{path}.is_advancing", advancing, "true or false")
        if len(self.problems) > before or not isinstance(username, str) or points is None:
            return
        ident = username.lower()
        if ident in self.entrants:
            self.problem(
                f"{path}.username",
                f"{username!r} is listed twice (first at {self.entrants[ident].path}); "
                "download the group again",
            )
            return
        self.entrants[ident] = _Entrant(username, points, path, tie_break, advancing)

    def _side(self, path: str, side: object) -> tuple[str, str, int | None, str | None] | None:
        """A side of a game: (username, user id, rating, result code or None while the game
        is being played); None after a problem."""
        if isinstance(side, str):
            match = _PLAYER_URL.fullmatch(side)
            if match is None:
                self.wrong(path, side, "a player's address https://api.chess.com/pub/player/...")
                return None
            return match[1], match[1].lower(), None, None
        if not isinstance(side, dict):
            self.wrong(path, side, 'an object {"username": ..., "result": ...}')
            return None
        username, rating, code = side.get("username"), side.get("rating"), side.get("result")
        if not isinstance(username, str) or not _USERNAME.fullmatch(username):
            self.wrong(f"{path}.username", username, "a chess.com username")
            return None
        if rating is not None and (type(rating) is not int or not 0 <= rating <= 9999):
            self.wrong(f"{path}.rating", rating, "a rating from 0 to 9999")
            return None
        if code is not None and code not in RESULT_CODES:
            self.wrong(
                f"{path}.result",
                code,
                f"a chess.com result code (one of {', '.join(RESULT_CODES)})",
            )
            return None
        return username, username.lower(), rating or None, code

    def _game(self, path: str, game: object, order: int, removed: set[str]) -> None:
        if not isinstance(game, dict):
            self.wrong(path, game, 'an object {"white": ..., "black": ...}')
            return
        white = self._side(f"{path}.white", game.get("white"))
        black = self._side(f"{path}.black", game.get("black"))
        start, end = game.get("start_time", 0), game.get("end_time", 0)
        for key, value in (("start_time", start), ("end_time", end)):
            if type(value) is not int or not 0 <= value <= MAX_TIME:
                self.wrong(f"{path}.{key}", value, "a time in seconds since 1970")
                return
        pgn = game.get("pgn", "")
        if not isinstance(pgn, str):
            self.wrong(f"{path}.pgn", pgn, "the game's PGN text")
            return
        if white is None or black is None:
            return
        if white[1] == black[1]:
            self.problem(path, f"{white[0]!r} plays both white and black; download it again")
            return
        if white[3] is None or black[3] is None:
            self.problem(
                path,
                f"the game {white[0]} - {black[0]} has no result yet (being played): left out; "
                "read the group again when its games are finished",
                Severity.WARNING,
            )
            return
        outcomes = RESULT_CODES[white[3]], RESULT_CODES[black[3]]
        if outcomes[1] != _MIRROR[outcomes[0]]:
            self.problem(
                path,
                f"the results do not match: white {white[0]} has '{white[3]}' ({outcomes[0]}) and "
                f"black {black[0]} '{black[3]}' ({outcomes[1]}); download the group again",
            )
            return
        gone = [side[0] for side in (white, black) if side[1] in removed]
        if gone:
            self.problem(
                path,
                f"{gone[0]} was removed for fair play (fair_play_removals): the game "
                f"{white[0]} - {black[0]} is left out",
                Severity.WARNING,
            )
            return
        for side, colour in ((white, "white"), (black, "black")):
            entrant = self.entrants.get(side[1])
            if entrant is None:
                self.problem(
                    f"{path}.{colour}.username",
                    f"{side[0]!r} is not one of the group's players (none of the usernames "
                    "under 'players'); download the group again",
                )
                return
        tag = _ROUND_TAG.search(pgn)
        number = int(tag[1]) if tag else None
        ratings = white[2], black[2]
        self.games.append(
            _Game(path, white[1], black[1], *outcomes, start, end, order, number, ratings)
        )
        for side in (white, black):
            entrant = self.entrants[side[1]]
            entrant.name = entrant.name or side[0]

    def _number_rounds(self) -> int:
        """Each game's round (``_Game.number``), and the number of rounds: the PGN's Round
        tags when every game has one and no player has two games in one round; else the games
        in the order they started, each after both its players' previous games."""
        tagged = {
            (g.tagged, player) for g in self.games if g.tagged for player in (g.white, g.black)
        }
        if self.games and len(tagged) == 2 * len(self.games):
            for game in self.games:
                game.number = game.tagged or 0
        else:
            last: dict[str, int] = {}
            for game in sorted(self.games, key=_started):
                game.number = max(last.get(game.white, 0), last.get(game.black, 0)) + 1
                last[game.white] = last[game.black] = game.number
        return max((g.number for g in self.games), default=0)

    def section(self) -> Section | None:
        """The group as a section (None, with a problem, past the bounds)."""
        rounds = self._number_rounds()
        if rounds > MAX_ROUNDS or rounds * len(self.entrants) > MAX_CELLS:
            self.problem(
                "games",
                f"the games need {rounds:,} rounds for {len(self.entrants):,} players; at most "
                f"{MAX_ROUNDS:,} rounds and {MAX_CELLS:,} player-rounds are read",
            )
            return None
        for game in sorted(self.games, key=_started):
            for ident, rating in zip((game.white, game.black), game.ratings, strict=True):
                entrant = self.entrants[ident]
                if not entrant.games:
                    entrant.rating = rating  # as rated in their first game
                entrant.games.append(game)
        entrants = sorted(self.entrants.values(), key=lambda e: (-e.points, _lowest(e.tie_break)))
        start_no = {e.username.lower(): n for n, e in enumerate(entrants, start=1)}
        ranks = _ranks(entrants)
        players = []
        for entrant, rank in zip(entrants, ranks, strict=True):
            played = _rounds(entrant, start_no, rounds)
            total = total_points(r.points for r in played)
            if total != entrant.points:
                self.problem(
                    f"{entrant.path}.points",
                    f"{entrant.username} has {show(entrant.points)} points but their games in "
                    f"this file give {show(total)}; download the group again (a game left out "
                    "above, or one still being played, explains it)",
                )
            players.append(
                Player(
                    start_no=start_no[entrant.username.lower()],
                    name=entrant.name or entrant.username,
                    rounds=played,
                    rating=entrant.rating,
                    fide_id=f"chesscom:{entrant.username.lower()}",
                    declared_points=entrant.points,
                    declared_rank=rank,
                    extra=(
                        ("tie_break", show(entrant.tie_break)),
                        ("advancing", {True: "yes", False: "no", None: ""}[entrant.advancing]),
                    ),
                    location=Location(self.name),
                )
            )
        if any(p.severity is Severity.ERROR for p in self.problems):
            return None
        first = min((g.start for g in self.games if g.start), default=0)
        return Section(
            name=Path(self.name).stem,
            players=tuple(players),
            rounds=rounds,
            scoring=Scoring(),
            round_robin=_all_met(players),
            has_crosstable=True,
            date=_day(first),
            source=self.name,
        )


def _started(game: _Game) -> tuple[int, int, int]:
    """The order games are numbered in: by start, then end (a daily group's games all start
    at once), then as the file lists them."""
    return game.start, game.end, game.order


def _lowest(value: Fraction | None) -> Fraction:
    """A tie-break as a key that sorts the highest first, no value last."""
    return -value if value is not None else Fraction(MAX_POINTS**3)


def _ranks(entrants: list[_Entrant]) -> list[str]:
    """Each player's place in the list's order, shared ('2-3') by equal points and tie-break."""
    ranks: list[str] = []
    for _, same in groupby(entrants, key=lambda e: (e.points, e.tie_break)):
        size = len(list(same))
        first = len(ranks) + 1
        ranks += [str(first) if size == 1 else f"{first}-{first + size - 1}"] * size
    return ranks


def _rounds(entrant: _Entrant, start_no: dict[str, int], rounds: int) -> tuple[Round, ...]:
    """A player's rounds: a game in each round they played, ABSENT in the others."""
    scoring = Scoring()
    by_round = {g.number: g for g in entrant.games}
    ident = entrant.username.lower()
    played = []
    for number in range(1, rounds + 1):
        game = by_round.get(number)
        if game is None:
            played.append(Round(number, K.ABSENT, scoring.points(K.ABSENT)))
            continue
        white = game.white == ident
        kind = _KIND[game.white_outcome if white else game.black_outcome]
        played.append(
            Round(
                number,
                kind,
                scoring.points(kind),
                opponent=start_no[game.black if white else game.white],
                colour="w" if white else "b",
            )
        )
    return tuple(played)


def _all_met(players: list[Player]) -> bool:
    """Every player met every other: a round robin (chess.com's daily groups are)."""
    if len(players) < 3:
        return False
    everyone = {p.start_no for p in players}
    return all(
        {r.opponent for r in p.rounds if r.opponent is not None} == everyone - {p.start_no}
        for p in players
    )


def _day(seconds: int) -> str:
    """The UTC date of a time in seconds since 1970, '' for none."""
    if not seconds:
        return ""
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).date().isoformat()
