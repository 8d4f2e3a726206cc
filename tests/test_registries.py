"""The registries: input formats, rule books and tie-break codes, each written once.

The CLI's choices, the season schema's types, the generated reference (rule books), the parser
and its list of known codes are drawn from them: a new format, rule book or code is an entry
there and nothing else, which the last tests show on an edited copy of the package.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
import subprocess
import sys
import typing
from fractions import Fraction
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

import grandprix
from conftest import EXAMPLES, ROOT, TEST_DATA
from grandprix.cli import main
from grandprix.errors import UsageError
from grandprix.readers import FORMATS, detect_format, load_section
from grandprix.rules.event_points import Points, Term
from grandprix.rules.reference import reference
from grandprix.rules.terms import TERM_KINDS
from grandprix.season.season_file import EventEntry, SectionEntry
from grandprix.tiebreaks import TIEBREAKS, Context, Rules, Spec, TieBreak
from grandprix.tiebreaks.context import TITLES

SWISS = EXAMPLES / "spring_open_2026.trf"
BOOKS = [book.value for book in Rules]


def choices(option: str) -> list[str]:
    """The choices of an option of ``grandprix event``, in the order help and errors show."""
    (param,) = (p for p in main.commands["event"].params if option in p.opts)
    assert isinstance(param.type, click.Choice)
    return list(param.type.choices)


def literal(annotation: Any) -> list[str]:
    """The values of the Literal in a field's type (``X | None`` included)."""
    if typing.get_origin(annotation) is typing.Literal:
        return list(typing.get_args(annotation))
    (found,) = (arg for arg in typing.get_args(annotation) if typing.get_origin(arg))
    return literal(found)


def test_input_formats_are_the_cli_choices_and_the_season_files_format_values() -> None:
    names = ["trf", "csv", "chess-results", "uschess-dbf", "lichess", "chesscom", "games"]
    assert choices("--input-format") == list(FORMATS) == names
    assert literal(SectionEntry.model_fields["format"].annotation) == list(FORMATS)
    assert literal(EventEntry.model_fields["format"].annotation) == list(FORMATS)
    assert all(callable(f.read) and callable(f.recognise) for f in FORMATS.values())


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (SWISS, "trf"),
        (EXAMPLES / "club_rapid_standings.csv", "csv"),
        (TEST_DATA / "keshmat-circuit-2024-25" / "crosstables" / "april.csv", "chess-results"),
        (TEST_DATA / "keshmat-circuit-2024-25" / "crosstables" / "april.xlsx", "chess-results"),
        (TEST_DATA / "games" / "evening.csv", "games"),
    ],
    ids=lambda value: value.name if isinstance(value, Path) else value,
)
def test_each_format_recognises_its_files(path: Path, expected: str) -> None:
    assert detect_format(path, path.read_bytes()) == expected
    section, _ = FORMATS[expected].read(path, path.read_bytes())
    assert section is not None and section.players


def test_an_unknown_input_format_is_refused_with_the_known_ones() -> None:
    known = "trf, csv, chess-results, uschess-dbf, lichess, chesscom, games"
    with pytest.raises(UsageError, match=rf"'pgn' \(expected one of {known}\)"):
        load_section(SWISS, "pgn")


def test_rule_books_are_the_cli_choices_the_schema_values_and_the_reference() -> None:
    assert choices("--tiebreak-rules") == BOOKS
    assert BOOKS == ["fide-2024", "fide-2026", "fide-2009", "us-chess", "lichess"]
    assert literal(Points.model_fields["tiebreak_rules"].annotation) == BOOKS
    assert literal(EventEntry.model_fields["tiebreak_rules"].annotation) == BOOKS
    assert " or ".join(f'"{book}"' for book in BOOKS) in reference()
    assert list(TIEBREAKS) == list(Rules), "every rule book needs its codes in TIEBREAKS"


