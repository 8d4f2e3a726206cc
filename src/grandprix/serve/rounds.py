"""The event day in the workspace (``/s/{season}/workspace/rounds/...``): an event being played
(``in_progress = true`` in season.toml), section by section: pair the next round, print the
pairings and the pairing cards, enter results board by board, correct a result, give byes and
withdraw players.

Each change reads the section's TRF afresh under the folder's lock, makes the change on it
(``pairing.state``), and writes it as every change of the workspace is written (``journal``:
its intent first, then the file whole, then its audit entry), so that two directors entering
results at once lose none: a form says what its page showed (the round to pair, the result a
board had), and a change made on a page that no longer shows the truth is refused with what
the board holds now beside what was sent, never written over it.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from grandprix.errors import GrandprixError, InputError, UsageError
from grandprix.model import ResultKind
from grandprix.pairing.engine import DEFAULT_SYSTEM, SYSTEMS, engine_version, pair_next
from grandprix.pairing.records import BYE_KINDS
from grandprix.pairing.state import (
    RESULTS,
    Pairing,
    Tournament,
    announce_bye,
    enter_result,
    normal_result,
    read_tournament,
    round_pairing,
    tournament_text,
    undo_pairing,
    withdraw,
)
from grandprix.placings import Placings, place
from grandprix.serve import changes, journal, workspace
from grandprix.serve.accounts import DIRECTOR, allow, user_of
from grandprix.serve.common import (
    current,
    own_events,
    render_season,
    season_form,
    season_page,
    without_paths,
)
from grandprix.serve.seasons import SeasonSource
from grandprix.serve.security import error_page
from grandprix.serve.store import Store
from grandprix.tiebreaks import Rules, parse

K = ResultKind
_BYES = {"half": "H", "zero": "Z", "full": "F"}
KIND_WORDS = {
    K.PAIRING_BYE: "pairing-allocated bye",
    K.HALF_BYE: "half-point bye",
    K.FULL_BYE: "full-point bye",
    K.ZERO_BYE: "zero-point bye",
    K.ABSENT: "absent",
}


def routes() -> list[BaseRoute]:
    base = "/s/{season}/workspace/rounds"
    one = base + "/{event:int}/{section:int}"
    director = allow(DIRECTOR)
    return [
        Route(base, director(days_page)),
        Route(one, director(day_page)),
        Route(f"{one}/print", director(print_page)),
        Route(f"{one}/cards", director(cards_page)),
        Route(f"{one}/pair", director(pair_round), methods=["POST"]),
        Route(f"{one}/result", director(enter), methods=["POST"]),
        Route(f"{one}/undo", director(undo), methods=["POST"]),
        Route(f"{one}/bye", director(bye), methods=["POST"]),
        Route(f"{one}/withdraw", director(leave), methods=["POST"]),
    ]


@dataclass(frozen=True)
class Day:
    """One section of an event being played, as the season folder names it."""

    event: str
    section: str
    file: str  # its TRF, relative to the season folder
    event_index: int
    section_index: int

    @property
    def title(self) -> str:
        return f"{self.event} · {self.section}" if self.section else self.event

    @property
    def href(self) -> str:
        return f"rounds/{self.event_index}/{self.section_index}"


def days(folder: Path) -> list[Day]:
    """Every section of every event being played, in season.toml's order."""
    return [
        Day(event, section, file, i, j)
        for i, (event, files) in enumerate(changes.in_progress(folder))
        for j, (section, file) in enumerate(files)
    ]


async def _mine(request: Request, key: str, source: SeasonSource) -> list[Day]:
    """The sections this user may run: a director's own events', every one for others."""
    own = await own_events(request, key)
    found = await run_in_threadpool(days, source.folder)
    return [d for d in found if own is None or d.event in own]


