"""The toolset side of the command line: ``check`` on many tools, ``--agent``, the lock, HTML.

``toollens check pkg.tools`` (a module without ``:ATTR``), ``toollens check --agent
pkg.app:agent``, a ``{"tools": [...]}`` JSON file or a prefixed source (``project:``,
``mcp:``) check a whole toolset: one table (tools x providers), the findings across tools,
then each tool's findings. ``toollens.cli.check`` builds the command's result from
:func:`checked_toolset` and :func:`exit_code`; this module never imports it.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toollens.cli.connect import cli_connect
from toollens.cli.toolset_format import ToolRow

if TYPE_CHECKING:
    from toollens.core.checks import ToolCheck
    from toollens.core.records import Finding
    from toollens.core.report import Report, ReportOptions
    from toollens.mcp.client import ConnectOptions
    from toollens.project.config import ProjectConfig
    from toollens.project.tools import ProjectTool
    from toollens.tokens.tooldefs import DeferredMarks
    from toollens.toolsets import Tool, ToolEntry, Toolset

__all__ = [
    "ToolRow",
    "add_check_arguments",
    "checked_toolset",
    "deferred_marks",
    "exit_code",
    "is_toolset_source",
    "read_toolset",
    "wants_toolset",
]

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 3


def add_check_arguments(check: argparse.ArgumentParser) -> None:
    """``--agent`` and ``--jobs`` for ``toollens check``."""
    check.add_argument(
        "--agent",
        metavar="MODULE:ATTR",
        help="check every tool of an agent (OpenAI Agents, pydantic-ai) or tool list",
    )
    check.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="read a module's tools in N processes (default: 1; 0 for one per core)",
    )


def is_toolset_source(text: str) -> bool:
    """Whether a target names many tools: a module (no ``:ATTR``), ``project``, a prefixed
    source, a JSON file holding tools, or ``MODULE:ATTR`` naming a source of tools (a list,
    an agent: :func:`toollens.toolsets.sources.holds_several`)."""
    from toollens.targets import is_dotted, is_project_source
    from toollens.toolsets import registered_prefixes

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
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):  # the single-target path reports it
        return False
    from toollens.toolsets.payloads import holds_tool_list

    return holds_tool_list(data)


def _names_several(text: str) -> bool:
    from toollens.core.errors import ToolLensError
    from toollens.targets import parse_target, resolve_target
    from toollens.toolsets.sources import holds_several

    try:
        if parse_target(text).origin == "json":
            return False
        obj = resolve_target(text)
    except ToolLensError:  # the single-tool path reports it, in its words
        return False
    return holds_several(obj)


def wants_toolset(args: argparse.Namespace) -> bool:
    """Whether ``check`` was given a toolset source (or ``--agent``)."""
    if getattr(args, "agent", None):
        return True
    return args.target is not None and is_toolset_source(args.target)


# -- building -------------------------------------------------------------------------------


def check_entry(
    entry: ToolEntry, providers: Sequence[str], factory: Callable[[Sequence[Report]], ToolCheck]
) -> ToolCheck | None:
    """The check result of one entry (``None`` when it has no report)."""
    if entry.report is None:
        return None
    return factory(reports_for(entry, providers))


def reports_for(entry: ToolEntry, providers: Sequence[str]) -> list[Report]:
    """The entry's report once per provider (the one it has is reused)."""
    found = [entry.report_for(p) for p in providers]
    return [rep for rep in found if rep is not None]


def checked_toolset(
    source: str,
    options: ReportOptions,
    providers: Sequence[str],
    factory: Callable[[Sequence[Report]], ToolCheck],
    jobs: int | None = None,
    connect: ConnectOptions | None = None,
) -> tuple[Toolset, list[ToolRow]]:
    """The toolset a command line names and each tool's check; with ``jobs`` other than 1,
    a module source is read in that many processes (0: one per core), same result."""
    check: Callable[[ToolEntry], object] = functools.partial(
        check_entry, providers=tuple(providers), factory=factory
    )
    from toollens.targets import is_dotted

    if jobs is not None and jobs != 1 and is_dotted(source):
        from toollens.core.checks import ToolCheck
        from toollens.toolsets.pool import parallel_module_toolset

        ts, results = parallel_module_toolset(source, options, jobs or None, check=check)
        checks = [r if isinstance(r, ToolCheck) else None for r in results]
        return ts, [ToolRow(e, r) for e, r in zip(ts.tools, checks, strict=True)]
    ts = read_toolset(source, options, connect)
    return ts, [ToolRow(e, check_entry(e, providers, factory)) for e in ts.tools]


