"""The web application of ``grandprix serve``: the season's pages, rendered on request from its
folder exactly as the static site writes them, and the workspace.

Routes:

- ``GET /``: the list of seasons (a redirect to the season when there is only one);
- ``GET /s/{season}/`` and every path of the static site under it (``index.html``,
  ``players/NAME.html``, ``events/NNN-NAME.html``, ``events/after-NNN.html``, ``rules.html``,
  ..., ``style.css``, ``search.js``, ``players.js``, the CSV, JSON and XLSX exports), each made
  from ``SiteViews`` by the static writer's ``Renderer``; a season whose files have errors
  shows them, located, on every page;
- ``GET /s/{season}/workspace``: what the workspace offers, and the reload form;
- ``POST /s/{season}/reload``: read the folder again, then back to the workspace;
- the workspace's own routes (``serve/forms.py``) and the coordinator's review
  (``serve/review.py``).

Every POST endpoint is wrapped by ``security.csrf_protected``; ``create_app`` refuses a POST
route that is not. A form's template writes ``{{ csrf_field }}`` (given by ``render``).

The workspace's pages (``serve/forms.py`` and ``serve/review.py``, over the operations of
``serve/workspace.py``) are ``forms.routes()`` and ``review.routes()``, under
``/s/{season}/workspace/...``, and ``forms.ACTIONS``, each operation the workspace page lists
(label, path under it, what it does). Every endpoint uses what ``serve/common.py`` shares:
``source_of`` (the season of the path, None for an unknown one: ``no_season``), ``current``
(the season as its files are now), ``render`` (a page of ``serve/templates`` with
``csrf_field``); besides ``security.csrf_protected`` on every POST (the handler gets the form
read and checked: ``async def handler(request, form)``) and ``security.safe_name`` for every
uploaded file's name.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Mapping
from email.utils import formatdate, parsedate_to_datetime
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from grandprix.serve import forms, journal, new_season, review, rounds, workspace
from grandprix.serve.accounts import (
    COORDINATOR,
    DIRECTOR,
    OPEN,
    READ,
    Policy,
    Throttled,
    allow,
    guarded,
    log_in,
    may,
    user_of,
)
from grandprix.serve.common import Served, current, no_season, render, source_of
from grandprix.serve.seasons import EXPORTS, KEY, Loaded, SeasonSource
from grandprix.serve.security import Csrf, Guard, csrf_protected, error_page
from grandprix.serve.store import Store
from grandprix.site.build import HERE as SITE_FILES
from grandprix.site.build import STATIC

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".csv": "text/csv; charset=utf-8",
    ".json": "application/json",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def create_app(
    seasons: Mapping[str, Path],
    *,
    secret: bytes | None = None,
    max_upload: int = 5_000_000,
    root: str = "",
    store: Store | None = None,
    private: bool = False,
    policy: Policy | None = None,
    hosts: tuple[str, ...] = (),
) -> Starlette:
    """The application serving ``seasons`` (key in the URL -> season folder). ``secret`` signs
    the CSRF tokens (random for each run by default); a request body beyond ``max_upload``
    bytes is refused (413). ``store``: the server's database (its audit trail, and its
    accounts if it has any: then every route asks for the role it needs; ``private``: the
    pages too); ``hosts``: the names it answers to beyond this machine."""
    bad = [key for key in seasons if not KEY.fullmatch(key)]
    if bad or (not seasons and not root):
        raise ValueError(f"season keys must be plain names ({KEY.pattern}), not {bad}")
    routes: list[BaseRoute] = [
        Route("/", allow(READ)(home)),
        Route("/style.css", allow(OPEN)(style)),
        Route("/favicon.svg", allow(OPEN)(favicon)),
        Route("/workspace.css", allow(OPEN)(workspace_style)),
        Route("/login", allow(OPEN)(login_form)),
        Route("/login", allow(OPEN)(login), methods=["POST"]),
        Route("/logout", allow(OPEN)(logout), methods=["POST"]),
        Route("/s/{season}", allow(READ)(season_root)),
        Route("/s/{season}/workspace", allow(DIRECTOR)(workspace_page)),
        Route("/s/{season}/reload", allow(COORDINATOR)(reload), methods=["POST"]),
        *_workspace_routes(),
        *_root_routes(),
        Route("/s/{season}/{path:path}", allow(READ)(season_file)),
    ]
    unprotected = [
        r.path
        for r in routes
        if isinstance(r, Route)
        and "POST" in (r.methods or ())
        and not getattr(r.endpoint, "csrf_protected", False)
    ]
    if unprotected:
        raise ValueError(f"POST routes without csrf_protected: {unprotected}")
    plain = [r for r in routes if isinstance(r, Route)]
    undeclared = [r.path for r in plain if not hasattr(r.endpoint, "access")]
    if undeclared or len(plain) != len(routes):
        raise ValueError(f"routes without a declared access (accounts.allow): {undeclared}")
    checked = [
        Route(r.path, guarded(r.endpoint, r.endpoint.access), methods=r.methods)  # type: ignore[attr-defined]
        for r in plain
    ]
    policy = policy or Policy()
    guard = Middleware(Guard, max_upload=max_upload, hosts=hosts, secure=policy.secure)
    app = Starlette(routes=checked, middleware=[guard], lifespan=_read_at_start)
    app.state.served = Served({k: SeasonSource(Path(f)) for k, f in seasons.items()}, root)
    app.state.previews = {}  # each season folder's workspace.Previews, made when first asked
    app.state.csrf = Csrf(secret)
    app.state.max_upload = max_upload
    app.state.store = store
    app.state.accounts = store is not None and store.has_users()
    app.state.private = private and app.state.accounts
    app.state.policy = policy
    app.state.secure = policy.secure
    return app


LOG = logging.getLogger("grandprix.serve")


@contextlib.asynccontextmanager
async def _read_at_start(app: Starlette) -> AsyncIterator[None]:
    """As the server starts, a change a killed server left half-done in a season folder is
    finished (``journal``), and each season is read by a thread of its own, so that its first
    reader need not wait for it (a request meanwhile waits for that reading, not another), then
    watched for hand edits until the server ends. A folder the server may not write (a season
    served read-only) holds no change of its."""
    served: Served = app.state.served
    store: Store | None = app.state.store
    workspace.clean_previews()  # copies of killed previews
    with contextlib.suppress(OSError):  # a root the server may not write: nothing of its
        if served.root:
            new_season.clean_new_seasons(Path(served.root))
    for source in served.seasons.values():
        try:
            with workspace.locked(source.folder):
                workspace.recover(source.folder.resolve(), store)
        except OSError:
            pass  # a folder the server may not write: nothing of its
        except workspace.ReadOnlyError as exc:  # served, read-only: its workspace says why
            LOG.warning("%s: %s", source.folder, exc)
        threading.Thread(target=source.refresh, name="grandprix-season-read", daemon=True).start()
        source.watch()
    try:
        yield
    finally:
        for source in served.seasons.values():
            source.stop()


def _workspace_routes() -> list[BaseRoute]:
    """The workspace's routes, under ``/s/{season}/workspace/...`` (``serve/forms.py``, and
    ``serve/review.py`` for the coordinator's review, ``serve/rounds.py`` for an event's rounds)."""
    return [*forms.routes(), *review.routes(), *rounds.routes()]


def _root_routes() -> list[BaseRoute]:
    """Starting a season (``/new``), for a server of several seasons (``--root``)."""
    return forms.root_routes()


# The endpoints.


async def home(request: Request) -> Response:
    served: Served = request.app.state.served
    if len(served.seasons) == 1 and not served.root:
        return RedirectResponse(f"/s/{next(iter(served.seasons))}/", status_code=303)
    insider = _coordinator(request)  # where the folders are is the server's business
    listed = [
        (key, str(source.folder) if insider else "") for key, source in served.seasons.items()
    ]
    root = served.root if insider else ""
    return render(
        request,
        "seasons.html",
        title="Seasons",
        seasons=listed,
        root=root,
        starts=bool(served.root) and insider,
    )


def _coordinator(request: Request) -> bool:
    return may(user_of(request), COORDINATOR, request.app.state.private)


async def style(request: Request) -> Response:
    return Response((SITE_FILES / "style.css").read_bytes(), media_type=TYPES[".css"])


async def favicon(request: Request) -> Response:
    return Response((SITE_FILES / "favicon.svg").read_bytes(), media_type=TYPES[".svg"])


async def season_root(request: Request) -> Response:
    return RedirectResponse(f"{request.url.path}/")


async def workspace_style(request: Request) -> Response:
    """The workspace's own few rules (forms, long paths), over the site's style."""
    css = (Path(__file__).parent / "workspace.css").read_bytes()
    return Response(css, media_type=TYPES[".css"])


async def workspace_page(request: Request) -> Response:
    source = source_of(request)
    if source is None:
        return no_season(request)
    loaded = await current(source)
    name = loaded.views.season_name if loaded.views else ""
    key = request.path_params["season"]
    user, private = user_of(request), request.app.state.private
    actions = [
        (label, f"/s/{key}/workspace/{href}", what)
        for label, href, what, access in forms.ACTIONS
        if may(user, access, private)
    ]
    return render(
        request,
        "workspace.html",
        title="Workspace",
        season=key,
        season_name=name,
        folder=str(source.folder),
        actions=actions,
        coordinator=may(user, COORDINATOR, private),
        problems=loaded.problems or loaded.warnings,
        heading="Problems" if loaded.problems else "Warnings",
        read_only=workspace.read_only(aside) if (aside := journal.set_aside(source.folder)) else "",
    )


@csrf_protected
async def reload(request: Request, form: FormData) -> Response:
    """Read the season folder again (after editing its files by hand), then back."""
    source = source_of(request)
    if source is None:
        return no_season(request)
    await run_in_threadpool(source.refresh, True)
    return RedirectResponse(f"/s/{request.path_params['season']}/workspace", status_code=303)


async def season_file(request: Request) -> Response:
    """A file of the season's site: a page, a script, the style sheet or an export."""
    source = source_of(request)
    if source is None:
        return no_season(request)
    path = request.path_params["path"] or "index.html"
    suffix = Path(path).suffix
    if path in STATIC:
        return Response((SITE_FILES / path).read_bytes(), media_type=TYPES[suffix])
    loaded = await current(source)
    if loaded.views is None or loaded.render is None:
        if suffix != ".html":
            return error_page(404, "Not found", f"The season has problems: no {path} for now.")
        key = request.path_params["season"]
        insider = _coordinator(request)  # the problems quote the files: for coordinators
        return render(
            request,
            "problems.html",
            title="Problems in the season's files",
            season=key,
            folder=str(source.folder) if insider else "",
            problems=loaded.problems if insider else [],
            errors=len(loaded.problems),
        )
    if _unchanged(request, loaded):
        return Response(status_code=304, headers=_validators(loaded))
    data: bytes | None
    if path in EXPORTS:
        data = await run_in_threadpool(loaded.export, path)
    else:
        data = loaded.pages.get(path) or await run_in_threadpool(loaded.page, path)
    if data is None:
        return error_page(404, "Not found", f"The season's site has no page {path!r}.")
    return Response(data, media_type=TYPES.get(suffix, TYPES[".html"]), headers=_validators(loaded))


