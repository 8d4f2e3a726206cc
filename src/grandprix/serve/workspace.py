"""The coordinator's workspace: changes to a season folder (``changes.Change``), previewed,
then accepted.

The season folder stays the source of truth, so every change is a change of its files. It is
previewed on a copy of the folder in a temporary place: the copy is read as ``grandprix check``
reads a season, and its standings, prizes and race are compared with the folder's own. Nothing
in the folder is touched by a preview.

A change is accepted against the ``version`` of the folder it was previewed on (a digest of
its files' names, sizes and modification times): when the folder changed since, by hand or
by another form, it is refused (``StaleError``), never lost over. Accepting holds the folder's
lock, checks the version, checks again that the changed season reads without errors, then
writes each file whole (a temporary file renamed over it), ``season.toml`` last: two changes at
once both land one after the other or the second is refused, and the folder is never half
written.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

from grandprix.errors import GrandprixError, UsageError
from grandprix.model import Location, Problem, Severity
from grandprix.paths import shared_folders
from grandprix.players import PlayerKey
from grandprix.prizes.season import season_prizes
from grandprix.runtime import paused_collection
from grandprix.scores import show
from grandprix.season.computed import Computed
from grandprix.season.config import SEASON_FILE, load_season, read_season_toml
from grandprix.season.model import Line, Season, Tables
from grandprix.season.season_file import SeasonFile
from grandprix.season.standings import AwardMemo
from grandprix.serve import changes, journal, seasons
from grandprix.serve.changes import Change
from grandprix.serve.store import Store

LOCK_FILE = ".grandprix-workspace.lock"
_THREAD_LOCKS: dict[Path, threading.Lock] = {}
_GUARD = threading.Lock()


class StaleError(UsageError):
    """The folder changed since the form was made."""


class ReadOnlyError(UsageError):
    """The season takes no change: a change journal its server did not write was set aside
    there (``journal.set_aside``)."""


@dataclass(frozen=True)
class Move:
    """One player's line before and after a change ('' when absent)."""

    key: PlayerKey
    name: str
    table: str
    rank_before: str
    rank_after: str
    points_before: str
    points_after: str


@dataclass(frozen=True)
class PrizeChange:
    prize: str
    before: str
    after: str


@dataclass(frozen=True)
class Preview:
    """What a change does: its problems (errors forbid accepting it), who moves, which prizes
    change hands, and the race for 1st place before and after."""

    change: Change
    version: str
    problems: tuple[Problem, ...]
    moves: tuple[Move, ...] = ()
    prizes: tuple[PrizeChange, ...] = ()
    race: tuple[str, ...] = ()

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def ok(self) -> bool:
        return not self.errors


# Previews


@dataclass
class _Before:
    version: str
    tables: Tables | None
    prizes: dict[str, str] = field(default_factory=dict)
    leaders: tuple[str, ...] = ()


class Previews:
    """What the previews of one season folder keep from one to the next: the events' awards
    (``memo``, shared with the server's snapshots of the folder) and the folder's own
    standings, prizes and race at its last version (taken from the snapshot the server
    serves, ``source``, when it is of the folder as it is)."""

    def __init__(self, source: seasons.SeasonSource | None = None) -> None:
        self.memo = source.memo if source is not None else AwardMemo()
        self.source = source  # the server's season, whose snapshot has the folder's standings
        self.before: _Before | None = None
        self.lock = threading.Lock()

    def served(self, folder: Path) -> Computed | None:
        """The computed season of the snapshot served, when it is of the folder's files as
        they are now."""
        loaded = self.source.served if self.source is not None else None
        if loaded is None or loaded.views is None:
            return None
        if loaded.version != seasons.content_version(folder):
            return None
        return loaded.views.computed


def preview(folder: Path, change: Change, kept: Previews | None = None) -> Preview:
    """What ``change`` would do to the season in ``folder``, computed on a copy (``kept``:
    what earlier previews of the folder computed)."""
    with paused_collection():
        return _preview(folder, change, kept or Previews())


