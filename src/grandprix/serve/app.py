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
- the workspace's own routes (``serve/forms.py``).

Every POST endpoint is wrapped by ``security.csrf_protected``; ``create_app`` refuses a POST
route that is not. A form's template writes ``{{ csrf_field }}`` (given by ``render``).

The workspace's pages (``serve/forms.py``, over the operations of ``serve/workspace.py``) are
``forms.routes()``, under ``/s/{season}/workspace/...``, and ``forms.ACTIONS``, each operation
the workspace page lists (label, path under it, what it does). Their endpoints use
``source_of`` (the season of the path, None for an unknown one: ``no_season``), ``current``
(the season as its files are now), ``render`` (a page of ``serve/templates`` with
``csrf_field``), ``security.csrf_protected`` on every POST (the handler gets the form read
and checked: ``async def handler(request, form)``) and ``security.safe_name`` for every
uploaded file's name.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from grandprix.serve.seasons import KEY, Loaded, SeasonSource
from grandprix.serve.security import Csrf, Guard, csrf_field, csrf_protected, error_page
from grandprix.site.build import HERE as SITE_FILES
from grandprix.site.build import STATIC, players_script
from grandprix.site.exports import TEXT_EXPORTS, XLSX_EXPORT
from grandprix.site.pages import Page

TEMPLATES = Path(__file__).parent / "templates"
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".csv": "text/csv; charset=utf-8",
    ".json": "application/json",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


@dataclass(frozen=True)
class Served:
    """What the application serves, kept in ``app.state.served``."""

    seasons: dict[str, SeasonSource]
    root: str  # what the list of seasons says they are


def create_app(
    seasons: Mapping[str, Path],
    *,
    secret: bytes | None = None,
    max_upload: int = 5_000_000,
    root: str = "",
) -> Starlette:
    """The application serving ``seasons`` (key in the URL -> season folder). ``secret`` signs
    the CSRF tokens (random for each run by default); a request body beyond ``max_upload``
    bytes is refused (413)."""
    bad = [key for key in seasons if not KEY.fullmatch(key)]
    if bad or (not seasons and not root):
        raise ValueError(f"season keys must be plain names ({KEY.pattern}), not {bad}")
    routes: list[BaseRoute] = [
        Route("/", home),
        Route("/style.css", style),
        Route("/workspace.css", workspace_style),
        Route("/s/{season}", lambda request: RedirectResponse(f"{request.url.path}/")),
        Route("/s/{season}/workspace", workspace),
        Route("/s/{season}/reload", reload, methods=["POST"]),
        *_workspace_routes(),
        *_root_routes(),
        Route("/s/{season}/{path:path}", season_file),
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
    app = Starlette(routes=routes, middleware=[Middleware(Guard, max_upload=max_upload)])
    app.state.served = Served({k: SeasonSource(Path(f)) for k, f in seasons.items()}, root)
    app.state.csrf = Csrf(secret)
    app.state.max_upload = max_upload
    return app


def _workspace_routes() -> list[BaseRoute]:
    """The workspace's routes, under ``/s/{season}/workspace/...`` (``serve/forms.py``)."""
    from grandprix.serve import forms

    return forms.routes()


def _root_routes() -> list[BaseRoute]:
    """Starting a season (``/new``), for a server of several seasons (``--root``)."""
    from grandprix.serve import forms

    return forms.root_routes()


# What every endpoint, the workspace's too, uses.


@functools.cache
def environment() -> Environment:
    """The templates of the server's own pages, autoescaping everything."""
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render(request: Request, template: str, status: int = 200, **values: Any) -> HTMLResponse:
    """A page of the server (``serve/templates``), with ``csrf_field`` for its forms."""
    field = csrf_field(request, request.app.state.csrf)
    if values.get("season") and not values.get("season_name"):
        source = source_of(request)
        values["season_name"] = source.name if source is not None else ""
    html = environment().get_template(template).render(csrf_field=field, **values)
    return HTMLResponse(html, status_code=status)


def source_of(request: Request) -> SeasonSource | None:
    """The season of the path's ``{season}``; None when the server has no such season."""
    served: Served = request.app.state.served
    return served.seasons.get(request.path_params.get("season", ""))


def no_season(request: Request) -> HTMLResponse:
    key = request.path_params.get("season", "")
    return error_page(404, "No such season", f"This server has no season called {key!r}.")


async def current(source: SeasonSource) -> Loaded:
    """The season as its files are now (read in a worker thread when they changed)."""
    return await run_in_threadpool(source.current)


# The endpoints.


async def home(request: Request) -> Response:
    served: Served = request.app.state.served
    if len(served.seasons) == 1 and not served.root:
        return RedirectResponse(f"/s/{next(iter(served.seasons))}/", status_code=303)
    listed = [(key, str(source.folder)) for key, source in served.seasons.items()]
    return render(request, "seasons.html", title="Seasons", seasons=listed, root=served.root)


async def style(request: Request) -> Response:
    return Response((SITE_FILES / "style.css").read_bytes(), media_type=TYPES[".css"])


async def workspace_style(request: Request) -> Response:
    """The workspace's own few rules (forms, long paths), over the site's style."""
    css = (Path(__file__).parent / "workspace.css").read_bytes()
    return Response(css, media_type=TYPES[".css"])


async def workspace(request: Request) -> Response:
    source = source_of(request)
    if source is None:
        return no_season(request)
    from grandprix.serve.forms import ACTIONS

    loaded = await current(source)
    name = loaded.views.season_name if loaded.views else ""
    key = request.path_params["season"]
    actions = [(label, f"/s/{key}/workspace/{href}", what) for label, href, what in ACTIONS]
    return render(request, "workspace.html", title="Workspace", season=key, season_name=name,
                  folder=str(source.folder), actions=actions,
                  problems=loaded.problems or loaded.warnings,
                  heading="Problems" if loaded.problems else "Warnings")  # fmt: skip


@csrf_protected
async def reload(request: Request, form: FormData) -> Response:
    """Read the season folder again (after editing its files by hand), then back."""
    source = source_of(request)
    if source is None:
        return no_season(request)
    source.forget()
    await current(source)
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
        return render(request, "problems.html", title="Problems in the season's files",
                      season=key, folder=str(source.folder), problems=loaded.problems,
                      errors=len(loaded.problems))  # fmt: skip
    views, page_of = loaded.views, loaded.render
    if path == "players.js":
        return Response(players_script(views), media_type=TYPES[suffix])
    if path in (*TEXT_EXPORTS, XLSX_EXPORT):
        data = await run_in_threadpool(loaded.export, path)
        return Response(data, media_type=TYPES[suffix])
    page: Page | None = None
    if path == "downloads.html":  # the exports are served too (below), as the static site has them
        page = views.downloads([*TEXT_EXPORTS, XLSX_EXPORT])
    else:
        page = await run_in_threadpool(views.page, path)
    if page is None:
        return error_page(404, "Not found", f"The season's site has no page {path!r}.")
    html = await run_in_threadpool(page_of, page)
    return HTMLResponse(html)
