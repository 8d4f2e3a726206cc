"""Line numbers for keys of a TOML document, so that schema errors can point at the file's line.

``tomli`` gives values without positions; this reads the text once more and records where each
table header and key stands. Paths are tuples like ``("events", 2, "weight")``.
"""

from __future__ import annotations

import functools
import re

_ARRAY = re.compile(r"^\s*\[\[\s*([^\]]+?)\s*\]\]")
_TABLE = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-\"'. ]+?)\s*=")

Path = tuple[str | int, ...]


@functools.lru_cache(maxsize=1024)
def _split(dotted: str) -> tuple[str, ...]:
    """A dotted key's parts (each once: the keys of a long calendar repeat)."""
    return tuple(part.strip().strip("\"'") for part in dotted.split("."))


def key_lines(text: str) -> dict[Path, int]:
    """Every table and key path of the document with its 1-based line."""
    lines: dict[Path, int] = {}
    counters: dict[tuple[str, ...], int] = {}
    current: Path = ()
    depth = 0  # open brackets of a multi-line array: its lines hold no keys
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.partition("#")[0]
        if depth:
            depth += stripped.count("[") - stripped.count("]")
            continue
        header = stripped.lstrip().startswith("[")  # most lines are keys: one test, not two
        array = _ARRAY.match(stripped) if header else None
        table = _TABLE.match(stripped) if header and not array else None
        if array:
            names = _split(array.group(1))
            index = counters.get(names, -1) + 1
            for nested in [k for k in counters if len(k) > len(names) and k[: len(names)] == names]:
                del counters[nested]  # a new parent starts its own nested arrays at 0
            counters[names] = index
            current = (*_resolve(names, counters), index)
            lines.setdefault(current, number)
        elif table:
            current = _resolve(_split(table.group(1)), counters)
            lines.setdefault(current, number)
        else:
            key = _KEY.match(stripped)
            if key:
                lines.setdefault(current + _split(key.group(1)), number)
                value = stripped.partition("=")[2]
                depth = max(0, value.count("[") - value.count("]")) if "[" in value else 0
    return lines


def _resolve(names: tuple[str, ...], counters: dict[tuple[str, ...], int]) -> Path:
    """A header path with the current index of every enclosing array of tables."""
    path: list[str | int] = []
    for i, name in enumerate(names):
        path.append(name)
        prefix = names[: i + 1]
        if i < len(names) - 1 and prefix in counters:
            path.append(counters[prefix])
    return tuple(path)


def line_of(lines: dict[Path, int], path: Path) -> int:
    """The line of ``path``, or of its longest prefix that has one; 0 when none has."""
    for end in range(len(path), 0, -1):
        if path[:end] in lines:
            return lines[path[:end]]
    return 0
