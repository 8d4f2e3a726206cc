"""The workspace's pages and forms (``/s/{season}/workspace/...``): every change is shown as a
preview first (its problems located in the files, who moves, prizes changing hands, the race),
then accepted with one more form, which carries the folder's version the preview was made on
(the previewed change waits on the server meanwhile: ``common.preview_page``). Every form works
without JavaScript and is protected by ``security.csrf_protected``.
"""

from __future__ import annotations

import datetime
import functools
import time
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from grandprix.dates import parse_date
from grandprix.errors import GrandprixError, UsageError
from grandprix.language import LANGUAGES
from grandprix.rules.load import preset_names
from grandprix.season.people import near_matches, people
from grandprix.serve import changes, journal, workspace
from grandprix.serve.accounts import COORDINATOR, DIRECTOR, Policy, allow, user_of
from grandprix.serve.common import (
    Upload,
    current,
    kept,
    own_events,
    pending_changes,
    preview_page,
    render,
    render_season,
    season_form,
    season_page,
    waits_for_approval,
    without_paths,
)
from grandprix.serve.new_season import start_season
from grandprix.serve.rule_fields import rule_fields
from grandprix.serve.seasons import KEY, PUBLISHED, SeasonSource, folder_version
from grandprix.serve.security import UnsafeName, csrf_protected, error_page, safe_name
from grandprix.serve.store import APPROVED, TooManyWaiting
from grandprix.serve.workspace import StaleError

WAITING_PER_USER = 10  # a director's uploads waiting for approval in one season
UPLOAD_ROWS = 20_000  # lines of an uploaded results file (the largest open has some 1,500)
ACTIONS = (
    (
        "Add an event",
        "event",
        "upload its results (TRF, CSV, chess-results) and see what changes before accepting",
        DIRECTOR,
    ),
    (
        "Correct an event's results",
        "results",
        "upload corrected results of an event already in the season (the earlier file is kept)",
        DIRECTOR,
    ),
    (
        "Run an event's rounds",
        "rounds",
        "an event being played: pair each round, print the pairings and cards, enter results",
        DIRECTOR,
    ),
    ("Approve uploads", "approvals", "directors' uploads waiting for approval", COORDINATOR),
    (
        "Review similar names",
        "names",
        "decide whether two similar names are one person",
        COORDINATOR,
    ),
    (
        "Change the rules",
        "rules",
        "change a setting of the rule set and see what it changes",
        COORDINATOR,
    ),
    (
        "Publish the site",
        "publish",
        f"write the static site into the season's '{PUBLISHED}' folder",
        COORDINATOR,
    ),
    (
        "Audit trail",
        "audit",
        "every accepted change: who, when, which files (with their "
        "checksums) and what it did to the standings",
        COORDINATOR,
    ),
)


def routes() -> list[BaseRoute]:
    base = "/s/{season}/workspace"
    director, coordinator = allow(DIRECTOR), allow(COORDINATOR)
    return [
        Route(f"{base}/event", director(event_form)),
        Route(f"{base}/event", director(event_preview), methods=["POST"]),
        Route(f"{base}/results", director(results_form)),
        Route(f"{base}/results", director(results_preview), methods=["POST"]),
        Route(f"{base}/accept", director(accept_change), methods=["POST"]),
        Route(f"{base}/names", coordinator(names_page)),
        Route(f"{base}/names", coordinator(decide_names), methods=["POST"]),
        Route(f"{base}/rules", coordinator(rules_form)),
        Route(f"{base}/rules", coordinator(rules_preview), methods=["POST"]),
        Route(f"{base}/publish", coordinator(publish_form)),
        Route(f"{base}/publish", coordinator(publish), methods=["POST"]),
    ]


async def _open_events(request: Request, key: str, source: SeasonSource) -> list[str] | None:
    """The events a director may add: theirs that have no results yet (planned ones
    included); None (any) for others."""
    own = await own_events(request, key)
    if own is None:
        return None
    return sorted(own - await run_in_threadpool(changes.with_results, source.folder))


def entry(
    request: Request, key: str, action: str, what: str, submission: int | None = None
) -> journal.Entry | None:
    """The audit entry of a change this request's user makes (None without a database);
    ``submission``: the waiting upload it approves."""
    store = request.app.state.store
    user = user_of(request)
    if store is None or user is None:
        return None
    status = APPROVED if submission is not None else ""
    return journal.Entry(key, user.name, action, what, [], submission, status)


# Adding an event


@season_page
async def event_form(request: Request, key: str, source: SeasonSource) -> Response:
    choices = await _open_events(request, key, source)
    return render_season(request, "event.html", key, "Add an event", values={}, choices=choices)


