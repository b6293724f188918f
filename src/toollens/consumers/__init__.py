"""The path a tool takes to the model: what each client and framework does to it.

A :class:`Consumer` (``claude-code``, ``cursor``, ``vscode-copilot``, ``gemini-cli``,
``mcp-python``, ``openai-agents``, ``pydantic-ai:openai``, ``langchain-mcp-adapters``, ...)
takes a server's tool list as sent (:class:`ToolList`) and returns, per tool, a
:class:`ClientVerdict` (``accepted``, ``rewritten``, ``tool-dropped``, ``server-dropped``,
``request-rejected``) with what it sends on, plus verdicts on the request as a whole; every
verdict cites the :class:`ConsumerRule` (source, date, evidence) that decided it. Then the
provider that consumer talks to judges what it sends (:class:`ProviderCheck`, on
``ClientVerdict.provider``). Pure: imports no UI; a framework is imported only when its
consumer runs.

    >>> from toollens.consumers import judge_consumers, listing_from_payload
    >>> report = judge_consumers(listing_from_payload(data, label="server.json"))
"""

from toollens.consumers import model, registry, sent
from toollens.consumers.model import *  # noqa: F403
from toollens.consumers.registry import *  # noqa: F403
from toollens.consumers.rules import CONSUMER_RULES, RULES_BY_ID
from toollens.consumers.sent import *  # noqa: F403

__all__ = [
    *model.__all__,
    *registry.__all__,
    *sent.__all__,
    "CONSUMER_RULES",
    "RULES_BY_ID",
]
