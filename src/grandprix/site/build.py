"""The static standings website (UT-8): every page of ``views.py`` rendered with the templates,
the search script and its list of players, and the exports, written to a folder.

Every page is rendered with autoescaping, so any text from an input file shows as text. Nothing
is fetched from another site. The site is written to a new folder that then replaces the old one,
so a failed build leaves the previous site as it was.

Publishing never loses a file: one run at a time writes a folder (a lock beside it), a folder is
replaced only when it holds nothing but what the earlier run wrote (listed in its marker file),
and the run's own work folder, unique to the run, is the only other folder it creates or removes
(besides the work folders that killed runs left beside it, ``_clean_stale``). A symbolic link
given as the folder is refused: replacing it would turn the link into a folder, and writing
through it would replace a folder the user named elsewhere.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import fields
from multiprocessing.connection import Connection
from multiprocessing.sharedctypes import Synchronized
from pathlib import Path
from typing import cast

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from grandprix.errors import GrandprixError, UsageError, WriteError
from grandprix.language import _, ngettext, pgettext, speaking, spoken
from grandprix.reports.exports import write_exports
from grandprix.runtime.background import Child, ChildFailed
from grandprix.runtime.background import can_fork as _can_fork
from grandprix.season.model import Season, Tables
from grandprix.site.fast_html import event_rows, results, visible, words_html
from grandprix.site.pages import EventPage, HomePage, ListPage, Page, PlayerPage, RoundPage
from grandprix.site.views import DOWNLOAD_FILES, MENU, SiteViews
from grandprix.writers.terminal import shown

HERE = Path(__file__).parent
TEMPLATES = {
    HomePage: "index.html",
    PlayerPage: "player.html",
    EventPage: "event.html",
    RoundPage: "round.html",
    ListPage: "list.html",
}
FIELDS = {kind: tuple(f.name for f in fields(kind)) for kind in TEMPLATES}  # a page's values
STATIC = ("style.css", "search.js", "favicon.svg")  # copied as they are


MARK = ".grandprix-site"  # in every site written, listing what the run wrote
MARK_HEAD = "written by grandprix site; the next run replaces these files and no others"
# What a site holds whose marker lists nothing (written before the marker listed its files): the
# menu's pages, the static files, the exports, the players' list for the search and the folders
# of the players' and the events' pages.
EARLIER_SITE = {
    MARK,
    *(page.path for page in MENU),
    *STATIC,
    *DOWNLOAD_FILES,
    "players.js",
    "players/",
    "events/",
}
LOCK_TEXT = b"grandprix site: a run is writing the folder beside this file\n"


def build_site(season: Season, out: Path) -> int:
    """Write the site into ``out`` (replacing it whole); return the number of pages.

    ``out`` must be new, empty, or a site written before holding only what that run wrote:
    any other folder is refused, since replacing it would delete what it holds. One run at a
    time writes ``out``; a failure to write (permissions, a full disk) is a ``WriteError``
    that names the path, and leaves the earlier site as it was."""
    try:
        if out.is_symlink():
            raise UsageError(
                f"{out}: a symbolic link (to {os.readlink(out)}); the site replaces its folder "
                "whole, which would replace the link with a folder: give the folder itself, or "
                "a new folder, as -o"
            )
        out.parent.mkdir(parents=True, exist_ok=True)
        with _locked(out):
            _clean_stale(out)
            _check_folder(out)
            return _build(season, out)
    except GrandprixError:
        raise
    except ChildFailed as exc:
        raise WriteError(f"{exc}; the site was not written and {out} is as it was") from exc
    except OSError as exc:
        where = exc.filename if exc.filename else out
        why = exc.strerror.lower() if exc.strerror else str(exc)
        hint = " (check that you may write there)" if isinstance(exc, PermissionError) else ""
        raise WriteError(
            f"{where}: {why}; the site was not written and {out} is as it was{hint}"
        ) from exc


_HELD: set[int] = set()  # the descriptors of the locks this process holds (``_locked``)


def _forget_locks() -> None:
    """In a process forked from this one: close its copies of the locks' descriptors. A lock
    (flock) stays held while any copy is open, so a child still running after this process
    was killed would otherwise keep every later run out of the folder."""
    for fd in _HELD:
        with suppress(OSError):
            os.close(fd)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_locks)


@contextmanager
def _locked(out: Path) -> Iterator[None]:
    """Hold the lock of ``out`` (the file ``.NAME.lock`` beside it, removed afterwards) or
    refuse: two runs writing one folder at once would leave half a site. The lock is the
    process's own: its forked children do not hold it (``_forget_locks``), so it ends with
    the process, killed or not, and the next run takes it."""
    if sys.platform == "win32":  # no flock: runs are not kept apart there
        yield
        return
    import fcntl

    path = out.parent / f".{out.name}.lock"
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise UsageError(
                f"{out}: another 'grandprix site' is writing this folder now (it holds {path}); "
                "let it finish, then run again"
            ) from None
        try:
            if os.fstat(fd).st_ino == os.stat(path).st_ino:
                break  # the file at the path, not one the last holder removed meanwhile
        except FileNotFoundError:
            pass
        os.close(fd)
    _HELD.add(fd)
    try:
        if os.fstat(fd).st_size == 0:
            os.write(fd, LOCK_TEXT)
        yield
    finally:
        # Removed while still held, and only a lock file grandprix wrote; one left behind (a
        # folder that became read-only) does no harm, and must not hide the run's own error.
        with suppress(OSError):
            if os.pread(fd, len(LOCK_TEXT) + 1, 0) == LOCK_TEXT:
                path.unlink()
        _HELD.discard(fd)
        os.close(fd)


# ``_build``'s work folders beside the site ``name``: with the id of the process that made it,
# or (made before the id was in the name) without it.
WORK = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.[a-z0-9_]+\.tmp")
EARLIER_WORK = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}\.tmp")


def _work_folder(out: Path) -> Path:
    """A new folder beside ``out``, of this run alone, named with this process's id (so that
    a later run knows when it is stale: ``_clean_stale``)."""
    prefix = f".{out.name}.{os.getpid()}."
    return Path(tempfile.mkdtemp(dir=out.parent, prefix=prefix, suffix=".tmp"))


def _running(pid: int) -> bool:
    """Whether a process ``pid`` is running (one of another user's counts as running)."""
    if pid == os.getpid():
        return False  # an earlier process that had this id: this run has made no folder yet
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's (EPERM), or no such id at all
        return True
    try:  # killed, but not yet reaped by its parent (Linux): gone all the same
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()[:1] != [b"Z"]
    except OSError:
        return True


def _stale(work: Path, out: Path, locked: bool) -> bool:
    """Whether ``work`` is a work folder a killed run writing ``out`` left: named as
    ``_work_folder`` names them (or as earlier versions did, known stale only under the
    lock), its process gone, holding no more than a ``new`` and an ``old`` site."""
    if work.is_symlink() or not work.is_dir():
        return False
    found = WORK.fullmatch(work.name)
    if found is not None and found["name"] == out.name:
        if _running(int(found["pid"])):
            return False
    else:
        earlier = EARLIER_WORK.fullmatch(work.name)
        if not (locked and earlier is not None and earlier["name"] == out.name):
            return False
    return {p.name for p in work.iterdir()} <= {"new", "old"}


def _clean_stale(out: Path) -> None:
    """Remove the work folders that runs writing ``out`` left beside it when they were killed
    (``_stale``). An earlier site left in one by a run killed between its two renames (its
    ``old``, with ``out`` missing) is put back as ``out`` first; as in ``_build``, an ``old``
    is removed only when ``out`` is there. Called under ``out``'s lock."""
    locked = sys.platform != "win32"  # where ``_locked`` keeps runs apart
    start = f".{out.name}."
    names = [n for n in os.listdir(out.parent) if n.startswith(start) and n.endswith(".tmp")]
    for work in (out.parent / name for name in sorted(names)):
        if not _stale(work, out, locked):
            continue
        old = work / "old"
        if old.is_dir() and not old.is_symlink() and not out.exists() and not out.is_symlink():
            old.rename(out)
        if out.exists() or not old.exists():
            shutil.rmtree(work, ignore_errors=True)


def _check_folder(out: Path) -> None:
    """Refuse a folder that is not an earlier site, or that holds what the site did not write.

    Refusing is the simplest and safest choice: carrying the other files into the new site
    would mean guessing what the user wants there, and deleting them would lose them."""
    if not out.exists():
        return
    if not out.is_dir() or (any(out.iterdir()) and not (out / MARK).exists()):
        raise UsageError(
            f"{out}: not a site grandprix wrote, and it is not empty; the site replaces its "
            "folder whole, so give a new or empty folder (or the folder of an earlier site)"
        )
    if not (out / MARK).exists():
        return
    others = _not_written(out)
    if others:
        shown = ", ".join(others[:10]) + (f" and {len(others) - 10} more" if others[10:] else "")
        raise UsageError(
            f"{out}: holds {shown}, which the earlier site did not write; the new site replaces "
            f"the folder whole, so move them out of {out} first (or write the site to a new "
            "folder)"
        )


def _not_written(site: Path) -> list[str]:
    """What the earlier site in ``site`` holds that it did not write, by relative path."""
    listed = set((site / MARK).read_text(encoding="utf-8").splitlines()[1:])

    def ours(rel: str) -> bool:
        if listed:
            return rel in listed
        return rel in EARLIER_SITE or re.fullmatch(r"(players|events)/[^/]+\.html", rel) is not None

    others = []
    for top, folders, files in os.walk(site):
        here = Path(top).relative_to(site)
        for name in sorted(folders):
            rel = (here / name).as_posix()
            if os.path.islink(site / rel) or not ours(rel + "/"):
                others.append(rel)
                folders.remove(name)  # not looked into: it is not ours as a whole
        others += [(here / n).as_posix() for n in files if not ours((here / n).as_posix())]
    return sorted(others)


def _listing(folder: Path) -> list[str]:
    """Every folder (with a final '/') and file under ``folder``, by relative path."""
    found = []
    for top, folders, files in os.walk(folder):
        here = Path(top).relative_to(folder)
        found += [(here / n).as_posix() + "/" for n in folders]
        found += [(here / n).as_posix() for n in files]
    return sorted(found)


def _build(season: Season, out: Path) -> int:
    """The site written into a folder of this run's own beside ``out``, then swapped in."""
    with speaking(season.language):
        return _build_in(season, out)


def _build_in(season: Season, out: Path) -> int:
    views = SiteViews(season)
    # A name no other folder has: the run touches no folder beside ``out`` it did not make.
    work = _work_folder(out)
    try:
        count = _write(views, work / "new")
        _check_folder(out)  # again: files may have been put there while the site was written
        _swap(work, out)
    finally:
        if out.exists() or not (work / "old").exists():  # never the earlier site, not put back
            shutil.rmtree(work, ignore_errors=True)
    return count


@functools.cache
def environment() -> Environment:
    """The site's templates, autoescaping every page; made once and shared. The templates are
    the package's own files, read once: no file check before each page (two per page)."""
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"], default_for_string=True, default=True),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        extensions=["jinja2.ext.i18n"],
    )
    # The templates' words in the language spoken while a page renders (``language.speaking``).
    env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=_, ngettext=ngettext, pgettext=pgettext, newstyle=True
    )
    env.filters["words"] = words_html
    env.globals.update(event_rows=event_rows, results=results)  # the rows, made in Python
    return env


