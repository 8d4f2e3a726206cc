"""What the server's endpoints share (``app.py``, the workspace's ``forms.py`` and the
coordinator's ``review.py``): the season a request's path names and its snapshot, the server's
own pages rendered from ``serve/templates``, the wrappers of a season's workspace pages and
forms, and the previewed changes waiting to be accepted.

A previewed change waits on the server under a random token until it is accepted (or until
``PENDING_LIMIT`` newer ones push it out): the upload is not sent twice.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import os
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response

from grandprix.errors import GrandprixError
from grandprix.scores import show
from grandprix.serve import changes
from grandprix.serve.accounts import user_of
from grandprix.serve.changes import Change
from grandprix.serve.seasons import Loaded, SeasonSource
from grandprix.serve.security import csrf_field, csrf_protected, error_page
from grandprix.serve.store import StoreError, Submission
from grandprix.serve.workspace import Preview, Previews
from grandprix.site.fast_html import visible

TEMPLATES = Path(__file__).parent / "templates"
PENDING_LIMIT = 100  # previewed changes waiting on the server, for everyone
PENDING_PER_USER = 20  # of them one user's: one user's previews never push out the others'


@dataclass(frozen=True)
class Served:
    """What the application serves, kept in ``app.state.served``."""

    seasons: dict[str, SeasonSource]
    root: str  # what the list of seasons says they are


# The season of a request


def source_of(request: Request) -> SeasonSource | None:
    """The season of the path's ``{season}``; None when the server has no such season."""
    served: Served = request.app.state.served
    return served.seasons.get(request.path_params.get("season", ""))


def no_season(request: Request) -> HTMLResponse:
    key = request.path_params.get("season", "")
    return error_page(404, "No such season", f"This server has no season called {key!r}.")


async def current(source: SeasonSource) -> Loaded:
    """The season's snapshot being served (read in a worker thread the first time)."""
    if source.served is not None:
        return source.current()  # at once: another thread reads the folder when it changed
    return await run_in_threadpool(source.current)


# The server's own pages


@functools.cache
def environment() -> Environment:
    """The templates of the server's own pages, autoescaping everything."""
    made = Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    made.filters["show"] = show  # an exact score or tie-break value as a plain decimal
    return made


