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
        "errors scores dates tomlpos language",
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


def serve_imports() -> dict[str, set[tuple[str, str]]]:
    """Each module of ``grandprix.serve`` -> (module of ``grandprix.serve``, name) for every
    name it imports from one, at its top or inside a function (name '' for the module itself)."""
    folder = SOURCE / "serve"
    modules = {path.stem for path in folder.glob("*.py")} - {"__init__"}
    found: dict[str, set[tuple[str, str]]] = {name: set() for name in modules}
    for name in modules:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("grandprix.serve."):
                        found[name].add((alias.name.split(".")[2], ""))
            elif isinstance(node, ast.ImportFrom):
                parts = ("grandprix.serve." * node.level + (node.module or "")).split(".")
                if parts[:2] != ["grandprix", "serve"]:
                    continue
                for alias in node.names:
                    if len(parts) > 2:
                        found[name].add((parts[2], alias.name))
                    elif alias.name in modules:  # from grandprix.serve import forms
                        found[name].add((alias.name, ""))
    return found


def test_the_server_modules_import_one_another_without_a_cycle() -> None:
    graph = {name: {other for other, _ in taken} for name, taken in serve_imports().items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in path:
            cycle = " -> ".join((*path[path.index(name) :], name))
            raise AssertionError(f"the modules of grandprix.serve import in a cycle: {cycle}")
        if name not in done:
            for other in sorted(graph[name]):
                visit(other, (*path, name))
            done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_no_server_module_takes_another_ones_private_names() -> None:
    taken = [
        f"{name} imports {other}.{what}"
        for name, found in sorted(serve_imports().items())
        for other, what in sorted(found)
        if what.startswith("_")
    ]
    assert not taken, taken
