"""Every rule ID the program can print is defined, once, in src/grandprix/rules/rule-books.md.

Rule IDs (UT-5, ACF-13.1, LUP-E3, D-UT-1, ...) name rules of the four rule books digested in
../shared/seeds/README.md; the code prints them in explanations, messages, presets' `cites` and
`choices` and on the site. The doc defines each one as a list entry `- **ID** — ...`, and an ID
that the seeds README does not define is marked `*(project-defined)*` right after it. The doc
ships with the package, whose rules page shows the first sentence of each entry
(`grandprix.rules.books`); docs/rule-books.md only points to it.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from grandprix.rules.books import PREFIXES, RULE_BOOKS, RULE_ID, definitions, meaning

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "grandprix"
SCANNED_SUFFIXES = (".py", ".toml", ".html")
DOC = SOURCE / "rules" / "rule-books.md"
POINTER = ROOT / "docs" / "rule-books.md"
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
SEEDS_README = SEEDS / "README.md"

# The rule books' prefixes, as the table of books lists them; `D-` before one of them marks a
# project decision, `E` before the number an event rule (LUP-E2).
RULE_PREFIXES = frozenset(PREFIXES)
# Tokens of the same shape in src that are not rule IDs: UTF-8, ISO-8601, TRF-16 (the TRF
# format of 2016) and TRF-2026. A new prefix must be added to one set or the other.
NOT_RULE_PREFIXES = frozenset({"UTF", "ISO", "TRF", "SHA", "ECMA"})  # SHA-256, ECMA-376

# Anything shaped like an ID: PREFIX-N, PREFIX-N.N, PREFIX-EN, with an optional D-.
CANDIDATE = re.compile(
    r"\b(?P<id>(?P<decision>D-)?(?P<prefix>[A-Z]{2,4}(?:\d\d)?)-E?\d+(?:\.\d+)?)\b"
)
DOC_ENTRY = re.compile(
    rf"^- \*\*(?P<id>{RULE_ID})\*\*(?P<mark> \*\(project-defined\)\*)? — (?P<text>\S.*)$",
    re.MULTILINE,
)
ANY_RULE_ID = re.compile(rf"\b{RULE_ID}\b")
README_ENTRY = re.compile(rf"^- (?P<id>{RULE_ID}) ", re.MULTILINE)


def is_rule(match: re.Match[str]) -> bool:
    """A candidate is a rule ID unless its prefix is a known non-rule one (without D-)."""
    return match["decision"] is not None or match["prefix"] not in NOT_RULE_PREFIXES


def code_candidates() -> dict[str, list[str]]:
    """Every ID-shaped token under src/grandprix, with where it occurs (path:line)."""
    found: dict[str, list[str]] = {}
    for path in sorted(SOURCE.rglob("*")):
        if path.suffix not in SCANNED_SUFFIXES or not path.is_file():
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for match in CANDIDATE.finditer(line):
                if is_rule(match):
                    where = f"{path.relative_to(ROOT)}:{number}"
                    found.setdefault(match["id"], []).append(where)
    return found


def doc_entries() -> list[re.Match[str]]:
    return list(DOC_ENTRY.finditer(DOC.read_text(encoding="utf-8")))


def test_the_scan_finds_rule_ids_of_every_kind() -> None:
    found = code_candidates()
    for expected in ("UT-5", "UCC-10", "ACF-13.1", "LUP-6", "LUP-E3", "D-UT-1", "D-ACF-4"):
        assert expected in found, f"{expected} no longer found under src/grandprix"
    assert "UTF-8" not in found and "TRF-16" not in found


def test_every_id_shaped_token_has_a_known_prefix() -> None:
    unknown = {
        token: places
        for token, places in code_candidates().items()
        if (m := CANDIDATE.fullmatch(token)) and m["prefix"] not in RULE_PREFIXES
    }
    assert not unknown, (
        "ID-shaped tokens with a prefix that is neither a rule book's nor a known non-rule one "
        "(add its book to the table of rule-books.md, or the prefix to NOT_RULE_PREFIXES): "
        f"{unknown}"
    )


def test_every_rule_id_the_code_prints_is_defined_in_the_doc() -> None:
    defined = {m["id"] for m in doc_entries()}
    missing = {token: places for token, places in code_candidates().items() if token not in defined}
    assert not missing, f"rule IDs printed by the code but not defined in {DOC.name}: {missing}"


def test_the_doc_defines_each_id_once_and_says_something() -> None:
    entries = doc_entries()
    assert len(entries) >= 50
    twice = sorted(token for token, n in Counter(m["id"] for m in entries).items() if n > 1)
    assert not twice, f"defined more than once in {DOC.name}: {twice}"
    short = [m["id"] for m in entries if len(m["text"]) < 30]
    assert not short, f"entries without a real definition: {short}"
    listed = ANY_RULE_ID.findall(DOC.read_text(encoding="utf-8"))
    undefined = sorted(set(listed) - {m["id"] for m in entries})
    assert not undefined, f"IDs mentioned in {DOC.name} but not defined there: {undefined}"


def seeds_readme() -> str:
    if not SEEDS.is_dir():
        pytest.skip(f"{SEEDS} is not beside the checkout: the seeds README cannot be compared")
    return SEEDS_README.read_text(encoding="utf-8")


def test_doc_ids_come_from_the_seeds_readme_or_are_marked_project_defined() -> None:
    in_readme = set(ANY_RULE_ID.findall(seeds_readme()))
    unknown = [m["id"] for m in doc_entries() if m["id"] not in in_readme and not m["mark"]]
    assert not unknown, f"neither in {SEEDS_README} nor marked *(project-defined)*: {unknown}"
    wrongly_marked = [m["id"] for m in doc_entries() if m["id"] in in_readme and m["mark"]]
    assert not wrongly_marked, f"marked *(project-defined)* but in the README: {wrongly_marked}"


def test_doc_defines_every_id_of_the_seeds_readme() -> None:
    in_readme = [m["id"] for m in README_ENTRY.finditer(seeds_readme())]
    assert len(in_readme) >= 50
    defined = {m["id"] for m in doc_entries()}
    missing = [token for token in in_readme if token not in defined]
    assert not missing, f"rule IDs of {SEEDS_README} not defined in {DOC.name}: {missing}"


def test_the_doc_has_one_home_in_the_package() -> None:
    """docs/rule-books.md points to the package's file and defines nothing; the package reads
    the file it ships, which pyproject.toml lists as package data."""
    assert RULE_BOOKS == DOC
    pointer = POINTER.read_text(encoding="utf-8")
    assert "src/grandprix/rules/rule-books.md" in pointer
    assert not DOC_ENTRY.search(pointer) and len(pointer.splitlines()) == 1
    assert '"rules/rule-books.md"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")


def test_the_package_reads_every_entry_and_its_meaning_in_one_plain_sentence() -> None:
    """The package's reader finds the entries this test finds, in order; each meaning (the
    entry's first sentence, as the rules page shows it) is plain text, not a heading."""
    assert list(definitions()) == [m["id"] for m in doc_entries()]
    for rule_id in definitions():
        text = meaning(rule_id)
        assert text is not None and text.endswith((".", '."', ".)")), (rule_id, text)
        assert len(text.split()) >= 5, f"{rule_id}: '{text}' does not say what the rule means"
        assert not any(mark in text for mark in ("`", "**", "=", "_")), (rule_id, text)
    assert meaning("UT-3") == (
        "The normal scale for one event: 21 points for 1st place, 15 for 2nd, 12 for 3rd, 10 for "
        "4th, 8 for 5th and 6 for 6th."
    )
    assert meaning("XX-1") is None
