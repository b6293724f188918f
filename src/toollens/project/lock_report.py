"""``toollens diff --lock`` complete: compare the tools with the lock, and say what changed.

:func:`diff_with_lock` reads the lock, compares it with the tools as they are now, rewrites
it when asked, and returns the comparison with its text in the format asked for (``text``,
``json`` or ``github`` annotations); the command line only prints that text and picks the
exit code from :attr:`LockReport.diff`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from toollens.core.schema.types import JsonObject
from toollens.project.annotations import Locator, change_annotations, tool_locator
from toollens.project.config import ProjectConfig, ProjectError
from toollens.project.github import Annotation
from toollens.project.lock import (
    LOCK_VERSION,
    LockDiff,
    ProjectTool,
    ToolDelta,
    build_lock,
    collect_tools,
    compare_lock,
    dump_lock,
    lock_line,
    read_lock,
)
from toollens.project.lock_tokens import LockTokens
from toollens.project.tools import relative_path

if TYPE_CHECKING:
    from toollens.mcp.client import ConnectOptions

__all__ = [
    "UPDATE_HINT",
    "LockFormat",
    "LockReport",
    "diff_with_lock",
    "format_lock_diff",
    "lock_annotations",
    "lock_diff_data",
    "lock_diff_text",
    "lock_headline",
    "write_text",
]

LockFormat = Literal["text", "json", "github"]
UPDATE_HINT = "after review, rewrite it with `toollens diff --lock --update`"


@dataclass(frozen=True)
class LockReport:
    """The comparison with the lock, and its text in the format asked for."""

    diff: LockDiff
    text: str


def diff_with_lock(
    config: ProjectConfig,
    fmt: LockFormat,
    *,
    update: bool,
    tools: Sequence[ProjectTool] | None = None,
    connect: ConnectOptions | None = None,
) -> LockReport:
    """Compare the project's tools with its lock; with ``update``, rewrite the lock after.

    ``tools`` are the tools to compare when they come from elsewhere than the project's
    table (a toolset); by default the table's, its ``mcp:`` servers reached with ``connect``.

    Raises:
        ProjectError: the lock cannot be read (without ``update``: a broken lock is then
            replaced) or written.
        TargetError: a tool cannot be found or inspected.
    """
    if tools is None:
        tools = collect_tools(config, connect=connect)
    try:
        lock, lock_text = read_lock(config.lock_path)
    except ProjectError:
        if not update:
            raise
        lock, lock_text = {"lock_version": LOCK_VERSION, "tools": {}}, ""
    result = compare_lock(lock, lock_text, tools)
    counts = LockTokens.compare(lock, tools, config.max_token_growth)
    text = format_lock_diff(result, fmt, config, counts, tools)
    if update:
        write_text(config.lock_path, dump_lock(build_lock(tools)))
        if result.changed:
            text += f"updated {config.lock_path.name}\n"
    return LockReport(result, text)


def write_text(path: Path, text: str) -> None:
    """Write a project file (UTF-8, ``\\n`` line ends).

    Raises:
        ProjectError: the file cannot be written.
    """
    try:
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
    except OSError as exc:
        raise ProjectError(f"cannot write {path.name}: {exc.strerror or exc}") from exc


def format_lock_diff(
    result: LockDiff,
    fmt: LockFormat,
    config: ProjectConfig,
    counts: LockTokens | None = None,
    tools: Sequence[ProjectTool] = (),
) -> str:
    """The comparison as text, JSON, or GitHub annotations followed by the headline; with
    ``counts``, each tool's token change and the growth findings (one record, one format)."""
    if fmt == "json":
        data = lock_diff_data(result)
        if counts is not None:
            data["tokens"] = counts.to_json()
        return json.dumps(data, indent=2) + "\n"
    if fmt == "github":
        lines = [str(a) for a in lock_annotations(result, config)]
        grown = [str(a) for a in counts.annotations(tools)] if counts is not None else []
        return "\n".join([*lines, lock_headline(result, config), *grown]) + "\n"
    text = lock_diff_text(result, config)
    extra = counts.text_lines() if counts is not None else []
    return text + "".join(line + "\n" for line in extra)