def render(request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
    """A page of the server (``serve/templates``), with ``csrf_field`` for its forms."""
    field = csrf_field(request, request.app.state.csrf)
    if values.get("season") and not values.get("season_name"):
        source = source_of(request)
        values["season_name"] = source.name if source is not None else ""
    values.setdefault("user", user_of(request) if request.app.state.accounts else None)
    html = environment().get_template(template).render(csrf_field=field, **values)
    return HTMLResponse(visible(html), status_code=status)


def render_season(request: Request, template: str, key: str, title: str, **values: Any) -> Response:
    """A page of the workspace of the season ``key`` (``status`` among ``values``)."""
    status = values.pop("status", 200)
    return render(request, template, status=status, title=title, season=key, **values)


# A season's workspace pages and forms

SeasonPage = Callable[[Request, str, SeasonSource], Awaitable[Response]]
SeasonForm = Callable[[Request, FormData, str, SeasonSource], Awaitable[Response]]


def season_page(handler: SeasonPage) -> Callable[[Request], Awaitable[Response]]:
    """A page of one season's workspace: the handler gets the season's key and source (an
    unknown season is a 404 page)."""

    @functools.wraps(handler)
    async def endpoint(request: Request) -> Response:
        source = source_of(request)
        if source is None:
            return no_season(request)
        try:
            return await handler(request, request.path_params["season"], source)
        except GrandprixError as exc:  # season.toml unreadable, say: the page says so
            return unusable(source, exc)

    return endpoint


def unusable(source: SeasonSource, exc: GrandprixError) -> HTMLResponse:
    """The page of a form the season's files do not let work now (a syntax error in
    season.toml), or that the server's database could not record, saying why by the folder's
    own names: no path of the server's."""
    if isinstance(exc, StoreError):
        return error_page(
            503,
            "The server cannot record changes now",
            f"{without_paths(source.folder, str(exc))}. Nothing of this form was recorded: send it "
            "again later.",
        )
    return error_page(
        409,
        "The season's files need a correction first",
        f"{without_paths(source.folder, str(exc))}. The season's coordinator corrects it in the "
        "season folder; then open this page again.",
    )


def without_paths(folder: Path, message: str) -> str:
    """``message`` with the season folder's own paths said from inside it (``season.toml``,
    not the server's ``/srv/.../season.toml``)."""
    for said in {str(folder.resolve()), str(folder.absolute()), str(folder)}:
        message = message.replace(said + os.sep, "")
    return message


def season_form(handler: SeasonForm) -> Callable[[Request], Awaitable[Response]]:
    """A form of one season's workspace, CSRF-checked (``csrf_protected``)."""

    async def checked(request: Request, form: FormData) -> Response:
        source = source_of(request)
        if source is None:
            return no_season(request)
        try:
            return await handler(request, form, request.path_params["season"], source)
        except GrandprixError as exc:
            return unusable(source, exc)

    return csrf_protected(functools.wraps(handler)(checked))


async def own_events(request: Request, key: str) -> set[str] | None:
    """The events this user may upload results of: a director's, None (any) for others."""
    user = user_of(request)
    if user is None or user.role != "director":
        return None
    store = request.app.state.store
    return set(await run_in_threadpool(store.events_of, user, key))


def kept(request: Request, source: SeasonSource) -> Previews:
    """What the previews of the season's folder keep (its events' awards shared with the
    season's snapshots)."""
    previews: dict[str, Previews] = request.app.state.previews
    return previews.setdefault(str(source.folder), Previews(source))


def waits_for_approval(request: Request, source: SeasonSource) -> bool:
    """Whether this user's upload waits for a coordinator (the season's ``approval``)."""
    user = user_of(request)
    return user is not None and user.role == "director" and changes.needs_approval(source.folder)


# Previewed changes


@dataclass(frozen=True)
class Upload:
    """A director's or coordinator's upload of results, as the form gave it: enough to make
    its change again on the folder as it is when a coordinator approves it."""

    kind: str  # "event" (a new event) or "results" (corrected results)
    event: str
    fields: dict[str, str]  # date, category, prize_fund, weight, place, section, filename
    data: bytes

    def change(self, folder: Path) -> Change:
        f = self.fields
        if self.kind == "event":
            return changes.event_change(
                folder,
                self.event,
                datetime.date.fromisoformat(f["date"]),
                f["filename"],
                self.data,
                category=f.get("category", ""),
                prize_fund=f.get("prize_fund", ""),
                weight=f.get("weight", ""),
                place=f.get("place", ""),
            )
        return changes.results_change(
            folder, self.event, f["filename"], self.data, section=f.get("section", "")
        )


@dataclass(frozen=True)
class Pending:
    """A previewed change waiting to be accepted by the user who made it. An upload keeps
    what the form said (``upload``), so that a director's can wait for approval."""

    season: str
    change: Change
    version: str
    user: str
    action: str  # for the audit trail: event, results, rules, names
    upload: Upload | None = None
    submission: int | None = None  # the director's upload this approves
    made_at: float = dataclasses.field(default_factory=time.monotonic)
    preview: Preview | None = None  # what the change did, on the folder at ``version``


def pending_changes(request: Request) -> OrderedDict[str, Pending]:
    """The previewed changes waiting on this server, by token, the oldest first."""
    state = request.app.state
    if not hasattr(state, "pending"):
        state.pending = OrderedDict()
    pending: OrderedDict[str, Pending] = state.pending
    return pending


def preview_page(
    request: Request,
    key: str,
    seen: Preview,
    back: str,
    upload: Upload | None = None,
    submission: Submission | None = None,
) -> Response:
    """The preview of a change, and the form accepting it when it has no errors (for a
    director whose uploads need approval: sending it for approval)."""
    token = ""
    user = user_of(request)
    assert user is not None
    if seen.ok:
        pending = pending_changes(request)
        token = os.urandom(16).hex()
        action = back if submission is None else "approve"
        pending[token] = Pending(
            key,
            seen.change,
            seen.version,
            user.name,
            action,
            upload,
            submission.id if submission else None,
            preview=seen,
        )
        mine = [t for t, p in pending.items() if p.user == user.name]
        for old in mine[:-PENDING_PER_USER]:  # this user's oldest go first
            del pending[old]
        while len(pending) > PENDING_LIMIT:
            pending.popitem(last=False)
    source = source_of(request)
    waits = upload is not None and source is not None and waits_for_approval(request, source)
    return render_season(
        request,
        "preview.html",
        key,
        "What this change does",
        preview=seen,
        token=token,
        back=back,
        status=200 if seen.ok else 422,
        waits=waits,
        submission=submission,
    )