@season_form
async def event_preview(
    request: Request, form: FormData, key: str, source: SeasonSource
) -> Response:
    keys = ("name", "date", "category", "prize_fund", "weight", "place")
    values = {k: str(form.get(k, "")).strip() for k in keys}
    choices = await _open_events(request, key, source)

    def again(message: str, status: int = 400) -> Response:
        return render_season(
            request,
            "event.html",
            key,
            "Add an event",
            values=values,
            message=message,
            status=status,
            choices=choices,
        )

    if not values["name"]:
        return again("Give the event's name.")
    if choices is not None and values["name"] not in choices:
        return again(
            f"The event '{values['name'][:60]}' is not one of yours waiting for its "
            "results: ask the coordinator to give it to you, or correct its results "
            "if it has some.",
            403,
        )
    try:
        datetime.date.fromisoformat(values["date"])
    except ValueError:
        return again(f"'{values['date'][:20]}' is not a date: write it as YYYY-MM-DD.")
    fields = {
        "date": values["date"],
        "category": values["category"],
        "prize_fund": values["prize_fund"],
        "weight": values["weight"],
        "place": values["place"],
    }
    shown = await _upload_preview(request, form, key, source, "event", values["name"], fields)
    return again(shown) if isinstance(shown, str) else shown


async def _upload_preview(
    request: Request,
    form: FormData,
    key: str,
    source: SeasonSource,
    kind: str,
    event: str,
    fields: dict[str, str],
) -> Response | str:
    """The preview of the form's results file as an upload of ``event`` (``kind``: event or
    results); what is wrong with it instead, if anything (no file, a name that cannot be a
    plain file name in the season folder, a change that cannot be made)."""
    upload = form.get("results")
    if not isinstance(upload, UploadFile) or not upload.filename:
        return "Choose the results file to upload."
    try:
        filename = safe_name(upload.filename)
    except UnsafeName as exc:
        return f"The file's name cannot be used: {exc}"
    data = await upload.read()
    if data.count(b"\n") > UPLOAD_ROWS:
        return (
            f"{filename} has more than {UPLOAD_ROWS:,} lines: no event has as many players. "
            "Upload the event's own results file."
        )
    made = Upload(kind, event, {**fields, "filename": filename}, data)
    try:
        change = made.change(source.folder)
    except UsageError as exc:
        return str(exc)
    seen = await run_in_threadpool(workspace.preview, source.folder, change, kept(request, source))
    return preview_page(request, key, seen, kind, made)


# Correcting an event's results


def _correctable(source: SeasonSource, own: set[str] | None) -> list[tuple[str, str, str]]:
    """(event, section, file) of every results file this user may replace."""
    return [
        (event, section, name)
        for event, found in changes.results_files(source.folder).items()
        if own is None or event in own
        for section, name in found
    ]


@season_page
async def results_form(request: Request, key: str, source: SeasonSource) -> Response:
    files = _correctable(source, await own_events(request, key))
    return render_season(
        request, "results.html", key, "Correct an event's results", files=files, chosen=""
    )


@season_form
async def results_preview(
    request: Request, form: FormData, key: str, source: SeasonSource
) -> Response:
    files = _correctable(source, await own_events(request, key))
    chosen = str(form.get("file", ""))

    def again(message: str, status: int = 400) -> Response:
        return render_season(
            request,
            "results.html",
            key,
            "Correct an event's results",
            files=files,
            chosen=chosen,
            message=message,
            status=status,
        )

    picked = [(e, s) for e, s, name in files if f"{e}\t{s}" == chosen]
    if not picked:
        return again("Choose one of your events' results files.", 403 if chosen else 400)
    event, section = picked[0]
    shown = await _upload_preview(
        request, form, key, source, "results", event, {"section": section}
    )
    return again(shown) if isinstance(shown, str) else shown


# Accepting


