"""The layout is the architecture: data flows one way, and the imports prove it.

Every module of the package is parsed (nothing is imported) and each import, at module
level or inside a function, is checked against the layers below, lowest first. A module
may import from its own layer or any layer below it, never above; modules must not import
each other in a cycle; and a private name (``_x``) is never imported from another module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "analyzer"

#: Lowest first. A name matches a module and everything inside it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    (
        "foundation",
        (
            "analyzer.errors",
            "analyzer.files",
            "analyzer.interrupts",
            "analyzer.memo",
            "analyzer.progress",
            "analyzer.records",
            "analyzer.schema",
            "analyzer.version",
            "analyzer.words",
        ),
    ),
    ("game", ("analyzer.game",)),
    ("paytables", ("analyzer.paytables",)),
    ("engine", ("analyzer.engine",)),
    ("analysis", ("analyzer.analysis",)),
    ("runs", ("analyzer.runs",)),
    ("reports", ("analyzer.reports",)),
    ("api", ("analyzer.api",)),
    ("cli", ("analyzer.cli",)),
]
#: The package's front door re-exports from every layer; nothing imports it back.
FACADE = ("analyzer", "analyzer.__main__")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def layer_of(module: str) -> int | None:
    for rank, (_, prefixes) in enumerate(LAYERS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return rank
    return None


def imports(path: Path, name: str) -> list[tuple[str, list[str], int]]:
    """(imported module, names taken from it, line) for every import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append((base, [alias.name for alias in node.names], node.lineno))
    return [item for item in found if item[0] == "analyzer" or item[0].startswith("analyzer.")]


def resolve(target: str, names: list[str], known: dict[str, Path]) -> list[str]:
    """The package modules an import reaches (``from analyzer.game import rules`` names a
    module; ``from analyzer.game.rules import x`` a name in one)."""
    reached = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
    return reached or [target]


def test_every_module_belongs_to_a_layer() -> None:
    orphans = [m for m in modules() if m not in FACADE and layer_of(m) is None]
    assert not orphans, f"modules outside every layer: {orphans}"


def test_no_import_goes_up_a_layer() -> None:
    known = modules()
    upward = []
    for name, path in known.items():
        if name in FACADE:
            continue
        own = layer_of(name)
        for target, names, line in imports(path, name):
            for module in resolve(target, names, known):
                other = layer_of(module)
                if module in FACADE:
                    upward.append(f"{name}:{line} imports the facade {module}")
                elif other is not None and other > own:
                    upward.append(
                        f"{name}:{line} ({LAYERS[own][0]}) imports {module} ({LAYERS[other][0]})"
                    )
    assert not upward, "\n".join(upward)


def test_no_import_cycles() -> None:
    known = modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        for target, names, _ in imports(path, name):
            for module in resolve(target, names, known):
                if module in known and module != name and not name.startswith(module + "."):
                    graph[name].add(module)
    state: dict[str, int] = {}
    cycles = []

    def visit(node: str, trail: list[str]) -> None:  # depth is bounded by the package size
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*trail[trail.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    assert not cycles, "\n".join(cycles)


def test_no_private_name_is_imported_from_another_module() -> None:
    private = []
    for name, path in modules().items():
        for target, names, line in imports(path, name):
            for imported in names:
                if imported.startswith("_") and not imported.startswith("__"):
                    private.append(f"{name}:{line} imports {imported} from {target}")
    assert not private, "\n".join(private)


@pytest.mark.parametrize("layer", [layer for layer, _ in LAYERS])
def test_each_layer_exists(layer) -> None:
    prefixes = dict(LAYERS)[layer]
    assert any(
        layer_of(m) is not None and any(m.startswith(p) for p in prefixes) for m in modules()
    )


def test_every_module_has_a_test_module_laid_out_like_it() -> None:
    """``analyzer/game/cards.py`` is tested in ``tests/game/test_cards.py``."""
    tests = Path(__file__).resolve().parent
    missing = []
    for name, path in modules().items():
        if name in FACADE or path.name == "__init__.py":
            continue
        relative = path.relative_to(PACKAGE)
        wanted = tests / relative.parent / f"test_{relative.name}"
        if not wanted.is_file():
            missing.append(f"{name}: no {wanted.relative_to(tests.parent)}")
    assert not missing, "\n".join(missing)
