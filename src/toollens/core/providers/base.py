"""What every provider module fills in: its id, its payload shape, its translation, its rules.

A provider is one :class:`ProviderSpec`: the layout of its tool payload (``payload``: how a
tool is built into it and how a payload of that layout is recognised and taken apart), what
the schema becomes on the way (``translate``) and which rules judge it (``own_rules``, after
the shared ``schema.*`` rules). The table of all providers lives in
:mod:`toollens.core.providers.api`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from toollens.core.choices import ProviderId
from toollens.core.providers.rules import SCHEMA_RULES, ProviderRule
from toollens.core.providers.walk import copy_json, split_pointer
from toollens.core.records import Change, Citation, Finding
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


class PayloadShape(Protocol):
    """How one provider lays out a tool payload: built from a tool's parts, and taken apart."""

    def build(
        self, name: str, description: str | None, schema: JsonSchema, strict: bool
    ) -> JsonObject:
        """The payload of a tool with these parts."""
        ...

    def unwrap(self, provider: ProviderId, data: JsonMapping) -> UnwrappedTool | None:
        """The parts of ``data`` as ``provider``'s tool; ``None`` for another layout."""
        ...


@dataclass(frozen=True)
class FlatTool:
    """A payload that is the tool itself: ``name``, ``description`` and the schema side by
    side (Anthropic, both Gemini declarations). The description is left out when empty:
    these APIs want a string or no key at all.

    Attributes:
        schema_keys: the keys the schema may stand under; toollens writes the first.
        typed: the tool may carry a ``type`` of its own (Anthropic's ``"custom"``); for a
            shape without one, a ``type`` is a JSON Schema's, so the dict is not this tool.
        strict_flag: a strict tool carries ``"strict": true``; a non-strict one leaves the
            flag out (its default).
    """

    schema_keys: tuple[str, ...]
    typed: bool = False
    strict_flag: bool = False

    def build(
        self, name: str, description: str | None, schema: JsonSchema, strict: bool
    ) -> JsonObject:
        tool: JsonObject = {"name": name}
        if description:
            tool["description"] = description
        tool[self.schema_keys[0]] = schema
        if strict and self.strict_flag:
            tool["strict"] = True
        return tool

    def unwrap(self, provider: ProviderId, data: JsonMapping) -> UnwrappedTool | None:
        if "name" not in data or ("type" in data and not self.typed):
            return None
        key = next((k for k in self.schema_keys if k in data), None)
        return None if key is None else UnwrappedTool(provider, data, "", key)


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
        own_rules: the rules of this provider; :attr:`rules` adds the shared ``schema.*``.
        payload: the layout of its tool payload (:meth:`build`, :meth:`unwrap`).
        docs: the provider's function-calling documentation (its :class:`Citation`).
        translate: the normalized schema -> the schema the provider receives (as it is,
            unless the provider translates it).
        grammar_checked: strict schemas are also compiled by llguidance (OpenAI only).
    """

    name: ProviderId
    label: str
    own_rules: tuple[ProviderRule, ...]
    payload: PayloadShape
    docs: Citation
    translate: Translate = unchanged
    grammar_checked: bool = False

    @functools.cached_property
    def rules(self) -> tuple[ProviderRule, ...]:
        """The rules its schemas are checked with: the shared ``schema.*`` rules, then its own."""
        return (*SCHEMA_RULES, *self.own_rules)

    @functools.cached_property
    def sources(self) -> tuple[Citation, ...]:
        """What its own rules cite, each once, in rule order."""
        return tuple(dict.fromkeys(r.cite for r in self.own_rules))

    def build(
        self, name: str, description: str | None, schema: JsonSchema, strict: bool
    ) -> JsonObject:
        """``(name, description, schema, strict)`` -> the tool payload."""
        return self.payload.build(name, description, schema, strict)

    def unwrap(self, data: JsonMapping) -> UnwrappedTool | None:
        """A payload of this provider's shape -> its parts; ``None`` for other shapes."""
        return self.payload.unwrap(self.name, data)


def property_of(pointer: str | None) -> str | None:
    """The root property a pointer lies under (``/properties/city/...`` -> ``city``)."""
    if not pointer:
        return None
    tokens = split_pointer(pointer, 2)
    return tokens[1] if len(tokens) >= 2 and tokens[0] == "properties" else None