def _preview(folder: Path, change: Change, kept: Previews) -> Preview:
    folder = folder.resolve()
    version = seasons.folder_version(folder)
    if change.base and change.base != version:
        what = seasons.changed_since(folder, change.base)
        moved = Problem(
            Location(str(folder / SEASON_FILE)),
            "the season's files changed while this change was being made"
            + (f" ({what})" if what else "")
            + ": make it again on the new state",
        )
        return Preview(change, change.base, (moved,))
    before = _before(folder, version, kept)
    with _copy(folder, change) as (copy, problems):
        if problems:
            return Preview(change, version, tuple(problems))
        season, found = load_season(copy)
        found = [_relocated(p, copy, folder) for p in found]
        if season is None:
            return Preview(change, version, tuple(found))
        computed = Computed(season, kept.memo)
        tables = computed.tables
        moves = _moves(before.tables or [], tables)
        prizes = _prize_changes(before.prizes, _prizes(season, tables))
        leaders = _leaders(computed)
        said = () if leaders == before.leaders else (*before.leaders, "->", *leaders)
        return Preview(change, version, tuple(found), moves, prizes, said)


def _before(folder: Path, version: str, kept: Previews) -> _Before:
    """The folder's own standings, prizes and race, computed once per version."""
    with kept.lock:
        known = kept.before
        if known is not None and known.version == version:
            return known
        computed = kept.served(folder)
        if computed is None:
            season = load_season(folder)[0]
            computed = Computed(season, kept.memo) if season is not None else None
        if computed is None:
            state = _Before(version, None)
        else:
            tables = computed.tables
            state = _Before(version, tables, _prizes(computed.season, tables), _leaders(computed))
        kept.before = state
        return state


PREVIEW_PREFIX = "grandprix-preview-"  # then the process's id: its copies are known as its


def clean_previews() -> int:
    """Delete the preview copies that processes which are gone left in the temporary folder
    (a server killed while it previewed); how many."""
    gone = 0
    for path in Path(tempfile.gettempdir()).glob(f"{PREVIEW_PREFIX}*-*"):
        pid = path.name[len(PREVIEW_PREFIX) :].split("-", 1)[0]
        if left_behind(path, pid):
            shutil.rmtree(path, ignore_errors=True)
            gone += 1
    return gone


