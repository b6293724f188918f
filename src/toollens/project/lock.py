"""``toollens.lock.json``: what every tool of a project sends a model, written for review.

The lock holds one entry per tool, keyed by the tool's name: its name, description,
parameters schema (strict when the project is strict), output schema, and the payload of
each configured provider. Everything toollens lays out is written with sorted keys and a
two-space indent, ending in a newline, so the same tools always give the same bytes; the
schemas themselves keep the key order the model sees (the order of ``properties`` is part
of what a model reads, so sorting it would record something the model never receives).

:func:`compare_lock` compares the tools as they are now with a lock, through the same diff
engine as ``toollens diff`` (:func:`toollens.core.diff.diff`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from toollens.core.diff import ChangeKind, DiffSeverity, SchemaChange, SchemaDiff, diff
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonMapping, JsonObject
from toollens.project.config import ProjectConfig, ProjectError
from toollens.project.lock_tokens import entry_tokens
from toollens.project.tools import (
    ProjectTool,
    ToolRef,
    check_unique_names,
    expand_tools,
    tool_report,
)

if TYPE_CHECKING:
    from toollens.core.report import Report
    from toollens.mcp.client import ConnectOptions

__all__ = [
    "LOCK_VERSION",
    "LockDiff",
    "ProjectTool",
    "ToolDelta",
    "build_lock",
    "build_reports",
    "collect_tools",
    "compare_lock",
    "dump_lock",
    "lock_entry",
    "lock_line",
    "read_lock",
]

LOCK_VERSION = 1
_ENTRY_KEYS = ("description", "name", "output", "parameters", "providers", "strict")
_OPTIONAL_KEYS = frozenset({"tokens", "clients"})  # added later; older locks lack them
ToolStatus = Literal["added", "removed", "changed", "unchanged"]


def build_reports(
    config: ProjectConfig, *, connect: ConnectOptions | None = None
) -> tuple[tuple[ToolRef, tuple[Report, ...]], ...]:
    """Every configured tool with one report per provider, built with the project's options;
    ``connect`` reaches the ``mcp:`` servers the table lists.

    Raises:
        TargetError: a tool cannot be found or inspected.
        ProjectError: two tools share a name.
    """
    from toollens.mcp.records import McpTool

    built = []
    for ref in expand_tools(config, connect=connect):
        if isinstance(ref.obj, McpTool):  # a server's tool: its inputSchema, as sent
            from toollens.mcp.judge import tool_reports

            options = config.report_options(config.providers[0], mcp=True)
            built.append((ref, tool_reports(ref.obj, options, config.providers)))
            continue
        reports = tuple(
            tool_report(ref.obj, config.report_options(provider)) for provider in config.providers
        )
        built.append((ref, reports))
    check_unique_names([(reports[0].title, ref) for ref, reports in built])
    return tuple(built)


def collect_tools(
    config: ProjectConfig, *, connect: ConnectOptions | None = None
) -> tuple[ProjectTool, ...]:
    """Every configured tool with its lock entry (``connect`` as for :func:`build_reports`).

    Raises:
        TargetError: a tool cannot be found or inspected.
        ProjectError: a tool cannot be made strict, has no payload, or two share a name.
    """
    from toollens.project.lock_clients import project_listings, with_clients

    tools = tuple(
        ProjectTool(ref, reports[0].title, _entry(ref, reports, config.tokens_model), reports)
        for ref, reports in build_reports(config, connect=connect)
    )
    for listing in project_listings(tools):  # MCP tools: each client's verdict, per server
        tools = with_clients(tools, listing)
    return tools


def _entry(ref: ToolRef, reports: Sequence[Any], tokens_model: str | None = None) -> JsonObject:
    first = reports[0]
    for rep in reports:
        problem = rep.view_errors.get("strict") or rep.view_errors.get("provider")
        if problem or rep.schema is None or rep.provider_payload is None:
            raise ProjectError(
                f"tool {ref.target!r} cannot be locked: {problem or 'it has no parameters'}",
                hint="fix the tool, or under [tool.toollens] set strict = false or drop "
                f"{rep.provider!r} from providers",
            )
    fs = first.function
    # A tool read from its definition (JSON, an agent's FunctionTool) has no FunctionSchema.
    description = getattr(fs, "description", None) if fs is not None else first.options.description
    output = _output_entry(first.output)
    if fs is None and output is None:  # an MCP tool: its outputSchema as sent
        output = _mcp_output(ref.obj)
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


def _mcp_output(obj: Any) -> dict[str, Any] | None:
    from toollens.mcp.judge import output_entry
    from toollens.mcp.records import McpTool

    return output_entry(obj) if isinstance(obj, McpTool) else None


lock_entry = _entry
"""The lock entry of one tool from its reports (one per provider); raises ProjectError."""


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
    from toollens.project.lock_clients import verdict_changes

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
    from toollens.project.places import lock_entry_line

    return lock_entry_line(lock_text, name)
