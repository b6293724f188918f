"""The layering holds: one declared order of the packages (``LAYERS``, lowest first), and no
module imports a module of a higher layer; no import cycle between modules.

The graph is read from the source with ``ast`` and counts every way one toollens module
can reach another:

- ``import`` and ``from ... import`` at module level;
- the same inside a function or a class (a lazy import is still a dependency);
- the same under ``if TYPE_CHECKING:``: it never runs, so it cannot make a runtime cycle,
  but a lower layer naming a higher layer's type depends on it all the same, so the order
  holds for these too;
- a string that is a toollens module's name (``importlib.import_module("toollens.x")``,
  ``__import__``, a table of module names loaded later): a hidden import is an import.

An ``import_module`` or ``__import__`` whose argument is not a literal cannot be read; each
module that has one says here what it loads (``DYNAMIC_IMPORTS``). A lower layer that must
reach a higher one exposes a registry the higher one fills at import
(``toollens.toolsets.register_source``, ``toollens.core.display_hooks``).

Two more rules (issue 47) keep the imports where a reader looks for them:

- a toollens module is imported at the top of the module; one imported inside a function
  has a comment on the line above (or on its own line) saying why: what it would cost an
  entry point (``import toollens``, ``toollens --help``, opening an Explorer), or the
  cycle it avoids. Several imports in a row share the comment above the first;
- a submodule does not import a name from its own package's ``__init__`` that the
  ``__init__`` only re-exports: it imports it from the sibling module that defines it.
"""

from __future__ import annotations

import ast
import io
import subprocess
import sys
import textwrap
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pytest

import toollens

PACKAGE_DIR = Path(toollens.__file__).parent

# The layers, lowest first: (name, the top-level names under src/toollens it holds, why it
# sits where it does). A module may import its own layer and the layers before it.
LAYERS: tuple[tuple[str, frozenset[str], str], ...] = (
    (
        "core",
        frozenset({"core", "examples"}),
        "the engine (schema, report, strict mode, providers' rules, diff): pure, no I/O",
    ),
    (
        "frameworks",
        frozenset({"frameworks"}),
        "what each agent framework builds from a function; reads core only",
    ),
    (
        "roundtrip",
        frozenset({"roundtrip"}),
        "calls a tool with a model's arguments and judges the reply; reads core only",
    ),
    (
        "mcp",
        frozenset({"mcp"}),
        "MCP servers: list and call their tools (a tools/call answer is a roundtrip CallResult)",
    ),
    (
        "consumers",
        frozenset({"consumers"}),
        "what each client does to a tool list: reads MCP records, runs frameworks as oracles",
    ),
    (
        "targets",
        frozenset({"targets", "json_files"}),
        "a target string -> the object it names (an mcp: target through mcp)",
    ),
    (
        "toolsets",
        frozenset({"toolsets"}),
        "every source read into a Toolset, judged with the clients' verdicts (consumers)",
    ),
    ("tokens", frozenset({"tokens"}), "what a Toolset costs in tokens"),
    (
        "project",
        frozenset({"project"}),
        "[tool.toollens] and the lock (which records token counts); registers the project "
        "source into toolsets",
    ),
    (
        "assess",
        frozenset({"assess"}),
        "a typed request -> one Assessment: per tool and column one verdict, what gates, "
        "one ok, one exit code; every front end renders it",
    ),
    (
        "explain",
        frozenset({"explain", "fixes"}),
        "an error text mapped back to the tools a target sends; the fixes applied to a "
        "tool's file (both read toolsets)",
    ),
    (
        "render",
        frozenset({"render", "static_notebook"}),
        "HTML and text of reports, toolsets, token counts; static copies of a notebook",
    ),
    (
        "jupyter",
        frozenset({"jupyter", "nbconvert"}),
        "the widgets, the magic and the nbconvert exporter, drawn with render",
    ),
    (
        "toollens",
        frozenset({"toollens"}),
        "the package's public face: loads any layer below it on first use",
    ),
    ("cli", frozenset({"cli", "__main__"}), "the command line, over everything"),
)
RANK = {name: index for index, (name, _, _) in enumerate(LAYERS)}
_LAYER_OF_TOP = {top: name for name, tops, _ in LAYERS for top in tops}

