"""Turning pydantic validation errors into JSON pointers and readable clauses."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.toolkit import shorten


def pointer_from_loc(loc: Sequence[str | int], data: object, *, missing: bool = False) -> str:
    """Map pydantic's ``loc`` onto the validated JSON data, e.g. ``/items/0/name``.

    Tokens that name no JSON node (the tags pydantic adds for union members or validators,
    such as ``"int"`` or ``"Foo"``) are dropped; for a missing value the last token is kept,
    pointing where the absent property or item should have been.
    """
    tokens: list[str | int] = []
    node: Any = data  # narrowed by the isinstance tests below, one step at a time
    for i, item in enumerate(loc):
        in_object = isinstance(node, dict) and isinstance(item, str) and item in node
        in_array = isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node)
        if in_object or in_array:
            node = node[item]
            tokens.append(item)
        elif missing and i == len(loc) - 1 and isinstance(node, (dict, list)):
            tokens.append(item)
    return join_pointer("", *tokens)


def validation_message(error: Mapping[str, object]) -> str:
    """One clause for a pydantic error dict: what was expected and what came."""
    value = error.get("input")
    return f"{error.get('msg', 'invalid value')} (got {shorten(repr(value))})"


# Sentences of pydantic's messages that advise on pydantic's own configuration; they are
# advice to a pydantic user, not to a tool author, so toollens never repeats them.
PYDANTIC_ADVICE = (
    "arbitrary_types_allowed",
    "model_config",
    "__get_pydantic_core_schema__",
    "__get_pydantic_json_schema__",
    "model_rebuild",
    "rebuild()",
    "you should define",
    "For further information",
    "errors.pydantic.dev",
)


def pydantic_reason(exc: BaseException) -> str:
    """What went wrong in a pydantic schema error, without pydantic's configuration advice.

    ``Unable to generate pydantic-core schema for <class 'X'>. Set `arbitrary_types_allowed`
    ...`` becomes ``no JSON schema is known for <class 'X'>``; other messages keep their
    first line, less any sentence that advises on pydantic's configuration.
    """
    lines = str(exc).strip().splitlines()
    first = lines[0] if lines else ""
    if first.startswith("Unable to generate pydantic-core schema for "):
        subject = first.removeprefix("Unable to generate pydantic-core schema for ")
        subject = subject.split(". ", 1)[0].rstrip(".")
        return f"no JSON schema is known for {subject}"
    if "is not fully defined" in first:
        named = re.search(r"you should define `([^`]*)`", first)
        subject = named.group(1) if named else ""
        if not subject or "toollens" in subject:  # our own wrapper: the name means nothing
            return "it refers to a name that is not defined"
        return f"it refers to {subject}, which is not defined"
    kept = [
        sentence
        for sentence in first.split(". ")
        if sentence and not any(marker in sentence for marker in PYDANTIC_ADVICE)
    ]
    text = ". ".join(kept).strip().rstrip(".")
    return text or f"{type(exc).__name__} while building the schema"
