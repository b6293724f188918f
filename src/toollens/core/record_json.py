"""A record's JSON form, declared as its keys in order: the one function records' ``to_json`` call.

A record (a frozen dataclass) is written to JSON as some of its attributes (fields or
properties) in an order that is part of the contract (golden files and every
``--format json`` pin it), each under its own name or under a JSON name of its own
(``protocolVersion``, ``id``). Each value is turned to JSON the way every record does it: a
record by its own ``to_json()``, a tuple as a list of its items turned the same way, an enum
by its value; anything else (``None``, a string, a number, a schema or payload dict) as it is.

A ``to_json`` that shapes more than that (a key only when it has items, a value computed for
JSON alone, another record's keys merged in) writes its dict by hand.
"""

from __future__ import annotations

import enum
from typing import Protocol, TypeAlias, runtime_checkable

from toollens.core.schema.types import JsonObject

__all__ = ["JsonKey", "record_json"]

JsonKey: TypeAlias = str | tuple[str, str]
"""One key of a record's JSON form: an attribute written under its own name, or a
``(key, attribute)`` pair for one written under another (``("protocolVersion",
"protocol_version")``)."""


@runtime_checkable
class _HasJson(Protocol):
    def to_json(self) -> object: ...


def record_json(record: object, *keys: JsonKey) -> JsonObject:
    """``record``'s JSON form: ``keys`` in the order given, each holding its attribute's value
    turned to JSON (a record by its ``to_json()``, a tuple as a list, an enum by its value).

    Args:
        record: the record (any object with the attributes ``keys`` name).
        keys: the JSON keys in order; a ``(key, attribute)`` pair where they differ.

    Returns:
        A new dict; a value that is already JSON (a schema dict) is the record's own, not a
        copy, as in a hand-written ``to_json``.
    """
    data: JsonObject = {}
    for key in keys:
        name, attribute = (key, key) if isinstance(key, str) else key
        data[name] = _json_value(getattr(record, attribute))
    return data


def _json_value(value: object) -> object:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_json_value(item) for item in value]
    if isinstance(value, _HasJson) and not isinstance(value, type):
        return value.to_json()
    return value