def read_toolset(
    source: str, options: ReportOptions, connect: ConnectOptions | None = None
) -> Toolset:
    """The toolset a command names, for every command the same way; ``connect`` reaches
    its MCP servers (``--env``, ``--timeout``).

    Raises:
        TargetError: the source cannot be read at all, or it holds no tool (a command
            never reports a count or a verdict on tools it did not read).
    """
    from toollens import toolset  # the public face: the project table's source is registered
    from toollens.core.errors import TargetError

    ts = toolset(source, options, connect=connect)
    if not ts.tools:
        raise TargetError(f"{source!r} holds no tools", hint="name a source that lists some")
    return ts


def exit_code(
    ts: Toolset,
    rows: Sequence[ToolRow],
    providers: Sequence[str] = (),
    *,
    clients_chosen: bool = False,
    providers_gate: bool = True,
) -> int:
    """1 on an error finding, a view error or a tool that could not be read, else 0 (a
    source that cannot be read at all never gets here: it raises, exit 3).

    A cross-tool error that speaks for some providers (Anthropic's strict request limits,
    a name Gemini refuses) fails the check only when one of ``providers`` was asked for;
    the MCP specification's and SDK's errors fail it only when no client was chosen, since
    the chosen clients' verdicts then say what happens on the user's path. Without
    ``providers_gate`` (an MCP tool list no ``--provider`` names: its tools reach a model
    through clients) a tool's provider findings are shown and do not fail the check.
    """
    from toollens.core.records import Severity

    def failed(result: ToolCheck) -> bool:
        if providers_gate:
            return bool(result.errors)
        lint = any(f.severity is Severity.ERROR for f in result.lint)
        return lint or bool(result.view_errors)

    bad = any(row.entry.error is not None for row in rows)
    bad = bad or any(row.result is not None and failed(row.result) for row in rows)
    bad = bad or any(
        f.severity is Severity.ERROR and _gates(f, providers, clients_chosen) for f in ts.findings
    )
    return EXIT_FINDINGS if bad else EXIT_OK


def _gates(finding: Finding, providers: Sequence[str], clients_chosen: bool) -> bool:
    from toollens.toolsets.rules import concerns_provider, speaks_for_providers

    if finding.rule.startswith("mcp."):
        return not clients_chosen
    if not speaks_for_providers(finding) or not providers:
        return True
    return any(concerns_provider(finding, p) for p in providers)


def deferred_marks(ts: Toolset) -> DeferredMarks:
    """``ts`` with the entries its payload marks ``defer_loading`` (Anthropic tools with tool
    search, OpenAI Responses functions), as the token count reads them: from the payload
    each tool's report kept when it was read, not from the file again."""
    from toollens.tokens.tooldefs import DeferredMarks

    marked = frozenset(i for i, entry in enumerate(ts.tools) if _deferred(entry))
    return DeferredMarks(ts, marked)


def _deferred(entry: Tool) -> bool:
    given = entry.report.given if entry.report is not None else None
    return given is not None and given.own_fields.get("defer_loading") is True


# -- the lock -------------------------------------------------------------------------------


def add_lock_arguments(parser: argparse.ArgumentParser) -> None:
    """``--toolset SOURCE`` for ``snapshot`` and ``diff --lock``."""
    parser.add_argument(
        "--toolset",
        metavar="SOURCE",
        help="lock the tools of a toolset (a module, MODULE:ATTR of an agent or a list, a "
        "payload JSON file) instead of the [tool.toollens] list",
    )


def lock_collection(
    args: argparse.Namespace,
) -> tuple[ProjectConfig, tuple[ProjectTool, ...]] | None:
    """(settings, lock tools) for ``--toolset SOURCE``; ``None`` without it."""
    source = getattr(args, "toolset", None)
    if not source:
        return None
    config = toolset_config(args)
    return config, lock_tools(source, config, cli_connect(args))


