"""The coordinator's workspace: changes to a season folder, previewed, then accepted.

The season folder stays the source of truth, so every change is a change of its files: a
results file written, ``season.toml`` edited with tomlkit (its comments and layout kept),
``aliases.csv`` given a row. A ``Change`` is those files' new contents. It is previewed on a
copy of the folder in a temporary place: the copy is read as ``grandprix check`` reads a
season, and its standings, prizes and race are compared with the folder's own. Nothing in the
folder is touched by a preview.

A change is accepted against the ``version`` of the folder it was previewed on (a digest of
its files' names, sizes and modification times): when the folder changed since, by hand or
by another form, it is refused (``StaleError``), never lost over. Accepting holds the folder's
lock, checks the version, checks again that the changed season reads without errors, then
writes each file whole (a temporary file renamed over it), ``season.toml`` last: two changes at
once both land one after the other or the second is refused, and the folder is never half
written.
"""

from __future__ import annotations

import datetime
import gc
import hashlib
import os
import shutil
import stat
import sys
import tempfile
import threading
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Array, Table

from grandprix.errors import UsageError
from grandprix.model import Location, Problem, Severity
from grandprix.numbers import show
from grandprix.paths import shared_folders
from grandprix.players import PlayerKey
from grandprix.prizes.season import season_prizes
from grandprix.season.config import ALIASES_FILE, SEASON_FILE, SeasonFile, load_season
from grandprix.season.model import Line, Season
from grandprix.season.race import race
from grandprix.season.report import Tables
from grandprix.season.standings import AwardMemo, division_standings
from grandprix.serve import seasons

LOCK_FILE = ".grandprix-workspace.lock"
_THREAD_LOCKS: dict[Path, threading.Lock] = {}
_GUARD = threading.Lock()


class StaleError(UsageError):
    """The folder changed since the form was made."""


@dataclass(frozen=True)
class Change:
    """New contents of some files of a season folder (names relative to it), in words, and
    the folder's version they were made from (read before the files they change): a change
    made from files that changed since is refused, never written over them."""

    files: dict[str, bytes]
    what: str
    base: str = ""


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


# The version of a folder


def folder_version(folder: Path) -> str:
    """The folder's version as a short text for a form: a digest of the name, size and
    modification time of every file of the season (``seasons.folder_version``); a folder too
    large to list has the version of this moment, so every form made on it is stale."""
    listed = seasons.folder_version(folder)
    if listed is None:
        return "now-" + os.urandom(8).hex()
    return hashlib.sha256(repr(listed).encode()).hexdigest()[:20]


# Changes