def _validators(loaded: Loaded) -> dict[str, str]:
    """What a browser or a cache in between asks again with: the snapshot's tag and time."""
    return {"etag": loaded.etag, "last-modified": formatdate(loaded.made, usegmt=True)}


def _unchanged(request: Request, loaded: Loaded) -> bool:
    """Whether the reader has this snapshot's file already (RFC 9110, 13.1): its tag, or (asked
    without a tag) a time no earlier than the snapshot's."""
    tags = request.headers.get("if-none-match")
    if tags is not None:
        return tags.strip() == "*" or loaded.etag in (t.strip() for t in tags.split(","))
    since = request.headers.get("if-modified-since")
    if since is None:
        return False
    try:
        when = parsedate_to_datetime(since).timestamp()
    except (TypeError, ValueError):
        return False
    return when >= int(loaded.made)


# Logging in and out (a server with accounts)


def _next(target: str) -> str:
    """Where to go after logging in: a path of this server only."""
    return target if target.startswith("/") and not target.startswith(("//", "/\\")) else "/"


async def login_form(request: Request) -> Response:
    if not request.app.state.accounts:
        return RedirectResponse("/", status_code=303)
    return render(
        request,
        "login.html",
        title="Log in",
        message="",
        next=_next(request.query_params.get("next", "/")),
        name="",
    )


