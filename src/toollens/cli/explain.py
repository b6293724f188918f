"""``toollens explain``: a provider's or client's error text, mapped back to the tool.

Argparse and printing only: reading the error is :mod:`toollens.explain.places`, mapping it
onto the target's tools :mod:`toollens.explain.mapping`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toollens.cli.common import EXIT_FINDINGS, EXIT_OK, TARGETS_HELP, Command, add_format
from toollens.cli.connect import add_mcp_arguments, cli_connect
from toollens.core.errors import TargetError

if TYPE_CHECKING:
    from toollens.explain import Explanation

__all__ = ["add_explain_command", "format_explanations", "run_explain"]

_EPILOG = f"""\
Reads the error a provider or client answered (the whole text: a JSON body, a log line)
and says, for each place it names, which tool it is about (the name as served and the
index the request used), the JSON pointer in that tool's schema, the file and line where
it is written, and the toollens rule that predicts it with that rule's fix; or plainly that
no rule predicts it, and what could be read of the error.

Without --error or --error-file the error is read from standard input. Without TARGET only
the error text is read. Exits 0 when every place was mapped to a tool and a rule, 1 when
one was not, 3 when the target cannot be read or no error shape is found in the text.

examples:
  toollens explain tools.json --error "Failed to validate tool mcp_acme_list_ids: ..."
  toollens explain pkg.tools --error-file error.txt --format json
  pbpaste | toollens explain "mcp:python server.py"

{TARGETS_HELP}"""


def add_explain_command(command: Command) -> None:
    explain = command("explain", "map a provider's or client's error back to the tool", _EPILOG)
    explain.add_argument(
        "target",
        metavar="TARGET",
        nargs="?",
        help="what was sent: a module, file.py, a payload or tools/list JSON file, mcp:...",
    )
    given = explain.add_mutually_exclusive_group()
    given.add_argument("--error", metavar="TEXT", help="the error text")
    given.add_argument("--error-file", metavar="FILE", help="a file holding the error text")
    add_format(explain, "text")
    add_mcp_arguments(explain)
    explain.set_defaults(handler=run_explain)


def _error_text(args: argparse.Namespace) -> str:
    if args.error is not None:
        return str(args.error)
    if args.error_file is not None:
        try:
            with open(args.error_file, encoding="utf-8") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise TargetError(
                f"cannot read the error file {args.error_file!r}: {exc}",
                hint="name a readable text file, or pass the text with --error",
            ) from exc
    return sys.stdin.read()


def run_explain(args: argparse.Namespace) -> tuple[str, int]:
    """``explain``: read the error first (a bad text fails before a server is started)."""
    # lazy: toollens.explain (~8 ms over `--help`), for `explain` only
    from toollens.explain import read_error
    from toollens.explain.mapping import explain_places

    text = _error_text(args)
    places = read_error(text)
    ts = None
    if args.target is not None:
        # lazy: toollens.toolsets (~17 ms over `--help`), for a target's tools only
        from toollens.toolsets import toolset

        ts = toolset(args.target, connect=cli_connect(args))
    found = tuple(explain_places(ts, places))
    code = EXIT_OK if all(e.tool and e.rule for e in found) else EXIT_FINDINGS
    return format_explanations(found, args.format), code


def format_explanations(found: Sequence[Explanation], fmt: str) -> str:
    """The explanations as text (one block per place) or as a JSON list."""
    if fmt == "json":
        return json.dumps([e.to_json() for e in found], indent=2) + "\n"
    return "".join(_block(e) for e in found)


def _block(e: Explanation) -> str:
    place = e.place
    via = f" (via {place.client})" if place.client and place.client != place.author else ""
    at = f" index {e.index}" if e.index is not None else ""
    tool = repr(e.tool) if e.tool else "an unknown tool"
    lines = [f"{place.author}{via}:{at} {tool}: {place.reason}"]
    if e.pointer is not None:
        lines.append(f"  pointer: {e.pointer or '/'}")
    if e.source is not None:
        lines.append(f"  source:  {e.source}")
    if e.finding is not None:
        lines.append(f"  rule:    {e.finding.rule} ({e.finding.severity.value})")
        cite = e.finding.cite
        if cite is not None:
            read = f"read {cite.checked}; " if cite.checked else ""
            lines.append(f"  cited:   {cite.url or cite.title} ({read}evidence: {cite.evidence})")
        lines.append(f"  fix:     {e.finding.fix}")
    if e.note:
        lines.append(f"  note:    {e.note}")
    return "\n".join(lines) + "\n"
