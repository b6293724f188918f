"""The layering holds: no import cycle in ``src/toollens``, and every layer imports only
the layers below it (``LAYERS``); nothing but the command line imports the command line,
and only the front ends import a front end.

The graph is read from the source with ``ast``: every ``import`` and ``from ... import``
between toollens modules, at module level or inside a function (a lazy import is still a
dependency), except those under ``if TYPE_CHECKING:``, which never run.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import toollens

PACKAGE_DIR = Path(toollens.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from (n for child in node.orelse for n in _imports_in(child))
            continue
        yield from _imports_in(node)


def _imports_in(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    else:
        yield from _imports(node)


def _targets(node: ast.Import | ast.ImportFrom, here: str, modules: set[str]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    assert node.level == 0, f"{here} uses a relative import; toollens imports absolutely"
    base = node.module or ""
    for alias in node.names:
        candidate = f"{base}.{alias.name}"
        yield candidate if candidate in modules else base


def import_graph() -> dict[str, set[str]]:
    """Module -> the toollens modules it imports."""
    modules = _modules()
    names = set(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = {
            target
            for node in _imports(tree)
            for target in _targets(node, name, names)
            if target in names and target != name
        }
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a list of modules (first == last), or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: finished
    for start in sorted(graph):
        if start in state:
            continue
        path = [start]
        state[start] = 1
        stack = [iter(sorted(graph[start]))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                state[path.pop()] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            elif nxt not in state:
                state[nxt] = 1
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_sees_lazy_and_package_imports() -> None:
    graph = import_graph()
    assert "toollens.core.strict.convert" in graph["toollens.core.strict"]
    assert "toollens.core.schema.pointer" in graph["toollens.core.strict.refs"]
    cli_targets = [t for m, ts in graph.items() if layer_of(m) == "cli" for t in ts]
    assert any(t.startswith("toollens.render") for t in cli_targets)


def test_no_import_cycle_in_src() -> None:
    assert find_cycle(import_graph()) is None


def test_core_imports_no_front_end() -> None:
    graph = import_graph()
    front_ends = ("toollens.render", "toollens.jupyter", "toollens.cli")
    for module, targets in graph.items():
        if module.startswith("toollens.core"):
            assert not [t for t in targets if t.startswith(front_ends)], module


# Layer -> the layers it may import (its own always). core <- render <- jupyter;
# core <- frameworks, roundtrip; core, roundtrip <- mcp <- targets <- project <- toolsets <-
# tokens (the lock records token counts, so project reads tokens too; an MCP tools/call
# returns the round trip's CallResult, so mcp reads roundtrip); the CLI on top;
# ``toollens`` (the package's lazy public face) may load any layer but the CLI. consumers (what
# a client does to a tool list) reads core and the MCP records and runs frameworks as oracles;
# the lock (project), toolsets and render read its verdicts.
LAYERS: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "mcp": frozenset({"core", "roundtrip"}),
    "targets": frozenset({"core", "mcp"}),
    "examples": frozenset({"core"}),
    "frameworks": frozenset({"core"}),
    "consumers": frozenset({"core", "frameworks", "mcp"}),
    "project": frozenset({"consumers", "core", "mcp", "targets", "tokens"}),
    "toolsets": frozenset({"consumers", "core", "mcp", "project", "targets"}),
    "roundtrip": frozenset({"core"}),
    "tokens": frozenset({"core", "toolsets"}),
    "render": frozenset({"consumers", "core", "frameworks", "roundtrip", "toolsets", "tokens"}),
    "jupyter": frozenset(
        {"core", "frameworks", "mcp", "render", "roundtrip", "targets", "toolsets", "tokens"}
    ),
}
FRONT_ENDS = frozenset({"cli", "jupyter"})


def layer_of(module: str) -> str:
    """``toollens.core.strict.walker`` -> ``core``; ``toollens.cli.project`` -> ``cli``."""
    parts = module.split(".")
    if len(parts) == 1:
        return "toollens"
    top = parts[1]
    return "cli" if top in ("cli", "__main__") or top.startswith("cli_") else top


def _crossings() -> Iterator[tuple[str, str, str, str]]:
    for module, targets in import_graph().items():
        for target in targets:
            here, there = layer_of(module), layer_of(target)
            if here != there:
                yield module, here, target, there


def test_the_layer_names_are_read_from_module_names() -> None:
    assert layer_of("toollens.core.strict.walker") == "core"
    assert layer_of("toollens.cli.project") == layer_of("toollens.cli") == "cli"
    assert layer_of("toollens") == "toollens"


def test_every_layer_imports_only_the_layers_below_it() -> None:
    wrong = [
        f"{module} ({here}) imports {target} ({there})"
        for module, here, target, there in _crossings()
        if here in LAYERS and there not in LAYERS[here]
    ]
    assert not wrong, "\n".join(wrong)


def test_only_front_ends_import_a_front_end() -> None:
    # Layers not in LAYERS (a package added later) are held to this rule at least.
    wrong = [
        f"{module} imports the front end {target}"
        for module, here, target, there in _crossings()
        if there in FRONT_ENDS and here not in ("cli", "toollens")
    ]
    assert not wrong, "\n".join(wrong)


def test_a_report_displays_without_importing_render_first() -> None:
    # The display of a Report lives in render; core asks the registry, which loads render.
    code = (
        "import sys, toollens\n"
        "rep = toollens.report({'type': 'object', 'properties': {'a': {'type': 'string'}}})\n"
        "assert 'toollens.render' not in sys.modules\n"
        "bundle = rep._repr_mimebundle_(include=['text/html', 'text/plain'])\n"
        "assert set(bundle) == {'text/html', 'text/plain'}, bundle\n"
        "assert 'toollens.render' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=600)