# Modules whose import_module / __import__ takes a computed name, and what it loads.
DYNAMIC_IMPORTS = {
    "toollens": "the modules named in _LAZY and _REGISTERS_INTO (literal strings, read above)",
    "toollens.frameworks": "the adapter modules of the ADAPTERS entries (literal strings), and a "
    "framework's own packages",
    "toollens.targets": "the user's module a target names",
    "toollens.tokens.online": "a vendor's SDK (anthropic, google.genai)",
}

EdgeKind = Literal["module", "lazy", "type-checking", "string"]


@dataclass(frozen=True)
class Edge:
    """``source`` imports ``target`` at ``line``, in the way ``kind`` says."""

    source: str
    target: str
    kind: EdgeKind
    line: int


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(PACKAGE_DIR.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, kind: EdgeKind) -> Iterator[tuple[ast.AST, EdgeKind]]:
    """Every node under ``node`` with the kind an import there would have."""
    for child in ast.iter_child_nodes(node):
        here: EdgeKind = kind
        if kind == "module" and isinstance(
            child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef
        ):
            here = "lazy"
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            yield child, here
            for part in child.body:
                yield part, "type-checking"
                yield from _walk(part, "type-checking")
            for part in child.orelse:
                yield part, here
                yield from _walk(part, here)
            continue
        yield child, here
        yield from _walk(child, here)


def _named(node: ast.AST, here: str, modules: set[str]) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        assert node.level == 0, f"{here} uses a relative import; toollens imports absolutely"
        base = node.module or ""
        for alias in node.names:
            candidate = f"{base}.{alias.name}"
            yield candidate if candidate in modules else base


def edges_in(text: str, here: str, modules: set[str]) -> list[Edge]:
    """The imports of one module's source ``text`` (named ``here``) among ``modules``."""
    found: list[Edge] = []
    for node, kind in _walk(ast.parse(text), "module"):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value in modules and node.value not in (here, "toollens"):
                found.append(Edge(here, node.value, "string", line))
            continue
        for target in _named(node, here, modules):
            if target in modules and target != here:
                found.append(Edge(here, target, kind, line))
    return found


def _dynamic_imports(text: str) -> list[int]:
    """Lines of ``import_module(x)`` / ``__import__(x)`` calls whose ``x`` is not a literal."""
    lines = []
    for node in ast.walk(ast.parse(text)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in ("import_module", "__import__") and not isinstance(node.args[0], ast.Constant):
            lines.append(node.lineno)
    return lines


def all_edges() -> list[Edge]:
    modules = _modules()
    names = set(modules)
    return [
        edge
        for name, path in modules.items()
        for edge in edges_in(path.read_text(encoding="utf-8"), name, names)
    ]


def import_graph(*, type_checking: bool = True) -> dict[str, set[str]]:
    """Module -> the toollens modules it imports (every kind, or all but TYPE_CHECKING)."""
    graph: dict[str, set[str]] = {name: set() for name in _modules()}
    for edge in all_edges():
        if type_checking or edge.kind != "type-checking":
            graph[edge.source].add(edge.target)
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


def layer_of(module: str) -> str:
    """``toollens.core.strict.walker`` -> ``core``; ``toollens.cli.project`` -> ``cli``;
    ``toollens.nbconvert`` -> ``jupyter``; a top-level name no layer holds -> itself."""
    parts = module.split(".")
    top = "toollens" if len(parts) == 1 else parts[1]
    return _LAYER_OF_TOP.get(top, top)


def _comment_lines(text: str) -> set[int]:
    """The lines of ``text`` that hold a comment."""
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return {tok.start[0] for tok in tokens if tok.type == tokenize.COMMENT}


def uncommented_lazy_imports(text: str, here: str, modules: set[str]) -> list[int]:
    """Lines of the toollens imports inside a function (``lazy``) that no comment explains.

    A comment explains an import when it is on one of the import's lines, or on the line
    just above it; an import that directly follows another import (no blank line between)
    shares that one's comment, so a group needs one comment.
    """
    tree = ast.parse(text)
    comments = _comment_lines(text)
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]
    ending_at = {node.end_lineno: node for node in imports if node.end_lineno is not None}
    found = []
    for node, kind in _walk(tree, "module"):
        if kind != "lazy" or not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        if not any(target in modules for target in _named(node, here, modules)):
            continue
        first = node
        while True:
            end = first.end_lineno or first.lineno
            if comments & set(range(first.lineno - 1, end + 1)):
                break
            above = ending_at.get(first.lineno - 1)
            if above is None:
                found.append(node.lineno)
                break
            first = above
    return found


