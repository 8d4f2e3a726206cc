"""Readers: one module per file format, each returning records plus every located problem.

``FORMATS`` is the registry of input formats: each name with its reader and the test that
recognises its files. The CLI's ``--input-format`` choices and the season file's ``format`` key
are drawn from it, and ``load_section`` reads a file with the format named or recognised.
"""

from __future__ import annotations

import functools
import io
import multiprocessing
import os
import pickle
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from grandprix.errors import UsageError
from grandprix.model import Location, Problem, Section, Severity
from grandprix.placings import Against, read_ranks
from grandprix.readers import (
    chess_results,
    chesscom,
    games_csv,
    lichess,
    standings_csv,
    trf,
    uschess_dbf,
)
from grandprix.readers.bounds import RESULTS, Bound, too_large
from grandprix.runtime.background import Child, can_fork
from grandprix.runtime.files import FileCache, read_bytes
from grandprix.scores import show, span_text

Reader = Callable[[Path, bytes], tuple[Section | None, list[Problem]]]
PartReader = Callable[[Path, bytes, str], tuple[Section | None, list[Problem]]]
Check = Callable[[Section], list[Problem]]  # a check of a section read (the season's rank check)


@dataclass(frozen=True)
class InputFormat:
    """A results-file format: its reader, and how a file of it is recognised when not named."""

    read: Reader
    recognise: Callable[[str, bytes], bool]  # (lower-case suffix, first 4 KiB) -> is it one
    rank: int  # recognisers are tried lowest rank first: a chess-results sheet is a .csv too
    # A file of several sections (a US Chess report): the one of a name, as an event's
    # [[events.sections]] entry names it; None when a file is one section.
    read_part: PartReader | None = None
    # Whether the file alone holds what is read (a US Chess report's TDEXPORT.DBF reads its
    # two sibling tables too: a change to them alone must not find the section kept).
    alone: bool = True
    # The most bytes read of a file of the format, checked from its size before it is opened.
    bound: Bound = RESULTS


# In the order the CLI lists them.
FORMATS: dict[str, InputFormat] = {
    "trf": InputFormat(trf.read_trf, trf.recognise, rank=1, bound=trf.BOUND),
    "csv": InputFormat(
        standings_csv.read_standings_csv, standings_csv.recognise, rank=2, bound=standings_csv.BOUND
    ),
    "chess-results": InputFormat(
        chess_results.read_chess_results, chess_results.recognise, rank=0, bound=chess_results.BOUND
    ),
    # A US Chess rating report (SwissSys, WinTD): a zip of its three tables, or TDEXPORT.DBF.
    "uschess-dbf": InputFormat(
        uschess_dbf.read_uschess_dbf,
        uschess_dbf.recognise,
        rank=0,
        read_part=uschess_dbf.read_uschess_dbf,
        alone=False,
        bound=uschess_dbf.BOUND,
    ),
    # Online tournaments: lichess's Swiss and arena results (NDJSON; its Swiss TRF is a TRF),
    # chess.com's PubAPI round group (JSON). Players are ids of their own kind: lichess:NAME.
    "lichess": InputFormat(lichess.read_lichess, lichess.recognise, rank=0, bound=lichess.BOUND),
    "chesscom": InputFormat(
        chesscom.read_chesscom, chesscom.recognise, rank=0, bound=chesscom.BOUND
    ),
    # A list of games, one row a game (white, black, result), as a club evening keeps it.
    "games": InputFormat(
        games_csv.read_games_csv, games_csv.recognise, rank=1, bound=games_csv.BOUND
    ),
}
UNRECOGNISED = "trf"  # read as TRF, whose reader says what is wrong with the file

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import SynchronizedArray

    FormatName = str
else:  # the season schema's type: its choices and messages come from the registry
    FormatName = Literal[tuple(FORMATS)]


_RANKED = sorted(FORMATS, key=lambda name: FORMATS[name].rank)


def detect_format(path: Path, data: bytes) -> str:
    """The first format, by rank, that recognises the file's name and content; else TRF."""
    suffix, head = path.suffix.lower(), data[:HEAD]
    return next((name for name in _RANKED if FORMATS[name].recognise(suffix, head)), UNRECOGNISED)