async def _day(request: Request, key: str, source: SeasonSource) -> Day | Response:
    """The section of the path, or the page saying why not."""
    event, section = request.path_params["event"], request.path_params["section"]
    for found in await _mine(request, key, source):
        if (found.event_index, found.section_index) == (event, section):
            return found
    return error_page(
        404,
        "No such section",
        "This section is not one of an event being played that you run: see the list of "
        f"events in progress at /s/{key}/workspace/rounds.",
    )


# Pages


@season_page
async def days_page(request: Request, key: str, source: SeasonSource) -> Response:
    found = await _mine(request, key, source)
    return render_season(request, "rounds.html", key, "Run an event's rounds", days=found)


@dataclass(frozen=True)
class Shown:
    """What the section's page shows: the tournament as it stands, the round on show, the
    standings after the last round with results, and the message of the last change."""

    tournament: Tournament
    pairing: Pairing | None
    standings: Placings | None
    provisional: bool


def _shown(tournament: Tournament, codes: str, rules: Rules) -> Shown:
    current = tournament.current
    number = tournament.finished_rounds + (1 if current is not None else 0)
    pairing = current
    if pairing is None and tournament.finished_rounds:
        pairing = round_pairing(tournament.section, tournament.plan, tournament.finished_rounds)
    standings = None
    if number:
        standings = place(tournament.after(number), parse(codes, rules) if codes else [], rules)
    provisional = current is not None and not current.finished
    return Shown(tournament, pairing, standings, provisional)


async def _state(
    request: Request, key: str, source: SeasonSource, day: Day
) -> tuple[Shown, str, Rules] | Response:
    """The section read from its file now, and its tie-breaks (the event's own, else those
    of its category in the season's rules)."""
    loaded = await current(source)
    codes, book = "", Rules.FIDE_2026.value
    season = loaded.views.season if loaded.views is not None else None
    if season is not None:
        event = next((e for e in season.events if e.name == day.event), None)
        if event is not None:
            points = season.rules.points.for_category(event.category)
            codes = event.tiebreaks if event.tiebreaks is not None else points.tiebreaks
            book = event.tiebreak_rules or points.tiebreak_rules
    rules = Rules(book)
    try:
        tournament = await run_in_threadpool(read_tournament, source.folder / day.file)
    except (InputError, OSError) as exc:
        problems = exc.problems if isinstance(exc, InputError) else (str(exc),)
        return error_page(
            422,
            "The section's file cannot be read",
            f"{day.file}: " + "; ".join(str(p) for p in problems[:5]),
        )
    return _shown(tournament, codes, rules), codes, rules


async def _day_response(
    request: Request,
    key: str,
    source: SeasonSource,
    day: Day,
    message: str = "",
    status: int = 200,
) -> Response:
    state = await _state(request, key, source, day)
    if isinstance(state, Response):
        return state
    shown, codes, rules = state
    t = shown.tournament
    players = {p.start_no: p for p in t.with_results().players}
    return render_season(
        request,
        "day.html",
        key,
        day.title,
        day=day,
        shown=shown,
        t=t,
        players=players,
        points=_points(t),
        results=list(RESULTS),
        kinds=KIND_WORDS,
        codes=codes,
        book=rules.value,
        system=SYSTEMS[DEFAULT_SYSTEM],
        engine=engine_version(),
        message=message,
        status=status,
        can_pair=_can_pair(t),
        can_undo=t.current is not None and not any(b.result for b in t.current.boards),
    )


def _can_pair(t: Tournament) -> bool:
    return (t.current is None or t.current.finished) and t.next_round <= t.plan.rounds


def _points(t: Tournament) -> dict[int, dict[int, str]]:
    """Each round's scores before it: round -> start number -> points."""
    from grandprix.scores import show

    section = t.with_results()
    out: dict[int, dict[int, str]] = {}
    for number in range(1, t.plan.rounds + 1):
        out[number] = {
            p.start_no: show(sum((r.points for r in p.rounds if r.number < number), start=0))
            for p in section.players
        }
    return out