@season_form
async def accept_change(
    request: Request, form: FormData, key: str, source: SeasonSource
) -> Response:
    """Write a previewed change, if the folder is still as it was when it was previewed; a
    director's upload in a season with ``approval`` waits for a coordinator instead."""
    token = str(form.get("token", ""))
    pending = pending_changes(request).get(token)
    user = user_of(request)
    assert user is not None
    policy: Policy = request.app.state.policy
    if pending is not None and time.monotonic() - pending.made_at > policy.idle:
        pending = None  # as old as an ended session: made again, on the season as it is
    if pending is None or pending.season != key or pending.user != user.name:
        return error_page(
            410,
            "Change no longer waiting",
            "This change is not waiting here any more (the server restarted, or many changes "
            "were previewed since): make it again.",
        )
    store = request.app.state.store
    own = await own_events(request, key)
    if pending.upload is not None and own is not None and pending.upload.event not in own:
        return error_page(
            403,
            "Not allowed",
            f"'{pending.upload.event}' is no longer one of your events: ask the coordinator.",
        )
    if pending.upload is not None and waits_for_approval(request, source):
        made = pending.upload
        try:  # the preview's token names the form: sent twice, it is one upload
            await run_in_threadpool(
                store.submit,
                key,
                user.name,
                made.kind,
                made.event,
                made.fields,
                made.data,
                token,
                WAITING_PER_USER,
            )
        except TooManyWaiting as exc:
            return error_page(
                429,
                "Too many uploads waiting",
                f"{exc.waiting} of your uploads "
                "wait for the coordinator already: send more once they are "
                "decided.",
            )
        pending_changes(request).pop(token, None)
        return render_season(
            request, "done.html", key, "Sent for approval", waits=True, what=pending.change.what
        )
    what = pending.change.what
    if pending.submission is not None:
        sent = await run_in_threadpool(store.submission, key, pending.submission)
        what += f" (sent by {sent.user_name if sent else '?'}, approved)"
    audit = entry(request, key, pending.action, what, pending.submission)
    try:  # the version the preview was made on, as the server kept it with the change
        await run_in_threadpool(
            workspace.accept,
            source.folder,
            pending.version,
            pending.change,
            pending.preview,
            kept(request, source),
            audit,
            store,
        )
    except GrandprixError as exc:
        if isinstance(exc, StaleError):
            return error_page(
                409, "The season changed meanwhile", without_paths(source.folder, str(exc))
            )
        return error_page(400, "Not accepted", without_paths(source.folder, str(exc)))
    pending_changes(request).pop(token, None)
    await run_in_threadpool(source.refresh)  # served as soon as it is written
    return render_season(
        request, "done.html", key, "Accepted", what=pending.change.what, waits=False
    )


# Similar names


@season_page
async def names_page(request: Request, key: str, source: SeasonSource) -> Response:
    loaded = await current(source)
    if loaded.views is None:
        return render_season(
            request,
            "names.html",
            key,
            "Similar names",
            pairs=[],
            problems=loaded.problems,
            version="",
        )
    season = loaded.views.season
    pairs = await run_in_threadpool(lambda: near_matches(season, people(season)))
    version = await run_in_threadpool(folder_version, source.folder)
    undecided = [m for m in pairs if m.uncertain]
    return render_season(
        request, "names.html", key, "Similar names", pairs=undecided, problems=(), version=version
    )


@season_form
async def decide_names(
    request: Request, form: FormData, key: str, source: SeasonSource
) -> Response:
    """One click: the two names are one person, or two people (a row of aliases.csv)."""
    name, other = str(form.get("name", "")), str(form.get("other", ""))
    same = form.get("decision") == "same"
    try:
        change = changes.alias_change(source.folder, name, other, same)
        await run_in_threadpool(
            workspace.accept,
            source.folder,
            str(form.get("version", "")),
            change,
            None,
            kept(request, source),
            entry(request, key, "names", change.what),
            request.app.state.store,
        )
    except StaleError as exc:
        return error_page(
            409, "The season changed meanwhile", without_paths(source.folder, str(exc))
        )
    except GrandprixError as exc:
        return error_page(400, "Not accepted", without_paths(source.folder, str(exc)))
    await run_in_threadpool(source.refresh)  # served as soon as it is written
    return RedirectResponse(f"/s/{key}/workspace/names", status_code=303)


# Rules


@season_page
async def rules_form(request: Request, key: str, source: SeasonSource) -> Response:
    loaded = await current(source)
    if loaded.views is None:
        return render_season(
            request, "rules.html", key, "Change the rules", fields=[], problems=loaded.problems
        )
    fields = rule_fields(loaded.views.season.rules)
    return render_season(request, "rules.html", key, "Change the rules", fields=fields, problems=())


@season_form
async def rules_preview(
    request: Request, form: FormData, key: str, source: SeasonSource
) -> Response:
    loaded = await current(source)
    if loaded.views is None:
        return error_page(400, "Not possible now", "Correct the season's problems first.")
    edits: dict[str, Any] = {}
    try:
        for _, fields in rule_fields(loaded.views.season.rules):
            for field in fields:
                given = str(form.get(field.key, field.text)).replace("\r\n", "\n").strip()
                if given != field.text.strip() and given:
                    edits[field.key] = changes.toml_value(given)
        if not edits:
            return RedirectResponse(f"/s/{key}/workspace/rules", status_code=303)
        change = changes.rules_change(source.folder, edits)
    except GrandprixError as exc:
        return error_page(400, "Not a value", without_paths(source.folder, str(exc)))
    seen = await run_in_threadpool(workspace.preview, source.folder, change, kept(request, source))
    return preview_page(request, key, seen, "rules")


