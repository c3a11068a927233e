"""No import circle among the project's modules, and the benchmarks stay outside the product.

The imports are read from the source with ``ast`` (nothing is imported), every ``import`` and
``from ... import`` alike, module level or late inside a function: a late import that breaks a circle
at run time still makes one. A package's ``__init__`` importing its own submodules to re-export their
names is not counted as a circle with them (it is how a package presents itself), anything else is.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.source_trees import parsed

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "bench")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))}


def imports_of(module: str, path: Path, known: set[str]) -> dict[str, int]:
    """The project's modules that ``module`` imports, each with the first line doing so. ``from a import b``
    imports the module ``a.b`` when there is one (else the name ``b`` of ``a``); ``import a.b.c`` imports
    the deepest of them that is a module of the project."""

    def project_module(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found: dict[str, int] = {}
    for node in ast.walk(parsed(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            names = [f"{prefix}.{alias.name}" for alias in node.names]
        for name in names:
            target = project_module(name)
            if target is not None and target != module:
                found.setdefault(target, node.lineno)
    return found


def edges() -> dict[str, dict[str, int]]:
    """Each module of ``bot``, ``cogs`` and ``bench`` with the project's modules it imports."""
    known = modules()
    return {module: imports_of(module, path, set(known)) for module, path in known.items()}


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), each sorted.

    A package's edges to its own submodules are left out first: the re-export of their names."""
    follow = {m: sorted(t for t in targets if not t.startswith(m + ".")) for m, targets in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for target in follow[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in on_stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(follow):
        if module not in index:
            visit(module)
    return sorted(found)


def describe(circle: list[str], graph: dict[str, dict[str, int]]) -> str:
    inside = [f"{m} -> {t} (line {line})" for m in circle for t, line in sorted(graph[m].items()) if t in circle]
    return "; ".join(inside)


def test_the_reader_sees_late_relative_and_from_imports(tmp_path: Path) -> None:
    """The test's own reader on made-up source: it must see what it is there to see."""
    source = tmp_path / "hand.py"
    source.write_text(
        "import os\nfrom . import lobby\nfrom cogs.tables.cog import Tables\n"
        "def late() -> None:\n    from bench import engine\n    import bot.games.cards.extra\n"
    )
    known = {
        "cogs.tables",
        "cogs.tables.lobby",
        "cogs.tables.cog",
        "cogs.tables.hand",
        "bench",
        "bench.engine",
        "bot.games.cards",
    }
    assert imports_of("cogs.tables.hand", source, known) == {
        "cogs.tables.lobby": 2,
        "cogs.tables.cog": 3,
        "bench.engine": 5,
        "bot.games.cards": 6,
    }
    graph = {"a": {"a.b": 1, "c": 2}, "a.b": {"a": 3}, "c": {"d": 4}, "d": {"c": 5}, "e": {"c": 6}}
    assert circles(graph) == [["c", "d"]]  # a -> a.b -> a is a package's re-export; c <-> d a circle


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package: str) -> None:
    graph = edges()
    inside = [circle for circle in circles(graph) if any(m.split(".")[0] == package for m in circle)]
    assert [describe(circle, graph) for circle in inside] == []


def test_nothing_in_the_product_imports_the_benchmarks() -> None:
    graph = edges()
    product = {m: targets for m, targets in graph.items() if m.split(".")[0] in ("bot", "cogs")}
    wrong = [f"{m} -> {t} (line {line})" for m, targets in product.items() for t, line in targets.items()]
    assert [edge for edge in wrong if edge.split(" -> ")[1].split(".")[0] == "bench"] == []
    assert "bench.__main__" in graph and "bench.engine" in graph["bench.__main__"]  # the reader sees bench
