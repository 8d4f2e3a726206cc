"""The seasons a server shows, each read from its folder, which stays the source of truth.

A season is read again whenever the version of its files changes: the name, size and
modification time of every file in the season folder and in the shared folders its
season.toml names. A file edited by hand while the server runs is seen on the next request;
an unchanged folder is not read twice. A folder of more than ``WALK_LIMIT`` files has no
version and is read on every request.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import tomli

from grandprix.errors import GrandprixError, InputError
from grandprix.paths import shared_folders
from grandprix.season.config import SEASON_FILE, load_season
from grandprix.site.build import Renderer
from grandprix.site.exports import XLSX_EXPORT, text_exports, xlsx_bytes
from grandprix.site.views import SiteViews, slug

WALK_LIMIT = 20_000
KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")  # a season's name in the server's paths
Version = tuple[tuple[str, int, int], ...]


def season_key(folder: Path) -> str:
    """The season's name in URLs (``/s/KEY/``): the folder's name when it is plain, else a slug."""
    name = folder.resolve().name
    return name if KEY.fullmatch(name) else slug(name)


def seasons_under(root: Path) -> dict[str, Path]:
    """Every sub-folder of ``root`` that holds a season.toml, by its key, in name order."""
    found: dict[str, Path] = {}
    for sub in sorted(root.iterdir()):
        if sub.is_dir() and (sub / SEASON_FILE).is_file():
            key, n = season_key(sub), 1
            while key in found:
                n += 1
                key = f"{season_key(sub)}-{n}"
            found[key] = sub
    return found


PUBLISHED = "site"  # the folder the workspace publishes into, inside the season folder


def folder_version(folder: Path) -> Version | None:
    """Name, size and modification time of every file of the season: None beyond WALK_LIMIT.
    Hidden files and folders (the workspace's lock and temporary files) and the published
    site are not the season's."""
    roots = [folder]
    try:
        with (folder / SEASON_FILE).open("rb") as file:
            names = tomli.load(file).get("shared_folders", [])
        if isinstance(names, list) and all(isinstance(n, str) for n in names):
            roots += shared_folders(folder, names)[0]
    except (OSError, tomli.TOMLDecodeError, UnicodeDecodeError):
        pass  # the season's own reading says what is wrong with season.toml
    found: list[tuple[str, int, int]] = []
    for root in roots:
        for path in season_files(root, folder):
            try:
                stat = os.stat(path)
            except OSError:
                continue  # removed meanwhile, or a broken link: the reading will say
            found.append((path, stat.st_size, stat.st_mtime_ns))
            if len(found) > WALK_LIMIT:
                return None
    return tuple(sorted(found))


def season_files(root: Path, folder: Path) -> Iterator[str]:
    """The files under ``root`` (the season ``folder`` or one of its shared folders) that are
    the season's: hidden files and folders (the workspace's lock and temporary files) and the
    site published inside the folder are not."""
    for top, folders, files in os.walk(root):
        folders[:] = [
            f for f in folders if not f.startswith(".") and (top, f) != (str(folder), PUBLISHED)
        ]
        yield from (os.path.join(top, name) for name in files if not name.startswith("."))


@dataclass
class Loaded:
    """A season as read at one version of its files: its views, or the problems found."""

    version: Version | None
    views: SiteViews | None = None
    render: Renderer | None = None
    problems: tuple[str, ...] = ()  # located, as 'grandprix check' prints them
    warnings: tuple[str, ...] = ()  # of a season that loads
    files: dict[str, bytes] = field(default_factory=dict)  # the exports made so far

    def export(self, name: str) -> bytes | None:
        """The export ``name`` (CSV, JSON or XLSX), made once for this version; None if none."""
        if self.views is None:
            return None
        if name not in self.files:
            season, tables = self.views.season, self.views.tables
            if name == XLSX_EXPORT:
                self.files[name] = xlsx_bytes(season, tables)
            else:
                texts = text_exports(season, tables)
                if name not in texts:
                    return None
                self.files.update((n, t.encode()) for n, t in texts.items())
        return self.files[name]


class SeasonSource:
    """One season folder, read again when its files change (``current``) or when asked
    (``forget``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._loaded: Loaded | None = None
        self._lock = threading.Lock()

    def current(self) -> Loaded:
        """The season as its files are now."""
        with self._lock:
            version = folder_version(self.folder)
            loaded = self._loaded
            if loaded is None or version is None or loaded.version != version:
                loaded = self._loaded = _load(self.folder, version)
            return loaded

    @property
    def name(self) -> str:
        """The season's name as last read; before it is read again, as season.toml says it
        ('' when it cannot say)."""
        loaded = self._loaded
        if loaded is not None and loaded.views:
            return loaded.views.season_name
        try:
            said = tomli.loads((self.folder / SEASON_FILE).read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, tomli.TOMLDecodeError):
            return ""
        name = said.get("name")
        return name if isinstance(name, str) else ""

    def forget(self) -> None:
        """Drop what was read: the next request reads the folder again."""
        with self._lock:
            self._loaded = None


def _load(folder: Path, version: Version | None) -> Loaded:
    try:
        season, problems = load_season(folder)
        if season is None:
            return Loaded(version, problems=tuple(str(p) for p in problems))
        views = SiteViews(season)
        return Loaded(version, views, Renderer(views), warnings=tuple(str(p) for p in problems))
    except InputError as exc:
        return Loaded(version, problems=tuple(str(p) for p in exc.problems))
    except GrandprixError as exc:
        return Loaded(version, problems=(str(exc),))