def toolset_config(
    args: argparse.Namespace, providers: Sequence[str] | None = None
) -> ProjectConfig:
    """The project settings a toolset's lock uses: the project's table when there is one
    (its providers and strictness), with the lock next to it; else the working directory."""
    from toollens.project.config import ProjectConfig, ProjectError, load_config

    try:
        config = dataclasses.replace(load_config(), tools=())
    except ProjectError:
        config = ProjectConfig(root=Path.cwd(), tools=())
    strict = config.strict and bool(getattr(args, "strict", True))
    chosen = tuple(dict.fromkeys(providers)) if providers else config.providers
    return dataclasses.replace(config, strict=strict, providers=chosen)


def lock_tools(
    source: str, config: ProjectConfig, connect: ConnectOptions | None = None
) -> tuple[ProjectTool, ...]:
    """Each tool of a toolset as the lock records it, once per name.

    Raises:
        ProjectError: a tool cannot be read or locked, or two tools share a name.
    """
    from toollens.project.lock import locked_tools, reported_tools

    ts = read_toolset(source, config.report_options(config.providers[0]), connect)
    tools = locked_tools(reported_tools(ts.tools, config.providers), config.tokens_model)
    from toollens.cli.check_clients import source_listing

    listing = source_listing(source, ts)
    if listing is not None:  # an MCP tool list: each client's verdict on each tool
        from toollens.project.lock_clients import with_clients

        return with_clients(tools, listing)
    return tools


# -- report ---------------------------------------------------------------------------------

REPORT_EPILOG = """\
Writes one self-contained HTML page (stylesheet and a small script inline, nothing
fetched): the toolset's totals, a sortable and filterable table (tools x providers), the
findings across tools, then every tool's views (signature, strict schema, output, metadata,
findings). For CI artifacts and code review.

examples:
  toollens report pkg.tools --html toolset.html
  toollens report pkg.app:agent --html agent.html --provider openai-chat --provider anthropic
  toollens report tools.json --html payload.html
  toollens report project --html project.html     # the [tool.toollens] tools

exit codes:
  0  the page was written
  3  the command could not run (the source cannot be read, the file cannot be written)"""


def add_report_command(
    command: Callable[[str, str, str], argparse.ArgumentParser],
    providers: Sequence[str],
    strictness: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Register ``toollens report SOURCE --html OUT``."""
    rep = command("report", "write a toolset's HTML page (every tool, every view)", REPORT_EPILOG)
    rep.add_argument("source", metavar="SOURCE", help="a module, MODULE:ATTR, a JSON file, project")
    rep.add_argument("--html", metavar="OUT", required=True, help="the HTML file to write")
    rep.add_argument(
        "--provider",
        dest="providers",
        action="append",
        choices=providers,
        metavar="P",
        help="a provider column; repeat for several (default: openai-chat)",
    )
    strictness(rep)
    from toollens.cli.connect import add_mcp_arguments

    add_mcp_arguments(rep)
    rep.set_defaults(handler=run_report)


def run_report(args: argparse.Namespace) -> tuple[str, int]:
    from toollens.cli.defaults import mcp_options
    from toollens.core.choices import DEFAULT_PROVIDER
    from toollens.core.errors import TargetError
    from toollens.core.report import ReportOptions
    from toollens.render.toolset_page import render_toolset_page

    providers = list(dict.fromkeys(args.providers or [DEFAULT_PROVIDER]))
    options = mcp_options(
        args, ReportOptions(strict=args.strict, provider=providers[0]), args.source
    )
    ts = read_toolset(args.source, options, cli_connect(args))
    page = render_toolset_page(ts, providers)
    try:
        Path(args.html).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise TargetError(f"cannot write {args.html!r}: {exc.strerror or exc}") from exc
    unread = len(ts.errors)
    extra = f", {unread} could not be read" if unread else ""
    from toollens.render.display import plural

    return f"wrote {args.html}: {plural(len(ts), 'tool')}{extra}\n", EXIT_OK