class Renderer:
    """The pages of one season's views as HTML: the templates and the values every page shares.
    The one home of a page's rendering: the static writer and the server (``serve/``) call it."""

    def __init__(self, views: SiteViews) -> None:
        self.env = environment()
        self.common = {
            "season_name": views.season_name,
            "decimals": views.decimals,
            "updated": views.updated,
            "lang": spoken(),
        }
        self.menu = tuple((page.section, _(page.label), page.path) for page in MENU)
        # The page header (header.html: the season's name, the menu, the search form) is the
        # same for every page of one menu item at one depth: rendered once for each.
        self.headers: dict[tuple[str, str], Markup] = {}

    def __call__(self, page: Page) -> str:
        root = "../" if "/" in page.path else ""
        values = {name: getattr(page, name) for name in FIELDS[type(page)]}
        header = self.headers.get((root, page.section))
        if header is None:
            made = self.env.get_template("header.html").render(
                root=root, section=page.section, menu=self.menu, **self.common
            )
            header = self.headers[root, page.section] = Markup(made)
        template = self.env.get_template(TEMPLATES[type(page)])
        return visible(template.render(root=root, header=header, **self.common, **values))


def players_script(views: SiteViews) -> str:
    """players.js: every player's name and page, for the search box."""
    # the names as the pages show them: a control character written as its escape
    index = [(shown(name), href) for name, href in views.search_index()]
    players = json.dumps(index, ensure_ascii=False, separators=(",", ":"))
    return f"window.grandprixPlayers = {players};\n"


