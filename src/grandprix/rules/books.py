"""The rule IDs and what each means, read from ``rule-books.md``: the one home of the
definitions, shipped with the package.

Each definition is a list entry ``- **UT-5** — text``, its text going on over indented lines;
an ID the digest does not list is marked ``*(project-defined)*`` after it. The first sentence of
an entry says what the rule means on its own, in plain words: the site's rules page shows it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import IO, Any

RULE_BOOKS = Path(__file__).parent / "rule-books.md"
# The books' prefixes, from the table of books at the head of the file (a row "| `UT` | ..."):
# a new rule book is a row and its entries, nothing more. The longest first, FC23 before FC.
PREFIXES = sorted(
    re.findall(r"^\| `([A-Z]{2,4}(?:\d\d)?)` \|", RULE_BOOKS.read_text(encoding="utf-8"), re.M),
    key=len,
    reverse=True,
)
RULE_ID = rf"(?:D-)?(?:{'|'.join(PREFIXES)})-E?\d+(?:\.\d+)?"
_ENTRY = re.compile(
    rf"^- \*\*(?P<id>{RULE_ID})\*\*(?: \*\(project-defined\)\*)? — (?P<text>\S.*(?:\n  \S.*)*)",
    re.MULTILINE,
)
# A sentence ends at . ! or ? (a closing quote or bracket may follow) before a capital letter.
_SENTENCE_END = re.compile(r"[.!?][\"')]?(?=\s+[A-Z(\"])")
_MARKUP = re.compile(r"\*\*|`|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)")


def plain(text: str) -> str:
    """The text of an entry without its Markdown: bold, italics and code marks removed, its
    lines joined."""
    return _MARKUP.sub("", " ".join(line.strip() for line in text.splitlines()))


def first_sentence(text: str) -> str:
    end = _SENTENCE_END.search(text)
    return text if end is None else text[: end.end()]


@cache
def definitions() -> dict[str, str]:
    """Every rule ID, in the order of the books, with its whole definition as plain text."""
    text = RULE_BOOKS.read_text(encoding="utf-8")
    return {m["id"]: plain(m["text"]) for m in _ENTRY.finditer(text)}


def meaning(rule_id: str) -> str | None:
    """The one-line meaning of a rule ID (its definition's first sentence); None if unknown."""
    found = definitions().get(rule_id)
    return None if found is None else first_sentence(found)


def extract_meanings(
    fileobj: IO[bytes],
    keywords: Collection[str],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel's extraction method for ``rule-books.md`` (``babel.cfg``): the meaning of every rule
    ID, as the rules page shows it, for the catalogs of the pages' languages."""
    text = fileobj.read().decode("utf-8")
    for m in _ENTRY.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        yield line, None, first_sentence(plain(m["text"])), [f"The meaning of rule {m['id']}."]


_ONE_ID = re.compile(rf"^{RULE_ID}$")


def is_rule_id(text: str) -> bool:
    """Whether ``text`` is a rule ID ('UT-4', 'D-UT-1')."""
    return _ONE_ID.match(text) is not None
