"""The applicators: how the value of each subschema-holding keyword is converted.

``APPLY`` maps a keyword to one of three functions: one subschema (``items``), a map of
them (``properties``, ``$defs``, ``definitions``), a list of them (``anyOf``, ``allOf``). A
value of another shape is copied as is, as the reference leaves it. ``at`` is the
keyword's own place: the node's paths extended by the keyword, one level deeper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from toollens.core.schema.toolkit import copy_json
from toollens.core.strict.state import At, WalkState

__all__ = ["APPLY", "schema_list", "schema_map", "schema_value"]


def schema_value(walker: WalkState, value: object, at: At) -> object:
    if not isinstance(value, dict):  # e.g. tuple-form `items`, left as the reference does
        return copy_json(value)
    return walker.node(value, at)


def schema_map(walker: WalkState, value: object, at: At) -> object:
    if not isinstance(value, dict):
        return copy_json(value)
    node = walker.node
    inp, out, depth, _, nested = at
    return {
        name: node(sub, ((inp, name), (out, name), depth, False, nested))
        for name, sub in value.items()
    }


def schema_list(walker: WalkState, value: object, at: At) -> object:
    if not isinstance(value, list):
        return copy_json(value)
    node = walker.node
    inp, out, depth, _, nested = at
    return [node(sub, ((inp, i), (out, i), depth, False, nested)) for i, sub in enumerate(value)]


APPLY: Final[dict[str, Callable[[WalkState, object, At], object]]] = {
    "$defs": schema_map,
    "definitions": schema_map,
    "properties": schema_map,
    "items": schema_value,
    "anyOf": schema_list,
    "allOf": schema_list,
}