def _write(views: SiteViews, staging: Path) -> int:
    """Every page and export written into ``staging``, the marker last; the number of pages."""
    render = Renderer(views)
    (staging / "players").mkdir(parents=True)
    (staging / "events").mkdir()
    if views.standings_pages:
        (staging / "standings").mkdir()
    for name in STATIC:
        shutil.copy(HERE / name, staging / name)
    (staging / "players.js").write_text(players_script(views), encoding="utf-8")
    season, tables = views.season, views.tables
    exports: Exports | None = None
    files: PageFiles | None = None
    try:
        exports = Exports(staging, season, tables)  # by another process meanwhile
        files = PageFiles(staging)  # and the pages' files by a third
        count = _pages(views, render, files, staging)
        downloads = views.downloads(exports.finish())
        files.write(downloads.path, render(downloads))
        files.finish()
    except BaseException:
        for helper in (exports, files):
            if helper is not None:
                helper.cancel()
        raise
    listing = "\n".join([MARK_HEAD, *_listing(staging), MARK])
    (staging / MARK).write_text(listing + "\n", encoding="utf-8")
    return count + 1


def _counter() -> Synchronized[int] | None:
    """A whole number in memory shared with the processes forked afterwards, with its lock;
    None where the system has no shared memory for it (some containers lack ``/dev/shm``)."""
    try:
        return multiprocessing.get_context("fork").Value("q", 0)
    except OSError:
        return None


