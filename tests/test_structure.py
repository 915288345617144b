"""The shape of the code: no import circles between the project's modules, engines and
renderers that know nothing of the bot, and no module of the bot, the engines or the
renderers over 500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("bot", "engines", "render")
MOST_LINES = 500


def modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = path
    return found


def imports(path: Path, name: str, known: set[str]) -> set[str]:
    """The project modules `name` imports (at any depth of the file, TYPE_CHECKING ones too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # from .x import y
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            # `from package import module` imports the module; its package's __init__ runs
            # first whatever the syntax, which is not an edge of this module's own.
            submodules = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in known]
            targets = submodules if len(submodules) == len(node.names) else [base, *submodules]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(path, name, set(found)) for name, path in found.items()}


def test_no_import_circles() -> None:
    edges = graph()
    state: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                circles.append(stack[stack.index(nxt) :] + [nxt])
            elif nxt not in state:
                visit(nxt)
        stack.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            visit(node)
    assert circles == [], "import circles: " + "; ".join(" -> ".join(c) for c in circles)


def test_engines_and_renderers_know_nothing_of_the_bot() -> None:
    edges = graph()
    for name, targets in edges.items():
        if name.startswith(("engines", "render")):
            assert not [t for t in targets if t.startswith("bot")], name
        if name.startswith("engines"):
            assert not [t for t in targets if t.startswith("render")], name


def test_no_module_is_over_500_lines() -> None:
    long = {name: lines for name, path in modules().items() if (lines := path.read_text().count("\n")) > MOST_LINES}
    assert long == {}, f"modules over {MOST_LINES} lines: {long}"
