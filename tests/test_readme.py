"""Every command example of README.md and docs/*.md is run and its output compared, so the manual
cannot go stale.

The convention, for whoever edits the README or a page of docs/:

- An example lives in a fenced code block (any language tag or none). A line starting with
  ``$ grandprix `` is a command; the lines after it, up to the next ``$`` line or the end of the
  block, are its output as the user sees it (standard output and standard error together). A block
  may hold several commands; blank lines at the end of an example's output are ignored.
- A command is expected to exit 0. An example that fails on purpose ends its command line with a
  shell comment naming the exit code: ``$ grandprix check DIR  # exit 1``.
- A line that is ``...`` and nothing else stands for lines left out (any number, also none).
  The lines shown between two ``...`` must appear in the output one after the other and in that
  order. Without a ``...`` at its start the output must begin with the first line shown; without
  one at its end it must end with the last line shown. Lines are compared with their trailing
  white space stripped.
- The commands run in-process (click's CliRunner, program name ``grandprix``), in the
  repository's root folder, with ``COLUMNS=100`` and no colour: write the examples' tables at
  that width.
- Any other line starting with ``$``, in a code block or not, fails the test: it would be an
  example nobody runs.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from conftest import ROOT
from grandprix.cli import main

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PROMPT = "$ grandprix "
GAP = "..."
# Plain text 100 columns wide, whatever the terminal or CI says (None removes a variable).
ENV: dict[str, str | None] = {
    "COLUMNS": "100",
    "LINES": "50",
    "NO_COLOR": "1",
    "FORCE_COLOR": None,
    "TTY_COMPATIBLE": None,
    "TTY_INTERACTIVE": None,
}
EXIT_COMMENT = re.compile(r"#\s*exit\s+(\d+)\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Example:
    line: int  # 1-based line of the ``$ grandprix`` command in its document
    command: str  # the command line as written, without the prompt
    exit_code: int
    expected: tuple[str, ...]  # output lines, ``...`` included

    @property
    def args(self) -> list[str]:
        return shlex.split(self.command, comments=True)


def parse(text: str) -> tuple[list[Example], list[int]]:
    """The examples of a document and the lines of ``$`` commands that are not examples."""
    examples: list[Example] = []
    strays: list[int] = []
    in_block = False
    current: tuple[int, str] | None = None
    output: list[str] = []

    def close() -> None:
        nonlocal current, output
        if current is not None:
            while output and not output[-1].strip():
                output.pop()
            line, command = current
            match = EXIT_COMMENT.search(command)
            code = int(match.group(1)) if match else 0
            examples.append(Example(line, command, code, tuple(output)))
        current, output = None, []

    for number, raw in enumerate(text.splitlines(), start=1):
        if FENCE.match(raw):
            close()
            in_block = not in_block
            continue
        if not in_block:
            if raw.lstrip().startswith(PROMPT):
                strays.append(number)  # a command outside a code block is never run
            continue
        if raw.startswith("$"):
            close()
            if raw.startswith(PROMPT):
                current = (number, raw[len(PROMPT) :])
            else:
                strays.append(number)
        elif current is not None:
            output.append(raw.rstrip())
    close()
    return examples, strays


def segments(expected: tuple[str, ...]) -> tuple[bool, list[list[str]], bool]:
    """(output starts anywhere, the runs of consecutive lines, output ends anywhere)."""
    runs: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == GAP:
            runs.append([])
        else:
            runs[-1].append(line)
    open_start = bool(expected) and expected[0].strip() == GAP
    open_end = bool(expected) and expected[-1].strip() == GAP
    return open_start, [run for run in runs if run], open_end


def mismatch(expected: tuple[str, ...], actual: list[str]) -> str | None:
    """Why ``actual`` does not show ``expected``; None when it does."""
    open_start, runs, open_end = segments(expected)
    if not runs:
        return None if open_start or open_end or not actual else "the output should be empty"
    position = 0
    for index, run in enumerate(runs):
        at_start = index == 0 and not open_start
        at_end = index == len(runs) - 1 and not open_end
        found = next(
            (
                at
                for at in range(position, len(actual) - len(run) + 1)
                if (at == 0 or not at_start)
                and (at + len(run) == len(actual) or not at_end)
                and actual[at : at + len(run)] == run
            ),
            None,
        )
        if found is None:
            if at_end and any(actual[at : at + len(run)] == run for at in range(len(actual))):
                return "the output goes on after the last line shown (end the example with '...')"
            where = "at the start of the output" if at_start else "in order"
            return f"these lines are not {where}:\n" + "\n".join(run)
        position = found + len(run)
    return None


TEXTS = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8") for path in DOCUMENTS}
PARSED = {name: parse(text) for name, text in TEXTS.items()}
EXAMPLES = [(name, example) for name, (examples, _) in PARSED.items() for example in examples]


def test_the_manual_has_examples_and_every_command_in_it_is_run() -> None:
    assert len(EXAMPLES) > 15, f"only {len(EXAMPLES)} examples found in {', '.join(TEXTS)}"
    assert PARSED["README.md"][0], "README.md shows no example"
    for name, (examples, strays) in PARSED.items():
        assert not strays, f"{name} lines {strays}: a '$' line that no test runs"
        lines = TEXTS[name].splitlines()
        commands = [n for n, line in enumerate(lines, 1) if line.lstrip().startswith("$")]
        assert [example.line for example in examples] == commands, name


@pytest.mark.parametrize(
    ("document", "example"), EXAMPLES, ids=[f"{name}:{e.line}" for name, e in EXAMPLES]
)
def test_manual_example(document: str, example: Example, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner(env=ENV).invoke(main, example.args, prog_name="grandprix")
    actual = [line.rstrip() for line in result.output.splitlines()]
    where = f"{document} line {example.line}: $ grandprix {example.command}"
    assert result.exit_code == example.exit_code, (
        f"{where}\nexit code {result.exit_code}, {document} says {example.exit_code}"
        f" ({result.exception!r})\n{result.output}"
    )
    problem = mismatch(example.expected, actual)
    assert problem is None, f"{where}\n{problem}\n--- the actual output:\n" + "\n".join(actual)


def test_the_comparison_itself() -> None:
    text = "```\n$ grandprix a b  # exit 2\nx\n...\nz\n\n$ grandprix c\n...\n```\n$ grandprix d\n"
    examples, strays = parse(text)
    assert [(e.line, e.args, e.exit_code, e.expected) for e in examples] == [
        (2, ["a", "b"], 2, ("x", "...", "z")),
        (7, ["c"], 0, ("...",)),
    ]
    assert strays == [10]
    assert mismatch(("x", "...", "z"), ["x", "y", "z"]) is None
    assert mismatch(("x", "z"), ["x", "y", "z"]) is not None  # without '...': consecutive
    assert mismatch(("y", "..."), ["x", "y"]) is not None  # no leading '...': from the start
    assert mismatch(("x",), ["x", "y"]) is not None  # no trailing '...': to the end
    assert mismatch(("...", "y"), ["x", "y"]) is None
    assert mismatch(("...", "z", "...", "x", "..."), ["x", "y", "z"]) is not None  # order
