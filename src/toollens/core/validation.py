"""Turning pydantic validation errors into JSON pointers and readable clauses."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toollens.core.records import join_pointer


def pointer_from_loc(loc: Sequence[Any]) -> str:
    """Convert a pydantic error location, e.g. ``("items", 0, "name")``, to ``/items/0/name``."""
    return join_pointer("", *(str(part) for part in loc))


def validation_message(error: Any) -> str:
    """One clause for a pydantic error dict: what was expected and what came."""
    value = error.get("input")
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"{error.get('msg', 'invalid value')} (got {shown})"