def _pages(views: SiteViews, render: Renderer, files: PageFiles, staging: Path) -> int:
    """Every page but the downloads, rendered by this process and, where fork can be used
    (``_can_fork``), by a forked one at the same time: each takes the next page nobody has
    taken (a counter they share), so both cores render whatever the machine's load. The forked
    one writes its own pages' files. The number of pages."""
    makers = views.makers()
    counter = _counter() if _can_fork() else None
    if counter is None:
        for make in makers:
            page = make()
            files.write(page.path, render(page))
        return len(makers)
    views.share()  # computed once, before the fork

    def claim() -> int:
        with counter.get_lock():
            taken = counter.value
            counter.value = taken + 1
        return int(taken)

    parent = os.getpid()

    def theirs() -> int:
        files.forget()
        done = 0
        while (k := claim()) < len(makers):
            if os.getppid() != parent:  # this process was killed: nobody wants its pages
                os._exit(1)
            page = makers[k]()
            _write_file(staging / page.path, render(page).encode("utf-8"))
            done += 1
        return done

    helper = Child(theirs, "writing the pages")
    mine = 0
    try:
        while (k := claim()) < len(makers):
            page = makers[k]()
            files.write(page.path, render(page))
            mine += 1
        done = helper.result()
    except BaseException:
        helper.cancel()
        raise
    assert mine + cast(int, done) == len(makers), f"{mine} + {done} of {len(makers)} pages"
    return len(makers)


