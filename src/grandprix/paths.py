"""Where input files may be: inside the folder of the file that names them, or inside a shared
folder that file names explicitly (``shared_folders``). Anything else is refused before it is
opened, so nothing outside the folder the user gave is ever read."""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn


class OutsideError(ValueError):
    """A path that leaves the folders it may be in, or that no file can have (a name too long
    for the file system); the message never shows the file's content."""


def contained(base: Path, name: str, allowed: Sequence[Path] = ()) -> Path:
    """The path ``name`` (relative to ``base``) once every symlink is followed, checked to lie
    inside ``base`` or one of the ``allowed`` folders; ``OutsideError`` otherwise."""
    return Folders(base, allowed).check(name)


class Folders:
    """A folder and the shared folders its file allows, resolved once for many checks."""

    def __init__(self, base: Path, allowed: Sequence[Path] = ()):
        self.base = base
        self.allowed = bool(allowed)
        self.roots = [os.path.realpath(p) for p in (base, *allowed)]

    def check(self, name: str) -> Path:
        """``contained``: the resolved path of ``name``, or ``OutsideError``."""
        if "\x00" in name:
            raise OutsideError(f"'{name[:60]}' holds a NUL character; give a plain file name")
        encoded = os.fsencode(os.path.join(self.base, name))
        if len(encoded) >= _PATH_MAX or any(len(part) > _NAME_MAX for part in encoded.split(b"/")):
            raise OutsideError(
                f"'{name[:60]}...' is too long for a file name ({_NAME_MAX} bytes a name, "
                f"{_PATH_MAX} in all); give the file a shorter name"
            )
        if _plain(name):
            # A file directly in the (resolved) folder: only its own name can be a symbolic
            # link, so one lstat replaces resolving every component (10,000 files a season).
            target = os.path.join(self.roots[0], name)
            if not _is_link(target):
                return Path(target)
        target = os.path.realpath(os.path.join(self.base, name))
        if any(target == root or target.startswith(root + os.sep) for root in self.roots):
            return Path(target)
        self._refuse(name)

    def _refuse(self, name: str) -> NoReturn:
        absolute = Path(name).is_absolute()
        what = "an absolute path outside the folder" if absolute else "outside the folder"
        shared = " or the shared folders it names" if self.allowed else ""
        raise OutsideError(
            f"'{name[:120]}' is {what}: files must be inside {self.base}{shared} (after "
            "following symbolic links); copy the file into the folder, or name its folder in "
            "'shared_folders'"
        )


_NAME_MAX, _PATH_MAX = 255, 4096  # the limits of Linux's file systems (ext4, tmpfs, ...)


def _plain(name: str) -> bool:
    """A file name without a folder: no separator, not '.', '..' or empty."""
    return (
        bool(name)
        and name not in (".", "..")
        and os.sep not in name
        and (os.altsep is None or os.altsep not in name)
    )


def _is_link(path: str) -> bool:
    """Whether ``path`` is a symbolic link (a missing file is not)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


def shared_folders(base: Path, names: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The shared folders a season or event file names (relative to ``base`` or absolute),
    and a message for each one that is not a folder."""
    found: list[Path] = []
    bad: list[str] = []
    for name in names:
        folder = (base / name).resolve()
        if folder.is_dir():
            found.append(folder)
        else:
            bad.append(f"shared folder '{name[:120]}' is not a folder")
    return found, bad
