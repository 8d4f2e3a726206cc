"""The layers of docs/ARCHITECTURE.md, checked on the imports of the source.

A package or top-level module imports only from lower layers; the packages of one layer never
import each other (the season and the single event are siblings; the prizes use both).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parent.parent / "src" / "grandprix"

LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer.split())
    for layer in (
        "grandprix model",
        "errors numbers tomlpos language",
        "paths runtime",
        "tiebreaks ratings writers",
        "rules",
        "placings",
        "readers",
        "players fetch",
        "conditions",
        "season events",
        "prizes",
        "reports",
        "site",
        "serve",
        "cli",
    )
)


def unit(module: str) -> str:
    """'grandprix.season.points' -> 'season'; 'grandprix' -> 'grandprix'."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def layer_of(name: str) -> int:
    return next(i for i, layer in enumerate(LAYERS) if name in layer)


def imports() -> list[tuple[str, str, str]]:
    """(importing unit, imported unit, file) for every import of grandprix inside grandprix."""
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        parts = path.relative_to(SOURCE.parent).with_suffix("").parts
        own = unit(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("grandprix"):
                other = unit(node.module or "")
                if other != own:
                    found.append((own, other, str(path.relative_to(SOURCE))))
    return found


def test_every_unit_has_a_layer() -> None:
    units = {unit(".".join(p.relative_to(SOURCE.parent).with_suffix("").parts))
             for p in SOURCE.rglob("*.py")}  # fmt: skip
    placed = set().union(*LAYERS)
    assert units - {"__init__"} <= placed, f"add {sorted(units - placed)} to a layer"


@pytest.mark.parametrize(("own", "other", "where"), imports())
def test_imports_go_down_the_layers(own: str, other: str, where: str) -> None:
    assert layer_of(other) < layer_of(own), (
        f"{where}: {own} (layer {layer_of(own)}) imports {other} (layer {layer_of(other)})"
    )


def test_the_season_and_the_event_side_are_siblings() -> None:
    pairs = {(own, other) for own, other, _ in imports()}
    assert ("events", "season") not in pairs and ("season", "events") not in pairs
    assert ("prizes", "events") in pairs and ("prizes", "season") in pairs
