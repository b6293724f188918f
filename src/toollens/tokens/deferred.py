"""Deferred tools: definitions marked ``defer_loading`` are not in the prompt up front.

Anthropic (``defer_loading: true`` on a tool, with a tool-search server tool) and OpenAI's
Responses API (``defer_loading: true`` on a function, with a ``tool_search`` tool, gpt-5.4
and later) keep a deferred definition out of the prompt until the model finds it; a found
tool then costs its definition. So a count says what is paid up front (``up_front``: every
tool not deferred, and the overhead) and what each deferred tool costs once loaded (its own
``tokens``, with ``deferred`` set).

The tool-search tool's own definition is part of the request too. Neither provider publishes
its size in tokens, so toollens does not add a number for it; the note says so.
"""

from __future__ import annotations

import dataclasses

from toollens.tokens.result import TokenCount

SEARCH_TOOL = {
    "anthropic": "Anthropic's tool search tool (tool_search_tool_regex / _bm25)",
    "openai": "OpenAI's tool_search tool (Responses API, gpt-5.4 and later)",
}


def with_deferred(counted: TokenCount, provider: str) -> TokenCount:
    """``counted`` with a note on what its deferred tools cost up front and once loaded."""
    deferred = [t for t in counted.tools if t.deferred]
    if not deferred:
        return counted
    search = SEARCH_TOOL.get(provider, "the provider's tool search tool")
    note = (
        f"deferred: {len(deferred)} of {len(counted.tools)} tools are marked defer_loading and "
        f"cost nothing up front ({counted.deferred} tokens once all are loaded); "
        f"{counted.up_front} tokens up front. Not included: the tool search tool's own "
        f"definition ({search}; its size is not published)"
    )
    return dataclasses.replace(counted, notes=(*counted.notes, note))
