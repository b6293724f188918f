"""``toollens show TARGET --view clients``: per client, what it does with each MCP tool.

The target is an MCP tool list: an ``mcp:`` server (``#TOOL`` for one tool), a saved
``tools/list`` JSON file or a bare list of MCP tools (``FILE.json#TOOL`` for one). Each tool
gets the Clients view of :mod:`toollens.render.clients_view`: every chosen client's verdict,
the rules behind it (source, date, evidence), and the name and JSON it sends, as a diff
against what the server sent. A Python function is not an MCP tool: the answer says which
path it is judged on (the Agents SDK ``function_tool``) and points to ``toollens compare``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from toollens.consumers import ToolList
    from toollens.mcp import ConnectOptions

__all__ = ["add_clients_arguments", "run_show_clients"]

_EXIT_OK = 0


def add_clients_arguments(show: argparse.ArgumentParser) -> None:
    """``--client NAME`` (repeatable, ``all``) and ``--server-name NAME`` for ``--view clients``."""
    from toollens.consumers import ALL_CLIENTS, CONSUMERS

    group = show.add_argument_group("clients (--view clients, MCP tool lists)")
    group.add_argument(
        "--client",
        dest="clients",
        action="append",
        choices=(*CONSUMERS, ALL_CLIENTS),
        metavar="NAME",
        help=f"show this client; repeat for several: {', '.join(CONSUMERS)}, or "
        f"{ALL_CLIENTS} (default: every client)",
    )
    group.add_argument(
        "--server-name",
        metavar="NAME",
        help="the server's name in the client's configuration, which clients put in tool "
        "names (default: the server's serverInfo.name)",
    )


@dataclass(frozen=True)
class _Listed:
    """The tool list a target names, and which of its tools to show."""

    listing: ToolList
    tools: tuple[str, ...]
    header: str


def run_show_clients(args: argparse.Namespace) -> tuple[str, int]:
    """The Clients view of each tool the target names, as text or JSON."""
    from toollens.consumers import judge_consumers, resolve_clients
    from toollens.render.clients_view import clients_data, clients_text, tools_clients

    listed = _listed(args)
    if listed is None:
        return _not_mcp(args.target, args.format), _EXIT_OK
    clients = resolve_clients(args.clients) if args.clients else None
    judged = judge_consumers(listed.listing, list(clients) if clients else None)
    views = tools_clients(listed.listing, listed.tools, judged=judged)
    if args.format == "json":
        data = {
            "target": args.target,
            "server_name": listed.listing.server_name,
            "tools": [clients_data(view) for view in views],
            "requests": [r.to_json() for r in judged.requests()],
        }
        return json.dumps(data, indent=2, ensure_ascii=False) + "\n", _EXIT_OK
    return listed.header + "\n" + "\n".join(clients_text(view) for view in views), _EXIT_OK


def _listed(args: argparse.Namespace) -> _Listed | None:
    from toollens.cli.connect import cli_connect
    from toollens.core.errors import TargetError
    from toollens.mcp.target import is_mcp_target

    target = args.target
    if target is None:
        raise TargetError(
            "--view clients shows what each client does with an MCP server's tools",
            hint="name an mcp: target or a saved tools/list JSON file",
        )
    if is_mcp_target(target):
        return _from_server(target, args.server_name, cli_connect(args))
    return _from_file(target, args.server_name)


def _from_server(target: str, server_name: str | None, connect: ConnectOptions | None) -> _Listed:
    from toollens.consumers import listing_from_server
    from toollens.mcp.project import resolve_server

    served = resolve_server(target, connect=connect)
    listing = listing_from_server(served, server_name)
    names = tuple(t.name for t in served.tools) + tuple(u.name for u in served.unread)
    shown = [n for n in listing.names if n in names]
    count = len(listing.tools)
    header = f"MCP server {listing.server_name!r}: {count} tool{'' if count == 1 else 's'} listed"
    return _Listed(listing, tuple(shown), header)


def _from_file(target: str, server_name: str | None) -> _Listed | None:
    from toollens.assess.clients import source_listing
    from toollens.core.errors import TargetError

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
        _resolve(target)  # a target that names nothing says so, as the other views do
        return None
    if tool and tool not in listing.names:
        raise TargetError(
            f"{path} has no tool {tool!r}", hint=f"name one of {', '.join(listing.names[:10])}"
        )
    shown = (tool,) if tool else listing.names
    count = len(listing.tools)
    header = f"tool list {path} (server name {listing.server_name!r}): {count} tools listed"
    return _Listed(listing, shown, header)


def _resolve(target: str) -> None:
    from toollens.assess.reading import is_toolset_source
    from toollens.targets import resolve_target

    if not is_toolset_source(target):
        resolve_target(target)


_PATH = (
    "{target} is not an MCP tool: toollens judges it on the path of a Python function given "
    "to the OpenAI Agents SDK's function_tool (strict mode by default), which the other views "
    "show (toollens show {target} --view provider). Clients judge MCP servers' tools; to see "
    "what each framework sends for a function, run: toollens compare {target}"
)


def _not_mcp(target: str, fmt: str) -> str:
    text = _PATH.format(target=target)
    if fmt == "json":
        data = {
            "target": target,
            "judged_on": "openai-agents function_tool",
            "clients": None,
            "note": text,
        }
        return json.dumps(data, indent=2) + "\n"
    return text + "\n"
