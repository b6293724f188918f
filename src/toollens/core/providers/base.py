"""What every provider module fills in: its id, its payload shape, its translation, its rules.

A provider is one :class:`ProviderSpec`: how a tool is built into that provider's payload
(``build``), how a payload of that shape is recognised and taken apart (``unwrap``), what the
schema becomes on the way (``translate``) and which rules judge it (``rules``). The table of
all providers lives in :mod:`toollens.core.providers.api`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toollens.core.choices import ProviderId
from toollens.core.providers.rules import Citation, ProviderRule
from toollens.core.providers.walk import copy_json, split_pointer
from toollens.core.records import Change, Finding
from toollens.core.schema.types import JsonMapping, JsonObject, JsonSchema, JsonValue


@dataclass(frozen=True)
class Translation:
    """A schema as one provider receives it."""

    schema: JsonSchema
    changes: tuple[Change, ...] = ()
    findings: tuple[Finding, ...] = ()


@dataclass(frozen=True)
class UnwrappedTool:
    """The parts of one provider's tool payload, as found (values are not checked here).

    Attributes:
        provider: the provider whose payload shape matched.
        tool: the mapping that holds the name, description and schema.
        tool_pointer: JSON pointer of ``tool`` inside the payload (``""`` or ``"/function"``).
        schema_key: the key of the parameters schema in ``tool`` (present or not).
    """

    provider: ProviderId
    tool: JsonMapping
    tool_pointer: str
    schema_key: str

    @property
    def schema(self) -> JsonValue:
        """The parameters schema; a tool without one takes no arguments."""
        schema: JsonValue = self.tool.get(self.schema_key, {"type": "object", "properties": {}})
        return schema

    @property
    def schema_pointer(self) -> str:
        return f"{self.tool_pointer}/{self.schema_key}"

    def field(self, key: str) -> JsonValue:
        """A top-level field of the tool (``name``, ``description``, ``strict``), or None."""
        value: JsonValue = self.tool.get(key)
        return value


Build = Callable[[str, "str | None", JsonSchema, bool], JsonObject]


def named_tool(name: str, description: str | None, key: str, schema: JsonSchema) -> JsonObject:
    """``{"name", "description", key: schema}``, the description left out when empty (the
    Anthropic and Gemini APIs want a string or no key at all)."""
    tool: JsonObject = {"name": name}
    if description:
        tool["description"] = description
    tool[key] = schema
    return tool


Unwrap = Callable[[JsonMapping], "UnwrappedTool | None"]
Translate = Callable[[JsonSchema, bool], Translation]


def unchanged(schema: JsonSchema, strict: bool) -> Translation:
    """The translation of providers that receive the normalized schema as it is."""
    return Translation(copy_json(schema))


@dataclass(frozen=True, kw_only=True)
class ProviderSpec:
    """How one provider receives a tool.

    Attributes:
        name: the provider id used in the API (``"openai-chat"``...).
        label: how a person names it (``"OpenAI Chat Completions"``).
        rules: the rules its schemas are checked with, shared ``schema.*`` rules included.
        translate: the normalized schema -> the schema the provider receives (as it is,
            unless the provider translates it).
        build: ``(name, description, schema, strict)`` -> the tool payload.
        unwrap: a payload of this provider's shape -> its parts; ``None`` for other shapes.
        docs: the provider's function-calling documentation (its :class:`Citation`).
        grammar_checked: strict schemas are also compiled by llguidance (OpenAI only).
    """

    name: ProviderId
    label: str
    rules: tuple[ProviderRule, ...]
    build: Build
    unwrap: Unwrap
    docs: Citation
    translate: Translate = unchanged
    grammar_checked: bool = False


def property_of(pointer: str | None) -> str | None:
    """The root property a pointer lies under (``/properties/city/...`` -> ``city``)."""
    if not pointer:
        return None
    tokens = split_pointer(pointer, 2)
    return tokens[1] if len(tokens) >= 2 and tokens[0] == "properties" else None


def is_tool_named(data: JsonMapping) -> bool:
    """A tool payload at the top level carries a name and no JSON-Schema ``type``."""
    return "name" in data and "type" not in data
