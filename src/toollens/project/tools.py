"""Expand a project's tool list into the functions it names, and where each one lives.

``pkg.tools:search`` names one function; ``pkg.tools:*`` and ``pkg/agents.py:*`` name the
tools of that module by the one rule ``toollens check pkg.tools`` uses too
(:func:`toollens.targets.module_tools`: ``__all__``, else the public functions defined there
and the framework tool objects it binds, in binding order). A function named twice
(``pkg.tools:search`` and ``pkg.tools:*``) is one tool.
"""

from __future__ import annotations

import inspect
import os
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
    from toollens.core.report import Report, ReportOptions
    from toollens.core.schema.types import JsonObject
    from toollens.mcp.client import ConnectOptions

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
    "tool_report",
]

WILDCARD = "*"


@dataclass(frozen=True)
class ToolRef:
    """One tool of the project.

    Attributes:
        target: the target naming exactly this function (``pkg.tools:search``).
        obj: the function (or class) itself.
        location: its file and ``def`` line, when Python can find its source.
    """

    target: str
    obj: Any
    location: SourceLocation | None


@dataclass(frozen=True)
class ProjectTool:
    """One tool as it is now: where it lives, its lock entry, and its reports."""

    ref: ToolRef
    name: str
    entry: JsonObject
    reports: tuple[Report, ...]


def expand_tools(
    config: ProjectConfig, *, connect: ConnectOptions | None = None
) -> tuple[ToolRef, ...]:
    """Every tool the configuration names, each once, in the order they are listed;
    ``connect`` reaches each ``mcp:`` server listed (the defaults when ``None``).

    Raises:
        TargetError: a module does not import or an attribute does not exist.
        ProjectError: a wildcard names a module with no public function.
    """
    from toollens.targets import is_mcp_target, resolve_target

    refs: dict[tuple[str, str], ToolRef] = {}
    for spec in config.tools:
        location, _, attribute = spec.rpartition(":")
        if attribute == WILDCARD and location:
            found = _module_functions(location, config.root)
        elif is_mcp_target(spec):  # every tool of an MCP server, each as spec#TOOL
            from toollens.mcp.project import server_tool_targets

            found = list(server_tool_targets(spec, config.root, connect))
        else:
            found = [(spec, resolve_target(spec, cwd=config.root, connect=connect))]
        for target, obj in found:
            ref = ToolRef(target=target, obj=obj, location=source_location(obj))
            refs.setdefault(_identity(ref), ref)
    return tuple(refs.values())


def tool_report(obj: object, options: ReportOptions) -> Report:
    """The report of one project tool: a framework tool object as its framework sends it,
    anything else as :func:`toollens.core.report.report` reads it.

    Raises:
        TargetError: the object is no kind of tool.
    """
    from toollens.core.report import report
    from toollens.toolsets.registry import framework_report

    found = framework_report(obj, options)
    return found if found is not None else report(obj, options)


def _module_functions(location: str, root: Path) -> list[tuple[str, Any]]:
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


def check_unique_names(names: list[tuple[str, ToolRef]]) -> None:
    """Raise when two tools would reach the model under the same name."""
    seen: dict[str, ToolRef] = {}
    for name, ref in names:
        if name in seen:
            raise ProjectError(
                f"tools {seen[name].target!r} and {ref.target!r} are both named {name!r}",
                hint="a model tells tools apart by name; rename one",
            )
        seen[name] = ref
