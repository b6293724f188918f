"""The command line for ``mcp:`` targets: show and diff a server's tools, and the options.

``toollens.cli`` hands a command to this module when its target starts with ``mcp:``, with the
formatters it owns (:class:`CliParts`: this module never imports ``toollens.cli``), and runs
every command inside :func:`connection` so ``--env`` and ``--timeout`` reach servers named in
``[tool.toollens]`` too (``snapshot``, ``diff --lock``, ``check`` without a target). Each tool's
``inputSchema`` is judged through the same report, check and format functions as any other
target (:mod:`toollens.mcp.judge`); this module only adds the server around them. ``check``
reads a server as a toolset (:mod:`toollens.toolsets.mcp_source`): every tool against every
provider, and the findings across tools.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions
    from toollens.mcp import ConnectOptions, McpTool, ServerTools

__all__ = [
    "CliParts",
    "add_mcp_arguments",
    "connection",
    "is_mcp",
    "run_diff",
    "run_show",
]

_EXIT_OK, _EXIT_FINDINGS, _EXIT_CHANGED, _EXIT_BREAKING = 0, 1, 1, 2


@dataclass(frozen=True)
class CliParts:
    """What ``toollens.cli`` formats with, handed over so the two modules form no import cycle."""

    format_show: Callable[[Any, str, str], str]
    diff_side: Callable[[str, argparse.Namespace, str], Any]
    format_diff: Callable[[Any, str, str], str]


def _options(args: argparse.Namespace, provider: str | None, **changes: Any) -> ReportOptions:
    from toollens.core.choices import DEFAULT_PROVIDER, provider_id
    from toollens.core.report import ReportOptions

    chosen = provider_id(provider) if provider else DEFAULT_PROVIDER
    return dataclasses.replace(ReportOptions(strict=args.strict, provider=chosen), **changes)


def is_mcp(target: object) -> bool:
    """Whether a command's target is an ``mcp:`` target (without importing the package)."""
    from toollens.targets import is_mcp_target

    return is_mcp_target(target)


def add_mcp_arguments(parser: argparse.ArgumentParser) -> None:
    """``--env K=V`` and ``--timeout SECONDS`` for commands that may start a server."""
    from toollens.mcp.client import DEFAULT_TIMEOUT

    group = parser.add_argument_group("MCP servers (mcp: targets)")
    group.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="K=V",
        help="an environment variable for a stdio server; repeat for several",
    )
    group.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="seconds for start-up and initialize, and for each request "
        f"(default: {DEFAULT_TIMEOUT:g})",
    )
    from toollens.core.providers.mcp_spec import MCP_REVISIONS, judge_id

    judges = [judge_id(r) for r in MCP_REVISIONS]
    group.add_argument(
        "--mcp-revision",
        choices=judges,
        metavar="REVISION",
        help="the MCP specification revision to judge the tools by (an mcp: server or a "
        f"saved tools/list file): {', '.join(judges)} (default: the protocol version the "
        f"server answered with, else the newest, {judges[-1]})",
    )


def connect_options(args: argparse.Namespace) -> ConnectOptions:
    """The connection options a command line asks for.

    Raises:
        TargetError: an ``--env`` value without ``=``, or a timeout that is not positive.
    """
    from toollens.core.errors import TargetError
    from toollens.mcp import DEFAULT_TIMEOUT, ConnectOptions

    env: dict[str, str] = {}
    for item in getattr(args, "env", None) or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise TargetError(f"--env {item!r} is not K=V", hint="write e.g. --env API_URL=...")
        env[key] = value
    return ConnectOptions(env=env, timeout=getattr(args, "timeout", DEFAULT_TIMEOUT))


@contextmanager
def connection(args: argparse.Namespace) -> Iterator[None]:
    """Run a command with its ``--env``/``--timeout`` applied to every server it resolves."""
    if not hasattr(args, "timeout"):  # a command without the options (compare)
        yield
        return
    from toollens.mcp.project import using

    with using(connect_options(args)):
        yield


def _fetch(target: str) -> ServerTools:
    from toollens.mcp.project import resolve_server

    return resolve_server(target)


def _header(served: ServerTools) -> str:
    info = served.info
    name = " ".join(x for x in (info.name, info.version) if x) or "(unnamed)"
    count = len(served.tools)
    return (
        f"MCP server {name} (protocol {info.protocol_version or '?'}): "
        f"{count} tool{'' if count == 1 else 's'} from {served.target}\n"
    )


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


# -- show -------------------------------------------------------------------------------------


