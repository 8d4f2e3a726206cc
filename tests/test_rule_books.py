"""Every rule ID the program can print is defined, once, in docs/rule-books.md.

Rule IDs (UT-5, ACF-13.1, LUP-E3, D-UT-1, ...) name rules of the four rule books digested in
../shared/seeds/README.md; the code prints them in explanations, messages, presets' `cites` and
`choices` and on the site. The doc defines each one as a list entry `- **ID** — ...`, and an ID
that the seeds README does not define is marked `*(project-defined)*` right after it.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "grandprix"
SCANNED_SUFFIXES = (".py", ".toml", ".html")
DOC = ROOT / "docs" / "rule-books.md"
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
SEEDS_README = SEEDS / "README.md"

# The rule books' prefixes; `D-` before one of them marks a project decision, `E` before the
# number an event rule (LUP-E2).
RULE_PREFIXES = frozenset({"UT", "UCC", "ACF", "LUP"})
# Tokens of the same shape in src that are not rule IDs: UTF-8, ISO-8601, TRF-16 (the TRF
# format of 2016) and TRF-2026. A new prefix must be added to one set or the other.
NOT_RULE_PREFIXES = frozenset({"UTF", "ISO", "TRF"})

# Anything shaped like an ID: PREFIX-N, PREFIX-N.N, PREFIX-EN, with an optional D-.
CANDIDATE = re.compile(r"\b(?P<id>(?P<decision>D-)?(?P<prefix>[A-Z]{2,4})-E?\d+(?:\.\d+)?)\b")
RULE_ID = r"(?:D-)?(?:UT|UCC|ACF|LUP)-E?\d+(?:\.\d+)?"
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
        f"(add it to RULE_PREFIXES or NOT_RULE_PREFIXES): {unknown}"
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
