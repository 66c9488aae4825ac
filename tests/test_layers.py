"""The package's layers, as the layout table of docs/development.md lists them, kept true.

Every import between two parts of the package goes down the layers, and no import makes
a cycle: counting those inside functions and under ``TYPE_CHECKING``, with no exception.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .support import ROOT, table_rows

PACKAGE = ROOT / "pracmln_poss"

# bottom first; a part is a subpackage or a top-level module (compat is the shim that
# makes the third-party pracmln importable: it uses nothing of ours but errors)
LAYERS = [
    {"errors", "version", "startup", "collector", "closable"},
    {"logic", "weights", "compat", "stopping", "pracmln_database"},
    {"sources", "atoms", "arguments"},
    {"model"},
    {"map"},
    {"possibilistic"},
    {"search"},
    {"transformations"},
    {"formats"},
    {"insight"},
    {"bridge"},
    {"console"},
    {"cli"},
    {"pracmln_poss", "__main__"},
]

def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _part(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _layer(module: str) -> int:
    part = _part(module)
    return next(i for i, layer in enumerate(LAYERS) if part in layer)


def imports(typing: bool = False) -> list[tuple[str, str, bool]]:
    """(importer, imported, inside a function) for every import of the package's own
    modules (with ``typing``, those under ``if TYPE_CHECKING:`` too)."""
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module(path)
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        tree = ast.parse(path.read_text())
        nested = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for n in ast.walk(f)}
        typing_only = {id(n) for i in ast.walk(tree) if isinstance(i, ast.If)
                       and isinstance(i.test, ast.Name) and i.test.id == "TYPE_CHECKING" for n in ast.walk(i)}
        for node in ast.walk(tree):
            if id(node) in typing_only and not typing:
                continue
            targets = []
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                targets = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names if a.name.startswith("pracmln_poss")]
            for target in targets:
                if not (PACKAGE.parent / Path(*target.split("."))).with_suffix(".py").exists() and not (
                        PACKAGE.parent / Path(*target.split("."))).is_dir():
                    target = target.rsplit(".", 1)[0]  # `from . import name` of a non-module
                out.append((module, target, id(node) in nested))
    return out


def test_every_part_is_in_a_layer():
    parts = {_part(m) for m, _, _ in imports()} | {_part(t) for _, t, _ in imports()}
    assert parts <= set().union(*LAYERS), parts - set().union(*LAYERS)


def test_imports_go_down_the_layers():
    """Every import, inside functions and under ``TYPE_CHECKING`` too, and no exception:
    the layers above a theory (its text format, its notebook table) register how it
    shows itself rather than being imported by it."""
    upward = set()
    for importer, imported, lazy in imports(typing=True):
        if _part(importer) != _part(imported) and _layer(imported) >= _layer(importer):
            upward.add((importer, imported, "in a function" if lazy else "at module level"))
    assert not upward, sorted(upward)


@pytest.mark.parametrize("which", ["at module level", "anywhere"])
def test_no_import_cycles(which):
    """None at module level, and none counting the imports inside functions and under
    ``TYPE_CHECKING`` either, with no exception."""
    graph: dict[str, set[str]] = {}
    for importer, imported, lazy in imports(typing=which == "anywhere"):
        if (which == "anywhere" or not lazy) and importer != imported:
            graph.setdefault(importer, set()).add(imported)
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, path: list[str]) -> bool:
        state[node] = 1
        for nxt in graph.get(node, ()):
            # importing a package runs its __init__, not the importer's own package
            if node.startswith(nxt + "."):
                continue
            if state.get(nxt) == 1:
                cycle.extend(path + [node, nxt])
                return True
            if state.get(nxt) is None and visit(nxt, path + [node]):
                return True
        state[node] = 2
        return False

    for node in sorted(graph):
        if state.get(node) is None and visit(node, []):
            break
    assert not cycle, " -> ".join(cycle)


def _layout_rows() -> list[tuple[list[str], set[str]]]:
    """The layout table (docs/development.md): per row the package paths it names, and
    the names in backticks of its description."""
    import re

    text = (PACKAGE.parent / "docs" / "development.md").read_text()
    table = text.split("## Layout", 1)[1].split("\n## ", 1)[0]
    return [(re.findall(r"`([^`]+)`", cells[0]), set(re.findall(r"`([\w.]+)`", cells[1])))
            for cells in table_rows(table) if len(cells) >= 2 and "pracmln_poss/" in cells[0]]


def test_readme_layout_table_matches_the_tree():
    """Every module of the package is in the layout table (docs/development.md) (a subpackage's
    modules named in its row), every path the table names exists, and the rows go up
    the layers in the order of :data:`LAYERS`."""
    rows = _layout_rows()
    named_files: set[Path] = set()
    layers = []
    for paths, described in rows:
        first = PACKAGE.parent / paths[0]
        for p in paths:
            path = (first.parent / p) if "/" not in p else PACKAGE.parent / p
            assert path.exists(), f"the layout table (docs/development.md) names {p}, which does not exist"
            named_files.add(path)
        if first.is_dir():
            modules = {f.stem for f in first.glob("*.py") if f.stem != "__init__"}
            missing = modules - described
            assert not missing, f"{paths[0]}: the layout table's row does not name {sorted(missing)}"
        layers.append(_layer("pracmln_poss." + paths[0].removeprefix("pracmln_poss/").removesuffix(".py")
                             .rstrip("/").replace("/", ".")))
    top = {f for f in PACKAGE.glob("*.py") if f.stem not in ("__init__", "__main__")}
    assert top <= named_files, f"top-level modules missing from the layout table: {sorted(f.name for f in top - named_files)}"
    assert {d for d in PACKAGE.iterdir() if d.is_dir() and (d / "__init__.py").exists()} <= named_files
    assert layers == sorted(layers), "the layout table's rows are not bottom-up"
