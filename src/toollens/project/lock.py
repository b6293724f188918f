"""``toollens.lock.json``: what every tool of a project sends a model, written for review.

The lock holds one entry per tool the project's table gives, read by the one reader of the
table (:func:`~toollens.project.source.project_toolset`, also ``check project:``) or, with
``--toolset``, by that source's reader; each is a :class:`~toollens.toolsets.Tool` record
(:class:`ProjectTool` keeps it), and a tool listed without a schema (a hosted tool) is not
locked. An entry is keyed by the tool's name: its name, description, parameters schema
(strict when the project is strict), output schema, and the payload of each configured
provider. Everything toollens lays out is written with sorted keys and a
two-space indent, ending in a newline, so the same tools always give the same bytes; the
schemas themselves keep the key order the model sees (the order of ``properties`` is part
of what a model reads, so sorting it would record something the model never receives).

:func:`compare_lock` compares the tools as they are now with a lock, through the same diff
engine as ``toollens diff`` (:func:`toollens.core.diff.diff`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from toollens.core.diff import ChangeKind, DiffSeverity, SchemaChange, SchemaDiff, diff
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonMapping, JsonObject
from toollens.project.config import ProjectConfig, ProjectError
from toollens.project.lock_clients import project_listings, verdict_changes, with_clients
from toollens.project.lock_tokens import entry_tokens
from toollens.project.source import project_toolset
from toollens.project.tools import (
    ProjectTool,
    check_unique_names,
    tool_target,
)

if TYPE_CHECKING:
    from toollens.core.report import Report
    from toollens.mcp.client import ConnectOptions
    from toollens.toolsets.entries import Tool

__all__ = [
    "LOCK_VERSION",
    "LockDiff",
    "ProjectTool",
    "ToolDelta",
    "build_lock",
    "collect_tools",
    "compare_lock",
    "dump_lock",
    "lock_entry",
    "lock_line",
    "locked_tools",
    "read_lock",
    "reported_tools",
]

LOCK_VERSION = 1
_ENTRY_KEYS = ("description", "name", "output", "parameters", "providers", "strict")
_OPTIONAL_KEYS = frozenset({"tokens", "clients"})  # added later; older locks lack them
ToolStatus = Literal["added", "removed", "changed", "unchanged"]


def collect_tools(
    config: ProjectConfig, *, connect: ConnectOptions | None = None
) -> tuple[ProjectTool, ...]:
    """Every tool of the project's table with its lock entry, as the ``project`` source
    reads it (:func:`~toollens.project.source.project_toolset`; ``connect`` reaches the
    ``mcp:`` servers the table lists); an MCP server's tools carry each client's verdict.

    Raises:
        ProjectError: a tool cannot be read or made strict, has no payload, or two share a
            name.
    """
    tools = locked_tools(_table_reports(config, connect), config.tokens_model)
    for listing in project_listings(tools):  # MCP tools: each client's verdict, per server
        tools = with_clients(tools, listing)
    return tools


def _table_reports(
    config: ProjectConfig, connect: ConnectOptions | None
) -> tuple[tuple[Tool, tuple[Report, ...]], ...]:
    return reported_tools(project_toolset(config, connect=connect).tools, config.providers)


def reported_tools(
    tools: Iterable[Tool], providers: Sequence[str]
) -> tuple[tuple[Tool, tuple[Report, ...]], ...]:
    """Each tool that has a schema with its report for each provider, in order. A tool
    listed but not checked (an agent's hosted tool: no report, no error) is left out.

    Raises:
        ProjectError: a tool could not be read (a lock must not drop it silently), or two
            tools share a name.
    """
    built = []
    for tool in tools:
        if tool.error is not None:
            raise ProjectError(f"tool {_named(tool)} cannot be read: {tool.error}")
        if tool.report is None:
            continue  # a hosted tool, a toolset known only during a run: no schema to lock
        reports = tuple(rep for p in providers if (rep := tool.report_for(p)) is not None)
        built.append((tool, reports))
    check_unique_names([tool for tool, _ in built])
    return tuple(built)


def _named(tool: Tool) -> str:
    target = tool_target(tool)
    return repr(target) if target == tool.name else f"{tool.name!r} ({target})"


def locked_tools(
    reported: Iterable[tuple[Tool, tuple[Report, ...]]], tokens_model: str | None = None
) -> tuple[ProjectTool, ...]:
    """Each tool with its reports (from :func:`reported_tools`) and its lock entry."""
    return tuple(
        ProjectTool(tool, tool.name, lock_entry(tool, reports, tokens_model), reports)
        for tool, reports in reported
    )


def lock_entry(
    tool: Tool, reports: Sequence[Report], tokens_model: str | None = None
) -> JsonObject:
    """The lock entry of one tool from its reports (one per provider).

    Raises:
        ProjectError: the tool cannot be made strict, or has no payload for a provider.
    """
    # lazy: the MCP judge + lint (~8 ms), for an MCP tool's declared output only
    from toollens.mcp.judge import declared_output

    first = reports[0]
    for rep in reports:
        problem = rep.view_errors.get("strict") or rep.view_errors.get("provider")
        if problem or rep.schema is None or rep.provider_payload is None:
            raise ProjectError(
                f"tool {tool_target(tool)!r} cannot be locked: {problem or 'it has no parameters'}",
                hint="fix the tool, or under [tool.toollens] set strict = false or drop "
                f"{rep.provider!r} from providers",
            )
    fs = first.function
    # A tool read from its definition (JSON, an agent's FunctionTool) has no FunctionSchema.
    description = getattr(fs, "description", None) if fs is not None else first.options.description
    output = _output_entry(first.output)
    if output is None and tool.output_schema is not None:  # declared (MCP): as sent
        output = declared_output(tool.name, tool.output_schema)
    entry = {
        "description": description or None,
        "name": first.title,
        "output": output,
        "parameters": first.schema,
        "providers": {r.provider: r.provider_payload for r in sorted(reports, key=_provider_of)},
        "strict": first.options.strict,
    }
    assert tuple(entry) == _ENTRY_KEYS  # the lock's key order is its format
    counted = entry_tokens(first, tokens_model)
    if counted is not None:  # optional, last: locks written before it stay readable
        entry["tokens"] = counted
    return entry


def _provider_of(rep: Any) -> str:
    return str(rep.provider)


def _output_entry(output: Any) -> JsonObject | None:
    if output is None:
        return None
    return {
        "kind": output.path.value,
        "name": output.name,
        "schema": output.json_schema,
        "strict": output.strict,
    }


def build_lock(tools: Sequence[ProjectTool]) -> JsonObject:
    """The lock document for ``tools``; tools sorted by name."""
    return {
        "lock_version": LOCK_VERSION,
        "tools": {t.name: t.entry for t in sorted(tools, key=lambda t: t.name)},
    }


def dump_lock(document: JsonMapping) -> str:
    """The lock's text: two-space indent, a final newline, the same bytes every time."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def read_lock(path: Path) -> tuple[JsonObject, str]:
    """The lock document at ``path`` and its text, checked for the lock's shape.

    Raises:
        ProjectError: the file is missing or unreadable, is not JSON, or is not a lock.
    """
    shown = path.name
    if not path.is_file():
        raise ProjectError(
            f"no lock file {shown} in the project", hint="write it with `toollens snapshot`"
        )
    try:
        text = path.read_text(encoding="utf-8")
        document = json.loads(text)
    except OSError as exc:
        raise ProjectError(f"cannot read {shown}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ProjectError(f"{shown} is not UTF-8 text", hint=_REWRITE) from exc
    except json.JSONDecodeError as exc:
        raise ProjectError(
            f"{shown} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})",
            hint=_REWRITE,
        ) from exc
    _check_document(document, shown)
    return document, text


_REWRITE = "resolve the merge conflict, or rewrite it with `toollens snapshot`"


def _check_document(document: Any, shown: str) -> None:
    def bad(what: str, pointer: str) -> ProjectError:
        return ProjectError(f"{shown} {what}", pointer=pointer, hint=_REWRITE)

    if not isinstance(document, dict):
        raise bad("is not a JSON object", "")
    if document.get("lock_version") != LOCK_VERSION:
        raise bad(f"has lock_version {document.get('lock_version')!r}, not {LOCK_VERSION}", "")
    tools = document.get("tools")
    if not isinstance(tools, dict):
        raise bad("has no 'tools' object", "/tools")
    for name, entry in tools.items():
        where = join_pointer("/tools", name)
        if not isinstance(entry, dict) or set(entry) - _OPTIONAL_KEYS != set(_ENTRY_KEYS):
            raise bad(f"entry {name!r} does not have the keys {', '.join(_ENTRY_KEYS)}", where)
        if entry["name"] != name or not isinstance(entry["parameters"], dict):
            raise bad(f"entry {name!r} has a wrong name or parameters", where)
        if not isinstance(entry["providers"], dict) or not isinstance(entry["strict"], bool):
            raise bad(f"entry {name!r} has wrong providers or strict", where)


# -- comparing ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolDelta:
    """How one tool differs from its lock entry.

    Attributes:
        name: the tool's name.
        status: added (not in the lock), removed (only in the lock), changed, unchanged.
        tool: the tool's changes (name, description, strict, parameters), from ``diff``.
        output: changes to its output schema.
        stale: the entry differs in something the diff does not cover (a provider payload,
            the output's name), so the lock needs rewriting even with no change listed.
        project_tool: the tool as it is now (``None`` when removed).
    """

    name: str
    status: ToolStatus
    tool: SchemaDiff = field(default_factory=SchemaDiff)
    output: SchemaDiff = field(default_factory=SchemaDiff)
    stale: bool = False
    project_tool: ProjectTool | None = None

    @property
    def changes(self) -> tuple[SchemaChange, ...]:
        """Tool changes, then output changes."""
        return (*self.tool.changes, *self.output.changes)

    @property
    def breaking(self) -> bool:
        """A removed tool, or a breaking change to it."""
        return self.status == "removed" or any(
            c.severity is DiffSeverity.BREAKING for c in self.changes
        )


@dataclass(frozen=True)
class LockDiff:
    """Every tool compared with the lock, sorted by name; ``stale`` when the text differs."""

    tools: tuple[ToolDelta, ...]
    stale: bool
    lock_text: str

    @property
    def breaking(self) -> bool:
        """Whether any tool was removed or changed in a breaking way."""
        return any(t.breaking for t in self.tools)

    @property
    def changed(self) -> bool:
        """Whether the lock no longer matches the tools (any difference at all)."""
        return self.stale or any(t.status != "unchanged" or t.changes for t in self.tools)


def compare_lock(lock: JsonMapping, lock_text: str, tools: Sequence[ProjectTool]) -> LockDiff:
    """Compare the tools as they are now with a lock read by :func:`read_lock`."""
    old_entries: JsonMapping = lock["tools"]
    now = {t.name: t for t in tools}
    deltas = []
    for name in sorted(set(old_entries) | set(now)):
        current = now.get(name)
        if current is None:
            deltas.append(ToolDelta(name, "removed"))
        elif name not in old_entries:
            deltas.append(ToolDelta(name, "added", project_tool=current))
        else:
            deltas.append(_compare_entry(name, old_entries[name], current))
    stale = dump_lock(build_lock(tools)) != lock_text
    return LockDiff(tuple(deltas), stale, lock_text)


def _compare_entry(name: str, old: JsonMapping, current: ProjectTool) -> ToolDelta:
    tool = diff(_as_payload(old), _as_payload(current.entry))
    worse = verdict_changes(old.get("clients"), current.entry.get("clients"))
    if worse:  # a client that now drops or rewrites the tool: breaking, like a schema change
        tool = SchemaDiff((*tool.changes, *worse))
    output = _output_diff(old["output"], current.entry["output"])
    status: ToolStatus = "changed" if tool or output else "unchanged"
    stale = dict(old) != current.entry
    return ToolDelta(name, status, tool, output, stale, current)


def _as_payload(entry: JsonMapping) -> JsonObject:
    # The shape of an OpenAI Responses tool, which the diff engine reads as a tool: the
    # same name, description, strict and parameters `toollens diff` compares.
    return {
        "type": "function",
        "name": entry["name"],
        "description": entry["description"],
        "parameters": entry["parameters"],
        "strict": entry["strict"],
    }


def _output_diff(old: Any, new: Any) -> SchemaDiff:
    old_schema = old.get("schema") if isinstance(old, dict) else None
    new_schema = new.get("schema") if isinstance(new, dict) else None
    if isinstance(old_schema, dict) and isinstance(new_schema, dict):
        return diff(old_schema, new_schema)
    old_kind = old.get("kind") if isinstance(old, dict) else None
    new_kind = new.get("kind") if isinstance(new, dict) else None
    if old_kind == new_kind:
        return SchemaDiff()
    change = SchemaChange(
        "",
        ChangeKind.CHANGED,
        "output",
        old_kind,
        new_kind,
        DiffSeverity.BREAKING,
        f"output changed from {old_kind or 'none'} to {new_kind or 'none'}; "
        "code that reads the model's answer must change",
    )
    return SchemaDiff((change,))


def lock_line(lock_text: str, name: str) -> int | None:
    """The line of ``name``'s entry in a lock written by :func:`dump_lock`."""
    # lazy: project.places + targets (~6 ms), for lock_report's annotations only
    from toollens.project.places import lock_entry_line

    return lock_entry_line(lock_text, name)
