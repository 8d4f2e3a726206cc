"""Prove that a change keeps every output byte-identical to an earlier commit.

Runs the same commands (every ``make demo`` command, the JSON and CSV forms, ``check``,
``explain``, the rules reference, and a site for every example season) with the code of
``--base`` and with the code of the working tree, and compares every byte of standard output,
standard error, exit code and written file. Both runs use this checkout's virtual environment;
the base's code is checked out into a temporary git worktree and put first on ``PYTHONPATH``.

    .venv/bin/python scripts/same_outputs.py --base 653e71f

Exits 0 when everything is identical, 1 with the list of differences otherwise.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EVENTS = "examples/events"
EVENT_TOML = f"{EVENTS}/class_championships_2026/event.toml"
SEASONS = ("utah-2012", "acf-2004", "lupiae-2012-13", "utah-2026")

COMMANDS: tuple[tuple[str, ...], ...] = (
    ("event", f"{EVENTS}/spring_open_2026.trf", "--tiebreaks", "BH/C1,BH,SB,DE,WIN"),
    (
        "event",
        f"{EVENTS}/spring_open_2026.trf",
        "--tiebreaks",
        "BH/C1,BH,SB",
        "--tiebreak-rules",
        "fide-2024",
    ),
    (
        "event",
        f"{EVENTS}/spring_open_2026.trf",
        "--tiebreaks",
        "MM,SOLK,CUM,OCUM",
        "--tiebreak-rules",
        "us-chess",
    ),
    ("event", f"{EVENTS}/spring_open_2026.trf", "--format", "json"),
    ("event", f"{EVENTS}/club_championship_2026.trf", "--tiebreaks", "DE,WIN,SB,KS"),
    ("event", f"{EVENTS}/club_rapid_standings.csv"),
    ("event", f"{EVENTS}/club_rapid_standings.csv", "--format", "csv"),
    ("standings", "examples/acf-2004", "--division", "Open"),
    ("standings", "examples/acf-2004", "--division", "Junior"),
    ("players", "examples/acf-2004", "--review"),
    ("players", "examples/utah-2012"),
    ("explain", "examples/lupiae-2012-13", "5001"),
    ("explain", "examples/acf-2004", "Ian Rogers"),
    ("sections", EVENT_TOML),
    ("fees", EVENT_TOML),
    ("byes", EVENT_TOML),
    ("prizes", "--event", EVENT_TOML),
    ("register", f"{EVENTS}/hobart_weekender_2004.toml"),
    ("rules-reference",),
    ("event", "--help"),
    ("standings", "--help"),
    *(
        command
        for season in SEASONS
        for command in (
            ("standings", f"examples/{season}"),
            ("standings", f"examples/{season}", "--format", "json"),
            ("standings", f"examples/{season}", "--format", "csv"),
            ("check", f"examples/{season}"),
            ("prizes", f"examples/{season}"),
            ("site", f"examples/{season}", "-o", f"OUT/site/{season}"),
        )
    ),
)


def run_all(src: Path, out: Path) -> dict[str, bytes]:
    """Every command's output with the code in ``src``, keyed by a readable name."""
    env = {**os.environ, "PYTHONPATH": str(src), "COLUMNS": "100", "NO_COLOR": "1"}
    results: dict[str, bytes] = {}
    for number, command in enumerate(COMMANDS):
        args = [arg.replace("OUT", str(out)) for arg in command]
        done = subprocess.run(
            [sys.executable, "-m", "grandprix.cli", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            check=False,
        )
        name = f"{number:02d} grandprix {' '.join(command)}"
        results[f"{name} [exit]"] = str(done.returncode).encode()
        results[f"{name} [stdout]"] = done.stdout.replace(str(out).encode(), b"OUT")
        results[f"{name} [stderr]"] = done.stderr.replace(str(out).encode(), b"OUT")
    for path in sorted(out.rglob("*")):
        if path.suffix == ".xlsx":
            results.update(workbook(path, f"file {path.relative_to(out)}"))
        elif path.is_file():
            results[f"file {path.relative_to(out)}"] = path.read_bytes()
    return results


def workbook(path: Path, name: str) -> dict[str, bytes]:
    """A workbook's members one by one. openpyxl writes the time of writing into the zip entries
    and into docProps/core.xml, so two runs of the same code differ there and only there."""
    with zipfile.ZipFile(path) as book:
        members = {f"{name}!{info.filename}": book.read(info) for info in book.infolist()}
    core = f"{name}!docProps/core.xml"
    if core in members:
        members[core] = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", b"TIME", members[core])
    return members


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="the commit to compare with")
    base = parser.parse_args().base
    with tempfile.TemporaryDirectory() as temp:
        tree = Path(temp) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(tree), base], cwd=ROOT, check=True
        )
        try:
            before = run_all(tree / "src", Path(temp) / "before")
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True
            )
        after = run_all(ROOT / "src", Path(temp) / "after")
        shutil.rmtree(Path(temp) / "before", ignore_errors=True)
    differences = 0
    for key in sorted(before.keys() | after.keys()):
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        differences += 1
        print(f"DIFFERENT: {key}")
        if old is not None and new is not None:
            diff = difflib.unified_diff(
                old.decode(errors="replace").splitlines(),
                new.decode(errors="replace").splitlines(),
                "before",
                "after",
                lineterm="",
                n=1,
            )
            print("\n".join(list(diff)[:40]))
        else:
            print("  only " + ("after" if old is None else "before"))
    files = sum(1 for key in after if key.startswith("file "))
    digest = hashlib.sha256(b"".join(after[key] for key in sorted(after))).hexdigest()[:16]
    print(
        f"{len(COMMANDS)} commands, {files} site files compared with {base}: "
        f"{differences} differences (digest of all outputs {digest})"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
