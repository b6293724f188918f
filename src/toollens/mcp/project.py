"""``mcp:`` targets where toollens resolves target strings: the CLI and ``[tool.toollens]``.

The connection options (``--env``, ``--timeout`` on the command line) are one
:class:`~toollens.mcp.client.ConnectOptions` passed as an argument by whoever resolves the
target (``resolve_target(text, connect=...)``, ``toolset(source, connect=...)``, the
project's tool list); ``None`` is the defaults.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from toollens.mcp.client import ConnectOptions, fetch_tools
from toollens.mcp.records import McpTool, ServerTools

__all__ = ["resolve_server", "server_tool_targets"]


def resolve_server(
    text: str,
    cwd: str | os.PathLike[str] | None = None,
    connect: ConnectOptions | None = None,
) -> ServerTools:
    """The tools an ``mcp:`` target names, reached with ``connect``; a stdio server starts in
    ``cwd`` (over ``connect.cwd``)."""
    options = connect or ConnectOptions()
    if cwd is not None:
        options = dataclasses.replace(options, cwd=str(Path(cwd)))
    return fetch_tools(text, options)


def server_tool_targets(
    text: str, root: Path, connect: ConnectOptions | None = None
) -> list[tuple[str, McpTool]]:
    """Each tool of the server an entry of ``[tool.toollens] tools`` names, with its target."""
    return [(tool.target, tool) for tool in resolve_server(text, root, connect).tools]
