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
from toollens.mcp.records import ServerTools

__all__ = ["resolve_server"]


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