@season_page
async def day_page(request: Request, key: str, source: SeasonSource) -> Response:
    day = await _day(request, key, source)
    if isinstance(day, Response):
        return day
    done = request.query_params.get("done", "")
    return await _day_response(request, key, source, day, _DONE.get(done, ""))


_DONE = {
    "paired": "The round is paired: print the pairings and the cards.",
    "result": "The result is in.",
    "undone": "The pairing is undone.",
    "bye": "The bye is noted for the round.",
    "withdrawn": "The player is withdrawn: never paired again.",
}


async def _paper(request: Request, key: str, source: SeasonSource, template: str) -> Response:
    day = await _day(request, key, source)
    if isinstance(day, Response):
        return day
    state = await _state(request, key, source, day)
    if isinstance(state, Response):
        return state
    shown, _, _ = state
    if shown.pairing is None:
        return error_page(404, "No pairing yet", "No round of this section is paired yet.")
    t = shown.tournament
    return render_season(
        request,
        template,
        key,
        f"{day.title}: round {shown.pairing.number}",
        day=day,
        pairing=shown.pairing,
        players={p.start_no: p for p in t.with_results().players},
        points=_points(t)[shown.pairing.number],
        kinds=KIND_WORDS,
    )


@season_page
async def print_page(request: Request, key: str, source: SeasonSource) -> Response:
    """The round's pairings on paper: board, names, ratings, scores, colours."""
    return await _paper(request, key, source, "pairings.html")


@season_page
async def cards_page(request: Request, key: str, source: SeasonSource) -> Response:
    """A pairing card per board, for the players to fill in and sign."""
    return await _paper(request, key, source, "cards.html")


# Changes


class Conflict(UsageError):
    """The page the form was sent from no longer shows the section as it is."""


def change_day(
    folder: Path,
    day: Day,
    change: Callable[[Tournament], Tournament],
    entry: journal.Entry | None,
    store: Store | None,
) -> Tournament:
    """``change`` made on the section's tournament as its file is now, under the folder's
    lock, and written as ``journal`` writes a change (its audit entry in the same change)."""
    folder = folder.resolve()
    with workspace.locked(folder):
        workspace.recover(folder, store)
        tournament = read_tournament(folder / day.file)
        changed = change(tournament)
        data = tournament_text(changed).encode("utf-8")
        replaced = journal.replaced_bytes(folder, [day.file])
        intent = journal.Intent(os.urandom(16).hex(), {day.file: data}, replaced, entry)
        workspace.carry_out(folder, intent, store)
    return changed


async def _change(
    request: Request,
    key: str,
    source: SeasonSource,
    change: Callable[[Tournament], Tournament],
    what: str,
    done: str,
) -> Response:
    day = await _day(request, key, source)
    if isinstance(day, Response):
        return day
    store = request.app.state.store
    user = user_of(request)
    audit = None
    if store is not None and user is not None:
        audit = journal.Entry(key, user.name, "round", f"{day.title}: {what}")
    try:
        await run_in_threadpool(change_day, source.folder, day, change, audit, store)
    except Conflict as exc:
        return await _day_response(
            request, key, source, day, without_paths(source.folder, str(exc)), 409
        )
    except (GrandprixError, OSError) as exc:
        return await _day_response(
            request, key, source, day, without_paths(source.folder, str(exc)), 400
        )
    await run_in_threadpool(source.refresh)  # the public pages show it at once
    href = f"/s/{key}/workspace/{day.href}?done={done}"
    return RedirectResponse(href, status_code=303)


def _number(form: FormData, name: str) -> int:
    text = str(form.get(name, "")).strip()
    if not text.isdecimal() or not 0 < int(text) <= 9999:
        raise UsageError(f"'{name}' must be a whole number, not {text[:20]!r}")
    return int(text)