@csrf_protected
async def login(request: Request, form: FormData) -> Response:
    """A new session for the right name and password (throttled: ``accounts.log_in``)."""
    state = request.app.state
    if not state.accounts:
        return RedirectResponse("/", status_code=303)
    policy: Policy = state.policy
    name, password = str(form.get("name", ""))[:100], str(form.get("password", ""))[:1000]
    target = _next(str(form.get("next", "/")))
    address = request.client.host if request.client else ""
    earlier = request.cookies.get(policy.cookie)
    try:
        found = await run_in_threadpool(
            log_in, state.store, policy, name, password, address, earlier
        )
    except Throttled as exc:
        wait = f"Too many failed logins: try again in {exc.said}."
        return render(
            request, "login.html", status=429, title="Log in", next=target, name=name, message=wait
        )
    if found is None:
        return render(
            request,
            "login.html",
            status=401,
            title="Log in",
            next=target,
            name=name,
            message="Wrong name or password.",
        )
    _, token = found
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(
        policy.cookie,
        token,
        max_age=int(policy.longest),
        path="/",
        secure=policy.secure,
        httponly=True,
        samesite="lax",
    )
    return response


@csrf_protected
async def logout(request: Request, form: FormData) -> Response:
    state = request.app.state
    policy: Policy = state.policy
    token = request.cookies.get(policy.cookie)
    if state.accounts and token:
        await run_in_threadpool(state.store.end_session, token)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(
        policy.cookie, path="/", secure=policy.secure, httponly=True, samesite="lax"
    )
    return response
