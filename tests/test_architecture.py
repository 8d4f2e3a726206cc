"""The layers of docs/ARCHITECTURE.md, checked on the imports of the source.

A package or top-level module imports only from lower layers; the packages of one layer never
import each other (the season and the single event are siblings; the prizes use both). Inside a
package too, no module imports back into a cycle (imports inside functions counted), and none
takes another's private names.
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
        "errors scores dates tomlpos language",
        "paths runtime",
        "tiebreaks ratings writers",
        "rules",
        "placings",
        "readers",
        "players fetch pairing",
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
    units = {
        unit(".".join(p.relative_to(SOURCE.parent).with_suffix("").parts))
        for p in SOURCE.rglob("*.py")
    }
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


def module_imports() -> dict[str, set[tuple[str, str]]]:
    """Each module of grandprix -> (module of grandprix, name) for every name it imports from
    one, at its top or inside a function (name '' for the module itself)."""
    modules = {}
    for path in SOURCE.rglob("*.py"):
        parts = path.relative_to(SOURCE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    found: dict[str, set[tuple[str, str]]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.stem == "__init__" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found[name].update((a.name, "") for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom):
                base = package.rsplit(".", node.level - 1)[0] if node.level else ""
                module = ".".join(part for part in (base, node.module or "") if part)
                for alias in node.names:
                    if f"{module}.{alias.name}" in modules:  # from grandprix.serve import forms
                        found[name].add((f"{module}.{alias.name}", ""))
                    elif module in modules:
                        found[name].add((module, alias.name))
    for name in found:
        found[name] = {(other, what) for other, what in found[name] if other != name}
    return found


def test_no_module_imports_back_into_a_cycle() -> None:
    graph = {name: {other for other, _ in taken} for name, taken in module_imports().items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise AssertionError(f"modules of grandprix import in a cycle: {cycle}")
        if name not in done:
            for other in sorted(graph[name]):
                visit(other, (*path, name))
            done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_no_module_takes_another_ones_private_names() -> None:
    taken = [
        f"{name} imports {other}.{what}"
        for name, found in sorted(module_imports().items())
        for other, what in sorted(found)
        if what.startswith("_") and what != "_" and not what.startswith("__")  # gettext's _
    ]
    assert not taken, taken
