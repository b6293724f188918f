"""What is counted: a tool's name, description and parameters schema, from any input.

``tokens()`` accepts a :class:`~toollens.toolsets.Tool` or a toolset, a callable, a
``FunctionSchema``, a ``Report``, a provider payload or a bare parameters schema (a dict), or
a list of those; each tool becomes one :class:`ToolDef`. A tool record becomes one by one
function, :func:`tool_def`, whatever reader filled it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias, Union

from toollens.core.errors import TargetError
from toollens.core.function_schema import FunctionSchema, function_schema
from toollens.core.providers import unwrap_payload
from toollens.core.report import Report
from toollens.tokens.result import UnreadTool

if TYPE_CHECKING:
    from typing import TypeGuard

    from toollens.toolsets.entries import Tool
    from toollens.toolsets.model import Toolset

EMPTY_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}


@dataclass(frozen=True)
class DeferredMarks:
    """A toolset read from a tool list, with the entries the list marks ``defer_loading``.

    Attributes:
        toolset: the toolset (its entries in list order).
        deferred: the indexes of the entries marked ``defer_loading: true``.
    """

    toolset: Toolset
    deferred: frozenset[int]


@dataclass(frozen=True)
class ToolDef:
    """One tool as a provider receives it: name, description, parameters JSON schema.

    ``deferred``: the tool is marked ``defer_loading`` (loaded on demand by tool search),
    so its definition is not in the prompt up front.
    """

    name: str
    description: str | None
    parameters: Mapping[str, Any]
    deferred: bool = False


CountableTool: TypeAlias = Union[  # string forward references need Union
    ToolDef,
    DeferredMarks,
    "Tool",
    "FunctionSchema",
    "Report",
    "Toolset",
    Mapping[str, object],
    Callable[..., object],
]
"""One thing ``tokens()`` can count: a tool, its schema, a payload or a toolset."""

CountableTools: TypeAlias = Union[  # noqa: UP007 - a recursive alias needs Union
    CountableTool, Sequence["CountableTools"]
]
"""What ``tokens()`` accepts: one countable thing, or a list or tuple of them."""


def tool_defs(tools: CountableTools) -> tuple[ToolDef, ...]:
    """Every tool in ``tools`` (one tool, a list or tuple of tools, or a toolset).

    A toolset's entries that could not be read are left out (see :func:`skipped`).
    """
    if isinstance(tools, (list, tuple)):
        return tuple(d for item in tools for d in tool_defs(item))
    if isinstance(tools, DeferredMarks):
        return tuple(
            tool_def(entry, index in tools.deferred)
            for index, entry in enumerate(tools.toolset.tools)
            if _readable(entry)
        )
    if _is_toolset(tools):
        return tuple(tool_def(entry) for entry in tools.tools if _readable(entry))
    return (_one(tools),)


def skipped(tools: CountableTools) -> tuple[UnreadTool, ...]:
    """A toolset's entries that have no schema to count, each with the reason."""
    if isinstance(tools, (list, tuple)):
        return tuple(unread for item in tools for unread in skipped(item))
    if isinstance(tools, DeferredMarks):
        return skipped(tools.toolset)
    if not _is_toolset(tools):
        return ()
    return tuple(
        UnreadTool(entry.name, entry.error or "no parameters schema")
        for entry in tools.tools
        if not _readable(entry)
    )


def _is_toolset(tools: object) -> TypeGuard[Toolset]:
    # lazy: toollens.toolsets (~16 ms); `toollens --help` imports this module, not it
    from toollens.toolsets.model import Toolset

    return isinstance(tools, Toolset)


def _readable(entry: Any) -> bool:
    return bool(entry.ok)


def tool_def(entry: Tool, deferred: bool = False) -> ToolDef:
    """What a model is sent for a readable :class:`~toollens.toolsets.Tool` (``deferred``:
    marked ``defer_loading``): a Python tool as its function schema, a tool known by its
    definition (JSON, MCP, a framework's) as written, not as toollens' strict version of it."""
    rep = entry.report
    if rep is not None and rep.function is not None:
        found = _one(rep.function)
        return ToolDef(found.name, found.description, found.parameters, deferred)
    schema = entry.input_schema
    if schema is None and rep is not None:
        schema = rep.schema if rep.schema is not None else rep.raw_schema
    return ToolDef(entry.name, entry.description or None, schema or EMPTY_PARAMETERS, deferred)


