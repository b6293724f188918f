"""The records of the path a tool takes: a consumer, its rules, and what it does to each tool.

A *consumer* is one step between a server and the model: a client (Claude Code, Cursor, ...)
or a framework built on an MCP client library (the OpenAI Agents SDK, ...). It takes the tool
list as the server sent it (:class:`ToolList`) and gives, per tool, a :class:`ClientVerdict`
(``accepted``, ``rewritten`` with what it now sends, ``tool-dropped``, ``server-dropped``), and
for the whole request :class:`RequestVerdict` records (a request it refuses, a warning it
shows). Every verdict names the :class:`ConsumerRule` that decided it: a stable id, the source,
the date it was read and how strong the evidence is. Plain frozen data; no framework import.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toollens.core.record_json import record_json
from toollens.core.records import Citation, Finding, Severity
from toollens.core.schema.types import JsonObject

__all__ = [
    "BLOCKING",
    "ClientVerdict",
    "Consumer",
    "ConsumerJudgement",
    "ConsumerReport",
    "ConsumerRule",
    "Evidence",
    "ProviderCheck",
    "RequestVerdict",
    "RuleHit",
    "ToolList",
    "Verdict",
    "worse",
]


class Verdict(str, enum.Enum):
    """What a consumer does with one tool (or one request), from best to worst."""

    ACCEPTED = "accepted"
    REWRITTEN = "rewritten"
    TOOL_DROPPED = "tool-dropped"
    SERVER_DROPPED = "server-dropped"
    REQUEST_REJECTED = "request-rejected"

    @property
    def rank(self) -> int:
        """0 for ``accepted`` up to 4 for ``request-rejected``."""
        return list(Verdict).index(self)


BLOCKING = frozenset({Verdict.TOOL_DROPPED, Verdict.SERVER_DROPPED, Verdict.REQUEST_REJECTED})
"""Verdicts that lose a tool: ``check`` exits 1 on them (a rewrite is a warning)."""


def worse(a: Verdict, b: Verdict) -> Verdict:
    """The worse of two verdicts."""
    return a if a.rank >= b.rank else b


class Evidence(str, enum.Enum):
    """How strong a rule's source is."""

    CODE = "code"  # read in (or run from) the consumer's own source
    DOCS = "docs"  # the vendor's documentation
    ISSUE = "issue"  # a report with a reproduction on the vendor's own tracker
    REPORT = "report"  # third-party reports (several independent ones)


@dataclass(frozen=True)
class ConsumerRule:
    """One thing a consumer is known to do to a tool, with where that is known from.

    Attributes:
        id: stable id, ``<consumer>.<name>`` (the contract; wording may change).
        consumer: the consumer's id.
        verdict: what the rule does to a tool (or request) it matches.
        summary: what the consumer does, one sentence.
        fix: what a server author does about it.
        source: the link the behaviour is read from.
        date: ISO date the source was read.
        evidence: how strong the source is.
    """

    id: str
    consumer: str
    verdict: Verdict
    summary: str
    fix: str
    source: str
    date: str
    evidence: Evidence

    @property
    def severity(self) -> Severity:
        """An error when the tool (or the request) is lost, a warning when the tool reaches
        the model rewritten, information when it reaches it as sent."""
        if self.verdict in BLOCKING:
            return Severity.ERROR
        return Severity.WARNING if self.verdict is Verdict.REWRITTEN else Severity.INFO

    @property
    def cite(self) -> Citation:
        """The rule's source, date and evidence as a finding carries them."""
        return Citation(self.source, self.source, self.date, self.evidence.value)

    def to_json(self) -> JsonObject:
        return record_json(self, "id", "source", "date", "evidence")


@dataclass(frozen=True)
class RuleHit:
    """One rule matching one tool (or request): the rule, what matched, and where."""

    rule: ConsumerRule
    message: str
    pointer: str | None = None

    def finding(self) -> Finding:
        """The hit as a finding on the tool: its rule's severity, fix and source."""
        rule = self.rule
        return Finding(rule.id, rule.severity, self.pointer, self.message, rule.fix, cite=rule.cite)

    def to_json(self) -> JsonObject:
        return {**self.rule.to_json(), "message": self.message, "pointer": self.pointer}


