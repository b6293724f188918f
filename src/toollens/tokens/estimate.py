"""Anthropic and Gemini: documented fixed overhead plus a labelled estimate.

Neither provider publishes an offline tokenizer for its current models. The estimate counts
the JSON each provider receives (``name``, ``description`` and the schema) with o200k_base;
it is an approximation, never exact. The overhead is the provider's own published figure.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from toollens.tokens import encodings
from toollens.tokens.result import PartTokens, TokenCount, ToolTokens
from toollens.tokens.tooldefs import ToolDef

ESTIMATE_ENCODING = "o200k_base"
ANTHROPIC_SOURCE = (
    "Anthropic docs, Tool use overview, Pricing: 'tool use system prompt token count' "
    "per model and tool_choice"
)


@dataclass(frozen=True)
class Overhead:
    """A provider's documented tool-use system prompt, in tokens, by tool_choice."""

    prefixes: tuple[str, ...]
    auto_or_none: int
    any_or_tool: int


# Longest prefix first: "claude-3-5-haiku" before "claude-3-haiku" is not an issue, but
# "claude-3-7-sonnet" must not fall to "claude-3-sonnet".
ANTHROPIC_OVERHEAD = (
    Overhead(("claude-opus-4", "claude-sonnet-4", "claude-haiku-4", "claude-3-7-sonnet"), 346, 313),
    Overhead(("claude-3-5-haiku",), 264, 340),
    Overhead(("claude-3-opus",), 530, 281),
    Overhead(("claude-3-sonnet",), 159, 235),
    Overhead(("claude-3-haiku",), 264, 340),
)


def anthropic_overhead(model: str, tool_choice: str) -> int | None:
    """Anthropic's documented tool-use system prompt for ``model``, or ``None`` if undocumented."""
    for row in ANTHROPIC_OVERHEAD:
        if model.startswith(row.prefixes):
            return row.auto_or_none if tool_choice in ("auto", "none") else row.any_or_tool
    return None


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def estimate_tool(tool: ToolDef) -> ToolTokens:
    """An o200k_base estimate of one tool's JSON, split by parameter."""
    head = _json({"name": tool.name, "description": tool.description or ""})
    parts = [PartTokens("", "name + description", encodings.count(ESTIMATE_ENCODING, head))]
    props = tool.parameters.get("properties")
    rest = dict(tool.parameters)
    if isinstance(props, dict):
        rest.pop("properties")
        for name, sub in props.items():
            n = encodings.count(ESTIMATE_ENCODING, _json({name: sub}))
            parts.append(PartTokens(name, "schema", n))
    parts.append(PartTokens("", "schema frame", encodings.count(ESTIMATE_ENCODING, _json(rest))))
    return ToolTokens(tool.name, sum(p.tokens for p in parts), tuple(parts))


def count_estimate(
    model: str, provider: str, tools: Sequence[ToolDef], tool_choice: str
) -> TokenCount:
    """The labelled estimate for an Anthropic or Gemini model."""
    results = tuple(estimate_tool(t) for t in tools)
    notes = [
        f"estimate: {provider} publishes no offline tokenizer; the tools' JSON is counted "
        f"with {ESTIMATE_ENCODING}; use --online for the provider's exact count",
    ]
    overhead = 0
    if provider == "anthropic":
        documented = anthropic_overhead(model, tool_choice) if tools else 0
        if documented is None:
            notes.append(f"no documented tool-use system prompt size for {model}")
        else:
            overhead = documented
            notes.append(
                f"includes {documented} tokens of tool-use system prompt "
                f"(tool_choice={tool_choice}; {ANTHROPIC_SOURCE})"
            )
    else:
        notes.append("Google documents no fixed token overhead for function declarations")
    total = overhead + sum(t.tokens for t in results)
    return TokenCount(model, "estimate", total, overhead, results, ESTIMATE_ENCODING, tuple(notes))
