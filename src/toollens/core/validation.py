"""Turning pydantic validation errors into JSON pointers and readable clauses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.toolkit import shorten


def pointer_from_loc(loc: Sequence[Any], data: Any, *, missing: bool = False) -> str:
    """Map pydantic's ``loc`` onto the validated JSON data, e.g. ``/items/0/name``.

    Tokens that name no JSON node (the tags pydantic adds for union members or validators,
    such as ``"int"`` or ``"Foo"``) are dropped; for a missing value the last token is kept,
    pointing where the absent property or item should have been.
    """
    tokens: list[str | int] = []
    node = data
    for i, item in enumerate(loc):
        in_object = isinstance(node, dict) and isinstance(item, str) and item in node
        in_array = isinstance(node, list) and isinstance(item, int) and 0 <= item < len(node)
        if in_object or in_array:
            node = node[item]
            tokens.append(item)
        elif missing and i == len(loc) - 1 and isinstance(node, (dict, list)):
            tokens.append(item)
    return join_pointer("", *tokens)


def validation_message(error: Any) -> str:
    """One clause for a pydantic error dict: what was expected and what came."""
    value = error.get("input")
    return f"{error.get('msg', 'invalid value')} (got {shorten(repr(value))})"