def left_behind(path: Path, pid: str) -> bool:
    """Whether ``path`` is a folder (never a link) that the process ``pid``, which is gone,
    left unfinished (``pid`` as the folder's name says it)."""
    return pid.isdigit() and not _alive(int(pid)) and path.is_dir() and not path.is_symlink()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (another user's counts as running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process: alive
    return True


@contextmanager
def _copy(folder: Path, change: Change) -> Iterator[tuple[Path, list[Problem]]]:
    """The season folder copied with ``change`` applied, at the same absolute path inside a
    temporary folder, its shared folders linked at theirs: relative paths in season.toml
    resolve as they do in the folder."""
    with tempfile.TemporaryDirectory(prefix=f"{PREVIEW_PREFIX}{os.getpid()}-") as temp:
        root = Path(temp)
        copy = root / folder.relative_to(folder.anchor)
        problems: list[Problem] = []
        for path in map(Path, seasons.season_files(folder, folder)):
            target = copy / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(path, target)
            except OSError:
                shutil.copy2(path, target)
        copy.mkdir(parents=True, exist_ok=True)
        for name, data in change.files.items():
            target = copy / name
            if target.exists():
                target.unlink()  # a hard link: never write through it into the folder
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        _link_shared(folder, copy, root, problems)
        yield copy, problems


def _link_shared(folder: Path, copy: Path, root: Path, problems: list[Problem]) -> None:
    try:
        config = SeasonFile.model_validate(read_season_toml(copy))
    except Exception:  # the copy's season.toml is read again, with located problems, later
        return
    allowed, _ = shared_folders(folder, config.shared_folders)
    for shared in allowed:
        mirror = root / Path(shared).relative_to(Path(shared).anchor)
        if not mirror.exists():
            mirror.parent.mkdir(parents=True, exist_ok=True)
            mirror.symlink_to(shared, target_is_directory=True)


def _relocated(problem: Problem, copy: Path, folder: Path) -> Problem:
    """A problem found in the copy, located in the folder by names relative to it (a page of
    the workspace never shows where the server keeps its folders)."""
    path = problem.location.path
    if path.startswith(str(copy) + os.sep):
        path = path[len(str(copy)) + 1 :]
    message = problem.message.replace(str(copy) + os.sep, "").replace(str(copy), ".")
    return Problem(
        Location(path, problem.location.line, problem.location.column), message, problem.severity
    )


TOP = 20  # rank changes shown for the top of each table; below it, only changed points


def _moves(before: Tables, after: Tables) -> tuple[Move, ...]:
    """Who moves, table by table in the new order: every player whose points change (or who
    enters or leaves the table), and whoever changes rank in its top ``TOP`` places (below
    them, one player's gain shifts everyone by a place, which says nothing)."""
    out = []
    old = {(name, line.player): line for name, lines in before for line in lines}
    for name, lines in after:
        seen = set()
        for line in lines:
            seen.add(line.player)
            was = old.get((name, line.player))
            if (
                was is None
                or was.total != line.total
                or (min(was.rank_first, line.rank_first) <= TOP and was.rank != line.rank)
            ):
                out.append(_move(name, was, line))
        out.extend(
            _move(name, was, None)
            for (table, key), was in old.items()
            if table == name and key not in seen
        )
    return tuple(out)


def _move(table: str, was: Line | None, now: Line | None) -> Move:
    line = now or was
    assert line is not None
    return Move(
        line.player,
        line.name,
        table,
        was.rank if was else "",
        now.rank if now else "",
        show(was.total, 2) if was else "",
        show(now.total, 2) if now else "",
    )


def _prizes(season: Season, tables: Tables) -> dict[str, str]:
    """Each season prize and who wins it."""
    if not season.rules.prizes.prize:
        return {}
    result = season_prizes(season, tables=tables)
    winners: dict[str, list[str]] = {}
    for won in result.won:
        winners.setdefault(won.prize, []).append(won.name)
    return {prize: ", ".join(names) for prize, names in winners.items()}


def _prize_changes(before: dict[str, str], after: dict[str, str]) -> tuple[PrizeChange, ...]:
    return tuple(
        PrizeChange(prize, before.get(prize, ""), after.get(prize, ""))
        for prize in dict.fromkeys([*before, *after])
        if before.get(prize, "") != after.get(prize, "")
    )


def _leaders(computed: Computed) -> tuple[str, ...]:
    """The race for 1st place of each table while events are left: who has clinched it or
    who can still reach it."""
    out = []
    for name, by_player in computed.race.items():
        outlooks = list(by_player.values())
        clinched = [o.name for o in outlooks if o.status(1) == "clinched"]
        reach = [o.name for o in outlooks if o.status(1) == "reachable"]
        where = f"{name}: " if name else ""
        if clinched:
            out.append(f"{where}1st place clinched by {clinched[0]}")
        else:
            out.append(f"{where}1st place still open to {len(reach)} player(s)")
    return tuple(out)


# Accepting


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """The folder's lock: one change at a time, in this process and across processes."""
    folder = folder.resolve()
    with _GUARD:
        lock = _THREAD_LOCKS.setdefault(folder, threading.Lock())
    with lock:
        if sys.platform == "win32":
            yield
            return
        import fcntl

        fd = os.open(folder / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)


@dataclass(frozen=True)
class Accepted:
    """A change written: the folder's new version, the preview it was checked with (what it
    did to the standings), and the earlier bytes of each file it replaced."""

    version: str
    preview: Preview
    replaced: dict[str, bytes]


def accept(
    folder: Path,
    version: str,
    change: Change,
    previewed: Preview | None = None,
    kept: Previews | None = None,
    entry: journal.Entry | None = None,
    store: Store | None = None,
) -> Accepted:
    """Write ``change`` into the folder if it is still at ``version`` and the changed season
    reads without errors (``previewed``: the change's preview made on the folder at that
    version, not made again; ``kept``: what the folder's previews keep), as ``journal``
    writes a change: ``entry``, with the standings' moves, goes to ``store``'s audit trail (and
    the upload it approves, which must still wait, is approved) in the same change."""
    folder = folder.resolve()
    with locked(folder):
        recover(folder, store)  # a change a crash left half-done comes first
        now = seasons.folder_version(folder)
        if now != version or (change.base and change.base != now) or _edited(folder, change):
            what = seasons.changed_since(folder, version if now != version else change.base)
            raise StaleError(
                "the season's files changed since this form was made (by hand or by "
                f"another change{': ' + what if what else ''}); nothing was written: look at the "
                "new state and try again"
            )
        upload = entry.submission if entry is not None else None
        if upload is not None and (store is None or not store.waiting(upload)):
            raise StaleError("another coordinator has already decided on this upload")
        same = previewed is not None and previewed.change is change and previewed.version == now
        checked = previewed if same and previewed is not None else preview(folder, change, kept)
        if not checked.ok:
            first = checked.errors[0]
            raise UsageError(f"{first}; nothing was written")
        replaced = journal.replaced_bytes(folder, list(change.files))
        if entry is not None:
            entry = replace(entry, moves=moves_in_words(checked.moves))
        intent = journal.Intent(os.urandom(16).hex(), change.files, replaced, entry)
        carry_out(folder, intent, store)
        kept_bytes = {name: data for name, data in replaced.items() if data is not None}
        return Accepted(seasons.folder_version(folder), checked, kept_bytes)


def carry_out(folder: Path, intent: journal.Intent, store: Store | None) -> None:
    """``journal.carry_out``; a change that fails half-way (a file or the database could not be
    written) finished at once from its journal, whole, as after a kill; when that fails too,
    left for the next recovery, which every change and every decision on an upload runs
    first, and the user told so. The caller holds the folder's lock."""
    try:
        journal.carry_out(folder, intent, store)
    except journal.Unfinished as exc:
        finish_now(folder, store, exc)


def finish_now(folder: Path, store: Store | None, exc: journal.Unfinished) -> None:
    """The change ``exc`` left half-done finished from its journal; else ``UsageError``."""
    try:
        recover(folder, store)
    except (OSError, GrandprixError) as again:
        raise UsageError(
            f"the change could not be finished ({exc}), nor then from its journal ({again}); "
            "it is kept, and finished whole before any other change or decision on an upload "
            "once the server can write again"
        ) from again


def recover(folder: Path, store: Store | None) -> str:
    """``journal.recover``: a change a killed server left half-done finished, a publication
    made again; the caller holds the folder's lock. ``ReadOnlyError`` while a journal the
    server refused lies set aside in the folder."""
    done = journal.recover(
        folder, store, functools.partial(_publish_again, folder), seasons.season_key(folder)
    )
    aside = journal.set_aside(folder)
    if aside:
        raise ReadOnlyError(read_only(aside))
    return done


def read_only(aside: list[str]) -> str:
    """Why a season takes no change, for its coordinator (``recover``)."""
    return (
        f"the season folder holds {', '.join(aside)}: a change journal this server did not "
        "write (or not for this folder), found there and set aside; nothing of it was applied "
        "and the audit trail records it. The season takes no change until a coordinator has "
        "looked at it (who could write into the folder?) and deleted it"
    )


def _publish_again(folder: Path, intent: journal.Intent) -> str:
    season, _ = load_season(folder)
    if season is None:
        return "(not made again after a restart: the season has errors now)"
    from grandprix.site.build import build_site

    try:
        pages = build_site(season, folder / seasons.PUBLISHED)
    except GrandprixError as exc:  # the earlier site stays; the entry says why
        return f"(not made again after a restart: {exc})"
    return f"({pages} pages, made again after a restart)"


def publish(folder: Path, season: Season, entry: journal.Entry | None, store: Store | None) -> int:
    """``grandprix site`` into the season's own ``site`` folder, as ``journal`` writes a change
    (a failed run leaves the earlier site); the number of pages."""
    from grandprix.site.build import build_site

    folder = folder.resolve()
    with locked(folder):
        recover(folder, store)
        intent = journal.Intent(os.urandom(16).hex(), {}, {}, entry)
        journal.begin(folder, intent, store)
        pages = build_site(season, folder / seasons.PUBLISHED)
        if entry is not None:
            intent = replace(intent, entry=replace(entry, what=f"{entry.what} ({pages} pages)"))
        try:
            journal.finish(folder, intent, store)
        except journal.Unfinished as exc:
            finish_now(folder, store, exc)
    return pages


def reject(folder: Path, entry: journal.Entry, store: Store) -> bool:
    """A waiting upload rejected, with its audit entry, in one transaction under the folder's
    lock (an approval of it waits, then finds it decided); False when it no longer waits."""
    with locked(folder.resolve()):
        recover(folder.resolve(), store)  # an approval a fault left half-done comes first
        if entry.submission is None or not store.waiting(entry.submission):
            return False
        journal.step("reject")
        return store.settle(journal.Intent(os.urandom(16).hex(), {}, {}, entry))


def _edited(folder: Path, change: Change) -> bool:
    """Whether a file the change replaces is no longer the one it was made from (a hand edit
    that kept the file's size and modification time too)."""
    now = journal.replaced_bytes(folder, list(change.before))
    return any(changes.digest(now[name]) != made for name, made in change.before.items())


def moves_in_words(moves: tuple[Move, ...]) -> list[dict[str, str]]:
    """The standings' moves as the audit trail keeps them."""
    return [
        {
            "table": m.table,
            "player": m.name,
            "rank_before": m.rank_before,
            "rank_after": m.rank_after,
            "points_before": m.points_before,
            "points_after": m.points_after,
        }
        for m in moves
    ]
