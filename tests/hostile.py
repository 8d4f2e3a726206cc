"""Hostile-input suite: the harness and the case table.

Every case copies an example season (or event) into a fresh temporary folder, mutates it the
way a new user could (or an attacker would), runs the real command line and asserts:

- the exit code (0 ok, 1 ``check`` found errors, 2 bad input or usage);
- no Python traceback in stdout or stderr;
- for bad input, a message located ``name:LINE`` (the file's base name, 1-based line), on stdout
  for ``check`` and on stderr for everything else, nothing on stdout then;
- nothing outside the season folder was read: sentinel files holding ``SECRET`` sit outside
  it, hostile paths and symlinks point at them, and the secret never shows in the output or in
  any file written;
- nothing stored changed: every file under the case's folder (season, event, sentinels and the
  empty working directory) is hashed before and after, and only the outputs the command was
  asked to write (``-o``) may differ; the working directory stays empty.

The layout of a case (``root`` is a fresh folder per case)::

    root/cwd/                 the working directory of every command (must stay empty)
    root/a/b/season/          the season copy (``../x.csv`` is root/a/b/x.csv,
                              ``../../secret.csv`` is root/a/secret.csv,
                              ``../../../etc/passwd`` is root/etc/passwd)
    root/a/b/event/           the event copy (event.toml, entries.csv, results/)
    root/lists/               files for ``grandprix ratings``
    root/out/                 the output folder of ``site`` and ``export``
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import random
import re
import shutil
import subprocess
import time
import traceback
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
GRANDPRIX = ROOT / ".venv" / "bin" / "grandprix"
SECRET = "SECRET-7f3a"
PASSWD_MARK = "root:x:0:0"  # the real /etc/passwd must not show either

BASES = {
    "utah": ("season", EXAMPLES / "utah-2012"),
    "acf": ("season", EXAMPLES / "acf-2004"),
    "lupiae": ("season", EXAMPLES / "lupiae-2012-13"),
    "event": ("event", EXAMPLES / "events" / "class_championships_2026"),
    "register": ("register", EXAMPLES / "events" / "hobart_weekender_2004.toml"),
    "lists": ("lists", None),
}

# --------------------------------------------------------------------------------------------
# The environment of one case
# --------------------------------------------------------------------------------------------


@dataclass
class Env:
    root: Path
    base: str
    cleanups: list[Callable[[], None]] = field(default_factory=list)

    @property
    def cwd(self) -> Path:
        return self.root / "cwd"

    @property
    def season(self) -> Path:
        return self.root / "a" / "b" / "season"

    @property
    def event_dir(self) -> Path:
        return self.root / "a" / "b" / "event"

    @property
    def event(self) -> Path:
        return self.event_dir / "event.toml"

    @property
    def lists(self) -> Path:
        return self.root / "lists"

    @property
    def out(self) -> Path:
        return self.root / "out"

    @property
    def home(self) -> Path:
        """The folder the case's relative file names are taken from."""
        kind = BASES[self.base][0]
        if kind == "season":
            return self.season
        if kind in ("event", "register"):
            return self.event_dir
        return self.lists

    def values(self) -> dict[str, str]:
        return {
            "root": str(self.root),
            "season": str(self.season),
            "event": str(self.event),
            "out": str(self.out),
            "lists": str(self.lists),
            "home": str(self.home),
        }

    def fill(self, text: str) -> str:
        """``@ROOT@``-style placeholders (braces are TOML's own)."""
        for key, value in self.values().items():
            text = text.replace(f"@{key.upper()}@", value)
        return text

    def path(self, rel: str) -> Path:
        """A path relative to the case's home folder; ``/root/...`` is relative to root."""
        if rel.startswith("/root/"):
            return self.root / rel[len("/root/") :]
        return self.home / rel


def make_env(root: Path, base: str) -> Env:
    root.mkdir(parents=True, exist_ok=True)
    env = Env(root, base)
    env.cwd.mkdir()
    kind, source = BASES[base]
    if kind == "season":
        assert source is not None
        shutil.copytree(source, env.season)
    elif kind == "event":
        assert source is not None
        shutil.copytree(source, env.event_dir)
    elif kind == "register":
        assert source is not None
        env.event_dir.mkdir(parents=True)
        shutil.copy(source, env.event)
    else:
        env.lists.mkdir(parents=True)
    return env


Setup = Callable[[Env], None]

# --------------------------------------------------------------------------------------------
# Setup building blocks
# --------------------------------------------------------------------------------------------


def chain(*steps: Setup) -> Setup:
    def run(env: Env) -> None:
        for step in steps:
            step(env)

    return run


def nothing(env: Env) -> None:
    """No mutation."""


def edit(rel: str, old: str, new: str, count: int = 1) -> Setup:
    """Replace the first ``count`` occurrences of ``old`` (which must be there)."""

    def run(env: Env) -> None:
        path = env.path(rel)
        text = path.read_text(encoding="utf-8")
        assert old in text, f"test setup: {old!r} not in {path}"
        path.write_text(text.replace(old, env.fill(new), count), encoding="utf-8")

    return run


def write(rel: str, content: str | bytes | Callable[[], bytes]) -> Setup:
    """Write a file (``content`` may be a function making the bytes when the case runs)."""

    def run(env: Env) -> None:
        data = content() if callable(content) else content
        path = env.path(rel)
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.is_symlink() or path.exists():
            path.unlink()
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(env.fill(data), encoding="utf-8")

    return run


def append(rel: str, text: str) -> Setup:
    def run(env: Env) -> None:
        path = env.path(rel)
        with path.open("a", encoding="utf-8") as handle:
            handle.write(env.fill(text))

    return run


def transform(rel: str, fn: Callable[[bytes], bytes]) -> Setup:
    def run(env: Env) -> None:
        path = env.path(rel)
        path.write_bytes(fn(path.read_bytes()))

    return run


def remove(rel: str) -> Setup:
    def run(env: Env) -> None:
        path = env.path(rel)
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink(missing_ok=True)

    return run


def symlink(rel: str, target: str) -> Setup:
    """Make ``rel`` (in the home folder) a symbolic link to ``target`` (``/root/...`` form)."""

    def run(env: Env) -> None:
        link = env.path(rel)
        if link.is_symlink() or link.exists():
            if link.is_dir() and not link.is_symlink():
                shutil.rmtree(link)
            else:
                link.unlink()
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(env.path(target))

    return run


def copy_in(rel: str, target: str) -> Setup:
    """Copy the home file ``rel`` to ``target`` (``/root/...`` form or home-relative)."""

    def run(env: Env) -> None:
        dest = env.path(target)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(env.path(rel), dest)

    return run


SENTINELS = {
    # Each is a valid file of its kind whose content would show if it were read and used.
    "results": f'rank,name,id,points\n1,"{SECRET}, Agent",999001,5\n2,"Walsh, Milo",1214,4\n',
    "players": f'id,name,region,member\n999001,"{SECRET}, Agent",UT,yes\n1214,"{SECRET}",UT,yes\n',
    "aliases": f"name,other,decision\n{SECRET},Walsh Milo,same\n",
    "rules": f'name = "{SECRET}"\n[{SECRET}]\nvalue = "{SECRET}"\n',
    "list": f'id,name,rating\n3100001,"{SECRET}",{SECRET}\n3100002,"{SECRET}",2000\n',
    "trf": f"012 {SECRET}\n001    1 m    {SECRET}                        2000\n",
    "entries": f'name,id,rating\n"{SECRET}, Agent",1,{SECRET}\n',
    "passwd": f"root:x:0:0:{SECRET}:/root:/bin/bash\n",
}


def sentinel(target: str, kind: str) -> Setup:
    """A file outside the season (``/root/...``) holding the secret."""

    def run(env: Env) -> None:
        path = env.path(target)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(SENTINELS[kind], encoding="utf-8")

    return run


def read_only(rel: str = ".") -> Setup:
    """chmod -R a-w (as root this stops nothing: the snapshot then shows any write)."""

    def run(env: Env) -> None:
        top = env.path(rel)
        paths = [top, *top.rglob("*")]
        for path in paths:
            if not path.is_symlink():
                path.chmod(path.stat().st_mode & ~0o222)

        def undo() -> None:
            for path in paths:
                if not path.is_symlink() and path.exists():
                    path.chmod(path.stat().st_mode | 0o200)

        env.cleanups.append(undo)

    return run


def earlier_site(extra: Setup | None = None) -> Setup:
    """Build an earlier site of the season into ``out`` (with the command under test), then
    add the user's own files with ``extra``."""

    def run(env: Env) -> None:
        result = invoke(["site", str(env.season), "-o", str(env.out)], env.cwd)
        assert result.code == 0 and (env.out / "index.html").exists(), (
            f"test setup: the first site build failed ({result.code}): {result.stderr[-500:]}"
        )
        if extra is not None:
            extra(env)

    return run


def reencode(encoding: str, bom: bytes = b"") -> Callable[[bytes], bytes]:
    def fn(data: bytes) -> bytes:
        return bom + data.decode("utf-8").encode(encoding)

    return fn


def excel_csv(decimal_comma: bool = False) -> Callable[[bytes], bytes]:
    """What Excel writes for "CSV UTF-8" in a European locale: BOM, ';', CRLF."""

    def fn(data: bytes) -> bytes:
        rows = list(csv.reader(io.StringIO(data.decode("utf-8"))))
        if decimal_comma:
            rows = [[re.sub(r"^(\d+)\.(\d+)$", r"\1,\2", cell) for cell in row] for row in rows]
        buffer = io.StringIO()
        csv.writer(buffer, delimiter=";", lineterminator="\r\n").writerows(rows)
        return b"\xef\xbb\xbf" + buffer.getvalue().encode("utf-8")

    return fn


def line_endings(ending: bytes) -> Callable[[bytes], bytes]:
    def fn(data: bytes) -> bytes:
        return data.replace(b"\r\n", b"\n").replace(b"\n", ending)

    return fn


def garbage(size: int, seed: int) -> bytes:
    return random.Random(seed).randbytes(size)


