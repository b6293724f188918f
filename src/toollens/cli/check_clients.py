"""``check --client NAME``: the command line's client arguments.

What the clients do to an MCP tool list, and how that gates, is the assessment's
(:mod:`toollens.assess.clients`); this module only declares the arguments.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from toollens.consumers import ALL_CLIENTS, CONSUMERS, DEFAULT_CLIENTS

__all__ = ["add_choices", "add_client_arguments"]


def add_choices(
    parser: argparse.ArgumentParser | argparse._ArgumentGroup,
    flag: str,
    dest: str,
    names: Sequence[str],
    every: str,
    help_text: str,
) -> None:
    """A repeatable option naming some of ``names``, or ``every`` for all of them
    (``check --provider P``, ``check --client NAME``)."""
    parser.add_argument(
        flag,
        dest=dest,
        action="append",
        choices=(*names, every),
        metavar="P" if dest == "providers" else "NAME",
        help=help_text,
    )


def add_client_arguments(check: argparse.ArgumentParser) -> None:
    """``--client NAME`` (repeatable, ``all``) and ``--server-name NAME``."""
    group = check.add_argument_group("clients (MCP tool lists)")
    add_choices(
        group,
        "--client",
        "clients",
        tuple(CONSUMERS),
        ALL_CLIENTS,
        "judge the tools as this client sends them, count what it sends (up front and "
        "deferred), and exit 1 when it drops one or rejects the request; repeat for "
        f"several: {', '.join(CONSUMERS)}, or {ALL_CLIENTS} for every one installed "
        f"(default: {', '.join(DEFAULT_CLIENTS)} are shown and none gates the exit code; "
        "the framework consumers run their framework's own code, and are judged only when "
        "named or with all)",
    )
    group.add_argument(
        "--server-name",
        metavar="NAME",
        help="the server's name in the client's configuration, which clients put in tool "
        "names (default: the server's serverInfo.name)",
    )
