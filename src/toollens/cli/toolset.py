"""The toolset side of the command line: ``check`` on many tools, ``--agent``, the lock, HTML.

``toollens check pkg.tools`` (a module without ``:ATTR``), ``toollens check --agent
pkg.app:agent``, a ``{"tools": [...]}`` JSON file or a prefixed source (``project:``,
``mcp:``) check a whole toolset: one table (tools x providers), the findings across tools,
then each tool's findings, computed by :mod:`toollens.assess`; this module declares
``--agent``/``--jobs`` and ``--toolset`` (whose lock :func:`toollens.assess.lock.lock_tools`
builds) and writes the ``report`` page.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from toollens.cli.check_clients import add_client_arguments
from toollens.cli.connect import add_mcp_arguments, cli_connect
from toollens.core.errors import TargetError
from toollens.render.display import plural

__all__ = ["add_check_arguments", "add_lock_arguments", "add_report_command"]

EXIT_OK = 0


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
        help="read a module's tools in N processes (default: 1; 0 for one per core); an MCP "
        "tool list's clients are judged in two processes when more than one core is "
        "available, one with --jobs 1 (the output is the same)",
    )


# -- the lock -------------------------------------------------------------------------------


def add_lock_arguments(parser: argparse.ArgumentParser) -> None:
    """``--toolset SOURCE`` for ``snapshot`` and ``diff --lock``."""
    parser.add_argument(
        "--toolset",
        metavar="SOURCE",
        help="lock the tools of a toolset (a module, MODULE:ATTR of an agent or a list, a "
        "payload JSON file) instead of the [tool.toollens] list",
    )


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
    add_mcp_arguments(rep)
    add_client_arguments(rep)
    rep.set_defaults(handler=run_report)


def run_report(args: argparse.Namespace) -> tuple[str, int]:
    """``report``: the request ``check`` would build, assessed once, written as a page."""
    # lazy: toollens.assess and the toolset page (~80 ms over `--help`), for `report` only
    from toollens.assess import AssessRequest, assess
    from toollens.render.toolset_page import render_toolset_page

    request = AssessRequest(
        target=args.source,
        providers=tuple(args.providers or ()),
        clients=tuple(args.clients or ()),
        strict=args.strict,
        server_name=args.server_name,
        toolset=True,
        connect=cli_connect(args),
    )
    result = assess(request)
    assert result.toolset is not None
    ts = result.toolset
    page = render_toolset_page(result)
    try:
        Path(args.html).write_text(page, encoding="utf-8")
    except OSError as exc:
        raise TargetError(f"cannot write {args.html!r}: {exc.strerror or exc}") from exc
    unread = len(ts.errors)
    extra = f", {unread} could not be read" if unread else ""

    return f"wrote {args.html}: {plural(len(ts), 'tool')}{extra}\n", EXIT_OK
