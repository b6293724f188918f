"""The command line's connection options: ``--env K=V`` and ``--timeout SECONDS``, read once
into one :class:`~toollens.mcp.ConnectOptions` that each command passes as an argument to
whatever reaches a server (``toolset(source, connect=...)``, ``resolve_target``, the
project's tool list). This module imports no other module of the command line.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from toollens.core.errors import TargetError

if TYPE_CHECKING:
    from toollens.mcp import ConnectOptions

__all__ = ["add_mcp_arguments", "cli_connect", "connect_options"]


def add_mcp_arguments(parser: argparse.ArgumentParser) -> None:
    """``--env K=V``, ``--timeout SECONDS`` and ``--mcp-revision`` for commands that may read a
    server."""
    # lazy: toollens.mcp (~33 ms); `import toollens.cli` does not load it
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
    # lazy: the MCP spec's rules (~115 ms with the providers); not at `import toollens.cli`
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
    # lazy: toollens.mcp (~31 ms); `import toollens.cli` does not load it
    from toollens.mcp import DEFAULT_TIMEOUT, ConnectOptions

    env: dict[str, str] = {}
    for item in getattr(args, "env", None) or ():
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise TargetError(f"--env {item!r} is not K=V", hint="write e.g. --env API_URL=...")
        env[key] = value
    return ConnectOptions(env=env, timeout=getattr(args, "timeout", DEFAULT_TIMEOUT))


def cli_connect(args: argparse.Namespace) -> ConnectOptions | None:
    """The connection options of a command that takes ``--env``/``--timeout``; ``None`` for
    one that does not (``compare``): the defaults.

    Raises:
        TargetError: as :func:`connect_options`.
    """
    return connect_options(args) if hasattr(args, "timeout") else None