def zip_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def chess_results_csv() -> str:
    """A 4-player round robin as chess-results exports it; row 3's rank cell is empty."""
    return (
        "Spring Rapid 2012\n"
        "Rk.,,Name,Rtg,FED,1.Rd,2.Rd,3.Rd,Pts.\n"
        '1,,"Nguyen, Nina",2000,USA,4w1,3b1,2w1,3\n'
        '2,,"Baird, Alma",1900,USA,3w½,4b1,1b0,1.5\n'
        ',,"Reyes, Ivan",1800,USA,2b½,1w0,4w1,1.5\n'
        '4,,"Quill, Vik",1700,USA,1b0,2w0,3b0,0\n'
    )


# --------------------------------------------------------------------------------------------
# Running the command line
# --------------------------------------------------------------------------------------------


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str
    seconds: float
    crash: str = ""  # a traceback caught in-process (the CLI let an exception escape)

    @property
    def text(self) -> str:
        return self.stdout + self.stderr + self.crash


def invoke(argv: Sequence[str], cwd: Path) -> Result:
    """The CLI in-process, in ``cwd``."""
    import gc

    from click.testing import CliRunner

    from grandprix.cli import main

    old = Path.cwd()
    os.chdir(cwd)
    start = time.monotonic()
    try:
        result = CliRunner().invoke(main, list(argv), catch_exceptions=True)
    finally:
        os.chdir(old)
        gc.enable()  # main() disables the cyclic collector for its one-shot process
    crash = ""
    exc = result.exception
    if exc is not None and not isinstance(exc, SystemExit):
        crash = "Traceback (caught in-process):\n" + "".join(
            traceback.format_exception(type(exc), exc, exc.__traceback__)
        )
    return Result(result.exit_code, result.stdout, result.stderr, time.monotonic() - start, crash)


def spawn(argv: Sequence[str], cwd: Path, timeout: float) -> Result:
    """The installed ``grandprix`` as a process; a hang past ``timeout`` is a failure."""
    start = time.monotonic()
    try:
        done = subprocess.run(
            [str(GRANDPRIX), *argv],
            cwd=cwd,
            capture_output=True,
            timeout=timeout,
            env={**os.environ, "COLUMNS": "200", "PYTHONUTF8": "1"},
        )
    except subprocess.TimeoutExpired:
        return Result(-9, "", f"HUNG: no answer within {timeout} s", time.monotonic() - start)
    return Result(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
        time.monotonic() - start,
    )


# --------------------------------------------------------------------------------------------
# Locations
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Loc:
    """Where a message must point: a file's base name and, unless ``line`` and ``find`` are
    both None, one of the acceptable 1-based lines. ``find`` gives the line(s) by text searched
    in the file after the setup (alternatives allowed; ``nth`` = which occurrence, -1 = last)."""

    file: str
    line: int | tuple[int, ...] | None = None
    find: str | tuple[str, ...] | None = None
    nth: int = 1

    @property
    def name(self) -> str:
        return Path(self.file).name

    def lines(self, env: Env) -> tuple[int, ...] | None:
        if self.line is None and self.find is None:
            return None
        found: list[int] = []
        if isinstance(self.line, int):
            found.append(self.line)
        elif self.line is not None:
            found.extend(self.line)
        if self.find is not None:
            text = env.path(self.file).read_text(encoding="utf-8", errors="replace")
            numbered = text.splitlines()
            for wanted in (self.find,) if isinstance(self.find, str) else self.find:
                wanted = env.fill(wanted)
                hits = [i for i, line in enumerate(numbered, start=1) if wanted in line]
                assert hits, f"test setup: {wanted!r} not in {self.file}"
                found.append(hits[self.nth - 1] if self.nth > 0 else hits[self.nth])
        return tuple(found)

    def pattern(self, env: Env) -> re.Pattern[str]:
        lines = self.lines(env)
        name = re.escape(self.name)
        lead = r"(?:^|[\s/\\'\"(\[])"
        if lines is None:
            return re.compile(lead + name + r"(?![\w.])", re.MULTILINE)
        numbers = "|".join(str(n) for n in sorted(set(lines)))
        return re.compile(lead + name + rf":(?:{numbers})(?!\d)", re.MULTILINE)

    def describe(self, env: Env) -> str:
        lines = self.lines(env)
        return self.name + ("" if lines is None else ":" + "|".join(map(str, lines)))


Locs = tuple[Loc, ...]


def located_lines(text: str, locs: Locs, env: Env, phrase: str | None) -> list[str]:
    """The lines of ``text`` that match one of ``locs`` (and ``phrase``, a regex, if given)."""
    patterns = [loc.pattern(env) for loc in locs]
    out = []
    for line in text.splitlines():
        if any(p.search(line) for p in patterns) and (
            phrase is None or re.search(phrase, line, re.IGNORECASE)
        ):
            out.append(line.strip())
    return out


# --------------------------------------------------------------------------------------------
# Runs and cases
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    argv: tuple[str, ...]
    exit: int | tuple[int, ...]
    locs: Locs = ()  # the message must be located at one of these
    stream: str = "err"  # where the message goes: "out" for check, "err" otherwise
    phrase: str | None = None  # a regex the located line (or the stream) must hold
    phrase_absent: str | None = None  # a regex that must not be in the output
    warning: bool = False  # the located line must say 'warning:'
    stdout_empty: bool = False
    outputs: tuple[str, ...] = ()  # placeholders of paths the command may write
    proc: bool = False  # run as a process with a timeout (runaway inputs)
    timeout: float = 60.0
    max_seconds: float | None = None
    max_file_lines: int | None = None  # at most this many lines naming the first loc's file
    max_located: int | None = None  # at most this many lines naming it (with a line number)
    max_chars: int | None = None  # the whole output stays this short
    forbidden: tuple[str, ...] = ()  # strings that must never appear (contents of files)

    def args(self, env: Env) -> list[str]:
        values = env.values()
        return [arg.format(**values) for arg in self.argv]


@dataclass(frozen=True)
class Case:
    id: str
    cls: int
    base: str
    setup: Setup
    runs: tuple[Run, ...] = ()
    same_message: bool = False  # check and standings carry the same located message
    custom: Callable[[Harness], None] | None = None  # more steps after the runs
    note: str = ""

    @property
    def test_id(self) -> str:
        return f"c{self.cls:02d}-{self.id}"


CLASS_NAMES = {
    1: "numbers that crashed or hung",
    2: "dates",
    3: "huge and garbage inputs",
    4: "silent acceptance now caught",
    5: "files outside the season",
    6: "files lost",
    7: "encodings and dialects",
    8: "rule-set values",
    9: "event side",
    10: "ratings command",
}

# --------------------------------------------------------------------------------------------
# The harness: run, snapshot, and the checks every run gets
# --------------------------------------------------------------------------------------------