def event_change(
    folder: Path,
    name: str,
    date: datetime.date,
    filename: str,
    data: bytes,
    *,
    category: str = "",
    prize_fund: str = "",
) -> Change:
    """A new event of the season: its results file and its ``[[events]]`` entry, with its
    category and prize fund when given (rules that choose tables by either need them)."""
    base = folder_version(folder)
    if not name.strip() or any(not c.isprintable() for c in name):
        raise UsageError(f"{name[:60]!r} cannot be an event's name: write it on one line, "
                         "without control characters")  # fmt: skip
    _not_reserved(folder, filename)
    if (folder / filename).exists():
        raise UsageError(
            f"{filename}: the season folder already has a file of that name; rename the upload "
            "(a file already there is never replaced)"
        )
    entry = tomlkit.table()
    entry["name"] = name
    entry["date"] = date
    if category:
        entry["category"] = category
    if prize_fund:
        entry["prize_fund"] = _amount(prize_fund)
    entry["results"] = filename
    path = folder / SEASON_FILE
    try:
        text = path.read_text(encoding="utf-8-sig")
        listed = tomllib.loads(text).get("events")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read it ({exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{path}: not valid TOML ({exc}); correct it first") from exc
    tables = isinstance(listed, list) and listed and all(isinstance(e, dict) for e in listed)
    calendar = listed if isinstance(listed, list) else []
    planned = any(isinstance(e, dict) and e.get("name") == name and e.get("planned")
                  for e in calendar)  # fmt: skip
    if planned:  # in the calendar already: its entry gets the results, its values stay
        document = _season_document(folder)
        when: object = date
        for known in document.get("events") or []:
            if known.get("name") == name and known.get("planned"):
                del known["planned"]
                for key, value in entry.items():
                    if key not in known:  # date, category, prize fund: the calendar's own
                        known[key] = value
                when = known.get("date", date)
                break
        return Change(
            {filename: data, SEASON_FILE: _dumped(document)},
            f"results of the planned event '{name}' ({when}): {filename}",
            base,
        )
    if tables and "[[events]]" in text:  # written as [[events]] tables, not inline
        # Appended as text: the file's own lines stay as they are, and a large season.toml
        # is not parsed again by tomlkit (the preview reads the result).
        added = tomlkit.document()
        added["events"] = tomlkit.aot()
        added["events"].append(entry)
        text = text if text.endswith("\n") else text + "\n"
        return Change(
            {filename: data, SEASON_FILE: (text + "\n" + tomlkit.dumps(added)).encode()},
            f"add event '{name}' of {date} with results {filename}",
            base,
        )
    document = _season_document(folder)
    events = document.get("events")
    if events is None or (isinstance(events, Array) and not events):
        if events is not None:  # 'events = []', as a season starts (start_season)
            del document["events"]
        events = tomlkit.aot()
        document["events"] = events
    if isinstance(events, Array):  # events = [{...}, ...], written inline: kept inline
        inline = tomlkit.inline_table()
        inline.update(entry)
        events.append(inline)
    elif isinstance(events, AoT):
        events.append(entry)
    else:
        raise UsageError(f"{folder / SEASON_FILE}: 'events' is not a list of events")
    return Change(
        {filename: data, SEASON_FILE: _dumped(document)},
        f"add event '{name}' of {date} with results {filename}",
        base,
    )


def season_read_files(folder: Path) -> set[str]:
    """The names (case folded) of the files the season reads by name besides its results:
    season.toml, aliases.csv, its players file, its rules file, its rating lists and store.
    An upload may never take one of them (a results file named aliases.csv would also be read
    as the coordinator's decisions on names)."""
    names = {SEASON_FILE, ALIASES_FILE, "players.csv"}
    try:
        said = tomllib.loads((folder / SEASON_FILE).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        said = {}
    rules = said.get("rules")
    named = [said.get("players"), said.get("ratings_store"),
             rules if isinstance(rules, str) and rules.endswith(".toml") else None,
             rules.get("file") if isinstance(rules, dict) else None]  # fmt: skip
    lists = said.get("rating_lists")
    named += (
        [e.get("file") for e in lists if isinstance(e, dict)] if isinstance(lists, list) else []
    )
    names.update(n for n in named if isinstance(n, str))
    return {Path(n).as_posix().casefold() for n in names}


def _not_reserved(folder: Path, filename: str) -> None:
    if filename.casefold() in season_read_files(folder):
        raise UsageError(
            f"{filename}: the season reads a file of that name for something else (its "
            "settings, players, names or ratings); give the results file another name"
        )


def needs_approval(folder: Path) -> bool:
    """Whether the season says directors' uploads wait for a coordinator (``approval``)."""
    try:
        said = tomllib.loads((folder / SEASON_FILE).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True  # unreadable: nothing a director sends is written unseen
    return said.get("approval") is True


def with_results(folder: Path) -> set[str]:
    """The events of season.toml that have results (not those only planned)."""
    return {name for name, found in results_files(folder).items() if found}


def results_files(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """Each event of season.toml with its results files: event name -> [(section, file)]
    (section '' for a one-section event); planned events have none."""
    try:
        listed = tomllib.loads((folder / SEASON_FILE).read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"{folder / SEASON_FILE}: cannot read it ({exc})") from exc
    out: dict[str, list[tuple[str, str]]] = {}
    for entry in listed.get("events", []) if isinstance(listed.get("events"), list) else []:
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            continue
        found = [("", entry["results"])] if isinstance(entry.get("results"), str) else []
        found += [
            (str(s.get("name", "")), s["results"])
            for s in entry.get("sections", [])
            if isinstance(s, dict) and isinstance(s.get("results"), str)
        ]
        out[entry["name"]] = found
    return out


def results_change(
    folder: Path, event: str, filename: str, data: bytes, *, section: str = ""
) -> Change:
    """Corrected results of an event already in the season: under the name of the file they
    replace (its earlier bytes go to the server's store, never lost), or under a new name that
    the event's entry then gives (the earlier file stays in the folder)."""
    base = folder_version(folder)
    files = results_files(folder).get(event)
    if not files:
        raise UsageError(f"the season has no event '{event[:60]}' with results to correct")
    chosen = [f for s, f in files if s == section]
    if not chosen:
        names = ", ".join(repr(s) for s, _ in files)
        raise UsageError(f"event '{event[:60]}' has no section '{section[:60]}' (it has {names})")
    current = chosen[0]
    _not_reserved(folder, filename)
    what = f"correct the results of '{event}'" + (f" ({section})" if section else "")
    if filename == current:
        return Change({filename: data}, f"{what}: {filename} replaced", base)
    if (folder / filename).exists():
        raise UsageError(
            f"{filename}: the season folder already has another file of that name; upload the "
            f"results as {current} (which they replace) or under a new name"
        )
    document = _season_document(folder)
    for entry in document.get("events", []):
        if entry.get("name") != event:
            continue
        if not section:
            entry["results"] = filename
        for part in entry.get("sections", []):
            if part.get("name") == section:
                part["results"] = filename
    return Change(
        {filename: data, SEASON_FILE: _dumped(document)},
        f"{what}: now {filename} (instead of {current}, which stays in the folder)",
        base,
    )


def _amount(text: str) -> int | float:
    """A prize fund as the form gives it ('1500', '1,500', '750.50'), as a TOML number."""
    try:
        amount = Decimal(text.replace(",", "").strip())
    except InvalidOperation:
        amount = Decimal(-1)
    if not amount.is_finite() or amount < 0:
        raise UsageError(f"prize fund '{text[:20]}' is not an amount: write it as 1500 or 750.50")
    return int(amount) if amount == amount.to_integral_value() else float(amount)


def rules_change(folder: Path, changes: dict[str, Any]) -> Change:
    """Rule-set keys changed in ``season.toml``: dotted keys (``points.table``) set in its
    ``[rules]`` table, which is made from ``rules = "preset"`` when needed."""
    base = folder_version(folder)
    document = _season_document(folder)
    rules = document.get("rules")
    if isinstance(rules, str):
        table = tomlkit.table()
        table["preset"] = rules
        del document["rules"]
        document["rules"] = table
        rules = table
    if not isinstance(rules, Table):
        raise UsageError(f"{folder / SEASON_FILE}: 'rules' is neither a preset name nor a table")
    for dotted, value in changes.items():
        parts = dotted.split(".")
        here: Any = rules
        for part in parts[:-1]:
            if part not in here:
                here[part] = tomlkit.table()
            here = here[part]
            if not isinstance(here, Table):
                raise UsageError(f"rules key '{dotted}': '{part}' is not a table")
        here[parts[-1]] = _tables(value)
    shown = ", ".join(f"{k} = {_shown(v)}" for k, v in changes.items())
    return Change({SEASON_FILE: _dumped(document)}, f"change the rules: {shown}", base)


def _tables(value: Any) -> Any:
    """A list of inline tables as [[...]] tables, as season.toml writes them."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        written = tomlkit.aot()
        for item in value:
            table = tomlkit.table()
            table.update(item)
            written.append(table)
        return written
    return value


def alias_change(folder: Path, name: str, other: str, same: bool) -> Change:
    """The coordinator's decision on two similar names, one row of ``aliases.csv``."""
    base = folder_version(folder)
    for text in (name, other):
        if not text.strip() or any(c in text for c in '\n\r"'):
            raise UsageError(f"'{text[:60]}' is not a name aliases.csv can hold")
    path = folder / ALIASES_FILE
    before = path.read_bytes() if path.exists() else b"name,other,decision\n"
    if before and not before.endswith(b"\n"):
        before += b"\n"
    row = f"{_cell(name)},{_cell(other)},{'same' if same else 'different'}\n".encode()
    word = "the same person" if same else "two people"
    return Change({ALIASES_FILE: before + row}, f"'{name}' and '{other}' are {word}", base)


def toml_value(text: str) -> Any:
    """A value typed in a form, read as TOML writes it (``4``, ``1.5``, ``"14/3"``, ``true``,
    ``[21, 15, 12]``, ``"rapid"``); a bare word is read as a string."""
    try:
        return tomlkit.parse(f"value = {text}")["value"]
    except tomlkit.exceptions.ParseError:
        if text.strip() and "\n" not in text and '"' not in text:
            return text.strip()
        raise UsageError(
            f"'{text[:60]}' is not a value (write e.g. 4, 1.5, true or [21, 15])"
        ) from None


def _cell(text: str) -> str:
    return f'"{text}"' if "," in text else text


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_shown(v) for v in value) + "]"
    return str(value)


def _dumped(document: tomlkit.TOMLDocument) -> bytes:
    """season.toml as tomlkit writes it, ending with a newline (a table tomlkit adds last, as
    ``rules_change`` does, ends without one)."""
    text = tomlkit.dumps(document)
    return (text if not text or text.endswith("\n") else text + "\n").encode()


def _season_document(folder: Path) -> tomlkit.TOMLDocument:
    path = folder / SEASON_FILE
    try:
        return tomlkit.parse(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read it ({exc})") from exc
    except tomlkit.exceptions.ParseError as exc:
        raise UsageError(f"{path}: not valid TOML ({exc}); correct it first") from exc


# Previews


@dataclass
class _Before:
    version: str
    tables: Tables | None
    prizes: dict[str, str] = field(default_factory=dict)
    leaders: tuple[str, ...] = ()


_BEFORE: dict[Path, _Before] = {}
_MEMOS: dict[Path, AwardMemo] = {}  # each folder's event awards, reused by its previews


def _memo(folder: Path) -> AwardMemo:
    return _MEMOS.setdefault(folder, AwardMemo())


_GC_LOCK = threading.Lock()
_GC_HOLDERS = 0
_GC_WAS_ON = True


@contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused while a preview computes: the season's records
    live on in the server's caches, and each full collection walks all of them again (a third
    of a preview's time on a 300-event season). The season's records make no cycles; what
    garbage is made meanwhile is collected when the last preview running ends."""
    global _GC_HOLDERS, _GC_WAS_ON
    with _GC_LOCK:
        if not _GC_HOLDERS:
            _GC_WAS_ON = gc.isenabled()
        _GC_HOLDERS += 1
        gc.disable()
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_HOLDERS -= 1
            if not _GC_HOLDERS and _GC_WAS_ON:
                gc.enable()


def preview(folder: Path, change: Change) -> Preview:
    """What ``change`` would do to the season in ``folder``, computed on a copy."""
    with _no_collection():
        return _preview(folder, change)


def _preview(folder: Path, change: Change) -> Preview:
    folder = folder.resolve()
    version = folder_version(folder)
    if change.base and change.base != version:
        moved = Problem(Location(str(folder / SEASON_FILE)), "the season's files changed "
                        "while this change was being made; make it again")  # fmt: skip
        return Preview(change, change.base, (moved,))
    before = _before(folder, version)
    with _copy(folder, change) as (copy, problems):
        if problems:
            return Preview(change, version, tuple(problems))
        season, found = load_season(copy)
        found = [_relocated(p, copy, folder) for p in found]
        if season is None:
            return Preview(change, version, tuple(found))
        tables = division_standings(season, memo=_memo(folder))
        moves = _moves(before.tables or [], tables)
        prizes = _prize_changes(before.prizes, _prizes(season, tables))
        leaders = _leaders(season, tables)
        said = () if leaders == before.leaders else (*before.leaders, "->", *leaders)
        return Preview(change, version, tuple(found), moves, prizes, said)


def _before(folder: Path, version: str) -> _Before:
    """The folder's own standings, prizes and race, computed once per version."""
    known = _BEFORE.get(folder)
    if known is not None and known.version == version:
        return known
    season, _ = load_season(folder)
    if season is None:
        state = _Before(version, None)
    else:
        tables = division_standings(season, memo=_memo(folder))
        state = _Before(version, tables, _prizes(season, tables), _leaders(season, tables))
    _BEFORE[folder] = state
    return state


@contextmanager
def _copy(folder: Path, change: Change) -> Iterator[tuple[Path, list[Problem]]]:
    """The season folder copied with ``change`` applied, at the same absolute path inside a
    temporary folder, its shared folders linked at theirs: relative paths in season.toml
    resolve as they do in the folder."""
    with tempfile.TemporaryDirectory(prefix="grandprix-preview-") as temp:
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
        data = tomllib.loads((copy / SEASON_FILE).read_text(encoding="utf-8-sig"))
        config = SeasonFile.model_validate(data)
    except Exception:  # the copy's season.toml is read again, with located problems, later
        return
    allowed, _ = shared_folders(folder, config.shared_folders)
    for shared in allowed:
        mirror = root / Path(shared).relative_to(Path(shared).anchor)
        if not mirror.exists():
            mirror.parent.mkdir(parents=True, exist_ok=True)
            mirror.symlink_to(shared, target_is_directory=True)


def _relocated(problem: Problem, copy: Path, folder: Path) -> Problem:
    """A problem found in the copy, located in the folder."""
    path = problem.location.path
    if path.startswith(str(copy)):
        path = str(folder) + path[len(str(copy)) :]
    message = problem.message.replace(str(copy), str(folder))
    return Problem(Location(path, problem.location.line, problem.location.column), message,
                   problem.severity)  # fmt: skip


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


def _leaders(season: Season, tables: Tables) -> tuple[str, ...]:
    """The race for 1st place of each table while events are left: who has clinched it or
    who can still reach it."""
    if not any(e.planned for e in season.events):
        return ()
    out = []
    for name, outlooks in race(season, tables=tables).items():
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


def accept(folder: Path, version: str, change: Change) -> Accepted:
    """Write ``change`` into the folder if it is still at ``version`` and the changed season
    reads without errors."""
    folder = folder.resolve()
    with locked(folder):
        now = folder_version(folder)
        if now != version or (change.base and change.base != now):
            raise StaleError(
                f"{folder}: the season's files changed since this form was made (by hand or by "
                "another change); nothing was written: look at the new state and try again"
            )
        checked = preview(folder, change)
        if not checked.ok:
            first = checked.errors[0]
            raise UsageError(f"{first}; nothing was written")
        replaced = {  # a link is replaced, never followed out of the folder
            name: (folder / name).read_bytes()
            for name in change.files
            if (folder / name).is_file() and not (folder / name).is_symlink()
        }
        for name in sorted(change.files, key=lambda n: n == SEASON_FILE):  # season.toml last
            _write_whole(folder / name, change.files[name])
        return Accepted(folder_version(folder), checked, replaced)


def _write_whole(path: Path, data: bytes) -> None:
    """The file written whole or not at all: a temporary file beside it, renamed over it. It
    keeps its permissions; a new file gets those of any new file (0o666 less the umask), not
    the 0o600 of ``tempfile.mkstemp``: others who read the season folder still can."""
    path.parent.mkdir(parents=True, exist_ok=True)
    while True:
        temp = path.parent / f".{path.name}.tmp-{os.urandom(6).hex()}"
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                         0o666)  # fmt: skip
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


# New seasons


def start_season(
    root: Path,
    folder_name: str,
    name: str,
    *,
    preset: str | None = None,
    like: Path | None = None,
    start: datetime.date | None = None,
    end: datetime.date | None = None,
) -> Path:
    """A new season folder under ``root`` with its season.toml: the rules of a preset, or
    those of the season in ``like`` (its rules file copied when it has one), and no events
    (``events = []``: a season that reads without errors, its pages and forms working)."""
    target = root / folder_name
    if target.exists():
        raise UsageError(f"{target}: a folder of that name exists already; choose another name")
    document = tomlkit.document()
    document["name"] = name
    if start:
        document["start"] = start
    if end:
        document["end"] = end
    files: dict[str, bytes] = {}
    if preset is not None:
        document["rules"] = preset
    elif like is not None:
        rules = _season_document(like).get("rules")
        if isinstance(rules, Table) and isinstance(rules.get("file"), str):
            source = like / str(rules["file"])
            files[str(rules["file"])] = source.read_bytes()
        document["rules"] = rules
    else:
        raise UsageError("a new season needs a preset or a season whose rules it takes")
    document["events"] = tomlkit.array()  # none yet: the workspace adds them
    target.mkdir(parents=True)
    for file_name, data in files.items():
        _write_whole(target / file_name, data)
    _write_whole(target / SEASON_FILE, _dumped(document))
    return target
