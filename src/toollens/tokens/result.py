"""The result of a token count: a total, its method, and where the tokens go."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from toollens.core.display_hooks import mimebundle
from toollens.core.record_json import record_json
from toollens.core.schema.types import JsonObject

Method = Literal["exact", "rendered", "estimate", "api"]


@dataclass(frozen=True)
class UnreadTool:
    """A tool of the input that could not be read, so it is not in the count.

    Attributes:
        name: the tool's name, or the source's when the whole source failed.
        error: why, in one line.
    """

    name: str
    error: str

    def __str__(self) -> str:
        return f"{self.name} ({self.error})"

    def to_json(self) -> JsonObject:
        return record_json(self, "name", "error")


@dataclass(frozen=True)
class PartTokens:
    """The tokens one part of a tool costs.

    Attributes:
        path: the parameter path (``"unit"``, ``"items[].name"``); ``""`` for the tool itself.
        kind: ``name + description`` (the tool), or for a parameter ``name``, ``type``,
            ``description``, ``enum`` or ``default``.
        tokens: how many tokens.
    """

    path: str
    kind: str
    tokens: int

    @property
    def label(self) -> str:
        return f"{self.path} ({self.kind})" if self.path else self.kind

    def to_json(self) -> JsonObject:
        return record_json(self, "path", "kind", "tokens")


@dataclass(frozen=True)
class ToolTokens:
    """The tokens one tool costs inside the request, with its parts.

    Attributes:
        name: the tool's name.
        tokens: its tokens when its definition is in the request.
        parts: where they go.
        deferred: the tool is loaded on demand (``defer_loading``): not paid up front.
        unvalidated: this tool's constructs no published figure covers (``rendered``).
    """

    name: str
    tokens: int
    parts: tuple[PartTokens, ...] = ()
    deferred: bool = False
    unvalidated: tuple[str, ...] = ()

    def to_json(self) -> JsonObject:
        return record_json(self, "name", "tokens", "deferred", "unvalidated", "parts")


@dataclass(frozen=True)
class TokenCount:
    """What a list of tools costs for one model.

    Attributes:
        model: the model name asked for.
        method: ``exact`` (the model's own tokenizer on the text it reads, every construct
            of every tool covered by a published API-measured figure), ``rendered`` (the
            exact tokens of toollens' rendering, with constructs no published figure
            validates: see ``unvalidated``), ``estimate`` (no public tokenizer: a labelled
            approximation) or ``api`` (the provider's count-tokens endpoint).
        total: every token the tools add to a request when all are loaded (``overhead`` +
            the tools).
        overhead: tokens that belong to no single tool (the block's frame, a provider's
            documented tool-use system prompt, the tool-search tool when tools are deferred).
        tools: per-tool counts, in request order.
        tokenizer: what counted (an encoding name, or the endpoint).
        notes: what the figure includes, and its limits.
        unread: the tools of the input that could not be read (not in the count).
        unvalidated: the schema constructs of the tools that no published figure covers
            (``$ref``, ``anyOf``, ``const``, ``default``...), when ``method`` is ``rendered``.
        messages: tokens of the request's messages, when messages were given (``None``:
            only the tools were counted).
    """

    model: str
    method: Method
    total: int
    overhead: int
    tools: tuple[ToolTokens, ...]
    tokenizer: str
    notes: tuple[str, ...] = field(default=())
    unread: tuple[UnreadTool, ...] = ()
    unvalidated: tuple[str, ...] = ()
    messages: int | None = None

    @property
    def complete(self) -> bool:
        """Whether every tool of the input was read (else ``unread`` names the others)."""
        return not self.unread

    @property
    def deferred(self) -> int:
        """Tokens of the deferred tools' definitions, paid only once a tool is loaded."""
        return sum(t.tokens for t in self.tools if t.deferred)

    @property
    def up_front(self) -> int:
        """Tokens every request pays: ``total`` without the deferred definitions."""
        return self.total - self.deferred

    @property
    def request(self) -> int | None:
        """The whole request (messages + tools + overhead), when messages were given."""
        return None if self.messages is None else self.messages + self.up_front

    def tool(self, name: str) -> ToolTokens:
        """The count of the tool called ``name``."""
        for item in self.tools:
            if item.name == name:
                return item
        raise KeyError(name)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        # toollens.render registers how a count is shown (the layers point render -> tokens)

        return mimebundle(self, kwargs.get("include"), kwargs.get("exclude"))

    def to_json(self) -> JsonObject:
        return record_json(
            self,
            "total",
            "model",
            "method",
            "tokenizer",
            "overhead",
            "up_front",
            "deferred",
            "messages",
            "request",
            "tools",
            "unread",
            "unvalidated",
            "notes",
        )
