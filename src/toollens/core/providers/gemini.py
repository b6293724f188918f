"""Gemini (default): a function declaration whose parameters are full JSON Schema.

google-genai 3.x documents ``FunctionDeclaration.parameters_json_schema`` (sent as
``parametersJsonSchema``): a JSON Schema that must describe an object, mutually exclusive
with the classic OpenAPI-subset ``parameters`` (see :mod:`.gemini_openapi`). The schema is
sent as toollens normalised it, ``additionalProperties: false`` included.
"""

from __future__ import annotations

from collections.abc import Iterable

from toollens.core.providers.base import FlatTool, ProviderSpec
from toollens.core.providers.rules import (
    A,
    E,
    ProviderRule,
    name_pattern,
    root_not_object,
    root_property_pattern,
    rule,
)
from toollens.core.records import Citation
from toollens.core.schema.types import JsonObject

# google-genai 3.6.1, types.FunctionDeclaration field docs (the SDK's request types).
GENAI_DECLARATION = Citation(
    "google-genai 3.6.1 types.FunctionDeclaration",
    "https://ai.google.dev/gemini-api/docs/function-calling#function_declarations",
    "2026-11-29",
    evidence="code",
)
# Where a declaration keeps its JSON Schema: the API's camel case (what toollens writes), or
# the SDK's snake-case field name.
JSON_SCHEMA_KEYS = ("parametersJsonSchema", "parameters_json_schema")
# google-genai 3.6.1 types.FunctionCallingConfigMode.VALIDATED; pydantic-ai 2.68
# (models/google.py _get_tool_config) sends it for strict tools, AUTO otherwise.
GENAI_VALIDATED = Citation(
    "google-genai 3.6.1 FunctionCallingConfigMode.VALIDATED (request-wide; pydantic-ai 2.68 "
    "sends it only when no tool is non-strict)",
    "https://ai.google.dev/gemini-api/docs/function-calling#function_calling_config",
    "2026-12-02",
    evidence="code",
)

# fmt: off
NAME_RULE = rule(
    "gemini.name-invalid", E, A, "function name outside Gemini's pattern",
    "function name {value} ({length} characters) must start with a letter or '_' and use "
    "a-z A-Z 0-9 _ . : - only, at most 128 characters",
    "rename the tool", GENAI_DECLARATION, name_pattern(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}"))
PARAMETER_NAME_RULE = rule(
    "gemini.parameter-name-invalid", E, A, "parameter name outside [a-zA-Z_][a-zA-Z0-9_]{0,63}",
    "parameter name {value} must start with a letter or '_' and use a-z A-Z 0-9 _ only, at "
    "most 64 characters", "rename the parameter, or set a plain alias", GENAI_DECLARATION,
    root_property_pattern(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}"))
ROOT_RULE = rule(
    "gemini.root-not-object", E, A, "the parameters schema is not type object",
    "parameters must describe an object, found {kind}",
    "wrap the value in an object with one property", GENAI_DECLARATION, root_not_object)
# fmt: on
GEMINI_RULES: tuple[ProviderRule, ...] = (NAME_RULE, PARAMETER_NAME_RULE, ROOT_RULE)


GEMINI = ProviderSpec(
    name="gemini",
    label="Gemini, parametersJsonSchema",
    own_rules=GEMINI_RULES,
    payload=FlatTool(JSON_SCHEMA_KEYS),
    docs=GENAI_DECLARATION,
)


def function_calling_config(strict: Iterable[bool]) -> JsonObject:
    """The ``toolConfig.functionCallingConfig`` a request of tools with these strictness
    decisions needs: Gemini's ``VALIDATED`` mode (the API enforces every declared schema,
    its equivalent of strict tools) only when every tool is strict, since the mode is
    request-wide; ``AUTO`` otherwise (pydantic-ai's rule, and the only one that keeps a
    non-strict tool non-strict)."""
    flags = list(strict)
    return {"mode": "VALIDATED" if flags and all(flags) else "AUTO"}
