"""The long fuzzing run: tests/test_fuzz.py with its ``long`` profile (20,000 inputs or more).

Prints the number of inputs tried, the minutes taken and the number of failures (a test that
found several distinct bugs counts each of them). Exit status: pytest's (0 when nothing failed).
Run: .venv/bin/python benchmarks/fuzz_long.py [--workers N] [-- PYTEST-ARGS...]
(``--workers`` needs pytest-xdist; the default, 1, runs in this process's core only.)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests" / "test_fuzz.py"
_DISTINCT = re.compile(r"found (\d+) distinct failures", re.IGNORECASE)


def count_inputs(path: Path) -> int:
    """The sum of the counts the test module (each xdist worker's copy) appended."""
    if not path.exists():
        return 0
    return sum(int(line) for line in path.read_text(encoding="utf-8").split() if line.isdigit())


def count_failures(report: Path) -> tuple[int, list[str]]:
    """Distinct failures in a JUnit report, and the tests they are in."""
    if not report.exists():
        return 0, []
    failures = 0
    tests = []
    for case in ET.parse(report).getroot().iter("testcase"):
        for problem in [*case.iter("failure"), *case.iter("error")]:
            text = (problem.get("message") or "") + "\n" + (problem.text or "")
            found = _DISTINCT.search(text)
            failures += int(found.group(1)) if found else 1
            tests.append(f"{case.get('classname')}::{case.get('name')}")
    return failures, tests


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1, help="pytest-xdist workers")
    parser.add_argument("pytest_args", nargs="*", help="further pytest arguments (after --)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="grandprix-fuzz-long-") as tmp:
        counts = Path(tmp) / "inputs.txt"
        report = Path(tmp) / "report.xml"
        env = dict(os.environ, GRANDPRIX_FUZZ="long", GRANDPRIX_FUZZ_COUNT=str(counts))
        command = [
            sys.executable,
            "-m",
            "pytest",
            str(TESTS),
            "-q",
            "--tb=short",
            "--hypothesis-show-statistics",
            f"--junitxml={report}",
        ]
        if args.workers > 1:
            command += ["-n", str(args.workers)]
        command += args.pytest_args
        start = time.perf_counter()
        status = subprocess.run(command, cwd=ROOT, env=env, check=False).returncode
        minutes = (time.perf_counter() - start) / 60
        inputs = count_inputs(counts)
        failures, failed_tests = count_failures(report)
    print()
    print(f"inputs tried: {inputs:,}")
    print(f"minutes:      {minutes:.1f}")
    print(f"failures:     {failures}")
    for name in failed_tests:
        print(f"  in {name}")
    if inputs < 20_000 and status in (0, 1):
        print("note: fewer than 20,000 inputs were tried (was the run cut short?)")
    return status


if __name__ == "__main__":
    sys.exit(main())
