"""The path a tool takes to the model: what each client and framework does to it.

A :class:`Consumer` (``claude-code``, ``cursor``, ``vscode-copilot``, ``gemini-cli``,
``mcp-python``, ``openai-agents``, ``openai-agents-strict``, ...) takes a server's tool list as
sent (:class:`ToolList`) and returns, per tool, a :class:`ClientVerdict` (``accepted``,
``rewritten``, ``tool-dropped``, ``server-dropped``) with what it sends on, plus verdicts on
the request as a whole; every verdict cites the :class:`ConsumerRule` (source, date, evidence)
that decided it. Pure: imports no UI; a framework is imported only when its consumer runs.

    >>> from toollens.consumers import judge_consumers, listing_from_payload
    >>> report = judge_consumers(listing_from_payload(data, label="server.json"))
"""

from toollens.consumers.model import (
    BLOCKING,
    ClientVerdict,
    Consumer,
    ConsumerJudgement,
    ConsumerReport,
    ConsumerRule,
    Evidence,
    RequestVerdict,
    RuleHit,
    ToolList,
    Verdict,
)
from toollens.consumers.registry import (
    ALL_CLIENTS,
    CONSUMERS,
    is_mcp_listing,
    judge_consumers,
    listing_from_payload,
    listing_from_server,
    resolve_clients,
    sends_strict,
)
from toollens.consumers.rules import CONSUMER_RULES, RULES_BY_ID

__all__ = [
    "ALL_CLIENTS",
    "BLOCKING",
    "CONSUMERS",
    "CONSUMER_RULES",
    "RULES_BY_ID",
    "ClientVerdict",
    "Consumer",
    "ConsumerJudgement",
    "ConsumerReport",
    "ConsumerRule",
    "Evidence",
    "RequestVerdict",
    "RuleHit",
    "ToolList",
    "Verdict",
    "is_mcp_listing",
    "judge_consumers",
    "listing_from_payload",
    "listing_from_server",
    "resolve_clients",
    "sends_strict",
]
