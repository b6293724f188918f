"""Where an annotation about a tool points, whatever kind of tool it is.

A Python tool points at its ``def`` (:func:`~toollens.project.tools.source_location`); a tool
read in another process (``check --jobs``) at the module and line its origin records; a
tool of a JSON file at that file. An MCP server's tool has no Python source: it points at
the ``pyproject.toml`` line declaring the server, else at its entry in the lock, else at
the server's script when its command names a file, else nowhere (the whole run). A whole
source (``--agent pkg.app:agent``, a module, ``project``) points at where it is defined.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from toollens.core.errors import ToolLensError
from toollens.mcp.target import parse_mcp_target
from toollens.project.config import PYPROJECT, find_project_root
from toollens.project.tools import relative_path, source_location
from toollens.targets import is_mcp_target, is_project_source
from toollens.toolsets.entries import Tool

__all__ = [
    "NOWHERE",
    "Place",
    "entry_place",
    "lock_entry_line",
    "mcp_place",
    "module_file",
    "object_place",
    "parameter_line_at",
    "source_place",
]


@dataclass(frozen=True)
class Place:
    """A file relative to the repository root (``None``: the whole run) and a line in it.

    ``path`` is the file as found on disk, to read a parameter's line from.
    """

    file: str | None = None
    line: int | None = None
    path: Path | None = field(default=None, compare=False)

    def __bool__(self) -> bool:
        return self.file is not None


NOWHERE = Place()


def _at(path: Path, line: int | None = None) -> Place:
    return Place(relative_path(path), line, path)


def object_place(obj: object) -> Place:
    """A Python tool's ``def`` line; a tool record where :func:`entry_place` finds it (an
    MCP server's tool: where the server is declared)."""
    if isinstance(obj, Tool):
        return entry_place(obj)
    location = source_location(obj)
    return _at(location.file, location.line) if location is not None else NOWHERE


def entry_place(entry: Tool, fallback: Place = NOWHERE) -> Place:
    """Where a toolset entry is defined, from its object or, without one, its origin."""
    origin = entry.origin
    if entry.report is not None:
        found = object_place(entry.report.target)
        if found:
            return found
    if origin.module is not None:
        file = module_file(origin.module)
        if file is not None:
            return _at(file, origin.line)
    if is_mcp_target(origin.label):
        return mcp_place(origin.label, entry.name) or fallback
    if origin.kind == "json" and Path(origin.label).is_file():
        return _at(Path(origin.label))
    return fallback


def module_file(name: str) -> Path | None:
    """The source file of a module already imported (or importable) by that name."""
    module = sys.modules.get(name)
    found = getattr(module, "__file__", None) if module is not None else None
    if not isinstance(found, str):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            return None
        found = spec.origin if spec is not None else None
    return Path(found) if isinstance(found, str) and found.endswith(".py") else None


# -- MCP servers --------------------------------------------------------------------------------


def mcp_place(target: str, name: str | None = None) -> Place:
    """Where an MCP server (``mcp:...``, with or without ``#TOOL``) is declared.

    The ``pyproject.toml`` line listing it under ``[tool.toollens] tools``; else the tool's
    entry in ``toollens.lock.json``; else the server's script when its command names a file.
    """
    try:
        parsed = parse_mcp_target(target)
    except ToolLensError:
        return NOWHERE
    name = name or parsed.tool
    project = _project_file()
    if project is not None:
        line = _declaration_line(project, parsed.server)
        if line is not None:
            return _at(project, line)
        lock = project.parent / "toollens.lock.json"
        if name and lock.is_file():
            line = lock_entry_line(lock.read_text(encoding="utf-8"), name)
            if line is not None:
                return _at(lock, line)
    scripts = [Path(arg) for arg in parsed.command[1:] if Path(arg).is_file()]
    return _at(scripts[0]) if scripts else NOWHERE


def lock_entry_line(lock_text: str, name: str) -> int | None:
    """The line of tool ``name``'s entry in a lock as ``toollens snapshot`` writes it."""
    head = "    " + json.dumps(name, ensure_ascii=False) + ": {"
    lines = lock_text.splitlines()
    return next((n for n, line in enumerate(lines, start=1) if line == head), None)


def _project_file() -> Path | None:
    try:
        return find_project_root() / PYPROJECT
    except ToolLensError:
        return None


def _declaration_line(pyproject: Path, server: str) -> int | None:
    """The line of ``pyproject.toml`` holding ``server`` as a TOML string."""
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    # A basic string escapes as JSON does for these characters; a literal string does not.
    written = (json.dumps(server, ensure_ascii=False), f"'{server}'")
    for number, line in enumerate(text.splitlines(), start=1):
        if any(form in line for form in written):
            return number
    return None


# -- whole sources ------------------------------------------------------------------------------


def source_place(text: str) -> Place:
    """Where a toolset source is defined: a JSON file, the project's ``pyproject.toml``
    line of ``[tool.toollens]``, an MCP server, or a module (at ``ATTR`` when named)."""
    if is_mcp_target(text):
        return mcp_place(text)
    if is_project_source(text):
        try:
            root = find_project_root(text.partition(":")[2] or None)
        except ToolLensError:
            return NOWHERE
        return _at(root / PYPROJECT, _table_line(root / PYPROJECT))
    if Path(text).is_file():
        return _at(Path(text))
    module, _, attribute = text.partition(":")
    file = Path(module) if module.endswith(".py") else module_file(module)
    if file is None or not file.is_file():
        return NOWHERE
    return _at(file, _assignment_line(file, attribute) if attribute else None)


def _table_line(pyproject: Path) -> int | None:
    lines = pyproject.read_text(encoding="utf-8").splitlines()
    return next((i for i, t in enumerate(lines, start=1) if t.strip() == "[tool.toollens]"), None)


def _assignment_line(file: Path, attribute: str) -> int | None:
    """The line where a module binds ``attribute`` (``agent = Agent(...)``, ``def f``)."""
    tree = _parse(file)
    for node in tree.body if tree is not None else ():
        names: list[str] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [node.name]
        elif isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        if attribute in names:
            return node.lineno
    return None


def _parse(file: Path) -> ast.Module | None:
    try:
        stat = file.stat()
    except OSError:
        return None
    return _parse_version(file.resolve(), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=8)  # one parse per file per run, a fresh one after an edit
def _parse_version(file: Path, _mtime: int, _size: int) -> ast.Module | None:
    try:
        return ast.parse(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None


def parameter_line_at(file: Path, def_line: int, parameter: str) -> int | None:
    """The line declaring ``parameter`` in the function whose ``def`` is at ``def_line``.

    For a tool known only by its file and line (read in another process).
    """
    tree = _parse(file)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.lineno == def_line:
            args = node.args
            every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
            return next((a.lineno for a in every if a is not None and a.arg == parameter), None)
    return None
