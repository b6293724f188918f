"""Gemini: a labelled estimate (Google publishes no offline tokenizer for current models).

The estimate counts the JSON Gemini receives (``name``, ``description`` and the schema) with
o200k_base; it is an approximation, never exact. Google documents no fixed overhead for
function declarations. Claude has its own module (``toollens.tokens.claude``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from toollens.tokens import encodings
from toollens.tokens.result import PartTokens, TokenCount, ToolTokens
from toollens.tokens.tooldefs import ToolDef

ESTIMATE_ENCODING = "o200k_base"


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
    return ToolTokens(tool.name, sum(p.tokens for p in parts), tuple(parts), tool.deferred)


def count_estimate(
    model: str, tools: Sequence[ToolDef], messages: Sequence[str] | None = None
) -> TokenCount:
    """The labelled estimate for a Gemini model."""
    results = tuple(estimate_tool(t) for t in tools)
    notes = [
        f"estimate: Google publishes no offline tokenizer; the tools' JSON is counted "
        f"with {ESTIMATE_ENCODING}; use --online for the provider's exact count",
        "Google documents no fixed token overhead for function declarations",
    ]
    used = None
    if messages is not None:
        used = sum(encodings.count(ESTIMATE_ENCODING, m) for m in messages)
        notes.append(f"messages: {used} tokens of text (estimate; no per-message frame known)")
    total = sum(t.tokens for t in results)
    return TokenCount(
        model, "estimate", total, 0, results, ESTIMATE_ENCODING, tuple(notes), messages=used
    )
