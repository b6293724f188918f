"""What a request names, read once: one tool, or a toolset with each tool's checks.

A target names many tools when it is a module (no ``:ATTR``), ``project``, a prefixed
source (``mcp:``, ``project:``), a JSON file holding tools, or ``MODULE:ATTR`` naming a
source of tools (a list, an agent); anything that is not a string is read as a toolset
source. Each tool is checked once per provider of the request's columns.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import toollens.core.report as core_report
import toollens.project.source  # noqa: F401  (registers the "project" source)
from toollens.core.checks import ToolCheck
from toollens.core.errors import TargetError, ToolLensError
from toollens.json_files import load_json_value
from toollens.targets import (
    callable_target,
    is_dotted,
    is_project_source,
    parse_target,
    resolve_target,
)
from toollens.toolsets import registered_prefixes, toolset
from toollens.toolsets.payloads import holds_tool_list
from toollens.toolsets.pool import parallel_module_toolset
from toollens.toolsets.registry import framework_report
from toollens.toolsets.sources import holds_several

if TYPE_CHECKING:
    from collections.abc import Callable

    from toollens.core.function_schema import FunctionSchema
    from toollens.core.report import Report, ReportOptions
    from toollens.mcp.client import ConnectOptions
    from toollens.toolsets import Tool, Toolset

__all__ = [
    "CheckedTool",
    "ToolRow",
    "check_entry",
    "checked_toolset",
    "is_toolset_source",
    "read_toolset",
    "report_of",
    "target_functions",
]


@dataclass(frozen=True)
class ToolRow:
    """One tool of a checked toolset: the entry and its check result (``None`` if unread)."""

    entry: Tool
    result: ToolCheck | None


@dataclass(frozen=True)
class CheckedTool:
    """One tool checked on its own (a target naming one tool).

    Attributes:
        result: its findings, per provider.
        obj: the tool's object (annotations point at its ``def``).
        function: its ``FunctionSchema`` when it is a Python function.
    """

    result: ToolCheck
    obj: object
    function: FunctionSchema | None = None


def is_toolset_source(text: str) -> bool:
    """Whether a target names many tools (see the module's docstring)."""
    head, sep, _ = text.partition(":")
    if (sep and head in registered_prefixes()) or is_project_source(text):
        return True
    if text.endswith(".json"):
        return Path(text).is_file() and _holds_tool_list(Path(text))
    if text.endswith(".py"):  # without ":ATTR" it stays an error: "names a Python file..."
        return False
    return is_dotted(text) or _names_several(text)


def _holds_tool_list(path: Path) -> bool:
    try:
        data = load_json_value(path)
    except TargetError:  # the single-target path reports it
        return False
    return holds_tool_list(data)


def _names_several(text: str) -> bool:
    try:
        if parse_target(text).origin == "json":
            return False
        obj = resolve_target(text)
    except ToolLensError:  # the single-tool path reports it, in its words
        return False
    return holds_several(obj)


def report_of(target_text: str, options: ReportOptions) -> Report:
    """The report of a target; a provider payload in a JSON file gives its name and
    description, a framework's tool what the framework sends."""
    target = resolve_target(target_text)
    framework = framework_report(target, options)  # an agent's tool, a LangChain tool...
    if framework is not None:
        return framework
    # A provider payload is reported as written (report reads its name, strictness and
    # own fields), exactly as the same tool in a payload list.
    return core_report.report(target, options)


def check_entry(entry: Tool, providers: Sequence[str]) -> ToolCheck | None:
    """The check of one entry, once per provider (``None`` when it has no report)."""
    if entry.report is None:
        return None
    found = [entry.report_for(p) for p in providers]
    return ToolCheck.from_reports([rep for rep in found if rep is not None])


def checked_toolset(
    source: object,
    options: ReportOptions,
    providers: Sequence[str],
    jobs: int | None = None,
    connect: ConnectOptions | None = None,
) -> tuple[Toolset, list[ToolRow]]:
    """The toolset ``source`` names and each tool's check; with ``jobs`` other than 1, a
    module source is read in that many processes (0: one per core), same result."""
    check: Callable[[Tool], object] = functools.partial(check_entry, providers=tuple(providers))
    if jobs is not None and jobs != 1 and isinstance(source, str) and is_dotted(source):
        ts, results = parallel_module_toolset(source, options, jobs or None, check=check)
        checks = [r if isinstance(r, ToolCheck) else None for r in results]
        return ts, [ToolRow(e, r) for e, r in zip(ts.tools, checks, strict=True)]
    ts = read_toolset(source, options, connect)
    return ts, [ToolRow(e, check_entry(e, providers)) for e in ts.tools]


def read_toolset(
    source: object, options: ReportOptions, connect: ConnectOptions | None = None
) -> Toolset:
    """The toolset ``source`` names, for every command the same way; ``connect`` reaches
    its MCP servers.

    Raises:
        TargetError: the source cannot be read at all, or it holds no tool (a command
            never reports a count or a verdict on tools it did not read).
    """
    ts = toolset(source, options, connect=connect)
    if not ts.tools:
        raise TargetError(f"{source!r} holds no tools", hint="name a source that lists some")
    return ts


def target_functions(text: str) -> list[object]:
    """The function ``text`` names, or each function of the module or file it names (what
    ``check MODULE`` reads), in the order they are defined (``toollens fuzz``).

    Raises:
        TargetError: ``text`` names a JSON schema, a ``MODULE:FUNC`` that does not resolve,
            nothing, or a module that defines no function.
    """
    try:
        return [callable_target(text)]
    except TargetError as exc:
        if text.endswith(".json") or ":" in text.replace("\\", "/").rpartition("/")[2]:
            raise  # a schema, or MODULE:FUNC that does not resolve: its own error says why
        named = exc
    try:
        found = [tool.function for tool in toolset(text).tools]
    except TargetError:
        raise named from None
    functions: list[object] = [f for f in found if inspect.isroutine(f)]
    if not functions:
        raise TargetError(
            f"{text} defines no function to call",
            hint="name a Python function: MODULE:FUNC or file.py:FUNC",
        )
    return functions
