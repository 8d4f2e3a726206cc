"""A coordinator's review of a season on a server with accounts: the directors'
uploads waiting for approval (``/s/{season}/workspace/approvals``), and the audit trail of
every accepted change (``.../audit``, ``.../audit.csv``, and every file kept,
``.../files/{sha256}``)."""

from __future__ import annotations

import datetime
import io

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from grandprix.errors import UsageError
from grandprix.serve import changes, journal, workspace
from grandprix.serve.accounts import COORDINATOR, allow, user_of
from grandprix.serve.common import (
    Upload,
    kept,
    preview_page,
    render_season,
    season_form,
    season_page,
)
from grandprix.serve.seasons import SeasonSource
from grandprix.serve.security import error_page
from grandprix.serve.store import REJECTED, AuditEntry, Store
from grandprix.writers.cells import CsvRows, safe_text


def routes() -> list[BaseRoute]:
    base = "/s/{season}/workspace"
    coordinator = allow(COORDINATOR)
    return [
        Route(f"{base}/approvals", coordinator(approvals)),
        Route(f"{base}/approvals/{{ident:int}}", coordinator(approval)),
        Route(f"{base}/approvals/{{ident:int}}/reject", coordinator(reject), methods=["POST"]),
        Route(f"{base}/audit", coordinator(audit_page)),
        Route(f"{base}/audit.csv", coordinator(audit_csv)),
        Route(f"{base}/files/{{digest:str}}", coordinator(kept_file)),
    ]


def _store(request: Request) -> Store | None:
    store: Store | None = request.app.state.store
    return store


def when(at: float) -> str:
    """A time of the audit trail, in UTC to the second."""
    moment = datetime.datetime.fromtimestamp(at, datetime.UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


@season_page
async def approvals(request: Request, key: str, source: SeasonSource) -> Response:
    store = _store(request)
    waiting = await run_in_threadpool(store.submissions, key) if store else []
    return render_season(
        request,
        "approvals.html",
        key,
        "Uploads waiting for approval",
        waiting=waiting,
        when=when,
        approval=changes.needs_approval(source.folder),
    )


@season_page
async def approval(request: Request, key: str, source: SeasonSource) -> Response:
    """A waiting upload's preview on the season as it is now, with the forms approving it
    (accepting it as the director previewed it) or rejecting it."""
    store = _store(request)
    found = (
        await run_in_threadpool(store.submission, key, request.path_params["ident"])
        if store
        else None
    )
    if store is None or found is None or found.status != "waiting":
        return error_page(404, "Not waiting", "No such upload waits for approval here.")
    data = await run_in_threadpool(store.file, found.file_sha256)
    assert data is not None
    made = Upload(found.kind, found.event, found.fields, data)
    if made.kind == "event" and made.event in changes.with_results(source.folder):
        return error_page(
            409,
            "Already in the season",
            f"'{found.event}' has results in the "
            "season already (another upload was approved): reject this one, or "
            f"ask {found.user_name} to send a correction instead.",
        )
    try:
        change = made.change(source.folder)
    except UsageError as exc:
        return error_page(
            409,
            "Cannot be made now",
            f"{exc}: reject it, and ask {found.user_name} to upload it again.",
        )
    seen = await run_in_threadpool(workspace.preview, source.folder, change, kept(request, source))
    return preview_page(request, key, seen, "approvals", made, found)


@season_form
async def reject(request: Request, form: FormData, key: str, source: SeasonSource) -> Response:
    store = _store(request)
    user = user_of(request)
    assert store is not None and user is not None
    ident = int(request.path_params["ident"])
    found = await run_in_threadpool(store.submission, key, ident)
    if found is None:
        return error_page(409, "Already decided", "This upload no longer waits for approval.")
    what = f"reject {found.user_name}'s upload of '{found.event}' ({found.fields['filename']})"
    entry = journal.Entry(key, user.name, "reject", what, [], ident, REJECTED)
    if not await run_in_threadpool(workspace.reject, source.folder, entry, store):
        return error_page(409, "Already decided", "This upload no longer waits for approval.")
    return RedirectResponse(f"/s/{key}/workspace/approvals", status_code=303)


async def _entries(request: Request, key: str) -> list[AuditEntry]:
    store = _store(request)
    return await run_in_threadpool(store.audit, key) if store else []


@season_page
async def audit_page(request: Request, key: str, source: SeasonSource) -> Response:
    entries = await _entries(request, key)
    return render_season(request, "audit.html", key, "Audit trail", entries=entries, when=when)


COLUMNS = (
    "id",
    "time (UTC)",
    "user",
    "action",
    "what",
    "file",
    "sha256",
    "bytes",
    "replaced sha256",
    "standings changes",
)


@season_page
async def audit_csv(request: Request, key: str, source: SeasonSource) -> Response:
    """The audit trail as CSV: a row for each file an entry wrote (one for an entry that
    wrote none), with the standings' changes in words."""
    out = io.StringIO()
    writer = CsvRows(out)
    writer.writerow(COLUMNS)
    for entry in await _entries(request, key):
        moves = "; ".join(
            f"{m['player']}: {m['points_before'] or '-'} -> {m['points_after'] or '-'} "
            f"(rank {m['rank_before'] or '-'} -> {m['rank_after'] or '-'})"
            for m in entry.moves
        )
        said = [safe_text(t) for t in (entry.user_name, entry.action, entry.what)]
        for file in entry.files or [{}]:  # text from users and files: never a formula
            name = safe_text(file.get("name", ""))
            sums = [file.get("sha256", ""), file.get("size", ""), file.get("replaced", "")]
            writer.writerow([entry.id, when(entry.at)[:19], *said, name, *sums, safe_text(moves)])
    headers = {"content-disposition": f'attachment; filename="{key}-audit.csv"'}
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8", headers=headers)


@season_page
async def kept_file(request: Request, key: str, source: SeasonSource) -> Response:
    """A file the audit trail names (accepted, replaced or waiting), by its SHA-256."""
    digest = str(request.path_params["digest"]).lower()
    store = _store(request)
    names = [
        f["name"] if f.get("sha256") == digest else f"replaced-{f['name']}"
        for e in await _entries(request, key)
        for f in e.files
        if digest in (f.get("sha256"), f.get("replaced"))
    ]
    waiting = await run_in_threadpool(store.submissions, key, None) if store else []
    names += [s.fields.get("filename", "upload") for s in waiting if s.file_sha256 == digest]
    data = await run_in_threadpool(store.file, digest) if store and names else None
    if data is None:
        return error_page(404, "Not kept", "The audit trail of this season names no such file.")
    shown = "".join(c if (c.isascii() and c.isalnum()) or c in "._-" else "_" for c in names[0])
    headers = {"content-disposition": f'attachment; filename="{shown}"'}
    return Response(data, media_type="application/octet-stream", headers=headers)
