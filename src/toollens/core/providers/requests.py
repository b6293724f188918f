"""Limits summed over every tool of one request (not one tool at a time).

OpenAI takes at most 128 tools in one request (:data:`OPENAI_MAX_TOOLS`);
:func:`request_refusal` says when a request of that many tools would be refused, so that
toollens refuses it before sending it (``tokens --online``).

Anthropic compiles every strict tool of a request into one grammar and refuses a request
whose strict schemas are too complex together (HTTP 400 "Schema is too complex for
compilation"): at most 20 strict tools, 24 optional parameters and 16 parameters with a
union type across all of them. :func:`anthropic_strict_budget` counts each tool's share and
:func:`over_budget` names the tools that take a running total past its limit, in request
order, so a finding can say which tools to make non-strict or simplify.

A *parameter* is a property of any object in the schema (nested objects and definitions
included: they are compiled too). It is *optional* when its object does not list it in
``required``; it has a *union type* when its schema carries ``anyOf`` or a ``type`` list
(``["string", "null"]``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from toollens.core.providers.walk import iter_schema_nodes
from toollens.core.records import Citation

__all__ = [
    "ANTHROPIC_MAX_OPTIONAL",
    "ANTHROPIC_MAX_STRICT_TOOLS",
    "ANTHROPIC_MAX_UNIONS",
    "ANTHROPIC_REQUEST_LIMITS",
    "OPENAI_MAX_TOOLS",
    "OPENAI_TOOL_COUNT",
    "Overrun",
    "StrictShare",
    "anthropic_strict_budget",
    "over_budget",
    "request_refusal",
]

ANTHROPIC_REQUEST_LIMITS = Citation(
    "Anthropic structured outputs, JSON Schema limitations: schema complexity limits per "
    "request (20 strict tools, 24 optional parameters, 16 union-typed parameters)",
    "https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
    "2026-12-01",
)
ANTHROPIC_MAX_STRICT_TOOLS = 20
ANTHROPIC_MAX_OPTIONAL = 24
ANTHROPIC_MAX_UNIONS = 16
OPENAI_TOOL_COUNT = Citation(
    "OpenAI Chat Completions tools: 'A max of 128 functions are supported' (openai 3.57 types)",
    "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools",
    "2026-11-29",
    evidence="code",
)
OPENAI_MAX_TOOLS = 128

# The tool count past which a vendor's API refuses a request (vendor as toollens.tokens
# names it: "openai" covers Chat Completions, Responses and their count endpoint).
_MAX_TOOLS: dict[str, tuple[str, int, Citation]] = {
    "openai": ("OpenAI", OPENAI_MAX_TOOLS, OPENAI_TOOL_COUNT),
}


def request_refusal(vendor: str, tools: int) -> str | None:
    """Why ``vendor``'s API refuses a request of ``tools`` tools for its size, with the
    source; ``None`` when it takes that many."""
    if vendor not in _MAX_TOOLS:
        return None
    label, limit, cite = _MAX_TOOLS[vendor]
    if tools <= limit:
        return None
    return (
        f"{tools} tools in one request; {label} accepts at most {limit} and refuses the "
        f"request ({cite.title}, {cite.url}, read {cite.date})"
    )


@dataclass(frozen=True)
class StrictShare:
    """What one strict tool adds to a request's totals."""

    name: str
    optional: int
    unions: int


def _parameters(schema: object) -> Iterator[tuple[bool, object]]:
    """``(optional, property schema)`` for every property of every object in ``schema``."""
    for node in iter_schema_nodes(schema):
        value = node.value
        if not isinstance(value, dict):
            continue
        props = value.get("properties")
        if not isinstance(props, dict):
            continue
        required = value.get("required")
        listed = set(required) if isinstance(required, list) else set()
        for name, sub in props.items():
            yield name not in listed, sub


def _is_union(sub: object) -> bool:
    if not isinstance(sub, dict):
        return False
    kind = sub.get("type")
    return isinstance(sub.get("anyOf"), list) or (isinstance(kind, list) and len(kind) > 1)


def strict_share(name: str, schema: object) -> StrictShare:
    """The optional and union-typed parameters one strict tool's schema brings."""
    optional = unions = 0
    for is_optional, sub in _parameters(schema):
        optional += is_optional
        unions += _is_union(sub)
    return StrictShare(name, optional, unions)


def anthropic_strict_budget(tools: Sequence[tuple[str, object, bool]]) -> list[StrictShare]:
    """Each strict tool's share, in request order, from ``(name, schema, strict)`` triples."""
    return [strict_share(name, schema) for name, schema, strict in tools if strict]


@dataclass(frozen=True)
class Overrun:
    """A total past its limit, and the tools whose share takes it there (request order)."""

    total: int
    limit: int
    tools: tuple[str, ...]


def over_budget(shares: Sequence[tuple[str, int]], limit: int) -> Overrun | None:
    """The overrun of ``(tool, amount)`` shares summed in order, or ``None`` within ``limit``.

    The tools named are the one whose share first passes the limit and every later tool
    that adds to the total: dropping them (or making them non-strict) fits the request.
    """
    total = 0
    past: list[str] = []
    for name, amount in shares:
        total += amount
        if total > limit and amount > 0:
            past.append(name)
    if total <= limit:
        return None
    return Overrun(total, limit, tuple(dict.fromkeys(past)))