HEAD = 4096  # bytes of a file its format is recognised by


def _bound(path: Path, fmt: str | None, size: int) -> Bound:
    """The bound of a file of ``size`` bytes: its format's, named or recognised. A file larger
    than some format's bound has its format recognised from its first bytes before the rest
    is read (a file that is smaller is read whole, and recognised from what was read)."""
    if fmt is None and size > min(f.bound.limit for f in FORMATS.values()):
        fmt = detect_format(path, read_bytes(path, HEAD - 1))
    if fmt is None:  # (read whole, and recognised: held to the largest bound meanwhile)
        return RESULTS._replace(limit=max(f.bound.limit for f in FORMATS.values()))
    return FORMATS[fmt].bound


def load_section(
    path: str | Path,
    fmt: str | None = None,
    stat: os.stat_result | None = None,
    check: Check | None = None,
    ahead: Ahead | None = None,
    part: str | None = None,
) -> tuple[Section | None, list[Problem]]:
    """Read one results file in any supported format (``stat``: the file's ``os.stat``, when
    the caller has made it), with how its rank column is read (``rank_problems``, of every
    format, for every command). ``check``: a further check of the section read, its problems
    after the reading's (a section the read-ahead's process read and checked with the same
    function, finding nothing, is not checked again); ``ahead``: the read-ahead of the files
    (``read_ahead``), which may have read this one; ``part``: the name of the section to read
    in a file of several (``InputFormat.read_part``; ignored for a format of one section a
    file). The file is read within its format's bound (``InputFormat.bound``): its size is
    checked before it is opened, and no more than one byte past the bound is read."""
    path = path if isinstance(path, Path) else Path(path)  # (the caller's: its hash is made)
    if fmt is not None and fmt not in FORMATS:
        raise UsageError(f"unknown input format '{fmt}' (expected one of {', '.join(FORMATS)})")
    if ahead is not None:
        try:
            key = FileCache.identity_of(stat or os.stat(path), fmt)
        except OSError:
            key = None
        read = ahead.take(path, key)
        if read is not None:
            return read, check(read) if check is not None and check is not ahead.check else []
    try:
        stat = stat or os.stat(path)  # the size, before the file is opened
        bound = _bound(path, fmt, stat.st_size)
        if stat.st_size > bound.limit:
            return None, [too_large(str(path), stat.st_size, bound)]
        data = read_bytes(path, bound.limit, stat.st_size)
        kept: tuple[object, ...] | None = FileCache.key(data, stat, fmt)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return None, [Problem(Location(str(path)), f"cannot read the file: {reason}")]
    if len(data) > bound.limit:  # grown since its size was taken: read no further
        return None, [too_large(str(path), None, bound)]
    reading = FORMATS[fmt or detect_format(path, data)]
    parted = part is not None and reading.read_part is not None
    if not reading.alone:
        kept = None  # what it reads is more than this file: never kept
    elif parted and kept is not None:
        kept = (*kept, part)
    known = _SECTIONS.get(kept)
    if isinstance(known, Section):
        return known, rank_problems(known) + (check(known) if check is not None else [])
    if part is not None and reading.read_part is not None:
        section, problems = reading.read_part(path, data, part)
    else:
        section, problems = reading.read(path, data)
    if section is not None and not problems:
        _SECTIONS.put(kept, section)
    if section is not None:
        problems.extend(rank_problems(section))
    if section is not None and check is not None:
        problems.extend(check(section))
    return section, problems


