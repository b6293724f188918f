"""``tokens()``: what tool definitions cost, per model, offline unless asked otherwise."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from toollens.core.errors import TargetError
from toollens.mcp.target import MCP_PREFIX, is_mcp_target
from toollens.tokens.errors import OnlineCountError
from toollens.tokens.models import DEFAULT_MODEL, rule_for
from toollens.tokens.result import TokenCount, UnreadTool
from toollens.tokens.tooldefs import CountableTools, ToolDef, skipped, tool_defs


def tokens(
    tools: CountableTools,
    model: str = DEFAULT_MODEL,
    *,
    online: bool = False,
    tool_choice: str = "auto",
    messages: Sequence[str] | None = None,
) -> TokenCount:
    """How many tokens ``tools`` add to a request to ``model``, and where they go.

    Args:
        tools: a callable, ``FunctionSchema``, ``Report``, tool payload or schema dict, a
            toolset, or a list of those. A payload marked ``defer_loading: true`` is counted
            apart (``up_front`` leaves it out).
        model: an OpenAI chat model (its own encoding; ``exact`` or ``rendered``),
            ``gpt-oss-*`` (exact, by openai-harmony), ``claude-*`` or ``gemini-*``
            (estimate, or ``online``).
        online: ask the provider's count endpoint (Anthropic, Gemini, OpenAI's Responses
            ``input_tokens.count``; needs an API key; the only call that uses the network).
        tool_choice: Anthropic's documented overhead depends on it (``auto``, ``none``,
            ``any``, ``tool``).
        messages: user messages' texts: the count is then a whole request (messages +
            tools + overhead, as the count endpoints count it) in ``request``.

    Returns:
        A :class:`TokenCount` whose ``method`` says how exact it is; a toolset's entries
        that could not be read are left out and listed in its ``unread``.

    Raises:
        TargetError: ``tools`` holds tools but none of them could be read.
    """
    defs = tool_defs(tools)
    unread = skipped(tools)
    if unread and not defs:
        raise TargetError(none_read(unread))
    wanted = None if messages is None else tuple(messages)
    if not defs:
        return _no_tools(model)
    # lazy: core.providers.requests (~1.5 ms); `toollens --help` imports this module, not it
    from toollens.core.providers.requests import request_refusal

    refused = request_refusal(rule_for(model).provider, len(defs))
    if refused is not None and online:  # never sent: the provider would refuse it for its size
        raise OnlineCountError(f"not sent: {refused}", hint="count fewer tools at once")
    counted = _count(defs, model, online, tool_choice, wanted)
    if refused is not None:  # what such a request costs, and that it is refused
        counted = dataclasses.replace(counted, notes=(*counted.notes, refused))
    if unread:
        note = f"{len(unread)} of {len(unread) + len(defs)} tools not counted (could not be read)"
        counted = dataclasses.replace(counted, unread=unread, notes=(*counted.notes, note))
    if any(d.deferred for d in defs) and not online:
        # lazy: toollens.tokens.deferred (~1 ms), for deferred tools only (not at `--help`)
        from toollens.tokens.deferred import with_deferred

        counted = with_deferred(counted, rule_for(model).provider)
    return counted


def none_read(unread: tuple[UnreadTool, ...]) -> str:
    """The one-line error for an input of which no tool could be read."""
    if len(unread) == 1:
        only = unread[0]
        # an mcp: target's error names its command already
        bare = only.name.removeprefix(MCP_PREFIX) if is_mcp_target(only.name) else only.name
        return only.error if bare and bare in only.error else f"{only.name}: {only.error}"
    listed = "; ".join(str(u) for u in unread[:5])
    more = f"; and {len(unread) - 5} more" if len(unread) > 5 else ""
    return f"none of the {len(unread)} tools could be read: {listed}{more}"


def _no_tools(model: str) -> TokenCount:
    # A request without tools has no tools block and no tool-use system prompt.
    rule = rule_for(model)
    return TokenCount(
        model,
        "exact",
        0,
        0,
        (),
        rule.encoding or rule.provider,
        ("no tools: a request without tools pays no tool tokens",),
    )


def _count(
    defs: tuple[ToolDef, ...],
    model: str,
    online: bool,
    tool_choice: str,
    messages: tuple[str, ...] | None,
) -> TokenCount:
    rule = rule_for(model)
    if online:
        # lazy: the online counter (~1 ms) loads for online=True only
        from toollens.tokens.online import count_online

        return count_online(model, rule.provider, defs, messages)
    if rule.provider == "openai":
        # lazy: the OpenAI renderer and encodings (~4 ms), for OpenAI models only
        from toollens.tokens.openai_count import count_openai

        assert rule.encoding is not None
        return count_openai(model, rule.encoding, defs, messages)
    if rule.provider == "gpt-oss":
        # lazy: the harmony counter and encodings (~2 ms), for gpt-oss only
        from toollens.tokens.harmony_count import count_harmony

        return count_harmony(model, defs, messages)
    if rule.provider == "anthropic":
        # lazy: the Claude counter and encodings (~3 ms), for Claude models only
        from toollens.tokens.claude import count_claude

        return count_claude(model, defs, tool_choice, messages)
    # lazy: the estimate and encodings (~1.5 ms), for other models only
    from toollens.tokens.estimate import count_estimate

    return count_estimate(model, defs, messages)
