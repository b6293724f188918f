"""Exact counts for OpenAI chat models: their tools block, tokenized with their encoding.

What is counted: the tokens the tool definitions add to a Chat Completions request that has
no system message of its own. The tools then travel in a system message of their own; its
framing costs 3 tokens (measured: published prompt_tokens with and without functions differ
by exactly 3 + the block's tokens, see tests/tokens/test_tokens_measured.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from toollens.tokens import encodings
from toollens.tokens.coverage import model_measured, unvalidated
from toollens.tokens.openai_render import FRAME, Segment, render, text_of
from toollens.tokens.result import Method, PartTokens, TokenCount, ToolTokens
from toollens.tokens.tooldefs import ToolDef

MESSAGE_FRAME_TOKENS = 3
NOTES = (
    "tokens the tool definitions add to a Chat Completions request without a system "
    "message of its own (the tools block plus its message frame)",
)


def segment_tokens(encoding: str, segments: Sequence[Segment]) -> list[int]:
    """Tokens per segment: each token of the whole text goes to the segment it starts in."""
    enc = encodings.encoding(encoding)
    text = text_of(segments)
    ids = enc.encode(text, disallowed_special=())
    _, starts = enc.decode_with_offsets(ids)
    bounds, pos = [], 0
    for seg in segments:
        pos += len(seg.text)
        bounds.append(pos)
    counts = [0] * len(segments)
    index = 0
    for start in starts:
        while start >= bounds[index]:
            index += 1
        counts[index] += 1
    return counts


#: Tokens every Chat Completions request pays for the reply's priming (OpenAI cookbook).
REPLY_PRIMING_TOKENS = 3


def message_tokens(encoding: str, role: str, content: str) -> int:
    """One chat message: 3 tokens of frame + its role + its content (OpenAI cookbook)."""
    return (
        MESSAGE_FRAME_TOKENS + encodings.count(encoding, role) + encodings.count(encoding, content)
    )


def messages_tokens(encoding: str, messages: Sequence[str]) -> int:
    """User messages of a request, with the reply's priming (validated by the published
    requests of tests/tokens/test_tokens_measured.py)."""
    return REPLY_PRIMING_TOKENS + sum(message_tokens(encoding, "user", m) for m in messages)


def count_openai(
    model: str, encoding: str, tools: Sequence[ToolDef], messages: Sequence[str] | None = None
) -> TokenCount:
    """The count of ``tools`` for OpenAI chat model ``model`` (``exact`` or ``rendered``);
    with ``messages`` (user messages' texts) the whole request's ``messages`` share too."""
    extra: list[str] = []
    segments = render(tools, extra)
    counts = segment_tokens(encoding, segments)
    per_part: list[dict[tuple[str, str], int]] = [defaultdict(int) for _ in tools]
    overhead = MESSAGE_FRAME_TOKENS
    for seg, n in zip(segments, counts, strict=False):
        if seg.tool is None or seg.kind == FRAME:
            overhead += n
        else:
            per_part[seg.tool][(seg.path, seg.kind)] += n
    results = tuple(
        ToolTokens(
            name=tool.name,
            tokens=sum(parts.values()),
            parts=tuple(PartTokens(path, kind, n) for (path, kind), n in parts.items()),
            deferred=tool.deferred,
            unvalidated=unvalidated(tool),
        )
        for tool, parts in zip(tools, per_part, strict=False)
    )
    total = overhead + sum(t.tokens for t in results)
    constructs = tuple(sorted({c for t in results for c in t.unvalidated}))
    if not model_measured(model):
        constructs = (f"model {model}", *constructs)
    method: Method = "rendered" if constructs else "exact"
    notes = [*NOTES, *extra, _method_note(model, constructs)]
    used = None if messages is None else messages_tokens(encoding, messages)
    if used is not None:
        notes.append(
            f"messages: {used} tokens ({len(messages or ())} user message(s): 3 + role + "
            "content each, and 3 for the reply, as OpenAI's cookbook counts)"
        )
    return TokenCount(
        model,
        method,
        total,
        overhead,
        results,
        encoding,
        tuple(notes),
        unvalidated=constructs,
        messages=used,
    )


def _method_note(model: str, constructs: tuple[str, ...]) -> str:
    if not constructs:
        return (
            "exact: every construct of these tools, and the model, are covered by published "
            "API-measured prompt_tokens (docs/tokens.md lists them)"
        )
    return (
        "rendered: the exact tokens of toollens' rendering of the block; no published "
        f"API-measured figure covers {', '.join(constructs)}"
    )