@season_form
async def pair_round(request: Request, form: FormData, key: str, source: SeasonSource) -> Response:
    """Pair the next round: the form says which round its page offered to pair."""
    try:
        asked = _number(form, "round")
    except UsageError as exc:
        return error_page(400, "Not paired", without_paths(source.folder, str(exc)))
    colour = str(form.get("colour", ""))

    def change(t: Tournament) -> Tournament:
        if t.next_round != asked or not _can_pair(t):
            raise Conflict(
                f"round {asked} cannot be paired now: it is paired already (by another "
                "director?), or a round before it has results missing; nothing was changed: "
                "look at the pairings below"
            )
        drawn = colour if colour in ("w", "b") else secrets.choice("wb")
        paired, _ = pair_next(t, lambda: drawn)
        return paired

    return await _change(request, key, source, change, f"round {asked} paired", "paired")


@season_form
async def enter(request: Request, form: FormData, key: str, source: SeasonSource) -> Response:
    """A board's result: the form says the round, the board, the result it showed (``was``)
    and the result entered; a board whose result changed meanwhile is refused, both shown."""
    try:
        number, board = _number(form, "round"), _number(form, "board")
    except UsageError as exc:
        return error_page(400, "Not entered", without_paths(source.folder, str(exc)))
    was = str(form.get("was", "")).strip()
    sent = str(form.get("result", "")).strip()
    result = normal_result(sent)
    if result is None:
        return error_page(400, "Not entered", f"{sent[:20]!r} is not a result")

    def change(t: Tournament) -> Tournament:
        if t.current is not None and t.current.number == number:
            found = next((b for b in t.current.boards if b.number == board), None)
        elif number <= t.finished_rounds:
            found = next(
                (b for b in round_pairing(t.section, t.plan, number).boards if b.number == board),
                None,
            )
        else:
            found = None
        if found is None:
            raise Conflict(f"round {number} has no board {board} now: nothing was changed")
        if found.result == result:
            return t
        if found.result != was:
            raise Conflict(
                f"board {board} of round {number} was given {found.result or 'no result'} "
                f"meanwhile (by another director?), and you sent {result}: nothing was changed. "
                "If yours is right, enter it again on the board as it is now."
            )
        return enter_result(t, board, result, number)

    return await _change(
        request, key, source, change, f"round {number}, board {board}: {result}", "result"
    )


@season_form
async def undo(request: Request, form: FormData, key: str, source: SeasonSource) -> Response:
    try:
        number = _number(form, "round")
    except UsageError as exc:
        return error_page(400, "Not undone", without_paths(source.folder, str(exc)))

    def change(t: Tournament) -> Tournament:
        if t.current is None or t.current.number != number:
            raise Conflict(f"round {number} is not the round being played: nothing was undone")
        return undo_pairing(t)

    return await _change(
        request, key, source, change, f"pairing of round {number} undone", "undone"
    )


@season_form
async def bye(request: Request, form: FormData, key: str, source: SeasonSource) -> Response:
    kind = str(form.get("kind", ""))
    try:
        number = _number(form, "round")
        start_no = _number(form, "player")
    except UsageError as exc:
        return error_page(400, "Not noted", without_paths(source.folder, str(exc)))
    chosen = K.ABSENT if kind == "none" else BYE_KINDS.get(_BYES.get(kind, ""))
    if chosen is None:
        return error_page(400, "Not noted", f"{kind[:20]!r} is not a kind of bye")

    def change(t: Tournament) -> Tournament:
        return announce_bye(t, start_no, number, chosen)

    said = "no bye" if chosen is K.ABSENT else KIND_WORDS[chosen]
    return await _change(
        request, key, source, change, f"player {start_no}: {said} in round {number}", "bye"
    )


@season_form
async def leave(request: Request, form: FormData, key: str, source: SeasonSource) -> Response:
    try:
        start_no = _number(form, "player")
    except UsageError as exc:
        return error_page(400, "Not withdrawn", without_paths(source.folder, str(exc)))

    def change(t: Tournament) -> Tournament:
        return withdraw(t, start_no)

    return await _change(request, key, source, change, f"player {start_no} withdrawn", "withdrawn")