def snapshot(root: Path) -> dict[str, str]:
    """Every file, folder and link under ``root``: its content hash or link target."""
    state: dict[str, str] = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        base = Path(folder)
        for name in dirs + files:
            path = base / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                state[rel] = "link:" + os.readlink(path)
            elif path.is_dir():
                state[rel] = "dir"
            else:
                state[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return state


class Harness:
    """Runs a case's commands with every universal check."""

    def __init__(self, case: Case, env: Env):
        self.case = case
        self.env = env
        self.results: list[Result] = []

    def run(self, run: Run) -> Result:
        env = self.env
        before = snapshot(env.root)
        argv = run.args(env)
        result = spawn(argv, env.cwd, run.timeout) if run.proc else invoke(argv, env.cwd)
        after = snapshot(env.root)
        self.results.append(result)
        shown = f"grandprix {' '.join(argv)}"
        context = (
            f"{shown}\n--- exit {result.code} in {result.seconds:.1f} s\n--- stdout:\n"
            f"{result.stdout[-3000:]}\n--- stderr:\n{result.stderr[-3000:]}\n{result.crash}"
        )
        assert "Traceback" not in result.text, f"a traceback\n{context}"
        assert result.code != -9, f"hung\n{context}"
        exits = (run.exit,) if isinstance(run.exit, int) else run.exit
        assert result.code in exits, f"exit {result.code}, expected {run.exit}\n{context}"
        if run.max_seconds is not None:
            assert result.seconds <= run.max_seconds, f"took {result.seconds:.1f} s\n{context}"
        self.check_files(run, before, after, context)
        self.check_messages(run, result, context)
        return result

    # -- nothing read from outside, nothing changed ---------------------------------------

    def check_files(
        self, run: Run, before: dict[str, str], after: dict[str, str], context: str
    ) -> None:
        env = self.env
        outputs = [str(Path(p.format(**env.values())).relative_to(env.root)) for p in run.outputs]

        def allowed(rel: str) -> bool:
            return any(rel == o or rel.startswith(o + os.sep) for o in outputs)

        assert list(env.cwd.iterdir()) == [], (
            f"the working directory is not empty: {sorted(os.listdir(env.cwd))}\n{context}"
        )
        changed = sorted(
            rel
            for rel in set(before) | set(after)
            if before.get(rel) != after.get(rel) and not allowed(rel)
        )
        assert not changed, f"files changed, created or removed: {changed[:10]}\n{context}"
        for rel, digest in after.items():
            if before.get(rel) == digest or digest == "dir" or digest.startswith("link:"):
                continue
            data = (env.root / rel).read_bytes()
            assert SECRET.encode() not in data, f"the secret was written into {rel}\n{context}"

    # -- messages ----------------------------------------------------------------------------

    def check_messages(self, run: Run, result: Result, context: str) -> None:
        env = self.env
        text = result.stdout + result.stderr
        assert SECRET not in text, f"the content of a file outside the season shows\n{context}"
        for word in (PASSWD_MARK, *run.forbidden):
            assert word not in text, f"{word!r} shows in the output\n{context}"
        if run.stdout_empty:
            assert result.stdout.strip() == "", f"output on stdout for bad input\n{context}"
        if run.max_chars is not None:
            assert len(text) <= run.max_chars, f"{len(text)} characters of output\n{context}"
        if run.phrase_absent is not None:
            assert not re.search(run.phrase_absent, text, re.IGNORECASE), (
                f"{run.phrase_absent!r} in the output\n{context}"
            )
        stream = result.stdout if run.stream == "out" else result.stderr
        if run.locs:
            wanted = " or ".join(loc.describe(env) for loc in run.locs)
            found = located_lines(stream, run.locs, env, None)
            assert found, f"no message located at {wanted} on std{run.stream}\n{context}"
            if run.warning:
                found = [line for line in found if "warning:" in line.lower()]
                assert found, f"the message at {wanted} is not a 'warning:'\n{context}"
            if run.phrase is not None:
                found = [ln for ln in found if re.search(run.phrase, ln, re.IGNORECASE)]
                assert found, f"no message at {wanted} says {run.phrase!r}\n{context}"
            name = run.locs[0].name
            naming = [line for line in stream.splitlines() if name in line]
            if run.max_file_lines is not None:
                assert len(naming) <= run.max_file_lines, (
                    f"{len(naming)} lines name {name} (at most {run.max_file_lines})\n{context}"
                )
            if run.max_located is not None:
                located = [ln for ln in naming if re.search(re.escape(name) + r":\d", ln)]
                assert len(located) <= run.max_located, (
                    f"{len(located)} located messages for {name} "
                    f"(at most {run.max_located})\n{context}"
                )
        elif run.phrase is not None:
            assert re.search(run.phrase, stream, re.IGNORECASE), (
                f"std{run.stream} does not say {run.phrase!r}\n{context}"
            )

    def located(self, result: Result, run: Run) -> list[str]:
        stream = result.stdout if run.stream == "out" else result.stderr
        return located_lines(stream, run.locs, self.env, run.phrase)


# --------------------------------------------------------------------------------------------
# Case constructors
# --------------------------------------------------------------------------------------------


def _locs(loc: Loc | Sequence[Loc]) -> Locs:
    return (loc,) if isinstance(loc, Loc) else tuple(loc)


def bad_season(
    id: str,
    cls: int,
    base: str,
    setup: Setup,
    loc: Loc | Sequence[Loc],
    phrase: str | None = None,
    note: str = "",
    **run: object,
) -> Case:
    """A bad season: ``check`` exits 1 with the message on stdout, ``standings`` exits 2 with
    the same message on stderr and nothing on stdout."""
    locs = _locs(loc)
    check = Run(("check", "{season}"), 1, locs, "out", phrase, **run)  # type: ignore[arg-type]
    standings = Run(
        ("standings", "{season}"),
        2,
        locs,
        "err",
        phrase,
        stdout_empty=True,
        **run,  # type: ignore[arg-type]
    )
    return Case(id, cls, base, setup, (check, standings), same_message=True, note=note)


def warn_season(
    id: str,
    cls: int,
    base: str,
    setup: Setup,
    loc: Loc | Sequence[Loc],
    phrase: str | None = None,
    note: str = "",
) -> Case:
    """A season that is read with a warning: exit 0, 'warning:' naming the file on stdout
    (check) and stderr (standings)."""
    locs = _locs(loc)
    check = Run(("check", "{season}"), 0, locs, "out", phrase, warning=True)
    standings = Run(("standings", "{season}"), 0, locs, "err", phrase, warning=True)
    return Case(id, cls, base, setup, (check, standings), note=note)


def command(
    id: str,
    cls: int,
    base: str,
    setup: Setup,
    argv: Sequence[str],
    exit: int | tuple[int, ...] = 2,
    loc: Loc | Sequence[Loc] = (),
    phrase: str | None = None,
    note: str = "",
    custom: Callable[[Harness], None] | None = None,
    **run: object,
) -> Case:
    """One command; bad input (exit 2) prints its located message on stderr, nothing on
    stdout. A phrase of a successful command (exit 0) is looked for on stdout."""
    bad = exit == 2
    stdout_empty = bool(run.pop("stdout_empty", bad))
    stream = str(run.pop("stream", "out" if exit == 0 else "err"))
    the_run = Run(
        tuple(argv),
        exit,
        _locs(loc),
        stream,
        phrase,
        stdout_empty=stdout_empty,
        **run,  # type: ignore[arg-type]
    )
    return Case(id, cls, base, setup, (the_run,), custom=custom, note=note)


STANDINGS_CSV = ("standings", "{season}", "--format", "csv")


def equivalent(
    id: str,
    cls: int,
    base: str,
    setup: Setup,
    reference: Setup = nothing,
    refusal: tuple[Loc, str | None] | None = None,
    argv: Sequence[str] = STANDINGS_CSV,
    note: str = "",
    compare_stderr: bool = False,
    must_show: str | None = None,
) -> Case:
    """The mutated season gives exactly the standings of the reference (the example itself,
    or ``reference`` applied to a fresh copy); or, when ``refusal`` is given, it may instead be
    refused (exit 2) in ONE message located there and saying the phrase. With
    ``compare_stderr`` the warnings must be the same too; ``must_show`` is a text the
    reference output holds (so that the comparison is not vacuous)."""

    def custom(h: Harness) -> None:
        ref_env = make_env(h.env.root.parent / (h.env.root.name + "-reference"), base)
        try:
            reference(ref_env)
            ref = Harness(h.case, ref_env).run(Run(tuple(argv), 0, outputs=()))
        finally:
            for undo in ref_env.cleanups:
                undo()
        if must_show is not None:
            assert must_show in ref.stdout + ref.stderr, f"test setup: {must_show!r} not shown"
        exits = (0, 2) if refusal else 0
        run = Run(tuple(argv), exits)
        got = h.run(run)
        if got.code == 0:
            assert got.stdout == ref.stdout, (
                "not the same standings as the reference\n--- got:\n"
                f"{got.stdout[:2000]}\n--- reference:\n{ref.stdout[:2000]}\n--- stderr:\n"
                f"{got.stderr[:1000]}"
            )
            if compare_stderr:
                mine = got.stderr.replace(str(h.env.root), "ROOT")
                theirs = ref.stderr.replace(str(ref_env.root), "ROOT")
                assert mine == theirs, (
                    f"other warnings:\n{mine[:2000]}\n--- reference:\n{theirs[:2000]}"
                )
        else:
            assert refusal is not None
            loc, phrase = refusal
            lines = located_lines(got.stderr, (loc,), h.env, phrase)
            assert lines, (
                f"refused, but not in a message located at {loc.describe(h.env)} saying "
                f"{phrase!r}:\n{got.stderr[:2000]}"
            )
            assert got.stdout.strip() == "", f"output on stdout:\n{got.stdout[:1000]}"
            naming = [ln for ln in got.stderr.splitlines() if loc.name in ln]
            assert len(naming) <= 1, f"{len(naming)} messages, at most one:\n{got.stderr[:2000]}"

    return Case(id, cls, base, setup, (), custom=custom, note=note)


# --------------------------------------------------------------------------------------------
# Small custom checks
# --------------------------------------------------------------------------------------------


def expect_text(regex: str, index: int = -1, stream: str = "out") -> Callable[[Harness], None]:
    """The ``index``-th run's stdout (or stderr) holds ``regex``."""

    def check(h: Harness) -> None:
        result = h.results[index]
        text = result.stdout if stream == "out" else result.stderr
        assert re.search(regex, text, re.IGNORECASE), f"{regex!r} not in:\n{text[-3000:]}"

    return check


def expect_in_each(regex: str, runs: Sequence[int], stream: str) -> Callable[[Harness], None]:
    def check(h: Harness) -> None:
        for index in runs:
            expect_text(regex, index, stream)(h)

    return check


def expect_files(*names: str, holding: tuple[str, str] | None = None) -> Callable[[Harness], None]:
    """Files that must exist under ``out`` afterwards (``holding``: a file and a text in it)."""

    def check(h: Harness) -> None:
        for name in names:
            assert (h.env.out / name).exists(), f"{name} missing from {h.env.out}"
        if holding is not None:
            pattern, text = holding
            hits = [p for p in h.env.out.rglob(pattern) if text in p.read_text("utf-8", "replace")]
            assert hits, f"no {pattern} under {h.env.out} holds {text!r}"

    return check


def both_streams(regex: str) -> Callable[[Harness], None]:
    """check's stdout and standings' stderr (the two runs of a bad season) hold ``regex``."""

    def check(h: Harness) -> None:
        expect_text(regex, 0, "out")(h)
        expect_text(regex, 1, "err")(h)

    return check


def with_custom(case: Case, fn: Callable[[Harness], None]) -> Case:
    import dataclasses

    return dataclasses.replace(case, custom=fn)


def drop_lines(rel: str, *needles: str) -> Setup:
    def fn(data: bytes) -> bytes:
        lines = data.decode("utf-8").splitlines(keepends=True)
        kept = [ln for ln in lines if not any(n in ln for n in needles)]
        assert len(kept) == len(lines) - len(needles), "test setup: drop_lines"
        return "".join(kept).encode("utf-8")

    return transform(rel, fn)


def replace_line(rel: str, number: int, text: str) -> Setup:
    def fn(data: bytes) -> bytes:
        lines = data.decode("utf-8").split("\n")
        lines[number - 1] = text
        return "\n".join(lines).encode("utf-8")

    return transform(rel, fn)


def concurrent_site(h: Harness) -> None:
    """Two ``site`` runs into one folder at once: the second waits or exits 2; afterwards the
    folder is one complete site and nothing else changed."""
    env = h.env
    argv = [str(GRANDPRIX), "site", str(env.season), "-o", str(env.out)]
    before = {k: v for k, v in snapshot(env.root).items() if not k.startswith("out")}
    first = subprocess.Popen(argv, cwd=env.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(0.05)
    second = subprocess.Popen(argv, cwd=env.cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    outputs = []
    for proc in (first, second):
        try:
            raw_out, raw_err = proc.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise AssertionError("a site run hung") from None
        outputs.append(
            (
                proc.returncode,
                raw_out.decode("utf-8", "replace"),
                raw_err.decode("utf-8", "replace"),
            )
        )
    shown = "\n".join(f"exit {c}\nstdout: {o[-500:]}\nstderr: {e[-1000:]}" for c, o, e in outputs)
    for _code, out, err in outputs:
        assert "Traceback" not in out + err, shown
        assert SECRET not in out + err, shown
    assert sorted(c for c, _, _ in outputs) in ([0, 0], [0, 2]), shown
    for name in ("index.html", "events.html", "downloads.html", "standings.csv", "season.json"):
        assert (env.out / name).is_file(), f"{name} missing after the two runs\n{shown}"
    assert (env.out / "players").is_dir() and any((env.out / "players").iterdir()), shown
    after = {k: v for k, v in snapshot(env.root).items() if not k.startswith("out")}
    changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
    assert not changed, f"files changed beside the site folder: {changed}\n{shown}"
    assert list(env.cwd.iterdir()) == [], "the working directory is not empty"


def review_aliases(h: Harness) -> None:
    """``players --review`` suggests aliases.csv lines; written to aliases.csv they are
    accepted."""
    review = h.run(Run(("players", "{season}", "--review"), 0))
    text = review.stdout
    assert "Bard" in text and "Reyes, Ivann" in text, f"the review misses the pairs:\n{text}"
    suggested = re.findall(r"'([^'\n]+,\s*same)'", text)
    suggested += [
        ln.strip()
        for ln in text.splitlines()
        if re.search(r",\s*same\s*$", ln) and "'" not in ln and not ln.strip().startswith("name,")
    ]
    if not suggested:
        return  # the review prints no ready-made lines: nothing to try
    (h.env.season / "aliases.csv").write_text(
        "name,other,decision\n" + "\n".join(suggested) + "\n", encoding="utf-8"
    )
    check = h.run(Run(("check", "{season}"), 0))
    assert "error" not in check.stdout.lower().replace("0 error(s)", ""), check.stdout
    people = h.run(Run(("players", "{season}"), 0))
    separate = re.compile(r"^\s*(Bard, Alma|Reyes, Ivann)\b", re.MULTILINE)
    assert not separate.search(people.stdout), (
        f"the aliases were not applied (the names are still separate people):\n{people.stdout}"
    )


# --------------------------------------------------------------------------------------------
# The case table (kept one case to a few lines: not reformatted)
# --------------------------------------------------------------------------------------------
# fmt: off

SEASON_TOML = "season.toml"
WQ = "winter_quick.csv"
WQ_ROW = '"Baird, Alma",1205,5'  # line 3 of winter_quick.csv


def wq_score(value: str) -> Setup:
    return edit(WQ, WQ_ROW, f'"Baird, Alma",1205,{value}')


def utah_rules(text: str) -> Setup:
    """Insert rule-set overrides into utah's [rules] (before [rules.prizes])."""
    return edit(SEASON_TOML, "[rules.prizes]", text + "\n\n[rules.prizes]")


def toml_at(text: str, nth: int = 1) -> Loc:
    return Loc(SEASON_TOML, find=text, nth=nth)


def big_line(data: bytes) -> bytes:
    """A 50 MB line appended as line 20 of provo_open.trf."""
    return data + b"001" + b"    9 w 1" * 5_600_000 + b"\n"

LONG_NAME = "Longname, " + "Bartholomew-" * 26 + "Xyz"  # 325 characters
assert len(LONG_NAME) == 325
TEN_THOUSAND_BAD = "".join(f'{i},"Bad, Player {i}",x{i},zz{i}\n' for i in range(12, 10_012))

NO_RATING_LISTS = edit(
    SEASON_TOML,
    '[[rating_lists]]   # ACF-11: the ACF list of the December before the Grand Prix year\n'
    'file = "lists/acf_2003_12.csv"\nkind = "national"\ndate = 2003-12-01\n\n'
    '[[rating_lists]]   # ... else the FIDE list of January\nfile = "lists/fide_2004_01.csv"\n'
    'kind = "fide-standard"\ndate = 2004-01-01\n',
    "",
)


def prepared_store(target: str) -> Setup:
    """A real store holding the example's two lists, made with the command line."""

    def run(env: Env) -> None:
        store = env.path(target)
        store.parent.mkdir(parents=True, exist_ok=True)
        for name, kind, date in [("acf_2003_12.csv", "national", "2003-12-01"),
                                 ("fide_2004_01.csv", "fide-standard", "2004-01-01")]:
            result = invoke(["ratings", "import", str(env.season / "lists" / name), "--kind",
                             kind, "--date", date, "--store", str(store)], env.cwd)
            assert result.code == 0, f"test setup: import failed: {result.stderr}"

    return run


def run_case(case: Case, tmp_path: Path) -> None:
    """Run one case in a fresh folder under ``tmp_path`` and check everything the module's
    docstring lists."""
    env = make_env(tmp_path / "c", case.base)
    try:
        case.setup(env)
        harness = Harness(case, env)
        for run in case.runs:
            harness.run(run)
        if case.same_message:
            check_run, standings_run = case.runs
            check, standings = harness.results
            in_check = harness.located(check, check_run)
            in_standings = harness.located(standings, standings_run)
            assert set(in_check) & set(in_standings), (
                "check and standings do not carry the same located message:\n--- check:\n"
                + "\n".join(in_check)
                + "\n--- standings:\n"
                + "\n".join(in_standings)
            )
        if case.custom is not None:
            case.custom(harness)
    finally:
        for undo in env.cleanups:
            undo()


CASES: list[Case] = []
add = CASES.append

# ---- 1. Numbers that used to crash or hang --------------------------------------------------
for cid, value, phrase, runaway in [
    ("csv-score-1e99999", "1e99999", "points", False),
    ("csv-score-1e999999999", "1e999999999", "points", True),
    ("csv-score-nan", "nan", "points", False),
    ("csv-score-inf", "inf", "points", False),
    ("csv-score-negative", "-1", "points", False),
    ("csv-score-division-by-zero", "1/0", "points", False),
    ("csv-score-5000-digits", "9" * 5000, "points", True),
    ("csv-score-21-characters", "1.0000000000000000000", "points", False),
    ("csv-score-above-1000", "1001", "points", False),
]:
    extra: dict[str, Any] = {"proc": True, "timeout": 60.0, "max_seconds": 10.0} if runaway else {}
    add(bad_season(cid, 1, "utah", wq_score(value), Loc(WQ, 3), phrase, **extra))

for cid, value, phrase in [
    ("toml-weight-1e308", "1e308", "weight"),
    ("toml-weight-negative", "-1", "negative"),
    ("toml-weight-inf", "inf", "weight"),
    ("toml-weight-nan", "nan", "weight"),
    ("toml-weight-above-1000", "1001", "weight"),
    ("toml-weight-huge-fraction-string", '"1e999999999"', "weight"),
]:
    add(
        bad_season(
            cid, 1, "utah", edit(SEASON_TOML, "weight = 1.5   # UT-6", f"weight = {value}"),
            toml_at(f"weight = {value}"), phrase, proc=True, timeout=60.0, max_seconds=10.0,
        )
    )

add(bad_season("toml-points-table-1e300", 1, "utah",
               utah_rules("[rules.points]\ntable = [1e300, 15, 12, 10, 8, 6]"),
               toml_at("table = [1e300"), "table"))
add(bad_season("toml-points-table-negative", 1, "utah",
               utah_rules("[rules.points]\ntable = [21, 15, -12, 10, 8, 6]"),
               toml_at("table = [21, 15, -12"), "table"))
add(bad_season("toml-prize-amount-negative", 1, "utah",
               edit(SEASON_TOML, "amount = 300", "amount = -20"),
               toml_at("amount = -20"), "amount"))
add(bad_season("toml-prize-amount-above-1e15", 1, "utah",
               edit(SEASON_TOML, "amount = 300", "amount = 2000000000000000"),
               toml_at("amount = 2000000000000000"), "amount"))
add(bad_season("toml-prize-fund-1e300", 1, "acf",
               edit(SEASON_TOML, "prize_fund = 1200", "prize_fund = 1e300"),
               toml_at("prize_fund = 1e300"), "prize_fund"))
add(bad_season("toml-bonus-huge", 1, "utah",
               utah_rules("[rules.counting]\nbonus_per_event = 1e300"),
               toml_at("bonus_per_event = 1e300"), "bonus_per_event"))
add(bad_season("trf-points-9999999999", 1, "utah",
               edit("provo_open.trf", "1202             3.0", "1202      9999999999"),
               Loc("provo_open.trf", 4), None, proc=True, timeout=60.0, max_seconds=10.0,
               note="no phrase: the TRF points field has no name users know"))

# ---- 2. Dates ------------------------------------------------------------------------------
add(bad_season("players-birth-date-1990-13-45", 2, "acf",
               edit("players.csv", "VIC,m,1951-06-15", "VIC,m,1990-13-45"),
               Loc("players.csv", 3), "no such date"))
add(bad_season("players-birth-date-2001-02-29", 2, "acf",
               edit("players.csv", "QLD,m,1952-06-15", "QLD,m,2001-02-29"),
               Loc("players.csv", 4), "no such date"))
add(bad_season("season-end-before-start", 2, "utah",
               edit(SEASON_TOML, "end = 2012-12-31", "end = 2011-12-31"),
               Loc(SEASON_TOML, find=("start = 2012-01-01", "end = 2011-12-31")),
               r"start.*end|end.*start", max_located=1,
               note="one error naming start and end; located at the start or the end line"))
add(command("as-of-2025-02-30", 2, "utah", nothing,
            ("standings", "{season}", "--as-of", "2025-02-30"), 2, phrase="no such date"))
add(command("explain-as-of-2012-02-30", 2, "utah", nothing,
            ("explain", "{season}", "1214", "--as-of", "2012-02-30"), 2, phrase="no such date"))
add(command("prizes-as-of-2011-02-29", 2, "utah", nothing,
            ("prizes", "{season}", "--as-of", "2011-02-29"), 2, phrase="no such date"))
add(bad_season("toml-event-date-2012-02-30", 2, "utah",
               edit(SEASON_TOML, "date = 2012-03-17", "date = 2012-02-30"),
               toml_at("date = 2012-02-30")))
add(bad_season("toml-start-month-00", 2, "utah",
               edit(SEASON_TOML, "start = 2012-01-01", "start = 2012-00-10"),
               toml_at("start = 2012-00-10")))
add(bad_season("toml-rating-list-date-2003-11-31", 2, "acf",
               edit(SEASON_TOML, "date = 2003-12-01", "date = 2003-11-31"),
               toml_at("date = 2003-11-31")))
add(command("event-toml-date-2026-08-32", 2, "event",
            edit("event.toml", "date = 2026-08-15", "date = 2026-08-32"),
            ("sections", "{event}"), 2, Loc("event.toml", find="date = 2026-08-32")))
add(command("entries-registered-2026-02-30", 2, "event",
            edit("entries.csv", '"Quinn, Quentin",7002,2216,,yes,Salt Lake City,2026-08-01',
                 '"Quinn, Quentin",7002,2216,,yes,Salt Lake City,2026-02-30'),
            ("fees", "{event}"), 2, Loc("entries.csv", 3)))

# ---- 3. Huge and garbage inputs -------------------------------------------------------------
add(bad_season("trf-50mb-line", 3, "utah", transform("provo_open.trf", big_line),
               Loc("provo_open.trf", 20), None, proc=True, timeout=60.0, max_seconds=20.0,
               max_located=1, max_chars=20_000,
               note="ONE error about the line length, output kept short"))
add(with_custom(
    bad_season("csv-10000-bad-lines", 3, "utah", append(WQ, TEN_THOUSAND_BAD), Loc(WQ, 13),
               max_file_lines=51),
    both_streams(r"and \d[\d,]* more")))
add(bad_season("binary-garbage-results", 3, "utah",
               write(WQ, b"\x00\x01\x02\x03\xff\xfe garbage\n" + garbage(200_000, 1)),
               Loc(WQ, 1), max_file_lines=51, max_chars=30_000))
add(bad_season("empty-results-file", 3, "utah", write(WQ, b""),
               (Loc(WQ), toml_at(f'results = "{WQ}"')),
               note="an empty file has no header row: taken as an error (not the warning of a "
               "header-only file); no line to give, so the file name (or season.toml's line)"))
add(warn_season("header-only-csv", 3, "utah", write(WQ, "rank,name,id,points\n"), Loc(WQ),
                "no players"))
add(command("name-325-characters-site", 3, "acf",
            edit("brisbane_open.csv", '"Ellis, Hugo",3100011,6', f'"{LONG_NAME}",,6'),
            ("site", "{season}", "-o", "{out}"), 0, outputs=("{out}",),
            custom=expect_files("index.html", holding=("*.html", "Bartholomew-Bartholomew"))))
add(bad_season("nul-byte-in-results", 3, "utah",
               edit(WQ, '"Baird, Alma"', '"Baird,\x00 Alma"'), Loc(WQ, 3)))
add(bad_season("random-bytes-named-xlsx", 3, "utah",
               chain(write("winter_quick.xlsx", garbage(300_000, 2)),
                     edit(SEASON_TOML, f'results = "{WQ}"', 'results = "winter_quick.xlsx"')),
               Loc("winter_quick.xlsx"),
               note="an xlsx has no lines: the file name is required, no line"))
add(bad_season("zip-not-a-workbook-named-xlsx", 3, "utah",
               chain(write("winter_quick.xlsx", zip_bytes({"notes.txt": b"hello\n" * 1000})),
                     edit(SEASON_TOML, f'results = "{WQ}"', 'results = "winter_quick.xlsx"')),
               Loc("winter_quick.xlsx")))
add(bad_season("xlsx-zip-bomb", 3, "utah",
               chain(write("winter_quick.xlsx", lambda: zip_bytes({
                   "[Content_Types].xml": b"<?xml version='1.0'?>" + b" " * 60_000_000 + b"<x/>",
                   "xl/workbook.xml": b" " * 60_000_000})),
                     edit(SEASON_TOML, f'results = "{WQ}"', 'results = "winter_quick.xlsx"')),
               Loc("winter_quick.xlsx"), proc=True, timeout=60.0, max_seconds=20.0))
add(bad_season("csv-line-of-a-million-commas", 3, "utah", edit(WQ, WQ_ROW, "," * 1_000_000),
               Loc(WQ, 3), max_chars=20_000))
add(bad_season("toml-nested-50000-deep", 3, "utah",
               append(SEASON_TOML, "\ndeep = " + "[" * 50_000 + "]" * 50_000 + "\n"),
               toml_at("deep = "), proc=True, timeout=60.0, max_chars=20_000))

# ---- 4. Silent acceptance now caught --------------------------------------------------------
PROVO_LINE_5 = "Ortiz, Dmitri                     1716 ZZZ        1204"
add(bad_season("trf-same-id-twice", 4, "utah",
               edit("provo_open.trf", PROVO_LINE_5, PROVO_LINE_5.replace("1204", "1202")),
               Loc("provo_open.trf", 5), "twice"))
add(bad_season("csv-same-id-twice", 4, "utah",
               edit(WQ, '"Reyes, Ivan",1206', '"Reyes, Ivan",1201'), Loc(WQ, 4), "twice"))
add(bad_season("csv-same-name-twice-without-ids", 4, "utah",
               write(WQ, 'rank,name,points\n1,"Nguyen, Nina",5.5\n2,"Baird, Alma",5\n'
                         '3,"Nguyen, Nina",4.5\n4,"Quill, Vik",4\n'),
               Loc(WQ, 4), "twice"))
add(bad_season("season-same-results-file-twice", 4, "utah",
               edit(SEASON_TOML, 'results = "december_quick.csv"', f'results = "{WQ}"'),
               toml_at(f'results = "{WQ}"', nth=2), "twice"))
add(bad_season("season-same-results-file-twice-dot-slash", 4, "utah",
               edit(SEASON_TOML, 'results = "december_quick.csv"', f'results = "./{WQ}"'),
               toml_at(f'results = "./{WQ}"'), "twice"))
add(bad_season("season-same-section-file-twice", 4, "utah",
               edit(SEASON_TOML, 'results = "class_b.csv"', 'results = "class_a.csv"'),
               toml_at('results = "class_a.csv"', nth=2), "twice"))
add(bad_season("season-same-event-twice", 4, "utah",
               append(SEASON_TOML, '\n[[events]]\nname = "December Quick"\ndate = 2012-12-08\n'
                                   'results = "december_quick.csv"\n'),
               Loc(SEASON_TOML, find=("[[events]]", 'name = "December Quick"',
                                      "date = 2012-12-08", 'results = "december_quick.csv"'),
                   nth=-1), "twice"))
add(bad_season("season-same-section-name-twice", 4, "utah",
               edit(SEASON_TOML, 'name = "Class B"', 'name = "Class A"'),
               toml_at('name = "Class A"', nth=2), "twice",
               note="two sections of one event with one name: an error at the second"))
add(warn_season("one-id-two-names", 4, "utah",
                edit("new_year_blitz.csv", '"Zimmer, Dana",1210', '"Moreau, Xena",1210'),
                Loc("new_year_blitz.csv"), r"Moreau.*Zimmer|Zimmer.*Moreau",
                note="which file the warning names (the second spelling's) is our guess"))
add(warn_season("ranks-contradict-points", 4, "utah", wq_score("6"), Loc(WQ, (2, 3))))
add(warn_season("trf-without-players", 4, "utah",
                transform("provo_open.trf", lambda d: b"".join(d.splitlines(True)[:3])),
                Loc("provo_open.trf")))
add(warn_season("division-by-rating-without-rating-source", 4, "utah",
                utah_rules('[[rules.divisions]]\nname = "Under 1800"\nrating_below = 1800'),
                Loc(SEASON_TOML)))
add(warn_season("division-by-rating-without-rating-list", 4, "acf",
                chain(NO_RATING_LISTS, remove("ratings.sqlite")),
                Loc(SEASON_TOML),
                note="the divisions come from the preset, so only the file name is asked; "
                "no ratings.sqlite may be created"))
add(warn_season("players-missing-for-eligibility", 4, "utah",
                drop_lines("players.csv", "1205,", "1206,", "1207,"),
                Loc("players.csv"), r"\b3\b"))
add(bad_season("aliases-same-and-different", 4, "utah",
               chain(edit(WQ, '"Reyes, Ivan",1206', '"Reyes, Ivann",'),
                     write("aliases.csv", "name,other,decision\nReyes Ivan,Reyes Ivann,same\n"
                                          "Reyes Ivann,Reyes Ivan,different\n")),
               Loc("aliases.csv", 3)))
add(bad_season("aliases-same-for-different-ids", 4, "utah",
               write("aliases.csv", 'name,other,decision\n"Quill, Vik","Quill, Yara",same\n'),
               Loc("aliases.csv", 2)))
CLUB_LIST = 'id,name,rating\n3100001,"Vance, Aiden",1941\n3100002,"Price, Ravi",2010\n' \
            '3100001,"Vance, Aiden",1950\n'
add(bad_season("rating-list-id-twice", 4, "acf",
               chain(write("lists/club.csv", CLUB_LIST),
                     edit(SEASON_TOML, 'rules = "acf-2004"',
                          'rules = "acf-2004"\n\n[[rating_lists]]\nfile = "lists/club.csv"\n'
                          'kind = "national-club"\ndate = 2004-02-01')),
               Loc("club.csv", 4), "twice",
               note="the store exists: the failed import must leave it byte for byte"))
add(bad_season("rating-list-id-twice-no-store-yet", 4, "acf",
               chain(remove("ratings.sqlite"),
                     edit("lists/acf_2003_12.csv", '3100003,"Abbey, Nina"',
                          '3100002,"Abbey, Nina"')),
               Loc("acf_2003_12.csv", 4), "twice",
               note="no store yet: a failed import must not create ratings.sqlite"))
add(bad_season("players-csv-id-twice", 4, "utah",
               edit("players.csv", '1202,"Vance, Xavi"', '1201,"Vance, Xavi"'),
               Loc("players.csv", 3), "twice"))
add(warn_season("chess-results-empty-rank-cell", 4, "utah",
                chain(write("spring_rapid.csv", chess_results_csv()),
                      edit(SEASON_TOML, '[[events]]\nname = "Provo Open"',
                           '[[events]]\nname = "Spring Rapid"\ndate = 2012-02-01\n'
                           'results = "spring_rapid.csv"\n\n[[events]]\nname = "Provo Open"')),
                Loc("spring_rapid.csv", 5), r"shar\w* (the )?place"))

# ---- 5. Files outside the season ------------------------------------------------------------
OUTSIDE = "outside"
add(bad_season("results-dotdot-etc-passwd", 5, "utah",
               chain(sentinel("/root/etc/passwd", "passwd"),
                     edit(SEASON_TOML, f'results = "{WQ}"', 'results = "../../../etc/passwd"')),
               toml_at('results = "../../../etc/passwd"'), OUTSIDE))
add(bad_season("results-absolute-etc-passwd", 5, "utah",
               edit(SEASON_TOML, f'results = "{WQ}"', 'results = "/etc/passwd"'),
               toml_at('results = "/etc/passwd"'), OUTSIDE))
add(bad_season("results-absolute-path-to-sentinel", 5, "utah",
               chain(sentinel("/root/a/secret.csv", "results"),
                     edit(SEASON_TOML, f'results = "{WQ}"', 'results = "@ROOT@/a/secret.csv"')),
               toml_at('results = "@ROOT@/a/secret.csv"'), OUTSIDE))
add(bad_season("results-symlink-to-outside", 5, "utah",
               chain(sentinel("/root/a/secret.csv", "results"), symlink(WQ, "/root/a/secret.csv")),
               toml_at(f'results = "{WQ}"'), OUTSIDE))
add(bad_season("results-in-symlinked-subfolder", 5, "utah",
               chain(sentinel("/root/a/elsewhere/winter_quick.csv", "results"),
                     symlink("data", "/root/a/elsewhere"),
                     edit(SEASON_TOML, f'results = "{WQ}"', f'results = "data/{WQ}"')),
               toml_at(f'results = "data/{WQ}"'), OUTSIDE))
add(bad_season("results-in-sibling-with-same-prefix", 5, "utah",
               chain(sentinel("/root/a/b/season-old/x.csv", "results"),
                     edit(SEASON_TOML, f'results = "{WQ}"', 'results = "../season-old/x.csv"')),
               toml_at('results = "../season-old/x.csv"'), OUTSIDE,
               note="a sibling folder whose name starts with the season's (prefix checks)"))
add(bad_season("players-csv-symlink-to-outside", 5, "utah",
               chain(sentinel("/root/a/people.csv", "players"),
                     symlink("players.csv", "/root/a/people.csv")),
               Loc("players.csv"), OUTSIDE,
               note="players.csv is not named in season.toml: the file name, no line"))
add(bad_season("aliases-csv-symlink-to-outside", 5, "utah",
               chain(sentinel("/root/a/aliases.csv", "aliases"),
                     symlink("aliases.csv", "/root/a/aliases.csv")),
               Loc("aliases.csv"), OUTSIDE,
               note="aliases.csv is not named in season.toml: the file name, no line"))
add(bad_season("rating-list-symlink-to-outside", 5, "acf",
               chain(sentinel("/root/a/list.csv", "list"),
                     symlink("lists/acf_2003_12.csv", "/root/a/list.csv")),
               toml_at('file = "lists/acf_2003_12.csv"'), OUTSIDE))
add(bad_season("rules-file-dotdot", 5, "acf",
               chain(sentinel("/root/a/b/shared-rules.toml", "rules"),
                     edit(SEASON_TOML, 'rules = "acf-2004"', 'rules = "../shared-rules.toml"')),
               toml_at('rules = "../shared-rules.toml"'), OUTSIDE))
add(bad_season("rules-file-symlink-to-outside", 5, "acf",
               chain(sentinel("/root/a/b/shared-rules.toml", "rules"),
                     symlink("my-rules.toml", "/root/a/b/shared-rules.toml"),
                     edit(SEASON_TOML, 'rules = "acf-2004"', 'rules = "my-rules.toml"')),
               toml_at('rules = "my-rules.toml"'), OUTSIDE))
add(bad_season("rules-table-file-dotdot", 5, "utah",
               chain(sentinel("/root/a/b/shared-rules.toml", "rules"),
                     edit(SEASON_TOML, 'preset = "utah-2012"', 'file = "../shared-rules.toml"')),
               toml_at('file = "../shared-rules.toml"'), OUTSIDE))
add(bad_season("players-key-dotdot", 5, "utah",
               chain(sentinel("/root/a/b/x.csv", "players"),
                     edit(SEASON_TOML, "end = 2012-12-31",
                          'end = 2012-12-31\nplayers = "../x.csv"')),
               toml_at('players = "../x.csv"'), OUTSIDE))
add(bad_season("rating-list-file-dotdot", 5, "acf",
               chain(sentinel("/root/a/b/list.csv", "list"),
                     edit(SEASON_TOML, 'file = "lists/acf_2003_12.csv"', 'file = "../list.csv"')),
               toml_at('file = "../list.csv"'), OUTSIDE))
add(bad_season("rating-list-file-absolute-etc-passwd", 5, "acf",
               edit(SEASON_TOML, 'file = "lists/acf_2003_12.csv"', 'file = "/etc/passwd"'),
               toml_at('file = "/etc/passwd"'), OUTSIDE))
add(bad_season("ratings-store-dotdot", 5, "acf",
               chain(NO_RATING_LISTS, prepared_store("/root/a/b/store.sqlite"),
                     edit(SEASON_TOML, 'rules = "acf-2004"',
                          'rules = "acf-2004"\nratings_store = "../store.sqlite"')),
               toml_at('ratings_store = "../store.sqlite"'), OUTSIDE))
add(command("event-entries-dotdot", 5, "event",
            chain(sentinel("/root/a/secret.csv", "entries"),
                  edit("event.toml", 'entries = "entries.csv"', 'entries = "../../secret.csv"')),
            ("sections", "{event}"), 2,
            Loc("event.toml", find='entries = "../../secret.csv"'), OUTSIDE))
add(command("event-entries-symlink-to-outside", 5, "event",
            chain(sentinel("/root/a/secret.csv", "entries"),
                  symlink("entries.csv", "/root/a/secret.csv")),
            ("fees", "{event}"), 2,
            (Loc("event.toml", find='entries = "entries.csv"'), Loc("entries.csv")), OUTSIDE))
add(command("event-section-results-dotdot", 5, "event",
            chain(sentinel("/root/a/secret.trf", "trf"),
                  edit("event.toml", 'results = "results/x.trf"', 'results = "../../secret.trf"')),
            ("prizes", "--event", "{event}"), 2,
            Loc("event.toml", find='results = "../../secret.trf"'), OUTSIDE))
add(command("event-players-file-dotdot", 5, "event",
            chain(sentinel("/root/a/people.csv", "players"),
                  edit("event.toml", 'entries = "entries.csv"',
                       'entries = "entries.csv"\nplayers_file = "../../people.csv"')),
            ("prizes", "--event", "{event}"), 2,
            Loc("event.toml", find='players_file = "../../people.csv"'), OUTSIDE))
SHARED = "shared_folders = [\"../federation\"]"
UTAH_PRESET = ROOT / "src" / "grandprix" / "rules" / "presets" / "utah-2012.toml"
add(equivalent("shared-folder-rules-file-allowed", 5, "utah",
               chain(write("/root/a/b/federation/rules.toml", UTAH_PRESET.read_bytes),
                     edit(SEASON_TOML, "end = 2012-12-31", f"end = 2012-12-31\n{SHARED}"),
                     edit(SEASON_TOML, 'preset = "utah-2012"',
                          'file = "../federation/rules.toml"'))))
add(equivalent("shared-folder-rating-list-allowed", 5, "acf",
               chain(copy_in("lists/acf_2003_12.csv", "/root/a/b/federation/acf_2003_12.csv"),
                     edit(SEASON_TOML, 'rules = "acf-2004"', f'{SHARED}\nrules = "acf-2004"'),
                     edit(SEASON_TOML, 'file = "lists/acf_2003_12.csv"',
                          'file = "../federation/acf_2003_12.csv"'))))
add(bad_season("shared-folder-symlink-to-elsewhere", 5, "utah",
               chain(sentinel("/root/a/secret-rules.toml", "rules"),
                     symlink("/root/a/b/federation/rules.toml", "/root/a/secret-rules.toml"),
                     edit(SEASON_TOML, "end = 2012-12-31", f"end = 2012-12-31\n{SHARED}"),
                     edit(SEASON_TOML, 'preset = "utah-2012"',
                          'file = "../federation/rules.toml"')),
               toml_at('file = "../federation/rules.toml"'), OUTSIDE))

# ---- 6. Files lost -------------------------------------------------------------------------
SITE = ("site", "{season}", "-o", "{out}")
add(Case("two-site-runs-at-once", 6, "acf", nothing, (), custom=concurrent_site))
add(command("site-over-earlier-site-with-cname", 6, "utah",
            earlier_site(write("/root/out/CNAME", "grandprix.example.org\n")),
            SITE, 2, phrase="CNAME"))
add(command("site-over-earlier-site-with-git", 6, "utah",
            earlier_site(chain(write("/root/out/.git/HEAD", "ref: refs/heads/main\n"),
                               write("/root/out/.git/config", "[core]\n"))),
            SITE, 2, phrase=r"\.git"))
add(command("site-over-earlier-site-with-photos", 6, "utah",
            earlier_site(write("/root/out/photos/prize-giving.jpg", garbage(5000, 3))),
            SITE, 2, phrase="photos"))
add(command("site-leaves-sibling-dot-old-alone", 6, "utah",
            earlier_site(chain(write("/root/.out.old/keep.txt", "my own backup\n"),
                               write("/root/.out.new/keep.txt", "mine too\n"),
                               write("/root/.out.tmp/keep.txt", "and this\n"))),
            SITE, 0, outputs=("{out}",), custom=expect_files("index.html", "events.html")))
add(command("site-into-the-season-folder", 6, "utah", nothing,
            ("site", "{season}", "-o", "{season}"), 2))
add(command("site-into-a-users-folder", 6, "utah",
            chain(write("/root/out/README.md", "# my notes\n"),
                  write("/root/out/index.html", "<p>mine</p>\n")),
            SITE, 2))
add(command("site-output-is-a-file", 6, "utah", write("/root/out", "not a folder\n"), SITE, 2))
EXPORT = ("export", "{event}", "-o", "{out}")
add(command("export-over-existing-files", 6, "event",
            write("/root/out/x.trf", "my own notes, not a TRF\n"), EXPORT, 2))
add(command("export-force-overwrites", 6, "event",
            write("/root/out/x.trf", "my own notes, not a TRF\n"), (*EXPORT, "--force"), 0,
            outputs=("{out}",), custom=expect_files("x.trf", "a.trf", holding=("x.trf", "012 "))))
for cid, argv in [
    ("read-only-season-check", ("check", "{season}")),
    ("read-only-season-standings", ("standings", "{season}")),
    ("read-only-season-explain", ("explain", "{season}", "3100006")),
    ("read-only-season-prizes", ("prizes", "{season}")),
    ("read-only-season-players", ("players", "{season}")),
]:
    add(command(cid, 6, "acf", read_only("."), argv, 0,
                note="as root chmod stops no write: then only 'no file appears' is tested"))
add(command("ratings-store-is-a-text-file", 6, "lists",
            write("notadb.sqlite", "milk\neggs\nbread\n"),
            ("ratings", "lists", "--store", "{lists}/notadb.sqlite"), 2, Loc("notadb.sqlite")))
add(command("ratings-lists-without-store-creates-nothing", 6, "lists", nothing,
            ("ratings", "lists"), (0, 2),
            note="exit 0 (no lists) or 2 (no store) both accepted; nothing may be created"))
add(bad_season("season-store-is-a-text-file", 6, "acf",
               chain(NO_RATING_LISTS, write("my.sqlite", "not a database, my notes\n"),
                     edit(SEASON_TOML, 'rules = "acf-2004"',
                          'rules = "acf-2004"\nratings_store = "my.sqlite"')),
               (toml_at('ratings_store = "my.sqlite"'), Loc("my.sqlite"))))

# ---- 7. Encodings and dialects --------------------------------------------------------------
UTF16 = (Loc(WQ), "UTF-16")
add(equivalent("results-csv-utf16-le-bom", 7, "utah",
               transform(WQ, reencode("utf-16-le", b"\xff\xfe")), refusal=UTF16))
add(equivalent("results-csv-utf16-be-bom", 7, "utah",
               transform(WQ, reencode("utf-16-be", b"\xfe\xff")), refusal=UTF16))
add(equivalent("results-trf-utf16-le-bom", 7, "utah",
               transform("provo_open.trf", reencode("utf-16-le", b"\xff\xfe")),
               refusal=(Loc("provo_open.trf"), "UTF-16")))
add(equivalent("results-trf-utf16-be-bom", 7, "utah",
               transform("provo_open.trf", reencode("utf-16-be", b"\xfe\xff")),
               refusal=(Loc("provo_open.trf"), "UTF-16")))
add(equivalent("players-csv-utf16-le-bom", 7, "utah",
               transform("players.csv", reencode("utf-16-le", b"\xff\xfe")),
               refusal=(Loc("players.csv"), "UTF-16")))
add(equivalent("players-csv-saved-by-excel", 7, "utah", transform("players.csv", excel_csv())))
add(equivalent("results-csv-saved-by-excel-decimal-comma", 7, "utah",
               transform(WQ, excel_csv(decimal_comma=True))))
BARD = edit(WQ, '"Baird, Alma",1205', '"Bard, Alma",')
add(equivalent("aliases-csv-saved-by-excel", 7, "utah",
               chain(BARD, write("aliases.csv", b"\xef\xbb\xbfname;other;decision\r\n"
                                                b"Bard, Alma;Baird, Alma;same\r\n")),
               note="the alias makes 'Bard, Alma' (no id) player 1205: the example's standings"))
add(equivalent("aliases-csv-plain", 7, "utah",
               chain(BARD, write("aliases.csv",
                                 'name,other,decision\n"Bard, Alma","Baird, Alma",same\n'))))
NUNEZ = edit(WQ, '"Nguyen, Nina",1201', '"Núñez, Nina",1201')
add(equivalent("results-csv-latin1", 7, "utah",
               chain(NUNEZ, transform(WQ, lambda d: d.decode("utf-8").encode("latin-1"))),
               reference=NUNEZ, compare_stderr=True, must_show="Núñez, Nina"))
VAENCE = edit("provo_open.trf", "Vance, Xavi  ", "Müller, Xavi ")  # same width
add(equivalent("results-trf-latin1", 7, "utah",
               chain(VAENCE, transform("provo_open.trf",
                                       lambda d: d.decode("utf-8").encode("latin-1"))),
               reference=VAENCE, compare_stderr=True, must_show="Müller, Xavi"))
PLAYERS_ACCENT = edit("players.csv", '"Walsh, Milo"', '"Wälsh, Miló"')
add(equivalent("players-csv-latin1", 7, "utah",
               chain(PLAYERS_ACCENT, transform("players.csv",
                                               lambda d: d.decode("utf-8").encode("latin-1"))),
               reference=PLAYERS_ACCENT, must_show="Wälsh, Miló"))
add(equivalent("results-trf-cr-line-endings", 7, "utah",
               transform("provo_open.trf", line_endings(b"\r"))))
add(equivalent("season-toml-utf8-bom-crlf", 7, "utah",
               transform(SEASON_TOML, lambda d: b"\xef\xbb\xbf" + line_endings(b"\r\n")(d)),
               refusal=(Loc(SEASON_TOML, 1), None),
               note="Notepad's UTF-8 with BOM: read, or refused in one message at line 1"))
add(equivalent("season-toml-utf16", 7, "utah",
               transform(SEASON_TOML, reencode("utf-16-le", b"\xff\xfe")),
               refusal=(Loc(SEASON_TOML), "UTF-16")))
for cid, form in [
    ("explain-given-name-first", "Milo Walsh"),
    ("explain-upper-case", "WALSH MILO"),
    ("explain-comma-without-space", "Walsh,Milo"),
    ("explain-spaces-around", "  walsh ,  milo  "),
]:
    add(command(cid, 7, "utah", nothing, ("explain", "{season}", form), 0,
                phrase=r"Walsh, Milo.*1214"))
add(Case("review-alias-lines-are-accepted", 7, "utah",
         chain(BARD, edit(WQ, '"Reyes, Ivan",1206', '"Reyes, Ivann",')), (),
         custom=review_aliases))

# ---- 8. Rule-set values ---------------------------------------------------------------------
PROVO_RESULTS = 'results = "provo_open.trf"'
add(bad_season("event-tiebreaks-unknown-code", 8, "utah",
               edit(SEASON_TOML, PROVO_RESULTS, PROVO_RESULTS + '\ntiebreaks = "BH,XYZ"'),
               toml_at('tiebreaks = "BH,XYZ"'), "XYZ"))
add(bad_season("rules-points-tiebreaks-unknown-code", 8, "utah",
               utah_rules('[rules.points]\nties = "tiebreak"\ntiebreaks = "BH,XYZ"'),
               toml_at('tiebreaks = "BH,XYZ"'), "XYZ"))
add(bad_season("unknown-preset-in-table", 8, "utah",
               edit(SEASON_TOML, 'preset = "utah-2012"', 'preset = "utah-2021"'),
               toml_at('preset = "utah-2021"')))
add(bad_season("unknown-preset-string", 8, "acf",
               edit(SEASON_TOML, 'rules = "acf-2004"', 'rules = "acf-2005"'),
               toml_at('rules = "acf-2005"')))
add(bad_season("unknown-event-key-did-you-mean", 8, "utah",
               edit(SEASON_TOML, "weight = 1.5   # UT-6", "wieght = 1.5"),
               toml_at("wieght = 1.5"), "did you mean"))
add(bad_season("unknown-rules-key-did-you-mean", 8, "utah",
               utah_rules("[rules.points]\ntabel = [25, 18, 15]"),
               toml_at("tabel = [25, 18, 15]"), "did you mean"))
add(bad_season("unknown-section-key-did-you-mean", 8, "utah",
               edit(SEASON_TOML, "weight = 0.75", "wieght = 0.75"),
               toml_at("wieght = 0.75"), "did you mean"))
add(bad_season("wrong-type-weight", 8, "utah",
               edit(SEASON_TOML, "weight = 1.5   # UT-6", 'weight = "heavy"'),
               toml_at('weight = "heavy"'), "weight"))
add(bad_season("wrong-type-points-table", 8, "utah",
               utah_rules('[rules.points]\ntable = "21, 15, 12"'),
               toml_at('table = "21, 15, 12"'), "table"))
add(bad_season("wrong-type-rules", 8, "acf",
               edit(SEASON_TOML, 'rules = "acf-2004"', "rules = 42"), toml_at("rules = 42")))
add(bad_season("empty-points-table", 8, "utah", utah_rules("[rules.points]\ntable = []"),
               toml_at("table = []"), "table"))
add(bad_season("counting-best-0", 8, "utah",
               utah_rules('[rules.counting]\nmode = "best"\nbest = 0'), toml_at("best = 0"),
               "best"))
add(bad_season("counting-best-negative", 8, "utah",
               utah_rules('[rules.counting]\nmode = "best"\nbest = -1'), toml_at("best = -1"),
               "best"))
add(bad_season("counting-percent-negative", 8, "utah",
               utah_rules('[rules.counting]\nmode = "percent"\npercent = -5'),
               toml_at("percent = -5"), "percent",
               note="bounds of 'percent' are our reading (0 to 100)"))
add(bad_season("division-min-above-max-rating", 8, "utah",
               utah_rules('[[rules.divisions]]\nname = "Band"\nrating_at_least = 2000\n'
                          "rating_below = 1800"),
               Loc(SEASON_TOML, find=("[[rules.divisions]]", 'name = "Band"',
                                      "rating_at_least = 2000", "rating_below = 1800"))))
add(bad_season("unknown-tiebreak-rules", 8, "utah",
               edit(SEASON_TOML, PROVO_RESULTS, PROVO_RESULTS + '\ntiebreak_rules = "fide-2099"'),
               toml_at('tiebreak_rules = "fide-2099"'), "tiebreak_rules"))
add(bad_season("prize-without-amount-or-title", 8, "utah",
               edit(SEASON_TOML, "amount = 100",
                    'amount = 100\n\n[[rules.prizes.prize]]\nname = "4th"'),
               Loc(SEASON_TOML, find=("[[rules.prizes.prize]]", 'name = "4th"'), nth=-1)))
add(bad_season("standings-tiebreak-unknown", 8, "utah",
               utah_rules('[rules.standings]\ntiebreaks = ["best", "worst"]'),
               toml_at('tiebreaks = ["best", "worst"]'), "worst"))
add(bad_season("standings-decimals-a-million", 8, "utah",
               utah_rules("[rules.standings]\ndecimals = 1000000"),
               toml_at("decimals = 1000000"), "decimals", proc=True, timeout=60.0,
               max_seconds=10.0, note="bounds of 'decimals' are our reading"))
add(command("debug-option-on-bad-rules", 8, "utah",
            edit(SEASON_TOML, 'preset = "utah-2012"', 'preset = "utah-2021"'),
            ("--debug", "standings", "{season}"), 2, toml_at('preset = "utah-2021"'),
            note="--debug changes nothing for bad input: a located message, no traceback"))

# ---- 9. Event side --------------------------------------------------------------------------
QUINN = '"Quinn, Quentin",7002,2216,'
add(command("entries-rating-abc", 9, "event",
            edit("entries.csv", QUINN, '"Quinn, Quentin",7002,abc,'),
            ("sections", "{event}"), 2, Loc("entries.csv", 3), "rating"))
add(command("entries-grade-99", 9, "event",
            edit("entries.csv", '"Gallo, Carla",7110,,9,', '"Gallo, Carla",7110,,99,'),
            ("sections", "{event}"), 2, Loc("entries.csv", 111), "grade"))
add(command("entries-bye-round-9-of-4", 9, "event",
            edit("entries.csv", ",2@2026-08-15T08:00,", ",9,"),
            ("byes", "{event}"), 2, Loc("entries.csv", 5), "round"))
add(command("entries-duplicate-player", 9, "event",
            edit("entries.csv", '"Ueda, Hugo",7003', '"Quinn, Quentin",7002'),
            ("sections", "{event}"), 2, Loc("entries.csv", 4)))
add(command("entries-nul-byte", 9, "event",
            edit("entries.csv", '"Ueda, Quentin"', '"Ueda,\x00 Quentin"'),
            ("sections", "{event}"), 2, Loc("entries.csv", 6)))
add(command("entries-file-missing", 9, "event", remove("entries.csv"),
            ("fees", "{event}"), 2,
            (Loc("event.toml", find='entries = "entries.csv"'), Loc("entries.csv"))))
add(command("section-results-file-missing", 9, "event",
            edit("event.toml", 'results = "results/x.trf"', 'results = "results/missing.trf"'),
            ("prizes", "--event", "{event}"), 2,
            Loc("event.toml", find='results = "results/missing.trf"')))
add(command("export-with-bad-entries-writes-nothing", 9, "event",
            edit("entries.csv", QUINN, '"Quinn, Quentin",7002,abc,'),
            EXPORT, 2, Loc("entries.csv", 3)))
add(command("event-unknown-key-did-you-mean", 9, "event",
            edit("event.toml", "rounds = 4", "roudns = 4"),
            ("sections", "{event}"), 2, Loc("event.toml", find="roudns = 4"), "did you mean"))
add(command("event-rounds-negative", 9, "event",
            edit("event.toml", "rounds = 4", "rounds = -4"),
            ("byes", "{event}"), 2, Loc("event.toml", find="rounds = -4"), "rounds"))
add(command("event-fee-negative", 9, "event",
            edit("event.toml", "advance = 25", "advance = -25"),
            ("fees", "{event}"), 2, Loc("event.toml", find="advance = -25"), "advance"))
add(command("event-prize-amount-negative", 9, "event",
            edit("event.toml", "amount = 100", "amount = -20"),
            ("prizes", "--event", "{event}"), 2, Loc("event.toml", find="amount = -20"), "amount"))
add(command("register-prize-fund-negative", 9, "register",
            edit("event.toml", "prize_fund = 1800", "prize_fund = -1800"),
            ("register", "{event}"), 2, Loc("event.toml", find="prize_fund = -1800"), "prize_fund"))
add(command("register-prize-fund-1e300", 9, "register",
            edit("event.toml", "prize_fund = 1800", "prize_fund = 1e300"),
            ("register", "{event}"), 2, Loc("event.toml", find="prize_fund = 1e300"), "prize_fund"))
add(command("register-players-negative", 9, "register",
            edit("event.toml", "players = 64", "players = -64"),
            ("register", "{event}", "--format", "json"), 2,
            Loc("event.toml", find="players = -64"), "players"))

# ---- 10. The ratings command ----------------------------------------------------------------
STORE = "{root}/store.sqlite"
LIST_CSV = 'id,name,rating\n100,"Alpha, Ann",2000\n101,"Beta, Bob",1900\n102,"Gamma, Gus",1800\n'
FIDE_XML = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    "<playerslist>\n"
    "<player><fideid>100</fideid><name>Alpha, Ann</name><country>USA</country><sex>F</sex>"
    "<title></title><rating>2000</rating><birthday>1990</birthday></player>\n"
    "<player><fideid>101</fideid><name>Beta, Bob</name><country>USA</country><sex>M</sex>"
    "<title></title><rating>1900</rating><birthday>1991</birthday></player>\n"
    "<player><fideid>102</fideid><name>Gamma, G"
)


def import_argv(name: str, *extra: str) -> tuple[str, ...]:
    return ("ratings", "import", f"{{lists}}/{name}", "--kind", "fide-standard",
            "--date", "2025-01-01", "--store", STORE, *extra)


GOOD_ZIP = zip_bytes({"list.csv": (LIST_CSV * 1).encode() + b"".join(
    f'{i},"Player {i}",{1000 + i % 1000}\n'.encode() for i in range(200, 3000))})
add(command("import-damaged-zip", 10, "lists", write("list.zip", GOOD_ZIP[: len(GOOD_ZIP) // 2]),
            import_argv("list.zip"), 2, Loc("list.zip"), r"damaged|not a (valid )?zip|corrupt",
            phrase_absent="not a FIDE list"))
add(command("import-truncated-xml", 10, "lists", write("list.xml", FIDE_XML),
            import_argv("list.xml"), 2, Loc("list.xml", 5)))
add(command("import-csv-id-twice", 10, "lists",
            write("list.csv", LIST_CSV + '101,"Beta, Bob",1950\n'),
            import_argv("list.csv"), 2, Loc("list.csv", 5), "twice"))
add(command("import-csv-rating-abc", 10, "lists",
            write("list.csv", LIST_CSV.replace("1900", "abc")),
            import_argv("list.csv"), 2, Loc("list.csv", 3), "rating"))
add(command("import-zip-with-two-lists", 10, "lists",
            write("list.zip", zip_bytes({"a.csv": LIST_CSV.encode(), "b.csv": LIST_CSV.encode()})),
            import_argv("list.zip"), 2, Loc("list.zip")))
add(command("import-a-text-that-is-no-list", 10, "lists",
            write("notes.txt", "Dear members,\nthe club meets on Tuesday.\n"),
            import_argv("notes.txt"), 2, Loc("notes.txt", 1)))
add(command("import-date-2025-02-30", 10, "lists", write("list.csv", LIST_CSV),
            ("ratings", "import", "{lists}/list.csv", "--kind", "fide-standard",
             "--date", "2025-02-30", "--store", STORE), 2, phrase="no such date"))
add(command("import-unknown-kind", 10, "lists", write("list.csv", LIST_CSV),
            ("ratings", "import", "{lists}/list.csv", "--kind", "fide-classic",
             "--date", "2025-01-01", "--store", STORE), 2, phrase="kind"))
add(command("import-store-is-a-folder", 10, "lists",
            chain(write("list.csv", LIST_CSV), write("/root/storedir/keep.txt", "x\n")),
            ("ratings", "import", "{lists}/list.csv", "--kind", "fide-standard",
             "--date", "2025-01-01", "--store", "{root}/storedir"), 2))
add(command("show-missing-store", 10, "lists", nothing,
            ("ratings", "show", "100", "--kind", "fide-standard", "--on", "2025-01-01",
             "--store", "{root}/none.sqlite"), 2, Loc("none.sqlite")))
add(command("show-missing-default-store", 10, "lists", nothing,
            ("ratings", "show", "100", "--kind", "fide-standard", "--on", "2025-01-01"), 2,
            Loc("ratings.sqlite")))
add(command("show-on-2025-02-30", 10, "lists", nothing,
            ("ratings", "show", "100", "--kind", "fide-standard", "--on", "2025-02-30",
             "--store", "{root}/none.sqlite"), 2, phrase="no such date"))
add(command("remove-missing-store", 10, "lists", nothing,
            ("ratings", "remove", "--kind", "fide-standard", "--date", "2025-01-01",
             "--store", "{root}/none.sqlite"), 2, Loc("none.sqlite"),
            note="like 'show': a store that is not there is exit 2 and is not created"))
# fmt: on
