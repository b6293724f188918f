"""The ``project`` source: the tools listed under ``[tool.toollens] tools`` in pyproject.toml.

``"project"`` reads the project at or above the working directory, ``"project:DIR"`` the
one at or above ``DIR``. Each listed target is expanded as ``toollens check`` expands it
(``pkg.tools:*`` is every public function defined there; an agent gives its tools; an
``mcp:`` server its tools, judged with the table's MCP options); a target that cannot be
read is one entry with its error and the others are still read. Tools are read with the
project's options (strictness, docstring style, its first provider) unless options are
given. This is the one reader of the table: ``check``, ``toolset("project")``, the lock
(``snapshot``, ``diff --lock``) all read the tools it gives.

The table is the project layer's, so this module registers the source with the toolset
reader (:func:`toollens.toolsets.register_source`) when it is imported; the reader itself
never imports the project layer. ``toollens.toolset`` imports this module first.
"""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING

from toollens.core.errors import TargetError, ToolLensError
from toollens.project.config import load_config
from toollens.project.tools import expand_tools, tool_target
from toollens.toolsets.entries import Tool, ToolOrigin, callable_origin
from toollens.toolsets.mcp_source import server_entries
from toollens.toolsets.model import Toolset
from toollens.toolsets.registry import framework_entries, register_source
from toollens.toolsets.sources import read_object

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions
    from toollens.mcp.client import ConnectOptions
    from toollens.project.config import ProjectConfig
    from toollens.project.tools import ToolRef

__all__ = ["load_project", "project_functions", "project_toolset"]


def load_project(
    rest: str, options: ReportOptions | None, connect: ConnectOptions | None = None
) -> Toolset:
    """The loader registered for ``project:``: ``rest`` is the directory (or empty)."""
    return project_toolset(load_config(rest or None), options, connect=connect)


def project_toolset(
    config: ProjectConfig,
    options: ReportOptions | None = None,
    *,
    connect: ConnectOptions | None = None,
) -> Toolset:
    """Every tool of a project's table, in the order listed, each once.

    ``connect`` reaches every ``mcp:`` server the table lists (``--env``, ``--timeout``).
    """
    given = options or config.report_options(config.providers[0])
    entries: list[Tool] = []
    seen: set[tuple[object, ...]] = set()
    for spec in config.tools:
        for item in _expand(config, spec, given, connect):
            key = _identity(item)
            if item.error is not None or key not in seen:
                seen.add(key)
                entries.append(item)
    return Toolset.from_entries(entries, label=f"project {config.root.name}", options=given)


def project_functions(
    config: ProjectConfig, *, connect: ConnectOptions | None = None
) -> tuple[tuple[str, object], ...]:
    """Each Python function of the project's table as (target, function), read as the
    ``project`` source reads the table (``toollens compare`` with no target): a server's or
    a payload's tool has no function to hand to a framework, and a class is not one.

    Raises:
        TargetError: an entry of the table cannot be read, or none is a Python function.
    """
    ts = project_toolset(config, connect=connect)
    for tool in ts.errors:
        raise TargetError(f"tool {tool_target(tool)!r} cannot be read: {tool.error}")
    functions: tuple[tuple[str, object], ...] = tuple(
        (tool_target(tool), tool.function)
        for tool in ts.tools
        if callable(tool.function) and not isinstance(tool.function, type)
    )
    if not functions:
        raise TargetError(
            "the project's [tool.toollens] tools list no Python function to compare",
            hint="compare takes MODULE:FUNC or file.py:FUNC",
        )
    return functions


def _identity(tool: Tool) -> tuple[object, ...]:
    """One tool listed twice (``pkg.tools:search``, ``pkg/tools.py:*``; one tool in two
    agents) is one tool: the same definition from the same place (the file and line of
    its ``def``, or its server). Two tools that only share a name stay two, so the lock
    can refuse them."""
    # lazy: project.places + targets (~6 ms); `toollens show f` loads this module, not them
    from toollens.project.places import module_file

    origin = tool.origin
    file = module_file(origin.module) if origin.module is not None else None
    where = str(file.resolve()) if file is not None else origin.module
    sent = json.dumps(tool.definition(), sort_keys=True, default=str)
    return (origin.server, where, origin.line, tool.name, sent)


def _expand(
    config: ProjectConfig, spec: str, options: ReportOptions, connect: ConnectOptions | None
) -> list[Tool]:
    # lazy: toollens.targets (~4 ms), for a project's tools only; `toolset(f)` skips it
    from toollens.targets import is_mcp_target

    try:
        if is_mcp_target(spec):  # every tool of an MCP server, each as spec#TOOL
            return _server_entries(config, spec, options, connect)
        refs = expand_tools(dataclasses.replace(config, tools=(spec,)), connect=connect)
    except ToolLensError as exc:
        return [Tool.failed(spec, ToolOrigin(kind="project", label=spec), str(exc))]
    return [entry for ref in refs for entry in _entries(ref, options)]


def _server_entries(
    config: ProjectConfig, spec: str, options: ReportOptions, connect: ConnectOptions | None
) -> list[Tool]:
    """A listed server's tools, judged as its clients send them unless ``mcp_strict``
    (:meth:`~toollens.project.config.ProjectConfig.mcp_options`)."""
    # lazy: mcp.project; `toollens show f` loads this module without it
    from toollens.mcp.project import resolve_server

    served = resolve_server(spec, config.root, connect)
    return list(server_entries(served, config.mcp_options(options), kind="project"))


def _entries(ref: ToolRef, options: ReportOptions) -> list[Tool]:
    found = framework_entries(ref.obj, options, ref.target)  # an agent, a framework tool
    if found is not None:
        return found
    if not callable(ref.obj):  # a list of tools, a payload dict: read as toolset() reads it
        return read_object(ref.obj, options, ref.target)
    origin = callable_origin(ref.obj, kind="project", label=ref.target)
    return [Tool.from_callable(ref.obj, origin=origin, options=options)]


register_source("project", load_project, connects=True)
