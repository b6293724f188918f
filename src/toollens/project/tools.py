"""Expand a project's tool list into the objects it names, and the lock's record of a tool.

``pkg.tools:search`` names one function; ``pkg.tools:*`` and ``pkg/agents.py:*`` name the
tools of that module by the one rule ``toollens check pkg.tools`` uses too
(:func:`toollens.targets.module_tools`: ``__all__``, else the public functions defined there
and the framework tool objects it binds, in binding order). A function named twice
(``pkg.tools:search`` and ``pkg.tools:*``) is one tool. The ``project`` source
(:mod:`toollens.project.source`) turns these objects into :class:`~toollens.toolsets.Tool`
records, which the lock (:class:`ProjectTool`) and every command read.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toollens.project.config import ProjectConfig, ProjectError
from toollens.toolsets.locations import (
    SourceLocation,
    parameter_line,
    return_line,
    source_location,
)

if TYPE_CHECKING:
    from toollens.core.report import Report
    from toollens.core.schema.types import JsonObject
    from toollens.mcp.client import ConnectOptions
    from toollens.toolsets.entries import Tool

__all__ = [
    "ProjectTool",
    "SourceLocation",
    "ToolRef",
    "check_unique_names",
    "expand_tools",
    "parameter_line",
    "relative_path",
    "return_line",
    "source_location",
    "tool_target",
]

WILDCARD = "*"


@dataclass(frozen=True)
class ToolRef:
    """One tool of the project.

    Attributes:
        target: the target naming exactly this function (``pkg.tools:search``).
        obj: the function (or class, framework tool object, server tool) itself.
        location: its file and ``def`` line, when Python can find its source.
    """

    target: str
    obj: Any
    location: SourceLocation | None


@dataclass(frozen=True)
class ProjectTool:
    """One tool as the lock records it now.

    Attributes:
        tool: the tool's record, as the ``project`` source (or ``--toolset``) read it:
            where it came from (``origin``: its module and line, or its server), its
            definition and its report.
        name: the name the model sees (the lock's key).
        entry: its lock entry.
        reports: its report for each configured provider, in the order configured.
    """

    tool: Tool
    name: str
    entry: JsonObject
    reports: tuple[Report, ...]

    @property
    def target(self) -> str:
        """What names the tool where it came from (:func:`tool_target`)."""
        return tool_target(self.tool)


def tool_target(tool: Tool) -> str:
    """What names ``tool`` where it came from: the table's target naming exactly it
    (``pkg.tools:search``, ``mcp:python server.py#search``), else where its reader found it
    (``agent[0]``, the first tool of an agent; ``tools.json[2]``; ``pkg.tools:12``)."""
    return tool.origin.label if tool.origin.kind == "project" else str(tool.origin)


def expand_tools(
    config: ProjectConfig, *, connect: ConnectOptions | None = None
) -> tuple[ToolRef, ...]:
    """Every Python tool the configuration names (an ``mcp:`` server's tools are read by
    :func:`toollens.project.source.project_toolset`), each once, in the order listed;
    ``connect`` reaches a server a ``MODULE:ATTR`` object needs (the defaults when ``None``).

    Raises:
        TargetError: a module does not import or an attribute does not exist.
        ProjectError: a wildcard names a module with no public function.
    """
    # lazy: toollens.targets (~4 ms); `toolset(f)` imports this module without it
    from toollens.targets import resolve_target

    refs: dict[tuple[str, str], ToolRef] = {}
    for spec in config.tools:
        location, _, attribute = spec.rpartition(":")
        if attribute == WILDCARD and location:
            found = _module_functions(location, config.root)
        else:
            found = [(spec, resolve_target(spec, cwd=config.root, connect=connect))]
        for target, obj in found:
            ref = ToolRef(target=target, obj=obj, location=source_location(obj))
            refs.setdefault(_identity(ref), ref)
    return tuple(refs.values())


def _module_functions(location: str, root: Path) -> list[tuple[str, Any]]:
    # lazy: toollens.targets (~4 ms); `toolset(f)` imports this module without it
    from toollens.targets import MISSING_NAME, load_module, module_tools, no_tools_error

    module = load_module(location, cwd=root)
    functions = module_tools(module)
    if not functions:
        error = no_tools_error(module, location)
        raise ProjectError(f"'{location}:*': {error.message}", hint=error.hint)
    for name, obj in functions:
        if obj is MISSING_NAME:
            raise ProjectError(f"'{location}:*': __all__ lists {name!r}, which is not defined")
    return [(f"{location}:{name}", obj) for name, obj in functions]


def _identity(ref: ToolRef) -> tuple[str, str]:
    obj = inspect.unwrap(ref.obj) if callable(ref.obj) else ref.obj
    where = str(ref.location.file) if ref.location else getattr(obj, "__module__", "")
    return (where, getattr(obj, "__qualname__", ref.target))


def relative_path(file: Path, base: str | os.PathLike[str] | None = None) -> str:
    """``file`` as GitHub names it: relative to the repository root, with forward slashes.

    The root is the nearest directory at or above ``base`` (the working directory) holding
    ``.git``, so a project in a subdirectory of a monorepo is annotated correctly; outside
    a git checkout, paths are relative to ``base``.
    """
    start = Path(os.getcwd() if base is None else base).resolve()
    root = next((d for d in (start, *start.parents) if (d / ".git").exists()), start)
    try:
        shown = os.path.relpath(Path(file).resolve(), root)
    except ValueError:  # another drive on Windows
        shown = str(file)
    return shown.replace(os.sep, "/")


def check_unique_names(tools: Sequence[Tool]) -> None:
    """Raise when two tools would reach the model under the same name."""
    seen: dict[str, Tool] = {}
    for tool in tools:
        if tool.name in seen:
            first, second = tool_target(seen[tool.name]), tool_target(tool)
            raise ProjectError(
                f"tools {first!r} and {second!r} are both named {tool.name!r}",
                hint="a model tells tools apart by name; rename one",
            )
        seen[tool.name] = tool