def run_show(args: argparse.Namespace, parts: CliParts) -> tuple[str, int]:
    """``toollens show mcp:...``: the views of each tool, then its output schema as sent."""
    from toollens.core.errors import TargetError, ToolLensError
    from toollens.mcp.judge import tool_report

    served = _fetch(args.target)
    if (args.name or args.description) and len(served.tools) != 1:
        raise TargetError("--name and --description apply to one tool", hint="name it with #TOOL")
    options = _options(args, args.provider, name=args.name, description=args.description)
    shown: list[str] = []
    for tool in served.tools:
        try:
            rep = tool_report(tool, options)
        except ToolLensError as exc:
            shown.append(_invalid(tool, exc, args.format))
            continue
        shown.append(_show_tool(tool, rep, args.view, args.format, parts))
    for unread in served.unread:  # an item of the list that is not a readable tool
        if args.format == "json":
            shown.append(_dump({"name": unread.name, "index": unread.index, "error": unread.error}))
        else:
            shown.append(f"== tool {unread.name} ({served.target}) ==\n  error: {unread.error}\n")
    code = _EXIT_FINDINGS if served.unread else _EXIT_OK
    if args.format == "json":
        data = {**served.to_json(), "tools": [json.loads(s) for s in shown]}
        return _dump(data), code
    return _header(served) + "".join(_notes(served)) + "\n".join(shown), code


def _notes(served: ServerTools) -> list[str]:
    """What the reader should know before the tools: the SDK's refusal, skipped stdout."""
    from toollens.toolsets.mcp_source import sdk_refusal_finding, stdout_noise_finding

    found = []
    if served.refusals:
        found.append(sdk_refusal_finding(served))
    if served.stdout_noise:
        found.append(stdout_noise_finding(served.stdout_noise))
    return [f"{finding.headline}\n" for finding in found]


def _show_tool(tool: McpTool, rep: Any, view: str, fmt: str, parts: CliParts) -> str:
    if fmt == "json":
        body = json.loads(parts.format_show(rep, view, fmt)) if view != "output" else None
        return _dump({"name": tool.name, "mcp": tool.to_json(), "show": body})
    blocks = [f"== tool {tool.name} ({tool.target}) =="]
    if view != "output":
        blocks.append(parts.format_show(rep, view, fmt).rstrip("\n"))
    if view in ("output", "all"):
        blocks.append(_output_text(tool))
    return "\n".join(blocks) + "\n"


def _output_text(tool: McpTool) -> str:
    lines = ["MCP outputSchema (what structuredContent must match; not sent to the model):"]
    if tool.output_schema is None:
        lines.append("  none (the tool returns unstructured content)")
    else:
        lines.extend("  " + line for line in json.dumps(tool.output_schema, indent=2).splitlines())
    if tool.annotations:
        lines.append("MCP annotations: " + json.dumps(tool.annotations, ensure_ascii=False))
    return "\n".join(lines)


def _invalid(tool: McpTool, exc: Exception, fmt: str) -> str:
    if fmt == "json":
        return _dump({"name": tool.name, "mcp": tool.to_json(), "error": str(exc)})
    return f"== tool {tool.name} ({tool.target}) ==\n  error: {exc}\n"


# -- diff -------------------------------------------------------------------------------------


def run_diff(args: argparse.Namespace, parts: CliParts) -> tuple[str, int]:
    """``toollens diff OLD NEW`` where a side is ``mcp:...#TOOL``."""
    from toollens.core.diff import diff
    from toollens.project.annotations import Locator, change_annotations

    old = _diff_side(args.old, args, "OLD", parts)
    new = _diff_side(args.new, args, "NEW", parts)
    result = diff(old, new)
    code = _EXIT_BREAKING if result.breaking else _EXIT_CHANGED if result.changes else _EXIT_OK
    if args.format == "json":
        return _dump(result.to_json()), code
    if args.format == "github":
        if not is_mcp(args.new):  # an mcp: OLD against a Python or JSON NEW
            from toollens.cli.project import format_diff_github

            return format_diff_github(result, args.new), code
        from toollens.project.places import mcp_place

        locator = Locator(None, None, place=mcp_place(args.new))
        name = new["name"] if isinstance(new, dict) and "name" in new else args.new
        notes = [str(a) for a in change_annotations(name, result.changes, locator)]
        from toollens.project.github import plain_line

        headline = plain_line(f"{args.new}: {result.headline}")
        return "\n".join([*notes, headline]) + "\n", code
    return parts.format_diff(result, args.old, args.new), code


def _diff_side(text: str, args: argparse.Namespace, label: str, parts: CliParts) -> Any:
    from toollens.core.errors import TargetError

    if not is_mcp(text):
        return parts.diff_side(text, args, label)
    served = _fetch(text)
    if len(served.tools) != 1:
        raise TargetError(
            f"{label} {text!r} names a server with {len(served.tools)} tools; diff compares one",
            hint="name one with #TOOL, or lock the server's tools with snapshot and diff --lock",
        )
    tool = served.tools[0]
    if args.provider is None:  # the tool as the server sent it
        return {
            "type": "function",
            "name": tool.name,
            "description": tool.description,
            "parameters": tool.input_schema,
        }
    from toollens.mcp.judge import tool_report

    rep = tool_report(tool, _options(args, args.provider))
    if rep.provider_payload is None:
        raise TargetError(
            f"{label} {text!r} has no {args.provider} payload: "
            f"{rep.view_errors.get('provider', 'unknown reason')}"
        )
    return rep.provider_payload