@pytest.mark.parametrize("book", BOOKS)
def test_every_code_of_a_rule_book_is_accepted_and_computed(book: str) -> None:
    codes = list(TIEBREAKS[Rules(book)])
    result = CliRunner().invoke(
        main,
        [
            "event",
            str(SWISS),
            "--tiebreaks",
            ",".join(codes),
            "--tiebreak-rules",
            book,
            "--unrated-rating",
            "1500",
            "--format",
            "csv",
        ],
    )
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][5:] == codes
    assert all(len(row) == 5 + len(codes) and "" not in row[5:] for row in rows)


def test_every_code_is_documented_in_the_manual() -> None:
    manual = (ROOT / "docs" / "tiebreaks.md").read_text(encoding="utf-8")
    table = manual.split("## Tie-breaks", 1)[1].split("\n\n", 2)[1]
    documented = set(re.findall(r"\b[A-Z]+\b", table))
    for book, codes in TIEBREAKS.items():
        missing = set(codes) - documented
        assert not missing, (
            f"{book.value}: {sorted(missing)} missing from the table of docs/tiebreaks.md"
        )


def test_every_code_of_every_rule_book_has_a_name_and_a_meaning() -> None:
    """Every code of every rule book is named and explained in a sentence, and every rule book
    is named: an event page can name and explain any column it shows, and the rules page any
    tie-break it lists."""
    assert list(TITLES) == list(Rules)
    for book, codes in TIEBREAKS.items():
        assert book.title, book
        for code, tiebreak in codes.items():
            assert tiebreak.name, f"{book.value} {code}"
            meaning = tiebreak.meaning
            assert meaning[:1].isupper() and meaning.endswith("."), f"{book.value} {code}"


def _zeros(ctx: Context, spec: Spec) -> list[Fraction | None]:
    return [Fraction(0)] * ctx.size


