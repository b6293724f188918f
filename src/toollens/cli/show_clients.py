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
from typing import TYPE_CHECKING

from toollens.cli.connect import cli_connect
from toollens.core.errors import TargetError

if TYPE_CHECKING:
    from toollens.assess.listing import ListedTools

__all__ = ["add_clients_arguments", "run_show_clients"]

_EXIT_OK = 0


def add_clients_arguments(show: argparse.ArgumentParser) -> None:
    """``--client NAME`` (repeatable, ``all``) and ``--server-name NAME`` for ``--view clients``."""
    # lazy: toollens.consumers (~165 ms); `import toollens.cli` does not load it
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


def run_show_clients(args: argparse.Namespace) -> tuple[str, int]:
    """The Clients view of each tool the target names, as text or JSON."""
    # lazy: the clients' views (~3 ms over `--help`), for `show --clients` only
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
    return _header(listed) + "\n" + "\n".join(clients_text(view) for view in views), _EXIT_OK


def _listed(args: argparse.Namespace) -> ListedTools | None:
    # lazy: assess.listing (~48 ms over `--help`), for `show --clients` only
    from toollens.assess.listing import listed_tools

    if args.target is None:
        raise TargetError(
            "--view clients shows what each client does with an MCP server's tools",
            hint="name an mcp: target or a saved tools/list JSON file",
        )
    return listed_tools(args.target, args.server_name, cli_connect(args))


def _header(listed: ListedTools) -> str:
    name, count = listed.listing.server_name, len(listed.listing.tools)
    if listed.file is None:
        return f"MCP server {name!r}: {count} tool{'' if count == 1 else 's'} listed"
    return f"tool list {listed.file} (server name {name!r}): {count} tools listed"


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
