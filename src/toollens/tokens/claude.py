"""Claude: Anthropic's tool-use system prompt per model, the tools as Claude reads them, and
Claude's own tokenizer offline where ``ctok`` is installed.

What a request with tools costs on Claude (the figure ``messages.count_tokens`` returns):
the tool-use system prompt Anthropic documents per model and ``tool_choice`` (the table
below), plus each tool rendered into that prompt, plus the messages. The tools are rendered
as Anthropic's docs describe the prompt ("Here are the functions available in JSONSchema
format"): one ``<function>{"description": ..., "name": ..., "parameters": ...}</function>``
line per tool. That rendering is not published in full; it reproduces the one published
request with a tool (the docs' ``get_weather`` example, 403 input tokens) on the Claude 4
row, see docs/tokens.md. Counts stay ``estimate``: one published figure does not prove it.

Tokenizer: ``ctok`` (PyPI, Python 3.12+, the ``claude-tokens`` extra) reconstructs Claude's
tokenizer families offline (v3: Claude 3 to Opus 4.6; v4.7: Opus 4.7; v4.8: Opus 4.8, Sonnet
5, Opus 5). Without it the text is counted with ``o200k_base``, a rougher estimate.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from toollens.tokens import encodings
from toollens.tokens.errors import UnknownModelError
from toollens.tokens.result import PartTokens, TokenCount, ToolTokens
from toollens.tokens.tooldefs import ToolDef

FALLBACK_ENCODING = "o200k_base"
CURRENT_TABLE = (
    "Anthropic docs, Tool use overview, Pricing: 'tool use system prompt token count' per "
    "model and tool_choice (platform.claude.com/docs/en/agents-and-tools/tool-use/overview), "
    "read 2026-12-01"
)
OLDER_TABLE = (
    "an older copy of the same Anthropic table (docs.anthropic.com/en/docs/"
    "tool-use-pricing-and-tokens) for models the current one no longer lists, read 2026-12-02"
)


@dataclass(frozen=True)
class ClaudeModel:
    """One row of Anthropic's tool-use system prompt table.

    Attributes:
        ids: the model ids the row covers (without a ``-YYYYMMDD`` snapshot suffix).
        auto_or_none: tokens with ``tool_choice`` auto or none.
        any_or_tool: tokens with ``tool_choice`` any or tool.
        tokenizer: the ``ctok`` family version of these models.
        source: where the figures come from, and when they were read.
    """

    ids: tuple[str, ...]
    auto_or_none: int
    any_or_tool: int
    tokenizer: str
    source: str = CURRENT_TABLE

    def overhead(self, tool_choice: str) -> int:
        return self.auto_or_none if tool_choice in ("auto", "none") else self.any_or_tool


CLAUDE_MODELS: tuple[ClaudeModel, ...] = (
    ClaudeModel(("claude-opus-5",), 286, 406, "4.8"),
    ClaudeModel(("claude-sonnet-5",), 354, 474, "4.8"),
    ClaudeModel(("claude-opus-4-8",), 290, 410, "4.8"),
    ClaudeModel(("claude-opus-4-7",), 675, 804, "4.7"),
    ClaudeModel(("claude-opus-4-6", "claude-sonnet-4-6"), 497, 589, "3.0"),
    ClaudeModel(("claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5"), 496, 588, "3.0"),
    ClaudeModel(
        (
            "claude-opus-4",
            "claude-opus-4-0",
            "claude-opus-4-1",
            "claude-sonnet-4",
            "claude-sonnet-4-0",
        ),
        313,
        315,
        "3.0",
    ),
    ClaudeModel(("claude-3-5-haiku",), 264, 355, "3.0"),
    ClaudeModel(("claude-3-7-sonnet",), 346, 313, "3.0", OLDER_TABLE),
    ClaudeModel(("claude-3-opus",), 530, 281, "3.0", OLDER_TABLE),
    ClaudeModel(("claude-3-sonnet",), 159, 235, "3.0", OLDER_TABLE),
    ClaudeModel(("claude-3-haiku",), 264, 340, "3.0", OLDER_TABLE),
)
_SNAPSHOT = re.compile(r"-(\d{8}|latest)$")


def model_id(model: str) -> str:
    """``model`` as the table names it: lower case, without a snapshot date or ``-latest``."""
    return _SNAPSHOT.sub("", model.strip().lower())


def claude_model(model: str) -> ClaudeModel:
    """The table row of ``model``.

    Raises:
        UnknownModelError: a Claude model the table has no row for (never another row's).
    """
    wanted = model_id(model)
    for row in CLAUDE_MODELS:
        if wanted in row.ids:
            return row
    known = ", ".join(i for row in CLAUDE_MODELS for i in row.ids)
    raise UnknownModelError(
        f"no documented tool-use system prompt size for {model!r}",
        hint=f"name a documented Claude model ({known}), or pass --online for Anthropic's "
        "own count",
    )


def render_tool(tool: ToolDef) -> str:
    """One tool as Claude's tool-use prompt holds it (see the module docstring)."""
    body = {"description": tool.description or "", "name": tool.name}
    return f"<function>{json.dumps({**body, 'parameters': dict(tool.parameters)})}</function>"


def ctok_available() -> bool:
    """Whether ``ctok`` (Claude's tokenizer reconstruction, Python 3.12+) is installed."""
    try:
        import ctok
    except ImportError:
        return False
    return callable(getattr(ctok, "tokenize", None))  # not a stray directory called ctok


@functools.cache
def _ctok_frame(version: str) -> tuple[str, int]:
    import ctok

    pad = ctok.tokenize("x", version)[0]
    return pad, sum(1 for t in ctok.tokenize("x", version) if t == pad)


def ctok_counter(version: str) -> Callable[[str], int]:
    """Content tokens of a text in ``ctok``'s family ``version`` (its message frame left out)."""
    import ctok

    pad, _ = _ctok_frame(version)
    return lambda text: sum(1 for t in ctok.tokenize(text, version) if t != pad) if text else 0


def message_frame(version: str) -> int:
    """Tokens of ``ctok``'s one-message frame in family ``version``."""
    return _ctok_frame(version)[1]


def counter_for(row: ClaudeModel) -> tuple[Callable[[str], int], str]:
    """How text is counted for ``row``'s models, and the tokenizer's label."""
    if ctok_available():
        return ctok_counter(row.tokenizer), f"ctok {row.tokenizer}"
    return (lambda text: encodings.count(FALLBACK_ENCODING, text)), FALLBACK_ENCODING


def count_claude(
    model: str,
    tools: Sequence[ToolDef],
    tool_choice: str,
    messages: Sequence[str] | None = None,
) -> TokenCount:
    """The labelled estimate for a Claude model: documented overhead + the rendered tools.

    ``messages`` (user messages' texts) makes it a whole request, as ``count_tokens`` counts.
    """
    row = claude_model(model)
    count, tokenizer = counter_for(row)
    results = tuple(
        ToolTokens(t.name, n, (PartTokens("", "definition", n),), t.deferred)
        for t, n in ((t, count(render_tool(t))) for t in tools)
    )
    overhead = row.overhead(tool_choice) if tools else 0
    total = overhead + sum(t.tokens for t in results)
    notes = [
        f"estimate: Claude's tools counted as rendered into its tool-use prompt, with "
        f"{tokenizer}"
        + (
            ""
            if tokenizer.startswith("ctok")
            else " (ctok, Python 3.12+, "
            "counts with Claude's own tokenizer family: the claude-tokens extra)"
        ),
        f"includes {overhead} tokens of tool-use system prompt (tool_choice={tool_choice}; "
        f"{row.source})",
    ]
    used = None
    if messages is not None:
        frame = message_frame(row.tokenizer) if tokenizer.startswith("ctok") else 7
        used = frame + sum(count(m) for m in messages)
        notes.append(
            f"messages: {used} tokens ({len(messages)} user message(s) and the request's "
            f"{frame}-token frame)"
        )
    if messages is not None and tools:
        notes.append(published_note(row, tool_choice))
    return TokenCount(
        model, "estimate", total, overhead, results, tokenizer, tuple(notes), messages=used
    )


CLAUDE_4 = next(row for row in CLAUDE_MODELS if "claude-opus-4" in row.ids)
"""The row Anthropic's one published request with a tool was measured on."""
PUBLISHED_REQUEST = 403
"""Anthropic's docs (Token counting, "Count tokens in messages with tools"): the
``get_weather`` tool and "What's the weather like in San Francisco?" -> 403 input tokens.
The localized copies of the page name ``claude-opus-4-20250514``; the English page now shows
claude-sonnet-4-5 / claude-opus-5 with the same 403 (read 2026-12-04)."""


def published_note(row: ClaudeModel, tool_choice: str) -> str:
    """Why a whole-request count on ``row`` differs from the docs' published 403."""
    if row is CLAUDE_4:
        return (
            f"Anthropic's published count_tokens example (get_weather + one question: "
            f"{PUBLISHED_REQUEST}) is this row's: toollens reproduces it with ctok"
        )
    more = row.overhead(tool_choice) - CLAUDE_4.overhead("auto")
    return (
        f"Anthropic's one published count_tokens figure with a tool ({PUBLISHED_REQUEST}: "
        "get_weather + one question; the English page shows it under claude-sonnet-4-5 and "
        f"claude-opus-5) holds the Claude 4 tool-use prompt ({CLAUDE_4.overhead('auto')} "
        "tokens; the page's localized copies name claude-opus-4-20250514); this model's "
        f"documented prompt is {row.overhead(tool_choice)} tokens, so that request counts "
        f"{more:+d} here, not {PUBLISHED_REQUEST}"
        + (
            ""
            if row.tokenizer == CLAUDE_4.tokenizer
            else f", before its text is counted with tokenizer family {row.tokenizer}"
        )
    )