@dataclass(frozen=True)
class ProviderCheck:
    """The provider step: the provider a client talks to, judging the tool as that client
    sends it (its ``sent`` copy, strict only when the client sends it strict).

    Attributes:
        provider: the provider id (``anthropic``, ``openai-responses``, ``gemini``, ...).
        strict: whether the client sends this tool in strict mode.
        findings: every provider rule the sent tool breaks (errors and warnings).
    """

    provider: str
    strict: bool
    findings: tuple[Finding, ...] = ()

    @property
    def errors(self) -> tuple[Finding, ...]:
        """The findings the provider refuses the request on."""
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def rejected(self) -> bool:
        """Whether the provider refuses the request that carries this tool."""
        return bool(self.errors)

    def to_json(self) -> JsonObject:
        return {
            "provider": self.provider,
            "strict": self.strict,
            "accepted": not self.rejected,
            "findings": [f.to_json() for f in self.findings],
        }


@dataclass(frozen=True)
class ClientVerdict:
    """What one consumer does with one tool, and what its provider says about the result.

    Attributes:
        client: the consumer's id.
        tool: the tool's name as the server sent it.
        verdict: the worst verdict of the rules that matched (``accepted`` when none did);
            ``request-rejected`` when the provider refuses what the client sends.
        hits: the rules that matched, worst first (the first decided the verdict).
        sent: the tool definition the consumer sends on (its name, description and
            parameters as it rewrites them), ``None`` when the tool is dropped.
        provider: the provider step on ``sent`` (:class:`ProviderCheck`); ``None`` when the
            tool is dropped or the consumer talks to no one provider.
    """

    client: str
    tool: str
    verdict: Verdict
    hits: tuple[RuleHit, ...] = ()
    sent: JsonObject | None = None
    provider: ProviderCheck | None = None

    @classmethod
    def from_hits(
        cls, client: str, tool: str, hits: Sequence[RuleHit], sent: JsonObject | None
    ) -> ClientVerdict:
        """The verdict of the worst rule in ``hits`` (``accepted`` when none); ``sent`` is
        kept unless the tool is lost."""
        verdict = Verdict.ACCEPTED
        for hit in hits:
            verdict = worse(verdict, hit.rule.verdict)
        kept = sent if verdict not in BLOCKING else None
        ordered = sorted(hits, key=lambda hit: -hit.rule.verdict.rank)  # stable: worst first
        return cls(client, tool, verdict, tuple(ordered), kept)

    def to_json(self) -> JsonObject:
        return record_json(self, "client", "verdict", ("rules", "hits"), "sent", "provider")


@dataclass(frozen=True)
class RequestVerdict:
    """A verdict on one request's tools taken together (a count or a name limit).

    ``verdict`` is ``accepted`` for a warning the consumer shows without losing a tool.
    """

    client: str
    verdict: Verdict
    hit: RuleHit
    tools: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return record_json(self, "client", "verdict", ("rule", "hit"), "tools")


@dataclass(frozen=True)
class ToolList:
    """A server's tools as it sent them (``tools/list``), the input of every consumer.

    Attributes:
        server_name: the name the user gives the server in the client's configuration
            (``--server-name``; by default the server's ``serverInfo.name``).
        tools: the raw tool objects, in the server's order (not checked: a client may
            refuse them, which is what the consumers judge).
        protocol_version: the negotiated MCP protocol version, when known.
        page_sizes: how many tools each ``tools/list`` page held, in order (empty: one
            page); a client that reads only the first page never sees the others.
    """

    server_name: str
    tools: tuple[Mapping[str, Any], ...]
    protocol_version: str | None = None
    page_sizes: tuple[int, ...] = ()

    def page_of(self, index: int) -> int:
        """The 1-based ``tools/list`` page the tool at ``index`` was on."""
        start = 0
        for page, size in enumerate(self.page_sizes, 1):
            start += size
            if index < start:
                return page
        return max(1, len(self.page_sizes))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(tool_name(tool, i) for i, tool in enumerate(self.tools))


def tool_name(tool: object, index: int) -> str:
    """A tool's ``name``, or ``#INDEX`` when it has none."""
    name = tool.get("name") if isinstance(tool, Mapping) else None
    return name if isinstance(name, str) and name else f"#{index}"


