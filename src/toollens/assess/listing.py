"""The MCP tool list a target names, and which of its tools to show (``show --view clients``).

The target is an ``mcp:`` server (``#TOOL`` for one tool), a saved ``tools/list`` JSON file
or a bare list of MCP tools (``FILE.json#TOOL`` for one). Any other target that names
something is not an MCP tool list (``None``: a Python function is judged on another path);
one that names nothing fails as it does for the other views.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toollens.assess.clients import source_listing
from toollens.assess.reading import is_toolset_source
from toollens.consumers import listing_from_server
from toollens.core.errors import TargetError
from toollens.mcp.project import resolve_server
from toollens.mcp.target import is_mcp_target
from toollens.targets import resolve_target

if TYPE_CHECKING:
    from toollens.consumers import ToolList
    from toollens.mcp.client import ConnectOptions

__all__ = ["ListedTools", "listed_tools"]


@dataclass(frozen=True)
class ListedTools:
    """The tool list a target names, and which of its tools to show.

    Attributes:
        listing: the whole tool list (clients judge a tool on the list it travels in).
        tools: the names of the tools to show, in the list's order.
        file: the JSON file the list was read from; ``None`` for a server's answer.
    """

    listing: ToolList
    tools: tuple[str, ...]
    file: str | None = None


def listed_tools(
    target: str, server_name: str | None = None, connect: ConnectOptions | None = None
) -> ListedTools | None:
    """The MCP tool list ``target`` names; ``None`` for a target that is not one.

    Args:
        target: an ``mcp:`` server, a ``tools/list`` JSON file (``#TOOL`` for one tool).
        server_name: the server's name in the clients' configuration (default: the
            server's ``serverInfo.name``, or the file's).
        connect: how the server is started or reached.

    Raises:
        TargetError: the server cannot be read; a JSON file holds no MCP tool list or no
            such tool; the target names nothing.
    """
    if is_mcp_target(target):
        return _from_server(target, server_name, connect)
    return _from_file(target, server_name)


def _from_server(
    target: str, server_name: str | None, connect: ConnectOptions | None
) -> ListedTools:
    served = resolve_server(target, connect=connect)
    listing = listing_from_server(served, server_name)
    names = tuple(t.name for t in served.tools) + tuple(u.name for u in served.unread)
    return ListedTools(listing, tuple(n for n in listing.names if n in names))


def _from_file(target: str, server_name: str | None) -> ListedTools | None:
    path, sep, tool = target.rpartition("#") if "#" in target else (target, "", "")
    if not sep or not path.endswith(".json"):
        path, tool = target, ""
    listing = source_listing(path, None, server_name) if Path(path).is_file() else None
    if listing is None:
        if path.endswith(".json") and Path(path).is_file():
            raise TargetError(
                f"{path} holds no MCP tool list (tools with inputSchema)",
                hint="save a server's tools/list answer, or name an mcp: target",
            )
        if not is_toolset_source(target):  # a target that names nothing says so
            resolve_target(target)
        return None
    if tool and tool not in listing.names:
        raise TargetError(
            f"{path} has no tool {tool!r}", hint=f"name one of {', '.join(listing.names[:10])}"
        )
    return ListedTools(listing, (tool,) if tool else listing.names, path)
