"""The defaults a command takes for a source when the command line does not ask.

Kept apart from :mod:`toollens.cli.common` so that every command module (``toolset``
too, which ``common`` imports) can use the one rule without an import cycle.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions

__all__ = ["mcp_options"]


def mcp_options(
    args: argparse.Namespace, options: ReportOptions, source: object = None
) -> ReportOptions:
    """``options`` for the tools of ``source`` (default: the command's target), by the one
    rule every front end follows (:func:`toollens.assess.options.judged_options`): an MCP
    tool list is judged non-strict unless a client that sends strict is named."""
    # lazy: toollens.assess and toollens.consumers (~45 ms over `--help`), when a command runs
    from toollens.assess.options import judged_options
    from toollens.consumers import ALL_CLIENTS

    if source is None:
        source = getattr(args, "agent", None) or getattr(args, "target", None)
    named = [c for c in getattr(args, "clients", None) or () if c != ALL_CLIENTS]
    return judged_options(options, source, named)