@dataclass(frozen=True)
class ConsumerJudgement:
    """One consumer's verdicts on a tool list: per tool, then per request."""

    client: str
    tools: tuple[ClientVerdict, ...]
    requests: tuple[RequestVerdict, ...] = ()

    @classmethod
    def server_dropped(
        cls, client: str, listing: ToolList, hits: Sequence[RuleHit]
    ) -> ConsumerJudgement:
        """Every tool of ``listing`` lost because of ``hits`` (a refused list)."""
        verdicts = (
            ClientVerdict(client, name, Verdict.SERVER_DROPPED, tuple(hits))
            for name in listing.names
        )
        return cls(client, tuple(verdicts))

    def verdict_for(self, tool: str) -> ClientVerdict | None:
        return next((v for v in self.tools if v.tool == tool), None)

    def tool_verdict(self, tool: str) -> Verdict | None:
        """What this consumer does with ``tool``, in one word: its verdict on the tool, made
        worse by each request verdict naming it (past VS Code's 128th tool, the tool is lost
        with the request); ``None`` when the list does not hold the tool. Every front end
        and the lock show this one."""
        found = self.verdict_for(tool)
        if found is None:
            return None
        worst = found.verdict
        for request in self.requests:
            if tool in request.tools:
                worst = worse(worst, request.verdict)
        return worst

    @property
    def blocking(self) -> bool:
        """Whether this consumer loses a tool or the request."""
        verdicts = [v.verdict for v in self.tools] + [r.verdict for r in self.requests]
        return any(v in BLOCKING for v in verdicts)

    def to_json(self) -> JsonObject:
        return {
            "client": self.client,
            "tools": [{"name": v.tool, **v.to_json()} for v in self.tools],
            "requests": [r.to_json() for r in self.requests],
        }


Judge = Callable[[ToolList], ConsumerJudgement]


@dataclass(frozen=True)
class Consumer:
    """One step on the way to the model.

    Attributes:
        id: the id ``--client`` takes (``claude-code``, ``openai-agents-strict``, ...).
        title: the consumer's name for people.
        strict: whether it sends tools in strict mode (OpenAI ``strict: true``).
        naming: how it names a server's tools for the model.
        kind: ``client`` (an application) or ``framework`` (a library).
        judge: the function giving its verdicts on a tool list.
        provider: the provider it sends to (judges its ``sent`` copies), ``None`` when it
            talks to several (Cursor, VS Code: the user picks the model).
        requires: the ``(module, package)`` pairs its judge imports (its own code, run here).
    """

    id: str
    title: str
    strict: bool
    naming: str
    kind: str
    judge: Judge = field(compare=False, repr=False)
    provider: str | None = None
    requires: tuple[tuple[str, str], ...] = ()

    @property
    def missing(self) -> tuple[str, ...]:
        """The packages its judge needs that are not installed (empty: it can judge)."""
        import importlib.util

        def found(module: str) -> bool:
            try:
                return importlib.util.find_spec(module) is not None
            except (ImportError, ValueError):
                return False

        return tuple(package for module, package in self.requires if not found(module))


@dataclass(frozen=True)
class ConsumerReport:
    """Every chosen consumer's judgement of one tool list."""

    listing: ToolList
    judgements: tuple[ConsumerJudgement, ...]

    @property
    def clients(self) -> tuple[str, ...]:
        return tuple(j.client for j in self.judgements)

    def judgement(self, client: str) -> ConsumerJudgement:
        return next(j for j in self.judgements if j.client == client)

    def verdicts_for(self, tool: str) -> tuple[ClientVerdict, ...]:
        """Each consumer's verdict on ``tool``, in the order the consumers were chosen."""
        found = (j.verdict_for(tool) for j in self.judgements)
        return tuple(v for v in found if v is not None)

    def requests(self) -> tuple[RequestVerdict, ...]:
        return tuple(r for j in self.judgements for r in j.requests)

    def blocking(self, clients: Sequence[str] | None = None) -> bool:
        """Whether a consumer (of ``clients``, default all) loses a tool or the request."""
        chosen = self.clients if clients is None else clients
        return any(j.blocking for j in self.judgements if j.client in chosen)

    def to_json(self) -> JsonObject:
        return {
            "server_name": self.listing.server_name,
            "clients": [j.to_json() for j in self.judgements],
        }