# New seasons (a server started with --root)


def root_routes() -> list[BaseRoute]:
    coordinator = allow(COORDINATOR)
    return [
        Route("/new", coordinator(new_season_form)),
        Route("/new", coordinator(new_season), methods=["POST"]),
    ]


def _root(request: Request) -> Path | None:
    root: str = request.app.state.served.root
    return Path(root) if root else None


async def new_season_form(request: Request) -> Response:
    if _root(request) is None:
        return error_page(404, "Not here", "Start the server with --root DIR to start seasons.")
    return render(
        request,
        "new.html",
        title="Start a season",
        presets=preset_names(),
        seasons=list(request.app.state.served.seasons),
        languages=LANGUAGES,
        values={},
        message="",
    )


@csrf_protected
async def new_season(request: Request, form: FormData) -> Response:
    """A new season folder under the root, from a preset or from another season's rules."""
    root = _root(request)
    if root is None:
        return error_page(404, "Not here", "Start the server with --root DIR to start seasons.")
    served = request.app.state.served
    keys = ("name", "folder", "preset", "like", "start", "end", "language", "approval")
    values = {k: str(form.get(k, "")).strip() for k in keys}

    def again(message: str) -> Response:
        return render(
            request,
            "new.html",
            status=400,
            title="Start a season",
            presets=preset_names(),
            seasons=list(served.seasons),
            languages=LANGUAGES,
            values=values,
            message=message,
        )

    if not values["name"] or not KEY.fullmatch(values["folder"]):
        return again(
            "Give the season a name, and its folder a plain name (letters, digits, - and _)."
        )
    if values["folder"] in served.seasons:
        return again(
            f"A season is served as '{values['folder']}' already: give the new "
            "season's folder another name."
        )
    like = served.seasons.get(values["like"]) if values["like"] else None
    preset = values["preset"] if like is None else None
    if like is None and preset not in preset_names():
        return again("Choose a preset, or a season whose rules the new one takes.")
    days: dict[str, datetime.date | None] = {}
    for key, said in (("start", "first"), ("end", "last")):
        try:
            days[key] = parse_date(values[key]) if values[key] else None
        except ValueError as exc:
            return again(f"The season's {said} day: {exc}.")
    what = f"start the season '{values['name']}' in {root / values['folder']} (" + (
        f"preset {preset})" if preset else f"the rules of {values['like']})"
    )
    try:
        folder = await run_in_threadpool(
            functools.partial(
                start_season,
                root,
                values["folder"],
                values["name"],
                preset=preset,
                like=like.folder if like is not None else None,
                start=days["start"],
                end=days["end"],
                language=values["language"] or None,
                approval=values["approval"] == "yes",
                entry=entry(request, values["folder"], "start", what),
                store=request.app.state.store,
            )
        )
    except GrandprixError as exc:
        return again(str(exc))
    source = served.seasons[values["folder"]] = SeasonSource(folder)
    source.watch()
    return RedirectResponse(f"/s/{values['folder']}/workspace", status_code=303)


# Publishing


@season_page
async def publish_form(request: Request, key: str, source: SeasonSource) -> Response:
    return render_season(
        request,
        "publish.html",
        key,
        "Publish the site",
        out=str(source.folder / PUBLISHED),
        pages=None,
    )


@season_form
async def publish(request: Request, form: FormData, key: str, source: SeasonSource) -> Response:
    """``grandprix site`` into the season's own ``site`` folder, with its safety: a folder
    that is not an earlier site is refused, and a failed run leaves the earlier site."""
    loaded = await current(source)
    if loaded.views is None:
        return error_page(400, "Not published", "Correct the season's problems first.")
    out = source.folder / PUBLISHED
    audit = entry(request, key, "publish", f"publish the site into {out}")
    try:
        pages = await run_in_threadpool(
            workspace.publish,
            source.folder,
            loaded.views.season,
            audit,
            request.app.state.store,
        )
    except GrandprixError as exc:
        return error_page(400, "Not published", without_paths(source.folder, str(exc)))
    return render_season(
        request, "publish.html", key, "Publish the site", out=str(out), pages=pages
    )