def rank_problems(section: Section) -> list[Problem]:
    """The rank column of a file of any format, where it is not plain competition ranks
    (``placings.read_ranks``): dense ranks (1, 2, 2, 3) are read as the places they mean, with
    a warning at the first rank that moves; ranks that give one place to two players in any
    other way (1, 2, 2, 3, 5; a span given to more rows than it has places) are an error, and
    the file is refused rather than read one way or the other: whether a '3' meant the third
    place or the fourth moves points and prizes, and only the organiser can tell."""
    columns = section.columns
    reading = read_ranks(columns)
    if reading.against is not None:
        return [points_against_ranks(section, reading.against)]
    clash = reading.clash
    if clash is None:
        return []
    rank, line = columns.rank[clash.row], columns.line[clash.row]
    lines = [str(columns.line[i]) for i in clash.above if columns.line[i]]
    listed = ", ".join(lines[:3]) + (", ..." if len(lines) > 3 else "")
    lines_word = "lines" if len(lines) > 1 else "line"
    first, last = clash.held
    held = span_text(first, last)
    many = len(clash.above)
    otherwise = (
        "leave the rank fields blank to place by the crosstable"
        if section.has_crosstable
        else "leave the rank column out to place by points"
    )
    at = f" ({lines_word} {listed})" if lines else ""
    places = f"places {held}" if last > first else f"place {held}"
    who = (
        f"{many} rows ranked {clash.their_rank}{at}, who hold {places}"
        if many > 1
        else f"the row ranked {clash.their_rank}{at}, which holds {places}"
    )
    if reading.dense:
        message = (
            f"field 'rank' = '{rank}' is read as place {clash.free}, after {who}: the ranks are "
            "dense (the rank after a tie is the next number: 1, 2, 2, 3) and are read as the "
            "places they mean (1, 2-3, 2-3, 4), here and in every rank below a tie; write "
            f"competition ranks (1, 2, 2, 4) to be rid of this warning, or {otherwise}"
        )
        return [Problem(Location(section.source, line), message, Severity.WARNING)]
    if clash.places == clash.held:  # one row more than the shared place has places
        also = f" (also on {lines_word} {listed})" if lines else ""
        message = (
            f"field 'rank' = '{rank}' is given to {many + 1} rows{also}, but a tie for places "
            f"{held} is of {last - first + 1} players: tied players take as many places as they "
            f"are; write {first}-{first + many} on each of the {many + 1} rows, or {otherwise}"
        )
    else:
        width = clash.places[1] - clash.places[0]
        message = (
            f"field 'rank' = '{rank}' after {who}: two players cannot take one place, and "
            "ranks skip after a tie (1, 2, 2, 4); write "
            f"{span_text(clash.free, clash.free + width)} (a player's rank is 1 + the number "
            f"of players above them, in the rows below too), or {otherwise}"
        )
    return [Problem(Location(section.source, line), message)]


def points_against_ranks(section: Section, against: Against) -> Problem:
    """The warning of ranks that contradict the points (``read_ranks``' ``against``): the
    rank column is not read, and the players are placed by points."""
    columns = section.columns
    upper, lower = against.upper, against.lower
    said = "shares its place with" if against.shared else "is below"
    line = columns.line[upper] or "?"
    return Problem(
        Location(section.source, columns.line[lower]),
        f"rank {columns.rank[lower]} with {show(columns.points[lower])} points {said} rank "
        f"{columns.rank[upper]} with {show(columns.points[upper])} (line {line}): the ranks "
        "contradict the points, and the players are placed by points; check the file",
        Severity.WARNING,
    )


_SECTIONS = FileCache()  # results files read without problems, by their contents


READ_AHEAD_LEAST = 100  # files worth a forked process (a fork costs milliseconds)
Identity = tuple[object, ...]


