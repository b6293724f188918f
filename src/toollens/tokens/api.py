"""``tokens()``: what tool definitions cost, per model, offline unless asked otherwise."""

from __future__ import annotations

import dataclasses

from toollens.tokens.models import DEFAULT_MODEL, rule_for
from toollens.tokens.result import TokenCount
from toollens.tokens.tooldefs import CountableTools, ToolDef, skipped, tool_defs


def tokens(
    tools: CountableTools,
    model: str = DEFAULT_MODEL,
    *,
    online: bool = False,
    tool_choice: str = "auto",
) -> TokenCount:
    """How many tokens ``tools`` add to a request to ``model``, and where they go.

    Args:
        tools: a callable, ``FunctionSchema``, ``Report``, tool payload or schema dict, a
            toolset, or a list of those.
        model: an OpenAI chat model (exact, its own encoding), ``gpt-oss-*`` (exact, by
            openai-harmony), ``claude-*`` or ``gemini-*`` (estimate, or ``online``).
        online: for Anthropic and Gemini, ask the provider's count-tokens endpoint (needs
            an API key; the only call that uses the network).
        tool_choice: Anthropic's documented overhead depends on it (``auto``, ``none``,
            ``any``, ``tool``).

    Returns:
        A :class:`TokenCount` whose ``method`` says how exact it is.
    """
    defs = tool_defs(tools)
    counted = _count(defs, model, online, tool_choice)
    left_out = skipped(tools)
    if left_out:
        note = "not counted (could not be read): " + ", ".join(left_out)
        counted = dataclasses.replace(counted, notes=(*counted.notes, note))
    return counted


def _count(defs: tuple[ToolDef, ...], model: str, online: bool, tool_choice: str) -> TokenCount:
    rule = rule_for(model)
    if rule.provider == "openai":
        from toollens.tokens.openai_count import count_openai

        assert rule.encoding is not None
        return count_openai(model, rule.encoding, defs)
    if rule.provider == "gpt-oss":
        from toollens.tokens.harmony_count import count_harmony

        return count_harmony(model, defs)
    if online:
        from toollens.tokens.online import count_online

        return count_online(model, rule.provider, defs)
    from toollens.tokens.estimate import count_estimate

    return count_estimate(model, rule.provider, defs, tool_choice)
