"""What the MCP clients do to a request's tool list, and how that judges its findings.

An MCP tool list (an ``mcp:`` target, or a saved ``tools/list`` answer in a JSON file) is
judged as its clients send it: non-strict, unless a named client sends strict
(``openai-agents-strict``). Without named clients the default clients' verdicts
(:data:`toollens.consumers.DEFAULT_CLIENTS`: no framework consumer) are shown and none
gates the exit code; a named client gates it when it drops a tool or the server, or rejects
the request (a rewrite is a warning), and each named client's :class:`ClientCost` says what
the tools it sends cost, up front and deferred. A client's verdict on a tool is
:meth:`ClientsCheck.verdict`: the worst of its verdict on the tool and on each request that
names the tool, so every front end shows one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toollens.consumers import (
    ALL_CLIENTS,
    CONSUMERS,
    DEFAULT_CLIENTS,
    Verdict,
    is_mcp_listing,
    judge_consumers,
    listing_from_payload,
    resolve_clients,
)
from toollens.core.errors import TargetError
from toollens.core.record_json import record_json
from toollens.core.schema.types import JsonObject
from toollens.json_files import load_json_value
from toollens.tokens import TokenizerUnavailableError, tokens, tool_defs
from toollens.tokens.deferred import CLIENT_TOOL_SEARCH
from toollens.tokens.limits import limit_provider
from toollens.tokens.models import DEFAULT_MODEL, model_for_provider
from toollens.toolsets.rules import STRICT_ONLY_RULES, finding_providers, off_path

if TYPE_CHECKING:
    from toollens.assess.request import AssessRequest
    from toollens.consumers import ConsumerJudgement, ConsumerReport, ToolList
    from toollens.core.records import Finding
    from toollens.tokens.deferred import ClientToolSearch
    from toollens.toolsets import Toolset

__all__ = [
    "ClientCost",
    "ClientsCheck",
    "client_cost",
    "client_model",
    "clients_check",
    "mcp_limits",
    "mcp_request_findings",
    "require_listing",
    "source_listing",
]


@dataclass(frozen=True)
class ClientCost:
    """What the tools one client sends cost, up front and deferred.

    Attributes:
        client: the client's id.
        tools: how many definitions it sends (the tools it does not drop).
        upfront: tokens every request pays: the definitions it sends as it names and
            rewrites them, and the tool-use overhead of ``model``.
        deferred: tokens of the definitions it loads on demand (its own tool search), paid
            once a tool is loaded; 0 for a client known to send everything up front.
        model: the model counted for.
        method: ``exact``, ``rendered`` or ``estimate`` (:class:`toollens.tokens.TokenCount`).
        tokenizer: what counted (an encoding, or the estimate's name).
        deferral: the rule that deferred the tools, when it did.
        error: why nothing could be counted (no tokenizer installed), else ``None``.
        rejected: the client's request with these tools is refused (``request-rejected``):
            the figure is what it would send.
    """

    client: str
    tools: int
    upfront: int
    deferred: int
    model: str
    method: str
    tokenizer: str
    deferral: ClientToolSearch | None = None
    error: str | None = None
    rejected: bool = False

    @property
    def exact(self) -> bool:
        """Whether the count is exact (else a rendering or an estimate, as ``method`` says)."""
        return self.method == "exact" and self.error is None

    def to_json(self) -> JsonObject:
        return record_json(
            self,
            "upfront",
            "deferred",
            "model",
            "exact",
            "method",
            "tokenizer",
            "tools",
            ("deferred_by", "deferral"),
            "error",
            "rejected",
        )

    def __str__(self) -> str:
        if self.error is not None:
            return f"tokens not counted: {self.error}"
        label = f"{self.model}, {self.method}"
        text = f"{self.upfront} tokens up front, {self.deferred} deferred ({label}"
        text += f"; {self.tools} tool{'' if self.tools == 1 else 's'} sent)"
        if self.rejected:
            text += "; the request is rejected, so this is what it would send"
        if self.deferral is not None:
            rule = self.deferral
            text += (
                f"; deferred by {rule.rule} ({rule.attested}): past {rule.threshold} tokens "
                f"of definitions [{rule.evidence}: {rule.source}]"
            )
        return text


@dataclass(frozen=True)
class ClientsCheck:
    """The consumers' verdicts on a checked tool list.

    Attributes:
        report: every shown client's verdicts.
        chosen: the clients ``--client`` named (they get a column and gate the exit code);
            empty when none was named (the default clients are shown, none gates).
        costs: what the tools each chosen client sends cost (:class:`ClientCost`), in
            ``chosen`` order.
        target: the target as the command line named it (for the commands the text
            suggests).
        left_out: the clients that were asked for (the defaults, or ``all``) and could not
            judge, each with the package it needs.
        providers: the providers ``--provider`` named: their columns (the tools sent raw,
            not through a client) gate the exit code; empty: the columns are shown only.
    """

    report: ConsumerReport
    chosen: tuple[str, ...]
    costs: tuple[ClientCost, ...] = ()
    target: str = ""
    left_out: tuple[str, ...] = ()
    providers: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        return 1 if self.chosen and self.report.blocking(self.chosen) else 0

    def cost(self, client: str) -> ClientCost | None:
        return next((c for c in self.costs if c.client == client), None)

    def verdict(self, client: str, tool: str) -> Verdict | None:
        """What ``client`` does with ``tool`` (:meth:`ConsumerJudgement.tool_verdict`, requests
        included); ``None`` when the tool list does not hold the tool."""
        return self.report.judgement(client).tool_verdict(tool)


def source_listing(source: object, ts: Toolset | None, name: str | None = None) -> ToolList | None:
    """The MCP tool list a source names: the server's answer (on the toolset read from it),
    or a saved ``tools/list`` JSON file; ``None`` for any other source."""
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
    try:
        data = load_json_value(path)
    except TargetError:  # the toolset reports the file itself
        return None
    return data if isinstance(data, (Mapping, list)) else None


def require_listing(listing: ToolList | None) -> ToolList:
    """``listing``, or the error of ``--client`` on a source that is not an MCP tool list.

    Raises:
        TargetError: ``listing`` is ``None``.
    """
    if listing is None:
        raise TargetError(
            "--client judges an MCP server's tools list",
            hint="name an mcp: target or a saved tools/list JSON file",
        )
    return listing


def clients_check(request: AssessRequest, ts: Toolset) -> ClientsCheck | None:
    """The clients' verdicts on the request's MCP tool list (``None`` for other sources),
    with what the tools each named client sends cost.

    Raises:
        TargetError: clients named on a source that is not an MCP tool list.
    """
    chosen = resolve_clients(request.clients)
    listing = source_listing(request.source, ts, request.server_name)
    if listing is None and not chosen:
        return None
    counted: dict[str, ClientCost] = {}

    def count(judgement: ConsumerJudgement) -> None:  # while the worker judges, if one does
        if judgement.client in chosen:
            counted[judgement.client] = client_cost(judgement, request.tokens_model)

    report = judge_consumers(
        require_listing(listing), list(chosen) or None, jobs=request.jobs, on_judged=count
    )
    costs = tuple(counted[c] for c in chosen)
    target = request.target_text or ""
    return ClientsCheck(report, chosen, costs, target, _left_out(request), request.named_providers)


def _left_out(request: AssessRequest) -> tuple[str, ...]:
    """The asked-for clients (the defaults, or ``all``) that cannot judge here, each as
    ``id (pip install PACKAGE)``."""
    asked = request.clients
    pool = CONSUMERS if ALL_CLIENTS in asked else DEFAULT_CLIENTS if not asked else ()
    return tuple(
        f"{c} (pip install {' '.join(CONSUMERS[c].missing)})" for c in pool if CONSUMERS[c].missing
    )


Found = tuple[tuple["Finding", int | None], ...]


def mcp_limits(found: Found, clients: ClientsCheck, asked: Sequence[str] = ()) -> Found:
    """The token rules' findings ``found`` (each with its tool's index) for an MCP tool
    list: a description limit of a provider that neither a chosen client sends to nor
    ``--provider`` names (``asked``; OpenAI Chat Completions' 1024 characters, when no client
    on Chat Completions such as ``langchain-mcp-adapters`` is named) is a warning, not an
    error; the tool is not lost in the clients judged."""
    return tuple(
        (_for_chosen(finding, (limit_provider(str(finding.rule)),), clients, asked), index)
        for finding, index in found
    )


def mcp_request_findings(ts: Toolset, clients: ClientsCheck, asked: Sequence[str] = ()) -> Toolset:
    """``ts`` with its request-level findings judged by the path the tools take, for an MCP
    tool list: a limit of providers that neither a chosen client sends to nor ``--provider``
    names (OpenAI's 128 tools, when no client on OpenAI is named) is a warning, as for
    :func:`mcp_limits`; a limit on strict tools (Anthropic's 20) is left out unless a chosen
    client sends the tools strict to its provider or ``--provider`` names it (they were
    judged strict for another client's sake)."""
    kept = []
    for item in ts.cross_findings:
        providers = finding_providers(item.finding)
        if item.finding.rule in STRICT_ONLY_RULES and not _sent_strict(providers, clients, asked):
            continue
        finding = _for_chosen(item.finding, providers, clients, asked)
        kept.append(dataclasses.replace(item, finding=finding))
    return dataclasses.replace(ts, cross_findings=tuple(kept))


def _sent_strict(providers: Sequence[str], clients: ClientsCheck, asked: Sequence[str]) -> bool:
    """Whether the tools reach one of ``providers`` strict: a chosen client sends them there
    strict, or ``--provider`` names it (the tools as sent raw, with the command's strictness)."""
    chosen = [CONSUMERS[c] for c in clients.chosen]
    return bool(set(asked) & set(providers)) or any(
        c.strict and c.provider in providers for c in chosen
    )


def _for_chosen(
    finding: Finding, providers: Sequence[str | None], clients: ClientsCheck, asked: Sequence[str]
) -> Finding:
    # An error that only some providers raise, when the tools go to none of them.
    concerned = [p for p in providers if p is not None]
    sent_to = {CONSUMERS[c].provider for c in clients.chosen} | set(asked)
    users = ", ".join(c.id for c in CONSUMERS.values() if c.provider in concerned)
    where = " or ".join(concerned)
    return off_path(
        finding, concerned, sent_to, f"No chosen client sends to {where} (--client {users} does)"
    )


def client_model(client: str, asked: str | None = None) -> str:
    """The model ``client``'s cost is counted for: ``asked`` when given, else the model
    counted for the provider the client sends to (``Consumer.provider``: Claude for Claude
    Code and the Anthropic SDK, Gemini for Gemini CLI and google-genai, ...); a client that
    sends to the model its user picks (Cursor, VS Code) is counted for the default model."""
    if asked:
        return asked
    provider = CONSUMERS[client].provider
    return model_for_provider(provider) if provider else DEFAULT_MODEL


def client_cost(judgement: ConsumerJudgement, asked: str | None = None) -> ClientCost:
    """What the definitions one client sends (its names, its rewritten schemas; the tools
    it drops left out) cost for its model, up front and deferred.

    Raises:
        UnknownModelError: ``asked`` is not a model toollens counts for.
    """
    model = client_model(judgement.client, asked)
    sent = [v.sent for v in judgement.tools if v.sent is not None]
    rejected = any(r.verdict is Verdict.REQUEST_REJECTED for r in judgement.requests)
    try:
        counted = tokens(sent, model)
        search = CLIENT_TOOL_SEARCH.get(judgement.client)
        if search is not None and search.defers(counted.total - counted.overhead):
            deferred = [dataclasses.replace(d, deferred=True) for d in tool_defs(sent)]
            counted = tokens(deferred, model)
        else:
            search = None
    except TokenizerUnavailableError as exc:
        error = str(exc)  # its message already ends with the hint
        return ClientCost(
            judgement.client, len(sent), 0, 0, model, "estimate", "", None, error, rejected
        )
    return ClientCost(
        judgement.client,
        len(sent),
        counted.up_front,
        counted.deferred,
        model,
        counted.method,
        counted.tokenizer,
        search,
        rejected=rejected,
    )