class Exports:
    """The exports (CSV, JSON, XLSX), written by a forked process while this one renders the
    pages; season.json, the largest, is then made in the child's memory, not in this
    process's. Inline where fork is missing or other threads run (``_can_fork``)."""

    def __init__(self, folder: Path, season: Season, tables: Tables) -> None:
        self.child: Child | None = None
        self.files: list[str] = []
        if not _can_fork():
            self.files = write_exports(folder, season, tables)
            return
        job = functools.partial(write_exports, folder, season, tables)
        self.child = Child(job, "writing the exports")

    def finish(self) -> list[str]:
        """The files written; raises what the writing raised."""
        if self.child is None:
            return self.files
        result = self.child.result()
        assert isinstance(result, list)
        return result

    def cancel(self) -> None:
        if self.child is not None:
            self.child.cancel()


class PageFiles:
    """The pages' files, created and written by a forked process while this one renders the
    next page: creating a file is a system call that can take as long as rendering the page
    (0.05 ms a file on this machine's ext4, 0.3-0.5 ms for minutes after many files were
    removed, as when a site replaces the one before; a large season has 28,000 pages). Each
    page goes down a pipe as its path, a NUL and its UTF-8 text; a full pipe makes this process
    wait, so no more than a pipe's worth of pages is held. Written here, page by page, where
    fork cannot be used (``_can_fork``). (Measured on the 10,000-event site: with each renderer
    writing its own pages instead, a first build took as long, five pairs, and a rebuild over
    the earlier site 9% longer, three pairs.)"""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.sent = 0  # pages handed to the child
        self.child: Child | None = None
        if _can_fork():
            pages, self.send = multiprocessing.get_context("fork").Pipe(duplex=False)
            job = functools.partial(_page_writer, folder, pages, self.send)
            self.child = Child(job, "writing the pages")
            pages.close()

    def write(self, path: str, text: str) -> None:
        """The page ``path`` (relative to the folder) with ``text``."""
        data = text.encode("utf-8")
        if self.child is None:
            _write_file(self.folder / path, data)
            return
        try:
            self.send.send_bytes(path.encode("utf-8") + b"\0" + data)
            self.sent += 1
        except BrokenPipeError:  # the child stopped: what it raised says why
            self.send.close()
            self.child.result()
            raise

    def finish(self) -> None:
        """Wait for the child to have written every page handed to it."""
        if self.child is None:
            return
        with suppress(BrokenPipeError):  # a child that stopped says why below
            self.send.send_bytes(b"")
        self.send.close()
        written = self.child.result()
        assert written == self.sent, f"{written} of {self.sent} pages written"

    def cancel(self) -> None:
        if self.child is not None:
            self.child.cancel()
            self.send.close()

    def forget(self) -> None:
        """In a process forked from this one: close its copy of the pipe to the child."""
        if self.child is not None:
            self.send.close()


def _page_writer(folder: Path, pages: Connection, theirs: Connection) -> int:
    """The child's loop of ``PageFiles``: every page received, written, until an empty
    message; the number written. (``theirs``: the parent's end of the pipe, closed here.)"""
    theirs.close()
    count = 0
    while message := pages.recv_bytes():
        name, _, data = message.partition(b"\0")
        _write_file(folder / name.decode("utf-8"), data)
        count += 1
    return count


def _write_file(path: Path, data: bytes) -> None:
    """A new file with ``data``: three system calls (open, write, close) where a text file
    object takes seven."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _swap(work: Path, out: Path) -> None:
    """Publish ``work/new`` as ``out`` by rename; the earlier site, moved to ``work/old`` for
    the moment, is put back if the new one cannot take its place."""
    if out.exists():
        out.rename(work / "old")
    try:
        (work / "new").rename(out)
    except OSError:
        if (work / "old").exists():
            (work / "old").rename(out)
        raise