class _Claims:
    """Which process reads which file of a read-ahead: this one claims each file as it comes
    to it, from the front; the child claims from the back, one file at a time, under the same
    lock; neither takes a file the other has claimed. They meet wherever the machine's load
    and the files' sizes put them, so the child has read its share when this process arrives
    there. Without shared memory (some containers lack ``/dev/shm``) the child takes the
    second half. A lock held for longer than ``LOCK_WAIT`` seconds (by a child killed while
    holding it) leaves every further file to this process, which never waits for it again."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.shared: SynchronizedArray[int] | None = None
        self.alone = False  # the lock was lost: this process reads every file from now on
        with suppress(OSError):
            self.shared = multiprocessing.get_context("fork").Array("q", [0, size])

    def mine(self, index: int) -> bool:
        """Whether this process reads file ``index``: claimed now (with every file before
        it), unless the child has claimed it."""
        if self.shared is None:
            return index < self.size // 2
        lock = self.shared.get_lock()
        if self.alone or not lock.acquire(timeout=LOCK_WAIT):
            self.alone = True
            return True
        try:
            if index >= self.shared[1]:
                return False
            self.shared[0] = max(self.shared[0], index + 1)
            return True
        finally:
            lock.release()

    def theirs(self) -> Iterator[int]:
        """The child's files, each claimed as it is about to be read, from the last."""
        if self.shared is None:
            yield from range(self.size - 1, self.size // 2 - 1, -1)
            return
        lock = self.shared.get_lock()
        while lock.acquire(timeout=LOCK_WAIT):
            try:
                if self.shared[1] <= self.shared[0]:
                    return
                self.shared[1] -= 1
                index = int(self.shared[1])
            finally:
                lock.release()
            yield index


LOCK_WAIT = 5.0  # seconds: the lock is held for microseconds


class Ahead:
    """The results files a forked process reads for this one (``read_ahead``)."""

    def __init__(
        self, paths: Sequence[Path], claims: _Claims, child: Child, check: Check | None
    ) -> None:
        self.index: dict[Path, int] = {}
        for k, path in enumerate(paths):
            self.index.setdefault(path, k)
        self.claims = claims
        self.child = child
        self.check = check  # what the child checked each section with
        self.sections: dict[Identity, Section] | None = None  # once the child has finished

    def take(self, path: Path, key: Identity | None) -> Section | None:
        """The section the child read at ``path``, if it claimed the file, read it without a
        problem and the file is still the same (``key``, its identity, is what the child saw);
        None for a file this process reads."""
        index = self.index.get(path)
        if key is None or index is None or self.claims.mine(index):
            return None
        if self.sections is None:
            self.sections = {}
            try:
                data = cast(bytes, self.child.result())
                stream = io.BytesIO(data)
                unpickler = pickle.Unpickler(stream)
                while stream.tell() < len(data):
                    found, section = unpickler.load()
                    self.sections[found] = section
            except Exception:
                pass  # (what came whole is kept) this process reads the rest
        return self.sections.pop(key, None)


@contextmanager
def read_ahead(
    files: Sequence[tuple[Path, str | None]], check: Check | None = None
) -> Iterator[Ahead | None]:
    """A forked process that reads some of ``files`` (each a path and its format, or None, in
    the order this process reads them) while this one reads the others, given to
    ``load_section`` while in the block: it reads from the last file back, until it meets this
    process (``_Claims``), and checks them with ``check`` (the check the caller gives
    ``load_section``). Only a file read and checked without a problem comes back, kept by its
    identity as the child saw it: a file with a problem, or changed since, is read by this
    process, so every message is this process's own. None (nothing forked) for fewer than
    ``READ_AHEAD_LEAST`` files or where fork cannot be used (``can_fork``). The caller gives
    only files it has checked may be read."""
    if len(files) < READ_AHEAD_LEAST or not can_fork():
        yield None
        return
    claims = _Claims(len(files))
    job = functools.partial(_read_all, list(files), check, claims)
    child = Child(job, "reading results files")
    ahead = Ahead([path for path, _ in files], claims, child, check)
    try:
        yield ahead
    finally:
        if ahead.sections is None:  # not asked for: no longer needed
            ahead.child.cancel()


def _read_all(files: list[tuple[Path, str | None]], check: Check | None, claims: _Claims) -> bytes:
    """The child's job: each file it claims read (and checked) without a problem, with its
    identity, pickled as soon as it is read (one pickler for all, so a name or an id is sent
    once), so that little is left to pickle when the two processes meet."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    for index in claims.theirs():
        path, fmt = files[index]
        try:
            stat = os.stat(path)
        except OSError:
            continue  # this process reads it, and says what is wrong
        section, problems = load_section(path, fmt, stat, check)
        if section is not None and not problems:
            pickler.dump((FileCache.identity_of(stat, fmt), section))
    return out.getvalue()
