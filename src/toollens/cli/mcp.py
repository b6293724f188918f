"""The command line's MCP options: ``--env`` and ``--timeout``, for every command that may start
a server.

An ``mcp:`` target is a source like any other: ``show``, ``check``, ``diff``, ``tokens`` and
``snapshot`` read it as a :class:`~toollens.toolsets.Toolset` of
:class:`~toollens.toolsets.Tool` records (:mod:`toollens.toolsets.mcp_source`) and format it
as they format every source. This module only carries the connection options: every command
runs inside :func:`connection`, so ``--env`` and ``--timeout`` reach servers named in
``[tool.toollens]`` too (``snapshot``, ``diff --lock``, ``check`` without a target).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toollens.mcp import ConnectOptions

__all__ = [
    "add_mcp_arguments",
    "connect_options",
    "connection",
    "is_mcp",
]


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
