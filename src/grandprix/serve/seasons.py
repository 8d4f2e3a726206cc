"""The seasons a server shows, each read from its folder, which stays the source of truth.

Each season is served from a snapshot (``Loaded``): the season read at one version of its
files, with its pages rendered as they are asked for and kept. A season is read again when the
contents of its files change (``content_version``: every file in the season folder and in the
shared folders its season.toml names); readers are served the snapshot before until the new one
is ready, then the new one, never a mix. A file edited by hand while the server runs is seen
by the file system's change notices (``SeasonSource.watch``, watchfiles: inotify, FSEvents,
ReadDirectoryChangesW), the season read again as soon as the edit is done; where notices cannot
be had (a folder on a network share, the system's watch limit reached) the folder is looked at
every ``CHECK_SECONDS``, and every ``WATCHED_CHECK_SECONDS`` besides the notices. After a
notice only the files it names are read again to make the new version (``digests_after``). A
change written by the server's own forms is served as soon as it is written
(``SeasonSource.refresh``).

``folder_version`` (a digest of names, sizes and modification times) is what a workspace form
is made on: a change is accepted only while it is the same.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import watchfiles

from grandprix.errors import GrandprixError, InputError
from grandprix.language import speaking
from grandprix.paths import shared_folders
from grandprix.reports.exports import TEXT_EXPORTS, XLSX_EXPORT, text_exports, xlsx_bytes
from grandprix.runtime import paused_collection
from grandprix.runtime.files import read_bytes
from grandprix.season.config import SEASON_FILE, load_season, read_season_toml
from grandprix.season.standings import AwardMemo
from grandprix.site.build import Renderer, players_script
from grandprix.site.pages import Page, slug
from grandprix.site.views import SiteViews

WALK_LIMIT = 20_000
KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")  # a season's name in the server's paths


def season_key(folder: Path) -> str:
    """The season's name in URLs (``/s/KEY/``): the folder's name when it is plain, else a slug."""
    name = folder.resolve().name
    return name if KEY.fullmatch(name) else slug(name)


def seasons_under(root: Path) -> dict[str, Path]:
    """Every sub-folder of ``root`` that holds a season.toml, by its key, in name order."""
    found: dict[str, Path] = {}
    for sub in sorted(root.iterdir()):
        if sub.is_dir() and not sub.name.startswith(".") and (sub / SEASON_FILE).is_file():
            key, n = season_key(sub), 1
            while key in found:
                n += 1
                key = f"{season_key(sub)}-{n}"
            found[key] = sub
    return found


PUBLISHED = "site"  # the folder the workspace publishes into, inside the season folder


def folder_version(folder: Path) -> str:
    """The folder's version as a short text for a form: a digest of the name, size and
    modification time of every file of the season (``season_files``, in the folder and in the
    shared folders its season.toml names). A folder of more than ``WALK_LIMIT`` files has the
    version of this moment, so every form made on it is stale. Made of the folder's resolved
    path wherever it is made: a folder named by a relative path (``grandprix serve utah``) has
    the version of its absolute path, as the workspace reads it."""
    folder = folder.resolve()
    found: list[tuple[str, int, int]] = []
    for root in season_roots(folder):
        for path in season_files(root, folder):
            try:
                stat = os.stat(path)
            except OSError:
                continue  # removed meanwhile, or a broken link: the reading will say
            found.append((path, stat.st_size, stat.st_mtime_ns))
            if len(found) > WALK_LIMIT:
                return "now-" + os.urandom(8).hex()
    listing = tuple(sorted(found))
    version = hashlib.sha256(repr(listing).encode()).hexdigest()[:20]
    with _LISTINGS_LOCK:  # what the version stands for, to say later what changed since
        _LISTINGS[version] = listing
        _LISTINGS.move_to_end(version)
        while len(_LISTINGS) > LISTINGS_KEPT:
            _LISTINGS.popitem(last=False)
    return version


LISTINGS_KEPT = 256  # the folder versions whose files are remembered (forms still open)
_LISTINGS: OrderedDict[str, tuple[tuple[str, int, int], ...]] = OrderedDict()
_LISTINGS_LOCK = threading.Lock()


def changed_since(folder: Path, version: str) -> str:
    """The files of the season added, removed or changed since ``version`` was made, in words
    for a refused form ('park.csv changed, notes.txt added'); '' when that version is no
    longer remembered."""
    with _LISTINGS_LOCK:
        before = _LISTINGS.get(version)
    now_version = folder_version(folder)
    with _LISTINGS_LOCK:
        now = _LISTINGS.get(now_version)
    if before is None or now is None:
        return ""
    folder = folder.resolve()
    old = {path: (size, mtime) for path, size, mtime in before}
    new = {path: (size, mtime) for path, size, mtime in now}

    def name(path: str) -> str:
        try:
            return Path(path).relative_to(folder).as_posix()
        except ValueError:
            return Path(path).name  # a shared folder's file

    said = [f"{name(p)} changed" for p in sorted(new.keys() & old.keys()) if new[p] != old[p]]
    said += [f"{name(p)} added" for p in sorted(new.keys() - old.keys())]
    said += [f"{name(p)} removed" for p in sorted(old.keys() - new.keys())]
    return ", ".join(said[:5]) + (f" and {len(said) - 5} more" if len(said) > 5 else "")


def season_files(root: Path, folder: Path) -> Iterator[str]:
    """The files under ``root`` (the season ``folder`` or one of its shared folders) that are
    the season's: hidden files and folders (the workspace's lock and temporary files) and the
    site published inside the folder are not."""
    for top, folders, files in os.walk(root):
        folders[:] = [
            f for f in folders if not f.startswith(".") and (top, f) != (str(folder), PUBLISHED)
        ]
        yield from (os.path.join(top, name) for name in files if not name.startswith("."))


CHECK_SECONDS = 1.0  # the least time between two looks at a season folder's files
WATCHED_CHECK_SECONDS = 60.0  # the same, for a folder whose change notices are had
QUIET_MS = 50  # a change is acted on when no other came for this long (an editor's saves)
GROUPED_MS = 400  # ... or when changes kept coming for this long
LOG = logging.getLogger("grandprix.serve")
PAGE_BYTES = 64 * 1024 * 1024  # rendered pages kept for each season, the least used dropped
EXPORTS = (*TEXT_EXPORTS, XLSX_EXPORT)
WARM = ("index.html",)  # rendered before a season read again is served


def content_version(folder: Path) -> str:
    """A digest of the name and bytes of every file of the season (``season_files``, in the
    folder and in the shared folders its season.toml names): equal exactly when the files are,
    whatever their modification times."""
    return version_of(content_digests(folder))


Digests = dict[tuple[int, str], bytes]  # (root: 0 the folder, then its shared folders; path)


def content_digests(folder: Path) -> Digests:
    """A digest of the bytes of every file of the season, by its root and its path there."""
    found: Digests = {}
    for n, root in enumerate(season_roots(folder)):
        for path in season_files(root, folder.resolve()):
            try:
                data = read_bytes(path)
            except OSError:
                continue  # removed meanwhile, or a broken link: the reading will say
            found[n, os.path.relpath(path, root)] = hashlib.blake2b(data, digest_size=16).digest()
    return found


def season_roots(folder: Path) -> list[Path]:
    """The season folder (resolved) and the shared folders its season.toml names."""
    return [folder.resolve(), *(shared.resolve() for shared in _shared(folder))]


def version_of(digests: Digests) -> str:
    """The version of the files whose ``digests`` these are."""
    made = hashlib.sha256()
    for (n, name), digest in sorted(digests.items()):
        said = name.encode("utf-8", "surrogateescape")
        made.update(b"%d\0%d\0" % (n, len(said)) + said + digest)
    return made.hexdigest()


def digests_after(digests: Digests, roots: list[Path], changed: Iterable[str]) -> Digests | None:
    """``digests`` with the files at the ``changed`` paths (the change notices') read again,
    added or gone; None when a folder is among them (its files are looked at all again)."""
    found = dict(digests)
    for path in changed:
        n, name = next(
            (
                (n, os.path.relpath(path, root))
                for n, root in enumerate(roots)
                if Path(path).is_relative_to(root)
            ),
            (-1, ""),
        )
        if n < 0 or name == ".":
            return None
        if os.path.isdir(path) or any(k == n and f.startswith(name + os.sep) for k, f in found):
            return None  # a folder made, moved or removed: what it holds is not listed
        try:
            found[n, name] = hashlib.blake2b(read_bytes(path), digest_size=16).digest()
        except OSError:
            found.pop((n, name), None)  # removed (or not readable: the reading will say)
    return found


def _shared(folder: Path) -> list[Path]:
    """The shared folders the season's season.toml names (none when it cannot be read)."""
    try:
        names = read_season_toml(folder).get("shared_folders", [])
    except InputError:
        return []  # the season's own reading says what is wrong with season.toml
    if isinstance(names, list) and all(isinstance(n, str) for n in names):
        return shared_folders(folder, names)[0]
    return []


class Pages:
    """Rendered files of one version of a season, the least recently used dropped beyond
    ``limit`` bytes."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, path: str) -> bytes | None:
        with self._lock:
            found = self._kept.get(path)
            if found is not None:
                self._kept.move_to_end(path)
            return found

    def put(self, path: str, data: bytes) -> None:
        with self._lock:
            if path in self._kept or len(data) > self.limit:
                return
            self._kept[path] = data
            self.size += len(data)
            while self.size > self.limit:
                _, dropped = self._kept.popitem(last=False)
                self.size -= len(dropped)


@dataclass
class Loaded:
    """A season as read at one version of its files (a snapshot: never changed once served):
    its views, or the problems found, and what was rendered of it so far."""

    version: str  # ``content_version`` of the files read
    views: SiteViews | None = None
    render: Renderer | None = None
    problems: tuple[str, ...] = ()  # located, as 'grandprix check' prints them
    warnings: tuple[str, ...] = ()  # of a season that loads
    made: float = field(default_factory=time.time)  # when it was read (Last-Modified)
    pages: Pages = field(default_factory=lambda: Pages(PAGE_BYTES))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def etag(self) -> str:
        """The entity tag of every file served of this version."""
        return f'"{self.version[:32]}"'

    def page(self, path: str) -> bytes | None:
        """The page at ``path`` rendered, or players.js (once for this version while it stays
        among the files kept); None if the site has no such page."""
        found = self.pages.get(path)
        if found is not None or self.views is None or self.render is None:
            return found
        with speaking(self.views.season.language):
            return self._made(path)

    def _made(self, path: str) -> bytes | None:
        """The page at ``path`` made, rendered and kept, in the season's language."""
        assert self.views is not None and self.render is not None
        if path == "players.js":
            data = players_script(self.views).encode()
        else:  # the downloads page lists the exports, served too as the static site has them
            page: Page | None = None
            if path == "downloads.html":
                page = self.views.downloads(EXPORTS)
            page = page or self.views.page(path)
            if page is None:
                return None
            data = self.render(page).encode()
        self.pages.put(path, data)
        return data

    def export(self, name: str) -> bytes | None:
        """The export ``name`` (CSV, JSON or XLSX), made once for this version; None if none."""
        if self.views is None:
            return None
        key = f"export:{name}"
        with self._lock:  # made by one request; the others wait for it
            found = self.pages.get(key)
            if found is not None:
                return found
            season, tables = self.views.season, self.views.tables
            if name == XLSX_EXPORT:
                made = {name: xlsx_bytes(season, tables)}
            else:
                made = {n: t.encode() for n, t in text_exports(season, tables).items()}
            for made_name, data in made.items():
                self.pages.put(f"export:{made_name}", data)
            return made.get(name)

    def warm(self) -> None:
        """Render what every reader asks for first (the standings page, and with it what every
        player's page needs: the history) before this version is served; what only an event's
        page or the players' list needs is computed when first asked for (a few hundredths of
        a second on a 500-event season)."""
        if self.views is not None:
            for path in WARM:
                self.page(path)


class SeasonSource:
    """One season folder and the snapshot of it that is served. A request never waits for a
    season to be read, but the first: every ``CHECK_SECONDS`` at most, a request has the folder
    looked at by another thread, which reads the season again when its files' contents changed
    and swaps the new snapshot in when it is ready; a change the server writes itself is read
    at once (``refresh``)."""

    def __init__(self, folder: Path, check_seconds: float | None = None) -> None:
        self.folder = folder
        self.check_seconds = CHECK_SECONDS if check_seconds is None else check_seconds
        self._loaded: Loaded | None = None
        self._reading = threading.Lock()  # one reading of the folder at a time
        self._next_check = 0.0
        self._checking = threading.Lock()  # held by the thread looking at the folder
        self.memo = AwardMemo()  # the events' awards, kept from one reading to the next
        self.watching = False  # the folder's change notices are being had
        self._stop = threading.Event()
        self._watcher: threading.Thread | None = None
        self._digests: Digests | None = None  # of the files as last looked at
        self._roots: list[Path] = []  # of the files the change notices are had of

    @property
    def served(self) -> Loaded | None:
        """The snapshot being served; None before the season is first read."""
        return self._loaded

    def current(self) -> Loaded:
        """The season as last read (read now if it never was); a look at its files started
        when it is time."""
        loaded = self._loaded
        if loaded is None:
            return self.refresh()
        now = time.monotonic()
        if now >= self._next_check and self._checking.acquire(blocking=False):
            seconds = self.check_seconds
            self._next_check = now + (
                max(seconds, WATCHED_CHECK_SECONDS) if self.watching else seconds
            )
            threading.Thread(target=self._check, name="grandprix-season-check", daemon=True).start()
        return loaded

    def _check(self) -> None:
        try:
            self.refresh()
        finally:
            self._checking.release()

    def refresh(self, force: bool = False, changed: Iterable[str] | None = None) -> Loaded:
        """The season as its files are now: read again when their contents changed (or when
        ``force``d), rendered for its first readers, then served. ``changed``: the paths the
        change notices name, the only files looked at again when the others were looked at
        before (every file else)."""
        with self._reading:
            started = time.monotonic()
            digests = None
            if changed is not None and self._digests is not None and self._roots:
                digests = digests_after(self._digests, self._roots, changed)
            if digests is None:
                digests = content_digests(self.folder)
            self._digests = digests
            version = version_of(digests)
            loaded = self._loaded
            if loaded is None or force or loaded.version != version:
                with paused_collection():
                    earlier = loaded.views if loaded else None
                    loaded = _load(self.folder, version, earlier, self.memo)
                    loaded.warm()
                self._loaded = loaded
            # a large folder is looked at less often than a small one
            spent = time.monotonic() - started
            self._next_check = max(self._next_check, time.monotonic() + 10 * spent)
            return loaded

    def watch(self) -> None:
        """Have the folder's change notices (and its shared folders') from now on, by a thread
        of its own that reads the season again after each edit; ``stop`` ends it."""
        roots = self._roots = season_roots(self.folder)
        self._stop.clear()
        self._watcher = threading.Thread(
            target=self._watched, args=(roots,), name="grandprix-season-watch", daemon=True
        )
        self._watcher.start()

    def stop(self) -> None:
        """No more change notices (the server is ending): the watching thread ended, or given
        up on after a second (a reading it started finishes on its own)."""
        self._stop.set()
        if self._watcher is not None:
            self._watcher.join(timeout=1.0)

    def _watched(self, roots: list[Path]) -> None:
        folder = roots[0]

        def counts(change: watchfiles.Change, path: str) -> bool:
            """Whether a changed path is one of the season's files (``season_files``)."""
            for root in roots:
                try:
                    parts = Path(path).relative_to(root).parts
                except ValueError:
                    continue
                hidden = any(part.startswith(".") for part in parts)
                return not hidden and not (root == folder and parts[:1] == (PUBLISHED,))
            return False

        try:
            changes = watchfiles.watch(
                *roots,
                watch_filter=counts,
                debounce=GROUPED_MS,
                step=QUIET_MS,
                stop_event=self._stop,
                raise_interrupt=False,
                ignore_permission_denied=True,
            )
            self.watching = True
            for batch in changes:
                self.refresh(changed=[path for _change, path in batch])
        except Exception as exc:  # no notices here: the folder is looked at every second
            LOG.warning(
                "%s: not watched (%s); its files are looked at every %s s",
                folder,
                exc,
                self.check_seconds,
            )
        finally:
            self.watching = False

    @property
    def name(self) -> str:
        """The season's name as last read; before it is read again, as season.toml says it
        ('' when it cannot say)."""
        loaded = self._loaded
        if loaded is not None and loaded.views:
            return loaded.views.season_name
        try:
            said = read_season_toml(self.folder)
        except InputError:
            return ""
        name = said.get("name")
        return name if isinstance(name, str) else ""


def _load(
    folder: Path, version: str, previous: SiteViews | None = None, memo: AwardMemo | None = None
) -> Loaded:
    """The season in ``folder`` read (``previous``: its views before, whose history the new
    ones take what is the same of; ``memo``: the events' awards computed before)."""
    try:
        season, problems = load_season(folder)
        if season is None:
            return Loaded(version, problems=tuple(str(p) for p in problems))
        with speaking(season.language):
            views = SiteViews(season, previous, memo)
            render = Renderer(views)
        return Loaded(version, views, render, warnings=tuple(str(p) for p in problems))
    except InputError as exc:
        return Loaded(version, problems=tuple(str(p) for p in exc.problems))
    except GrandprixError as exc:
        return Loaded(version, problems=(str(exc),))