def reexports_from_own_package(text: str, here: str, modules: dict[str, Path]) -> list[str]:
    """``from <own package> import X`` in module ``here`` where X is neither a submodule
    nor defined in the package's ``__init__`` (it is imported there, or served by its
    ``__getattr__``): ``name (line N)`` for each."""
    package = here.rpartition(".")[0]
    init = modules.get(package)
    if not package or init is None or init.name != "__init__.py":
        return []
    defined = _defined_in(init.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ImportFrom) and node.module == package:
            for alias in node.names:
                if f"{package}.{alias.name}" not in modules and alias.name not in defined:
                    found.append(f"{alias.name} (line {node.lineno})")
    return found


def _defined_in(text: str) -> set[str]:
    """The names a module defines itself at its top level (not the ones it imports)."""
    names: set[str] = set()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return names


# -- the reader -----------------------------------------------------------------------------

_SAMPLE = textwrap.dedent(
    """
    import importlib
    from typing import TYPE_CHECKING

    from toollens.a import thing
    import toollens.b

    if TYPE_CHECKING:
        from toollens.c import Type
    else:
        from toollens.d import other

    def later():
        from toollens.e import f
        return importlib.import_module("toollens.f")

    class Holder:
        import toollens.g

    TABLE = {"x": "toollens.h", "y": "toollens.not_a_module"}
    """
)


def test_the_reader_sees_every_kind_of_import() -> None:
    modules = {f"toollens.{x}" for x in "abcdefgh"} | {"toollens.here"}
    got = {(e.target, e.kind) for e in edges_in(_SAMPLE, "toollens.here", modules)}
    assert got == {
        ("toollens.a", "module"),
        ("toollens.b", "module"),
        ("toollens.c", "type-checking"),
        ("toollens.d", "module"),
        ("toollens.e", "lazy"),
        ("toollens.f", "string"),
        ("toollens.g", "lazy"),
        ("toollens.h", "string"),
    }


def test_the_reader_finds_computed_imports() -> None:
    text = "import importlib\nname = 'x'\nimportlib.import_module(name)\n__import__('y')\n"
    assert _dynamic_imports(text) == [3]


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_the_graph_of_src_holds_every_kind() -> None:
    kinds = {(e.source, e.target): e.kind for e in all_edges()}
    assert kinds[("toollens.core.strict", "toollens.core.strict.convert")] == "module"
    assert kinds[("toollens.project.config", "toollens.frameworks")] == "lazy"
    assert kinds[("toollens.project.lock_clients", "toollens.project.tools")] == "type-checking"
    assert kinds[("toollens.jupyter", "toollens.toolsets.model")] == "string"
    assert kinds[("toollens", "toollens.project.source")] == "string"


@pytest.mark.parametrize(
    ("module", "layer"),
    [
        ("toollens.core.strict.walker", "core"),
        ("toollens.examples", "core"),
        ("toollens.cli.project", "cli"),
        ("toollens.__main__", "cli"),
        ("toollens.static_notebook", "render"),
        ("toollens.nbconvert", "jupyter"),
        ("toollens", "toollens"),
    ],
)
def test_the_layer_of_a_module(module: str, layer: str) -> None:
    assert layer_of(module) == layer


_LAZY_SAMPLE = textwrap.dedent(
    """
    from toollens.a import top


    def commented():
        # lazy: toollens.b pulls in pydantic
        from toollens.b import x
        from toollens.c import y

        return x, y


    def same_line():
        from toollens.b import x  # lazy: a cycle through toollens.a

        return x


    def split_group():
        # lazy: toollens.b pulls in pydantic
        from toollens.b import x

        from toollens.c import y

        return x, y


    def bare():
        import json

        from toollens.d import (
            z,
        )

        return json, z
    """
)


