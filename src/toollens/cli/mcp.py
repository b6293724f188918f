"""The command line's MCP options: ``--env`` and ``--timeout``, for every command that may start
a server.

An ``mcp:`` target is a source like any other: ``show``, ``check``, ``diff``, ``tokens`` and
``snapshot`` read it as a :class:`~toollens.toolsets.Toolset` of
:class:`~toollens.toolsets.Tool` records (:mod:`toollens.toolsets.mcp_source`) and format it
as they format every source. A command's ``--env`` and ``--timeout`` are one
:class:`~toollens.mcp.ConnectOptions` (:func:`cli_connect`), passed as an argument to whatever
reads a server, servers named in ``[tool.toollens]`` too (``snapshot``, ``diff --lock``,
``check`` without a target).
"""

from __future__ import annotations

from toollens.cli.connect import add_mcp_arguments, cli_connect, connect_options

__all__ = [
    "add_mcp_arguments",
    "cli_connect",
    "connect_options",
    "is_mcp",
]


def is_mcp(target: object) -> bool:
    """Whether a command's target is an ``mcp:`` target (without importing the package)."""
    from toollens.targets import is_mcp_target

    return is_mcp_target(target)
