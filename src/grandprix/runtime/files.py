"""Files read once while their contents stay the same: the cache a long-running process
(the server, the workspace's previews) keeps of what it parsed, and the quick whole-file read;
a file written whole or not at all (``write_whole``)."""

from __future__ import annotations

import hashlib
import lzma
import os
import stat
import zipfile
import zlib
from pathlib import Path

# How a damaged zip fails: in its headers, in the decompressor its method names (deflate, bzip2:
# OSError, LZMA), a method or an encryption the zip module does not read.
DAMAGED_ZIP = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    EOFError,
    OSError,
    ValueError,
    zlib.error,
    lzma.LZMAError,
    NotImplementedError,
    RuntimeError,
)


class FileCache:
    """What was read from files, kept by the file's contents (a digest of its bytes) and the
    file itself (device and inode, which a hard link shares) while nothing was wrong with it: a
    long-running server reading a season again, or a preview reading its hard-linked copy, does
    not parse an unchanged file twice; a file changed in place is read again whatever its size
    and modification time; and an equal file elsewhere is read as itself (what is read names
    the path it was read at). Only reads without problems are kept."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self.items: dict[tuple[object, ...], object] = {}

    @staticmethod
    def key(data: bytes, stat: os.stat_result, *extra: object) -> tuple[object, ...]:
        """The key of a file's ``data`` as read from the file ``stat`` describes (and whatever
        else the reading depends on)."""
        return (hashlib.blake2b(data, digest_size=16).digest(), stat.st_dev, stat.st_ino, *extra)

    @staticmethod
    def identity_of(stat: os.stat_result, *extra: object) -> tuple[object, ...]:
        """A file as ``os.stat`` sees it (device, inode, size, modification time): whether it
        is still the file another process read during one command."""
        return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, *extra)

    def get(self, key: tuple[object, ...] | None) -> object | None:
        return None if key is None else self.items.get(key)

    def put(self, key: tuple[object, ...] | None, value: object) -> None:
        if key is None:
            return
        if len(self.items) >= self.limit:
            self.items.pop(next(iter(self.items)))
        self.items[key] = value


def read_bytes(path: str | Path, limit: int | None = None, size: int | None = None) -> bytes:
    """The whole file, as ``Path.read_bytes`` gives it, in four system calls for a small file
    (open, read, the read that finds the end, close) instead of nine: a season reads 10,000
    results files. With ``limit``, at most ``limit`` bytes and one more: a file longer than
    the bound (grown since its size was checked, or a device that never ends) is told by the
    length of what is read, and never read whole. ``size``: the file's size, as ``os.stat``
    gave it, read in one call (a large file is not read in pieces that are then copied
    whole again)."""
    fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    try:
        chunks = []
        left = None if limit is None else limit + 1  # bytes still to read
        want = _CHUNK if size is None else size + 1
        while left != 0 and (chunk := os.read(fd, want if left is None else min(want, left))):
            chunks.append(chunk)
            if left is not None:
                left -= len(chunk)
            want = _CHUNK
        return chunks[0] if len(chunks) == 1 else b"".join(chunks)
    finally:
        os.close(fd)


_CHUNK = 64 * 1024  # below the allocator's threshold for a mapping of its own


def write_whole(path: Path, data: bytes) -> None:
    """The file written whole or not at all: a temporary file beside it, flushed to the disk,
    renamed over it. It keeps its permissions; a new file gets those of any new file (0o666
    less the umask), not the 0o600 of ``tempfile.mkstemp``: others who read the season folder
    still can."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        temp = path.parent / f".{path.name}.tmp-{os.urandom(6).hex()}"
        try:
            fd = os.open(
                temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666
            )
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as out:
            if path.exists() and hasattr(os, "fchmod"):
                os.fchmod(fd, stat.S_IMODE(path.stat().st_mode))
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    sync_folder(path.parent)


def sync_folder(folder: Path) -> None:
    """The folder's entries (a rename) on the disk too, where the system allows it."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
