"""Parse an ``mcp:`` target: a server started over stdio, or a streamable-HTTP URL, maybe one tool.

- ``mcp:COMMAND ARGS...`` -- start ``COMMAND`` (split like a POSIX shell, without running one)
  and talk MCP over its stdin and stdout;
- ``mcp:http://HOST:PORT/PATH`` (or ``https``) -- connect to a running streamable-HTTP server;
- either followed by ``#TOOL`` -- only the tool named ``TOOL``.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from toollens.core.errors import TargetError

__all__ = ["MCP_PREFIX", "McpTarget", "is_mcp_target", "parse_mcp_target"]

MCP_PREFIX = "mcp:"
_FORMS = "write mcp:COMMAND ARGS..., mcp:http://HOST:PORT/PATH, optionally followed by #TOOL"
# What may follow the last '#': a tool name (no spaces or slashes, which belong to the command).
_TOOL_SUFFIX = re.compile(r"#([^\s/#]*)$")

Transport = Literal["stdio", "http"]


@dataclass(frozen=True)
class McpTarget:
    """A parsed ``mcp:`` target.

    Attributes:
        text: the target as written.
        transport: ``"stdio"`` (a command toollens starts) or ``"http"`` (a URL).
        command: the command and its arguments (stdio).
        url: the endpoint (http).
        tool: the one tool named after ``#``, or ``None`` for every tool of the server.
    """

    text: str
    transport: Transport
    command: tuple[str, ...] = ()
    url: str | None = None
    tool: str | None = None

    @property
    def server(self) -> str:
        """The target without its ``#TOOL``: the server as written."""
        return self.text if self.tool is None else self.text[: -len(self.tool) - 1]

    def for_tool(self, name: str) -> str:
        """The target naming one tool of this server."""
        return f"{self.server}#{name}"

    @property
    def label(self) -> str:
        """The server in a message: its command line or its URL."""
        return self.url if self.url is not None else shlex.join(self.command)


def is_mcp_target(text: object) -> bool:
    """Whether ``text`` is written as an ``mcp:`` target."""
    return isinstance(text, str) and text.startswith(MCP_PREFIX)


def parse_mcp_target(text: str) -> McpTarget:
    """Split an ``mcp:`` target into its transport, command or URL, and tool.

    Raises:
        TargetError: the text is not an ``mcp:`` target, names no command, a quote is not
            closed, the URL has no host, or ``#`` is followed by no tool name.
    """
    if not is_mcp_target(text):
        raise TargetError(f"{text!r} is not an mcp: target", hint=_FORMS)
    body = text[len(MCP_PREFIX) :]
    tool = None
    found = _TOOL_SUFFIX.search(body)
    if found is not None:
        tool = found.group(1)
        if not tool:
            raise TargetError(f"{text!r} ends with '#' but names no tool", hint=_FORMS)
        body = body[: found.start()]
    if body.strip().lower().startswith(("http://", "https://")):
        return McpTarget(text, "http", url=_check_url(text, body.strip()), tool=tool)
    try:
        command = tuple(shlex.split(body))
    except ValueError as exc:  # "No closing quotation"
        raise TargetError(f"cannot split the command in {text!r}: {exc}", hint=_FORMS) from exc
    if not command:
        raise TargetError(f"{text!r} names no server command", hint=_FORMS)
    return McpTarget(text, "stdio", command=command, tool=tool)


def _check_url(text: str, url: str) -> str:
    parts = urlsplit(url)
    if not parts.hostname or any(c.isspace() for c in url):
        raise TargetError(f"{text!r} is not a URL with a host", hint=_FORMS)
    try:
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as exc:
        raise TargetError(f"{text!r} has a port that is not a number", hint=_FORMS) from exc
    return url