def test_the_reader_finds_lazy_imports_without_a_reason() -> None:
    modules = {f"toollens.{x}" for x in "abcd"}
    assert uncommented_lazy_imports(_LAZY_SAMPLE, "toollens.here", modules) == [23, 31]


def test_the_reader_finds_reexports_from_the_own_package(tmp_path: Path) -> None:
    init = tmp_path / "__init__.py"
    init.write_text("from toollens.pkg.impl import Thing\n\ndef helper():\n    pass\n")
    modules = {"toollens.pkg": init, "toollens.pkg.impl": tmp_path / "impl.py"}
    text = "from toollens.pkg import Thing, helper, impl\nfrom toollens.other import Thing\n"
    assert reexports_from_own_package(text, "toollens.pkg.user", modules) == ["Thing (line 1)"]


# -- the rules ------------------------------------------------------------------------------


def test_every_module_is_in_a_declared_layer() -> None:
    undeclared = sorted({layer_of(m) for m in _modules()} - set(RANK))
    assert not undeclared, f"add {undeclared} to LAYERS (where in the order, and why)"


def test_no_layer_imports_a_higher_one() -> None:
    wrong = [
        f"{e.source}:{e.line} ({layer_of(e.source)}) imports {e.target} "
        f"({layer_of(e.target)}, a higher layer) [{e.kind}]"
        for e in all_edges()
        if RANK.get(layer_of(e.target), -1) > RANK.get(layer_of(e.source), len(RANK))
    ]
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle_in_src() -> None:
    # TYPE_CHECKING imports included: the structure they draw has no cycle either.
    assert find_cycle(import_graph(type_checking=True)) is None


def test_every_computed_import_is_declared() -> None:
    modules = _modules()
    found = {name for name, path in modules.items() if _dynamic_imports(path.read_text("utf-8"))}
    assert found == set(DYNAMIC_IMPORTS), "say in DYNAMIC_IMPORTS what each one loads"


def test_every_import_inside_a_function_says_why() -> None:
    modules = _modules()
    names = set(modules)
    root = PACKAGE_DIR.parent.parent
    bare = [
        f"{path.relative_to(root)}:{line}: "
        f"{path.read_text(encoding='utf-8').splitlines()[line - 1].strip()}"
        for name, path in modules.items()
        for line in uncommented_lazy_imports(path.read_text(encoding="utf-8"), name, names)
    ]
    assert not bare, (
        "a toollens import inside a function needs a comment on the line above saying why it "
        "is not at the top of the module (what it would cost which entry point, or which "
        "cycle it avoids), e.g. `# lazy: pulls in pydantic (~50 ms); `import toollens` does "
        "not`; or move it to the top:\n" + "\n".join(bare)
    )


def test_no_submodule_imports_a_reexport_from_its_own_package() -> None:
    modules = _modules()
    root = PACKAGE_DIR.parent.parent
    found = [
        f"{path.relative_to(root)}: from {name.rpartition('.')[0]} import {what}"
        for name, path in modules.items()
        for what in reexports_from_own_package(path.read_text(encoding="utf-8"), name, modules)
    ]
    assert not found, (
        "import these from the sibling module that defines them, not from the package's "
        "__init__ (which imports the submodule, so the two can form a cycle):\n" + "\n".join(found)
    )


def test_the_project_source_registers_itself_into_the_reader() -> None:
    # toolsets never imports project; the face loads project.source with it.
    code = (
        "import sys, toollens.toolsets as ts\n"
        "assert 'project' not in ts.registered_prefixes(), ts.registered_prefixes()\n"
        "assert not [m for m in sys.modules if m.startswith('toollens.project')]\n"
        "import toollens\n"
        "toollens.toolset\n"
        "assert 'project' in ts.registered_prefixes()\n"
        "try:\n"
        "    ts.toolset('project:/nonexistent-dir-for-the-test')\n"
        "except toollens.TargetError as exc:\n"
        "    assert 'pyproject.toml' in str(exc), exc\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=600)


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
