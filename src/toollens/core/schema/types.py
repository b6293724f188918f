"""The names of JSON data in toollens' signatures: one place, one meaning each.

- ``JsonValue``: any value JSON text can hold (null, a boolean, a number, a string, an array
  of values, an object of values), spelled exactly, so a function that takes one must look
  before it indexes.
- ``JsonSchema``: one JSON Schema document or subschema, as decoded JSON (a dict).
- ``JsonObject``: a JSON object that is not a schema: a provider payload, a record's
  ``to_json()`` form, a lock document; ``JsonMapping``: either, when it is only read.
- ``ToolFunction``: a Python callable given as a tool (any signature, any result).
- ``ToolSchemaLike``: what ``diff`` and the renderers read from a tool (a ``FunctionSchema``
  or any object with ``json_schema``, ``name`` and ``description``); ``SchemaInput``: one
  side of ``diff``.

``JsonSchema``, ``JsonObject`` and ``JsonMapping`` hold ``Any`` values on purpose, as
pydantic's ``JsonSchemaValue`` does: a schema's values are arbitrary JSON that the code
reads by keyword (``node["properties"]["x"]["type"]``) after checking the keyword's shape,
and a precise recursive union would need an ``isinstance`` at every step of every read. The
alias names what the dict holds; ``JsonValue`` is the exact type where a value is only
passed on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeAlias, Union, runtime_checkable

__all__ = [
    "JsonMapping",
    "JsonObject",
    "JsonSchema",
    "JsonValue",
    "SchemaInput",
    "ToolFunction",
    "ToolSchemaLike",
]

JsonValue: TypeAlias = Union[  # noqa: UP007 - the string forward references need Union
    bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"], None
]
"""Any value JSON text can hold."""

JsonSchema: TypeAlias = dict[str, Any]
"""A JSON Schema document or subschema (a decoded JSON object)."""

JsonObject: TypeAlias = dict[str, Any]
"""A decoded JSON object that is not a schema: a payload, a record's JSON form, a lock."""

JsonMapping: TypeAlias = Mapping[str, Any]
"""A JSON object (schema or payload) that is only read: any mapping will do."""


@runtime_checkable
class ToolSchemaLike(Protocol):
    """What ``diff`` and the renderers read from a tool: a ``FunctionSchema`` has it.

    ``strict`` is optional: a tool without the attribute (or with ``None``) compares as
    having no mode.
    """

    @property
    def json_schema(self) -> JsonMapping: ...

    @property
    def name(self) -> str | None: ...

    @property
    def description(self) -> str | None: ...


SchemaInput: TypeAlias = Union[  # noqa: UP007 - a runtime alias on Python 3.10
    JsonMapping, ToolSchemaLike, Callable[..., object]
]
"""One side of ``diff``: a JSON Schema or provider payload, a tool, or a callable."""

ToolFunction: TypeAlias = Callable[..., Any]
"""A Python callable given as a tool. ``Any`` rather than ``object`` because the frameworks'
own entry points (``beta_tool``, ``function_tool``, ``FunctionTool.from_defaults``...) are
typed with ``Callable[..., Any]`` and a narrower result type would not be accepted there."""