def _one(tool: Any) -> ToolDef:
    # lazy: toollens.toolsets (~16 ms); `toollens --help` imports this module, not it
    from toollens.toolsets.entries import Tool

    if isinstance(tool, ToolDef):
        return tool
    if isinstance(tool, Tool):
        if not tool.ok:
            raise TargetError(f"tool {tool.name!r} has no schema to count: {tool.error}")
        return tool_def(tool)
    framework = _framework_tool(tool)
    if framework is not None:
        return framework
    input_schema = getattr(tool, "input_schema", None)
    if isinstance(input_schema, Mapping) and isinstance(getattr(tool, "name", None), str):
        # a tool as a server sent it (name, description, inputSchema): as a client sends it on
        return ToolDef(tool.name, getattr(tool, "description", None) or None, input_schema)
    if isinstance(tool, FunctionSchema):
        return ToolDef(tool.name, tool.description, tool.json_schema)
    if isinstance(tool, Report):
        return _from_report(tool)
    if isinstance(tool, Mapping):
        return _from_mapping(tool)
    if callable(tool):
        return _one(function_schema(tool))
    raise TargetError(
        f"cannot count tokens for a {type(tool).__name__}",
        hint="pass a callable, a FunctionSchema, a Report, a tool payload or schema dict, "
        "or a list of them",
    )


def _framework_tool(obj: object) -> ToolDef | None:
    """A framework's one-tool object (an Agents SDK ``FunctionTool``, a pydantic-ai ``Tool``,
    a LangChain ``BaseTool`` class or instance) as its framework sends it: read by the
    toolset readers into a :class:`~toollens.toolsets.Tool`, counted by :func:`tool_def`
    (an Agents SDK tool keeps its ``defer_loading`` mark). ``None`` for anything else.

    Raises:
        TargetError: the framework's tool cannot be read.
    """
    if isinstance(obj, (Mapping, str, bytes, ToolDef)):
        return None
    # lazy: toollens.toolsets (~16 ms); `toollens --help` imports this module, not it
    from toollens.toolsets.registry import framework_entries

    found = framework_entries(obj, None, type(obj).__name__)
    if found is None or len(found) != 1:  # an agent holds many: count toolset(agent)
        return None
    (tool,) = found
    if not tool.ok:
        raise TargetError(f"tool {tool.name!r} has no schema to count: {tool.error}")
    return tool_def(tool, getattr(obj, "defer_loading", False) is True)


def _named(outer: Mapping[str, Any], tool: Mapping[str, Any], schema: Mapping[str, Any]) -> ToolDef:
    name, description = tool.get("name"), tool.get("description")
    deferred = tool.get("defer_loading", outer.get("defer_loading")) is True
    return ToolDef(
        name if isinstance(name, str) else "tool",
        description if isinstance(description, str) and description else None,
        schema,
        deferred,
    )


def _from_report(rep: Any) -> ToolDef:
    if rep.function is not None:
        return _one(rep.function)
    schema = rep.schema if rep.schema is not None else rep.raw_schema
    if schema is None:
        raise TargetError(f"report {rep.title!r} has no parameters schema to count")
    return ToolDef(rep.options.name or rep.title, rep.options.description, schema)


def _from_mapping(data: Mapping[str, Any]) -> ToolDef:
    mcp_schema = data.get("inputSchema")
    if isinstance(data.get("name"), str) and isinstance(mcp_schema, Mapping):
        # An MCP tools/list entry: what a client sends on as the tool.
        return _named(data, data, mcp_schema)
    found = unwrap_payload(data)
    if found is not None:
        schema = found.schema if isinstance(found.schema, Mapping) else EMPTY_PARAMETERS
        return _named(data, found.tool, schema)
    title = data.get("title")
    description = data.get("description")
    return ToolDef(
        title if isinstance(title, str) else "tool",
        description if isinstance(description, str) else None,
        data,
    )
