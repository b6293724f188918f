"""``mcp:`` targets where toollens resolves target strings: the CLI and ``[tool.toollens]``.

A command line run sets the connection options once (``--env``, ``--timeout``) with
:func:`using`; resolving a target inside that run (``resolve_target``, the project's tool
list) reads them, so the many places that name a target need no new parameters.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from toollens.mcp.client import ConnectOptions, fetch_tools
from toollens.mcp.records import McpTool, ServerTools

__all__ = ["current_options", "resolve_server", "server_tool_targets", "using"]

_OPTIONS: ContextVar[ConnectOptions | None] = ContextVar("toollens_mcp_options", default=None)


@contextmanager
def using(options: ConnectOptions) -> Iterator[None]:
    """Connect to every server resolved inside the block with ``options``."""
    token = _OPTIONS.set(options)
    try:
        yield
    finally:
        _OPTIONS.reset(token)


def current_options() -> ConnectOptions:
    """The options set by :func:`using`, or the defaults."""
    return _OPTIONS.get() or ConnectOptions()


def resolve_server(text: str, cwd: str | os.PathLike[str] | None = None) -> ServerTools:
    """The tools an ``mcp:`` target names; a stdio server starts in ``cwd``."""
    options = current_options()
    if cwd is not None:
        options = dataclasses.replace(options, cwd=str(Path(cwd)))
    return fetch_tools(text, options)


def server_tool_targets(text: str, root: Path) -> list[tuple[str, McpTool]]:
    """Each tool of the server an entry of ``[tool.toollens] tools`` names, with its target."""
    return [(tool.target, tool) for tool in resolve_server(text, root).tools]
