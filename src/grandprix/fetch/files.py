"""Where a download is kept: the file's name (the event's name and the tournament's id, or the
name the user gave, checked) and its writing, whole and never over a file, only inside the
season folder."""

from __future__ import annotations

import os
import re
import tempfile
import unicodedata
from pathlib import Path
from typing import Final

from grandprix.fetch.sources import FetchError, Source, shown

NAME_LIMIT: Final = 120  # characters of a file name (as serve/security.safe_name)


_EVENT_PART: Final = 80  # characters of the name taken from the event's name


def suffix_of(source: Source) -> str:
    return {"chess-results": ".xlsx", "lichess": ".ndjson", "chess.com": ".json"}[source.site]


def stem_of(source: Source) -> str:
    """The tournament's id as a file's stem: ``chess-results-1017236``, ``lichess-ADAHHiMX``."""
    if source.site == "chess.com":
        where = f" round {source.round} group {source.group}" if source.group is not None else ""
        return _slug(f"chess.com {source.ident}{where}")
    return f"{source.site}-{source.ident}"


def _slug(text: str) -> str:
    """Letters and digits of ASCII, lower case, joined by hyphens."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", plain.lower()).strip("-")


def file_name(event: str, source: Source) -> str:
    """The event's name as a file name, with the tournament's id (the site's name and the id
    when the name has no letter or digit of ASCII)."""
    words = _slug(event)[:_EVENT_PART].rstrip("-")
    ident = _slug(source.ident)
    if source.site == "chess.com":  # its id is the event's name as chess.com spells it
        stem = stem_of(source).removeprefix("chess-com-")
    else:
        stem = f"{words}-{ident}" if words else stem_of(source)
    return f"{stem[: NAME_LIMIT - 8]}{suffix_of(source)}"


def checked_name(name: str, suffix: str, folder: Path) -> str:
    """A file name the user gave, refused unless it is a plain name with the format's suffix."""
    plain = unicodedata.normalize("NFC", name).strip()
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in plain):
        raise FetchError(f"--name {shown(name)}: a file name may not hold control characters")
    if not plain or any(c in plain for c in "/\\:") or plain.startswith("."):
        raise FetchError(
            f"--name {shown(name)}: give a plain file name (no folder, no '/', '\\' or ':', "
            f"not starting with '.'); the file is written in {folder}"
        )
    if len(plain) > NAME_LIMIT:
        raise FetchError(f"--name: a file name has at most {NAME_LIMIT} characters")
    if not plain.lower().endswith(suffix) or len(plain) == len(suffix):
        raise FetchError(
            f"--name {shown(name)}: the name must end in {suffix}, the format's suffix "
            "(the season reads the file by it)"
        )
    return plain


def write_new(folder: Path, name: str, data: bytes) -> Path:
    """``data`` written whole as ``folder/name``, a new file: a temporary file in the folder,
    then a hard link to the name (which fails if the name exists, even as a link of its own).
    ``FetchError`` if the name exists; nothing is left behind on any failure."""
    target = folder / name
    if target.parent != folder or Path(name).name != name:
        raise FetchError(f"{shown(name)}: not a file name inside {folder}")
    if os.path.lexists(target):
        raise FetchError(exists_message(target))
    handle, temporary = tempfile.mkstemp(prefix=".grandprix-fetch-", suffix=".part", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(temporary, 0o666 & ~mask)
        try:
            os.link(temporary, target)
        except FileExistsError:
            raise FetchError(exists_message(target)) from None
        except OSError:  # a file system without hard links (FAT, some network shares)
            if os.path.lexists(target):
                raise FetchError(exists_message(target)) from None
            os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)
    return target


def exists_message(target: Path) -> str:
    return (
        f"{target} exists: nothing was written. Its name holds the tournament's id, so it is "
        "most likely this tournament downloaded before: compare the two, remove the old file "
        "to download it again, or give another name with --name"
    )
