"""The defaults a command takes for a source when the command line does not ask.

Kept apart from :mod:`toollens.cli.common` so that every command module (``toolset``
too, which ``common`` imports) can use the one rule without an import cycle.
"""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions

__all__ = ["mcp_options"]


def mcp_options(
    args: argparse.Namespace, options: ReportOptions, source: object = None
) -> ReportOptions:
    """``options`` for the tools of ``source`` (default: the command's target): an MCP tool
    list (an ``mcp:`` server, a saved ``tools/list`` file, a bare list of MCP tools) is judged
    as its clients send it, non-strict, unless a client that sends strict is named (not only
    through ``all``). Every command decides a source's default strictness here."""
    from toollens.consumers import ALL_CLIENTS, sends_strict

    if source is None:
        source = getattr(args, "agent", None) or getattr(args, "target", None)
    # Named explicitly: ``--client all`` shows every client without turning strict on.
    named = [c for c in getattr(args, "clients", None) or () if c != ALL_CLIENTS]
    if not options.strict or not _is_mcp_source(source) or sends_strict(named):
        return options
    return dataclasses.replace(options, strict=False)


def _is_mcp_source(source: object) -> bool:
    """An ``mcp:`` target, or a JSON file holding a ``tools/list`` answer or MCP tools."""
    from toollens.consumers import is_mcp_listing
    from toollens.core.errors import TargetError
    from toollens.json_files import load_json_value
    from toollens.targets import is_mcp_target

    if isinstance(source, str) and is_mcp_target(source):
        return True
    if not isinstance(source, str) or not source.endswith(".json") or not Path(source).is_file():
        return False
    try:
        return is_mcp_listing(load_json_value(source))
    except TargetError:  # the command itself reports an unreadable file
        return False
