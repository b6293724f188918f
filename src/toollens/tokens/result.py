"""The result of a token count: a total, its method, and where the tokens go."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from toollens.core.schema.types import JsonObject

Method = Literal["exact", "estimate", "api"]


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
        return {"path": self.path, "kind": self.kind, "tokens": self.tokens}


@dataclass(frozen=True)
class ToolTokens:
    """The tokens one tool costs inside the request, with its parts."""

    name: str
    tokens: int
    parts: tuple[PartTokens, ...] = ()

    def to_json(self) -> JsonObject:
        return {
            "name": self.name,
            "tokens": self.tokens,
            "parts": [p.to_json() for p in self.parts],
        }


@dataclass(frozen=True)
class TokenCount:
    """What a list of tools costs for one model.

    Attributes:
        model: the model name asked for.
        method: ``exact`` (the model's own tokenizer on the text it reads), ``estimate``
            (no public tokenizer: a labelled approximation) or ``api`` (the provider's
            count-tokens endpoint).
        total: every token the tools add to a request (``overhead`` + the tools).
        overhead: tokens that belong to no single tool (the block's frame, a provider's
            documented tool-use system prompt).
        tools: per-tool counts, in request order.
        tokenizer: what counted (an encoding name, or the endpoint).
        notes: what the figure includes, and its limits.
    """

    model: str
    method: Method
    total: int
    overhead: int
    tools: tuple[ToolTokens, ...]
    tokenizer: str
    notes: tuple[str, ...] = field(default=())

    def tool(self, name: str) -> ToolTokens:
        """The count of the tool called ``name``."""
        for item in self.tools:
            if item.name == name:
                return item
        raise KeyError(name)

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, str]:
        # toollens.render registers how a count is shown (the layers point render -> tokens)
        from toollens.core.display_hooks import mimebundle

        return mimebundle(self, kwargs.get("include"), kwargs.get("exclude"))

    def to_json(self) -> JsonObject:
        return {
            "total": self.total,
            "model": self.model,
            "method": self.method,
            "tokenizer": self.tokenizer,
            "overhead": self.overhead,
            "tools": [t.to_json() for t in self.tools],
            "notes": list(self.notes),
        }