def lock_headline(result: LockDiff, config: ProjectConfig) -> str:
    """One line: how many tools changed in which way, and whether that breaks callers."""
    counts: dict[str, int] = {}
    for tool in result.tools:
        if tool.status != "unchanged":
            counts[tool.status] = counts.get(tool.status, 0) + 1
    if not counts:
        state = "out of date" if result.stale else "up to date"
        n = len(result.tools)
        tools = f"{n} tool" if n == 1 else f"{n} tools"
        return f"{config.lock_path.name}: no changes to {tools}; lock {state}"
    parts = ", ".join(f"{n} {status}" for status, n in counts.items())
    verdict = "breaking" if result.breaking else "not breaking"
    return f"{config.lock_path.name}: {parts} ({verdict})"


def lock_diff_text(result: LockDiff, config: ProjectConfig) -> str:
    """The headline, then each tool that changed with its changes."""
    lines = [lock_headline(result, config)]
    for tool in result.tools:
        if tool.status == "unchanged":
            continue
        where = _where(tool)
        if tool.status in ("added", "removed"):
            lines.append(f"{tool.status}: {tool.name}{where}")
            continue
        lines.append(f"{tool.name}{where}")
        if tool.tool:
            lines.extend("  " + line for line in str(tool.tool).splitlines())
        if tool.output:
            lines.extend(["  output:", *("    " + x for x in str(tool.output).splitlines())])
    if result.changed:
        lines.append(f"the lock no longer matches the tools; {UPDATE_HINT}")
    return "\n".join(lines) + "\n"


def _where(tool: ToolDelta) -> str:
    return f" ({tool.project_tool.target})" if tool.project_tool is not None else ""


def lock_diff_data(result: LockDiff) -> JsonObject:
    """The comparison as JSON data: each tool's status and its changes (``to_json`` form)."""
    tools = {}
    for tool in result.tools:
        current = tool.project_tool
        tools[tool.name] = {
            "status": tool.status,
            "target": current.target if current is not None else None,
            "breaking": tool.breaking,
            "tool": tool.tool.to_json(),
            "output": tool.output.to_json(),
            "stale": tool.stale,
        }
    return {
        "breaking": result.breaking,
        "changed": result.changed,
        "stale": result.stale,
        "tools": tools,
    }


def lock_annotations(result: LockDiff, config: ProjectConfig) -> Iterator[Annotation]:
    """One annotation per change, on the tool's source (a removed tool: on the lock)."""
    lock_file = relative_path(config.lock_path)
    for tool in result.tools:
        current = tool.project_tool
        locator = tool_locator(current) if current else Locator(None, None)
        if tool.status == "removed":
            yield Annotation(
                level="error",
                title=f"toollens: tool {tool.name} removed",
                message=f"tool {tool.name!r} is in the lock but no longer in the project; "
                f"callers and prompts that use it break. {UPDATE_HINT}",
                file=lock_file,
                line=lock_line(result.lock_text, tool.name),
            )
        elif tool.status == "added":
            yield Annotation(
                level="warning",
                title=f"toollens: new tool {tool.name}",
                message=f"tool {tool.name!r} is not in the lock yet; {UPDATE_HINT}",
                file=locator.file,
                line=locator.line,
            )
        else:
            yield from change_annotations(tool.name, tool.tool.changes, locator)
            yield from change_annotations(tool.name, tool.output.changes, locator, output=True)
    if result.stale and not any(t.status != "unchanged" or t.changes for t in result.tools):
        yield Annotation(
            level="warning",
            title="toollens: lock out of date",
            message=f"{config.lock_path.name} differs from what `toollens snapshot` writes "
            f"(a provider payload or the file's layout); {UPDATE_HINT}",
            file=lock_file,
        )
