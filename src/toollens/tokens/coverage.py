"""Which parts of a tool a published, API-measured token figure covers.

An OpenAI count is ``exact`` only when every construct of every tool, and the model, are
covered by a figure the API itself returned (``usage.prompt_tokens``) for a request holding
that construct; otherwise it is ``rendered``: the exact tokens of toollens' rendering, with
the constructs no figure covers named. The covered set is the union of the constructs of the
published requests listed in ``docs/tokens.md`` (tests/tokens/test_tokens_measured.py holds
them and checks this set against them):

- hmarr/openai-chat-tokens, tests/token-counts.test.ts (gpt-3.5-turbo, measured by the API);
- openai/openai-cookbook, "How to count tokens with tiktoken", function-calling cell
  (gpt-3.5-turbo, gpt-4, gpt-4o, gpt-4o-mini).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from toollens.tokens.tooldefs import ToolDef

#: The constructs the published requests hold (see the module docstring).
MEASURED_CONSTRUCTS = frozenset(
    {
        "description",
        "enum of strings",
        "properties",
        "required",
        "items",
        "type array",
        "type boolean",
        "type number",
        "type object",
        "type string",
    }
)
#: The models the published requests were sent to.
MEASURED_MODELS = frozenset({"gpt-3.5-turbo", "gpt-4", "gpt-4o", "gpt-4o-mini"})
_TYPE_KEYS = ("type", "enum", "const", "$ref", "anyOf", "oneOf", "allOf")


def tool_constructs(tool: ToolDef) -> set[str]:
    """Every construct of ``tool``: its description's shape and its schema's keywords."""
    found = set(_description(tool.description))
    params = tool.parameters
    for key, value in params.items():
        if key == "type" and value == "object":
            continue  # the root is an object in every published request
        if key == "properties" and isinstance(value, Mapping):
            found.add("properties")
            for sub in value.values():
                found.update(_node(sub))
        elif key == "required":
            found.add("required")
        else:
            found.update(_keyword(key, value))
    return found


def unvalidated(tool: ToolDef) -> tuple[str, ...]:
    """The constructs of ``tool`` that no published figure covers, sorted."""
    return tuple(sorted(tool_constructs(tool) - MEASURED_CONSTRUCTS))


def model_measured(model: str) -> bool:
    """Whether a published figure was measured on ``model`` itself."""
    return model.strip().lower() in MEASURED_MODELS


def _description(text: str | None) -> Iterator[str]:
    if text:
        yield "multi-line description" if "\n" in text.strip() else "description"


def _node(node: Any) -> Iterator[str]:
    if not isinstance(node, Mapping):
        yield "non-object schema"
        return
    if not any(key in node for key in _TYPE_KEYS):
        yield "no type"
    for key, value in node.items():
        yield from _keyword(key, value, node)


def _keyword(key: str, value: Any, node: Mapping[str, Any] | None = None) -> Iterator[str]:
    if key == "type":
        yield from _type(value, node or {})
    elif key == "description":
        yield from _description(value if isinstance(value, str) else None)
    elif key == "enum":
        strings = isinstance(value, list) and all(isinstance(v, str) for v in value)
        yield "enum of strings" if strings else "enum of non-strings"
    elif key == "properties" and isinstance(value, Mapping):
        yield "properties"
        for sub in value.values():
            yield from _node(sub)
    elif key == "required":
        yield "required"
    elif key == "items":
        yield "items"
        yield from _node(value)
    elif key in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
        yield key
        for member in value:
            yield from _node(member)
    elif key in ("$defs", "definitions") and isinstance(value, Mapping):
        yield key
        for sub in value.values():
            yield from _node(sub)
    elif key in ("additionalProperties", "not", "if", "then", "else", "contains") and (
        isinstance(value, Mapping)
    ):
        yield key
        yield from _node(value)
    else:
        yield key  # $ref, const, default, title, format, minimum, pattern, examples...


def _type(value: Any, node: Mapping[str, Any]) -> Iterator[str]:
    if isinstance(value, list):
        yield "type list"
        return
    yield f"type {value}"
    if value == "object" and not isinstance(node.get("properties"), Mapping):
        yield "object without properties"
    if value == "array" and not isinstance(node.get("items"), Mapping):
        yield "array without items"