def test_a_new_code_is_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    fide = TIEBREAKS[Rules.FIDE_2026]
    zero = TieBreak(_zeros, "zero", "Nothing: every player's value is 0.")
    monkeypatch.setitem(TIEBREAKS, Rules.FIDE_2026, {**fide, "ZERO": zero})
    result = CliRunner().invoke(
        main, ["event", str(SWISS), "--tiebreaks", "ZERO", "--format", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0].endswith(",ZERO")
    refused = CliRunner().invoke(main, ["event", str(SWISS), "--tiebreaks", "ZERO/C1"])
    assert refused.exit_code == 2 and "ZERO takes no cut or median modifier" in refused.output
    refused = CliRunner().invoke(main, ["event", str(SWISS), "--tiebreaks", "NONE"])
    assert refused.exit_code == 2 and "WIN, WON, ZERO)" in refused.output


Edits = dict[str, list[tuple[str, str]]]


def edited_copy(tmp_path: Path, edits: Edits, new: dict[str, str]) -> Path:
    """A copy of the package with each ``old`` text of a module replaced by ``new``, and new
    modules added: what a contributor would write, and nothing else."""
    package = tmp_path / "src" / "grandprix"
    shutil.copytree(
        Path(grandprix.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__")
    )
    for module, changes in edits.items():
        path = package / module
        text = path.read_text(encoding="utf-8")
        for old, replacement in changes:
            assert text.count(old) == 1, f"{module}: the text to edit is not there once: {old!r}"
            text = text.replace(old, replacement)
        path.write_text(text, encoding="utf-8")
    for module, text in new.items():
        (package / module).write_text(text, encoding="utf-8")
    return package


def run_copy(package: Path, code: str, *args: str) -> str:
    """Run ``code`` with the copy's package, ``sys.argv[1:]`` being ``args``; its output."""
    check = f"import grandprix, sys; assert grandprix.__file__.startswith({str(package)!r})\n"
    env = {**os.environ, "PYTHONPATH": str(package.parent)}
    command = [sys.executable, "-c", check + code, *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


CLI = "from grandprix.cli import main; main(sys.argv[1:])"
TSV_READER = """
from grandprix.readers.standings_csv import read_standings_csv


def read(path, data):
    return read_standings_csv(path, data.replace(b"\\t", b","))


def recognise(suffix, head):
    return suffix == ".tsv"
"""


def test_a_new_input_format_is_a_reader_module_and_its_registry_entry(tmp_path: Path) -> None:
    package = edited_copy(
        tmp_path,
        {
            "readers/__init__.py": [
                ("    trf,\n    uschess_dbf,\n)", "    trf,\n    tsv,\n    uschess_dbf,\n)"),
                (
                    "}\nUNRECOGNISED",
                    '    "tsv": InputFormat(tsv.read, tsv.recognise, rank=3),\n}\nUNRECOGNISED',
                ),
            ]
        },
        {"readers/tsv.py": TSV_READER},
    )
    standings = EXAMPLES / "club_rapid_standings.csv"
    tsv = tmp_path / "club_rapid.tsv"
    tsv.write_text(standings.read_text(encoding="utf-8").replace(",", "\t"), encoding="utf-8")
    expected = CliRunner().invoke(main, ["event", str(standings), "--format", "csv"]).stdout
    detected = run_copy(package, CLI, "event", str(tsv), "--format", "csv")
    named = run_copy(package, CLI, "event", str(tsv), "--format", "csv", "--input-format", "tsv")
    assert detected == named == expected
    choices = "[trf|csv|chess-results|uschess-dbf|lichess|chesscom|games|tsv]"
    assert choices in run_copy(package, CLI, "event", "--help")
    entry = "SectionEntry(name='Open', results='open.tsv', format='tsv')"
    run_copy(package, f"from grandprix.season.season_file import SectionEntry; {entry}")


def test_a_new_rule_book_is_a_member_and_its_codes(tmp_path: Path) -> None:
    package = edited_copy(
        tmp_path,
        {
            "tiebreaks/context.py": [
                ("    US_CHESS = ", '    CLUB = "club"\n    US_CHESS = '),
                (
                    "    Rules.US_CHESS: N_(",
                    '    Rules.CLUB: N_("the club\'s rules"),\n    Rules.US_CHESS: N_(',
                ),
            ],
            "tiebreaks/__init__.py": [
                ("    Rules.US_CHESS: {", "    Rules.CLUB: _FIDE,\n    Rules.US_CHESS: {")
            ],
        },
        {},
    )
    options = ["--tiebreaks", "BH,SB", "--format", "csv"]
    placed = run_copy(package, CLI, "event", str(SWISS), "--tiebreak-rules", "club", *options)
    as_2024 = ["event", str(SWISS), "--tiebreak-rules", "fide-2024", *options]
    assert placed == CliRunner().invoke(main, as_2024).stdout  # the 2024 codes, no 2026 cap
    help_text = run_copy(package, CLI, "event", "--help")
    assert "[fide-2024|fide-2026|fide-2009|club|us-chess|lichess]" in help_text
    reference_text = run_copy(package, CLI, "rules-reference")
    listed = '"fide-2024" or "fide-2026" or "fide-2009" or "club" or "us-chess" or "lichess"'
    assert listed in reference_text
    run_copy(
        package, "from grandprix.rules.event_points import Points; Points(tiebreak_rules='club')"
    )
    named = "from grandprix.tiebreaks import Rules; print(Rules('club').title)"
    assert run_copy(package, named) == "the club's rules\n"


def test_the_generated_reference_lists_every_code_of_every_rule_book() -> None:
    from grandprix.rules.reference import reference
    from grandprix.tiebreaks import TIEBREAKS

    text = reference()
    for book, codes in TIEBREAKS.items():
        section = text.split(f"### `{book.value}`", 1)[1].split("###", 1)[0]
        assert {line.split("`")[1] for line in section.splitlines() if line.startswith("| `")} == (
            set(codes)
        )


def test_every_kind_of_point_term_is_said_and_valued() -> None:
    """A kind of term is an entry of the rule language (its words) and of the season's values,
    and the rule-set schema accepts exactly those kinds."""
    assert literal(Term.model_fields["kind"].annotation) == list(TERM_KINDS)
    assert all(callable(kind.value) for kind in TERM_KINDS.values())
