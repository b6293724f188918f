"""``check --client NAME``: what each client does to an MCP server's tools, and the exit code.

An MCP tool list (an ``mcp:`` target, or a saved ``tools/list`` answer in a JSON file) is
judged as its clients send it: non-strict, unless a chosen client sends strict
(``openai-agents-strict``). Without ``--client`` every client's verdicts are shown and none
gates the exit code; with it, the chosen clients get a column each and the command exits 1
when one of them drops a tool or the server, or rejects the request (a rewrite is a warning).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toollens.consumers import ConsumerReport, ToolList
    from toollens.core.report import ReportOptions
    from toollens.toolsets import Toolset

__all__ = [
    "ClientsCheck",
    "add_client_arguments",
    "clients_check",
    "mcp_options",
    "source_listing",
]


@dataclass(frozen=True)
class ClientsCheck:
    """The consumers' verdicts on a checked tool list.

    Attributes:
        report: every shown client's verdicts.
        chosen: the clients ``--client`` named (they get a column and gate the exit code);
            empty when none was named (every client is shown, none gates).
    """

    report: ConsumerReport
    chosen: tuple[str, ...]

    @property
    def exit_code(self) -> int:
        return 1 if self.chosen and self.report.blocking(self.chosen) else 0


def add_client_arguments(check: argparse.ArgumentParser) -> None:
    """``--client NAME`` (repeatable, ``all``) and ``--server-name NAME``."""
    from toollens.consumers import ALL_CLIENTS, CONSUMERS

    group = check.add_argument_group("clients (MCP tool lists)")
    group.add_argument(
        "--client",
        dest="clients",
        action="append",
        choices=(*CONSUMERS, ALL_CLIENTS),
        metavar="NAME",
        help="judge the tools as this client sends them, and exit 1 when it drops one or "
        f"rejects the request; repeat for several: {', '.join(CONSUMERS)}, or {ALL_CLIENTS} "
        "(default: every client is shown, none gates the exit code)",
    )
    group.add_argument(
        "--server-name",
        metavar="NAME",
        help="the server's name in the client's configuration, which clients put in tool "
        "names (default: the server's serverInfo.name)",
    )


def _chosen(args: argparse.Namespace) -> tuple[str, ...]:
    from toollens.consumers import resolve_clients

    return resolve_clients(getattr(args, "clients", None) or ())


def _listing(args: argparse.Namespace, ts: Toolset | None) -> ToolList | None:
    source = getattr(args, "agent", None) or args.target
    return source_listing(source, ts, getattr(args, "server_name", None))


def source_listing(source: object, ts: Toolset | None, name: str | None = None) -> ToolList | None:
    """The MCP tool list a source names: the server's answer (on the toolset read from it),
    or a saved ``tools/list`` JSON file; ``None`` for any other source."""
    from toollens.consumers import is_mcp_listing, listing_from_payload

    if ts is not None and ts.listing is not None:
        listing = ts.listing
        return dataclasses.replace(listing, server_name=name) if name else listing
    if not isinstance(source, str) or not source.endswith(".json") or not Path(source).is_file():
        return None
    data = _json(source)
    if data is None or not is_mcp_listing(data):
        return None
    return listing_from_payload(data, label=source, server_name=name)


def _json(path: str) -> Mapping[str, Any] | list[Any] | None:
    from toollens.core.errors import TargetError
    from toollens.targets import load_json_value

    try:
        data = load_json_value(path)
    except TargetError:  # the toolset reports the file itself
        return None
    return data if isinstance(data, (Mapping, list)) else None


def _is_mcp_source(args: argparse.Namespace) -> bool:
    source = getattr(args, "agent", None) or args.target
    if isinstance(source, str) and source.startswith("mcp:"):
        return True
    return _listing(args, None) is not None


def mcp_options(args: argparse.Namespace, options: ReportOptions) -> ReportOptions:
    """``options`` for the command's tools: an MCP tool list is judged as its clients send
    it, non-strict, unless a client that sends strict is named (not only through ``all``)."""
    from toollens.consumers import ALL_CLIENTS, sends_strict

    # Named explicitly: ``--client all`` shows every client without turning strict on.
    named = [c for c in getattr(args, "clients", None) or () if c != ALL_CLIENTS]
    if not options.strict or not _is_mcp_source(args) or sends_strict(named):
        return options
    return dataclasses.replace(options, strict=False)


def clients_check(args: argparse.Namespace, ts: Toolset) -> ClientsCheck | None:
    """The consumers' verdicts on the command's MCP tool list (``None`` for other sources).

    Raises:
        TargetError: ``--client`` on a source that is not an MCP tool list.
    """
    from toollens.consumers import judge_consumers
    from toollens.core.errors import TargetError

    chosen = _chosen(args)
    listing = _listing(args, ts)
    if listing is None:
        if chosen:
            raise TargetError(
                "--client judges an MCP server's tools list",
                hint="name an mcp: target or a saved tools/list JSON file",
            )
        return None
    return ClientsCheck(judge_consumers(listing, list(chosen) or None), chosen)
