"""What to assess: one typed request, built by the command line from its arguments, by the
widgets and the magic from theirs, and by Python callers directly.

No front end passes its own argument object below it: a request carries the target, the
providers and clients named, the strictness, the token budgets, how MCP servers are reached
and how many processes read a module.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.consumers import ALL_CLIENTS
from toollens.core.providers import PROVIDERS

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions
    from toollens.mcp.client import ConnectOptions

__all__ = ["ALL_PROVIDERS", "PROJECT", "AssessRequest"]

ALL_PROVIDERS = "all"
"""``providers=("all",)``: every provider toollens knows."""

PROJECT = "project"
"""The source assessed when a request names no target: the project's ``[tool.toollens]``."""


@dataclass(frozen=True)
class AssessRequest:
    """One assessment asked for.

    Attributes:
        target: what to read: a target string (``pkg.tools``, ``tools.json``, ``mcp:...``,
            ``MODULE:FUNC``), any toolset source (a list of functions, an agent), or
            ``None`` for the project's list.
        providers: the providers named (``all`` for every one); none: the default, or the
            provider a payload file is written for. A named provider gates the exit code.
        clients: the MCP clients named (``all`` for every installed one); none: the default
            clients are shown and none gates.
        strict: strict conversion asked (an MCP tool list is judged non-strict unless a
            named client sends strict).
        context_types: classes a framework injects as a run context.
        mcp_revision: the MCP revision to judge tools by (``mcp@2026-07-28``); ``None``: the
            server's.
        server_name: the server's name in the clients' configuration.
        toolset: the target names a set of tools even if it could name one (``--agent``).
        jobs: processes reading a module's tools (``None``/1: one; 0: one per core), and
            judging an MCP tool list's clients (1: one; ``None``/0 or more: two when more
            than one core is available; :mod:`toollens.consumers.workers`).
        max_tokens, max_total_tokens: the token budgets (``None``: not asked).
        tokens_model: the model token counts are for (``None``: the default).
        connect: how MCP servers are started or reached.
        options: report options to read with as they are (a widget's); ``None``: built
            from the fields above.
    """

    target: object = None
    providers: tuple[str, ...] = ()
    clients: tuple[str, ...] = ()
    strict: bool = True
    context_types: tuple[type, ...] = ()
    mcp_revision: str | None = None
    server_name: str | None = None
    toolset: bool = False
    jobs: int | None = None
    max_tokens: int | None = None
    max_total_tokens: int | None = None
    tokens_model: str | None = None
    connect: ConnectOptions | None = None
    options: ReportOptions | None = None

    @property
    def source(self) -> object:
        """What is read: the target, or the project's list."""
        return PROJECT if self.target is None else self.target

    @property
    def target_text(self) -> str | None:
        """The target when it is a string (a file, a module, a server), else ``None``."""
        return self.target if isinstance(self.target, str) else None

    @property
    def named_providers(self) -> tuple[str, ...]:
        """The providers named, ``all`` expanded, once each, in order."""
        named = list(self.providers)
        if ALL_PROVIDERS in named:
            named = [p for p in named if p != ALL_PROVIDERS] + list(PROVIDERS)
        return tuple(dict.fromkeys(named))

    @property
    def named_clients(self) -> tuple[str, ...]:
        """The clients named one by one (``all`` shows every client without choosing one)."""
        return tuple(c for c in self.clients if c != ALL_CLIENTS)

    @property
    def budgets_asked(self) -> bool:
        return self.max_tokens is not None or self.max_total_tokens is not None
