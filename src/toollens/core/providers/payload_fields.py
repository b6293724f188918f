"""The fields of a tool payload beside its schema, as the providers' SDKs define them today.

A payload a user wrote (``{"tools": [...]}``) carries more than a name and a schema:
Anthropic's ``input_examples``, ``defer_loading``, ``allowed_callers`` and ``strict``;
OpenAI Responses' ``defer_loading``, ``allowed_callers`` and ``output_schema``; Gemini's
``parametersJsonSchema`` beside (never with) ``parameters``. :func:`check_payload` reads
them and says what each provider does with them; the field lists are the SDKs' own request
types (anthropic ``ToolParam``, openai ``FunctionToolParam``, google-genai
``FunctionDeclaration``), which the tests compare them with.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from toollens.core.errors import ToolLensError
from toollens.core.providers.base import UnwrappedTool
from toollens.core.providers.gemini import JSON_SCHEMA_KEYS
from toollens.core.providers.rules import (
    A,
    Check,
    E,
    Hit,
    ProviderRule,
    RuleContext,
    W,
    build_rule_table,
    make_finding,
    rule,
)
from toollens.core.providers.walk import show
from toollens.core.records import Citation, Finding, Severity
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonMapping, JsonSchema

__all__ = [
    "ANTHROPIC_CALLERS",
    "ANTHROPIC_TOOL_FIELDS",
    "CHAT_FUNCTION_FIELDS",
    "GEMINI_DECLARATION_FIELDS",
    "LAYOUT_RULES",
    "OPENAI_CALLERS",
    "PAYLOAD_RULES",
    "PAYLOAD_RULE_PROVIDERS",
    "RESPONSES_FUNCTION_FIELDS",
    "check_layout",
    "check_payload",
    "responses_effective_schema",
]

I = Severity.INFO  # noqa: E741 (the tables read E, W, I)

ANTHROPIC_TOOL_TYPE = Citation(
    "anthropic 2.16 SDK, types.ToolParam (the Messages API tool definition)",
    "https://platform.claude.com/docs/en/api/messages",
    "2026-12-02",
    evidence="code",
)
ANTHROPIC_EXAMPLES = Citation(
    "Anthropic tool use, input_examples: each example must be valid for input_schema (400)",
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use",
    "2026-12-01",
)
ANTHROPIC_TOOL_SEARCH = Citation(
    "Anthropic tool search tool, defer_loading",
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool",
    "2026-12-01",
)
OPENAI_TOOL_TYPE = Citation(
    "openai 3.57 SDK, types.responses.FunctionToolParam and chat FunctionDefinition",
    "https://platform.openai.com/docs/api-reference/responses/create",
    "2026-12-02",
    evidence="code",
)
OPENAI_STRICT_DEFAULT = Citation(
    "OpenAI Responses: a function without strict is sent strict when its schema can be "
    "(docs change of 2026-04-01; openai 3.57 SDK, NamespaceToolParam ToolFunction.strict)",
    "https://platform.openai.com/docs/guides/function-calling#strict-mode",
    "2026-12-01",
)
GENAI_TYPE = Citation(
    "google-genai 3.6.1 types.FunctionDeclaration (parameters and parameters_json_schema "
    "are mutually exclusive)",
    "https://ai.google.dev/gemini-api/docs/function-calling#function_declarations",
    "2026-12-02",
    evidence="code",
)

# The SDKs' request types, field for field (tests/core/test_payload_fields.py compares).
ANTHROPIC_TOOL_FIELDS = frozenset(
    {
        "name", "description", "input_schema", "type", "strict", "cache_control",
        "defer_loading", "allowed_callers", "input_examples", "eager_input_streaming",
    }
)  # fmt: skip
ANTHROPIC_CALLERS = frozenset(
    {"direct", "code_execution_20250825", "code_execution_20260120", "code_execution_20260521"}
)
RESPONSES_FUNCTION_FIELDS = frozenset(
    {
        "name", "parameters", "strict", "type", "description", "allowed_callers",
        "defer_loading", "output_schema", "async",
    }
)  # fmt: skip
CHAT_FUNCTION_FIELDS = frozenset({"name", "description", "parameters", "strict"})
CHAT_TOOL_FIELDS = frozenset({"type", "function"})
OPENAI_CALLERS = frozenset({"direct", "programmatic"})
_GEMINI_FIELDS = ("name", "description", "parameters", "response", "behavior")
GEMINI_DECLARATION_FIELDS = frozenset(
    {*_GEMINI_FIELDS, *JSON_SCHEMA_KEYS, "responseJsonSchema", "response_json_schema"}
)

# --------------------------------------------------------------------------------------------
# Checks: each reads the payload (RuleContext.schema is the whole tool payload here)


class PayloadContext(RuleContext):
    """A rule context whose subject is a whole tool payload, not its schema."""

    def __init__(self, found: UnwrappedTool) -> None:
        super().__init__({}, strict=False, name=None)
        self.found = found


def _found(ctx: RuleContext) -> UnwrappedTool:
    if not isinstance(ctx, PayloadContext):
        raise TypeError("a payload rule runs on a PayloadContext")
    return ctx.found


def _tool(ctx: RuleContext) -> Mapping[str, Any]:
    return _found(ctx).tool


def _pointer(ctx: RuleContext, *tokens: str) -> str:
    return join_pointer(_found(ctx).tool_pointer, *tokens)


def unknown_fields(known: frozenset[str]) -> Check:
    def check(ctx: RuleContext) -> Iterator[Hit]:
        for key in _tool(ctx):
            if key not in known:
                yield Hit(_pointer(ctx, str(key)), {"field": show(key)})

    return check


def input_examples(ctx: RuleContext) -> Iterator[Hit]:
    tool = _tool(ctx)
    if "input_examples" not in tool:
        return
    examples = tool["input_examples"]
    if not isinstance(examples, list):
        yield Hit(_pointer(ctx, "input_examples"), {"why": f"is {show(examples)}, not a list"})
        return
    for index, example in enumerate(examples):
        if not isinstance(example, dict):
            where = _pointer(ctx, "input_examples", str(index))
            yield Hit(where, {"why": f"item {index} is {show(example)}, not an object"})


def invalid_examples(ctx: RuleContext) -> Iterator[Hit]:
    tool = _tool(ctx)
    examples = tool.get("input_examples")
    schema = tool.get("input_schema")
    if not isinstance(examples, list) or not isinstance(schema, dict):
        return
    for index, example in enumerate(examples):
        if not isinstance(example, dict):
            continue  # input-examples-malformed says so
        for path, schema_path, reason in example_errors(schema, example):
            yield Hit(
                _pointer(ctx, "input_examples", str(index), *path),
                {"index": index, "at": join_pointer("", *path) or "/", "reason": reason,
                 "schema_at": join_pointer("", *schema_path) or "/"},
            )  # fmt: skip


def callers(allowed: frozenset[str]) -> Check:
    def check(ctx: RuleContext) -> Iterator[Hit]:
        value = _tool(ctx).get("allowed_callers")
        if value is None:
            return
        items = value if isinstance(value, list) else [value]
        for index, item in enumerate(items):
            if not isinstance(value, list) or item not in allowed:
                where = _pointer(ctx, "allowed_callers", *([str(index)] * isinstance(value, list)))
                yield Hit(where, {"value": show(item), "allowed": ", ".join(sorted(allowed))})

    return check


def deferred(ctx: RuleContext) -> Iterator[Hit]:
    if _tool(ctx).get("defer_loading") is True:
        yield Hit(_pointer(ctx, "defer_loading"), {})


def output_schema_not_object(ctx: RuleContext) -> Iterator[Hit]:
    tool = _tool(ctx)
    if "output_schema" in tool and not isinstance(tool["output_schema"], (dict, type(None))):
        yield Hit(_pointer(ctx, "output_schema"), {"value": show(tool["output_schema"])})


def both_parameter_fields(ctx: RuleContext) -> Iterator[Hit]:
    tool = _tool(ctx)
    classic = [k for k in ("parameters",) if k in tool]
    json_schema = [k for k in JSON_SCHEMA_KEYS if k in tool]
    if classic and json_schema:
        yield Hit(_pointer(ctx, classic[0]), {"other": json_schema[0]})


def strict_by_default(ctx: RuleContext) -> Iterator[Hit]:
    effective = responses_effective_schema(_found(ctx))
    if effective is None:
        return
    schema, optional = effective
    text = json.dumps(schema, separators=(",", ":"), ensure_ascii=False)
    yield Hit(
        _pointer(ctx, "strict"),
        {"optional": ", ".join(repr(n) for n in optional), "count": len(optional),
         "schema": show(text, limit=4000).strip('"') if len(text) > 4000 else text},
    )  # fmt: skip


def example_errors(
    schema: JsonMapping, example: object
) -> Iterator[tuple[tuple[str, ...], tuple[str, ...], str]]:
    """``(instance path, schema path, reason)`` of the error that best explains why
    ``example`` is not valid for ``schema`` (JSON Schema 2020-12, formats not asserted);
    nothing when it is valid, or when ``schema`` itself cannot be used (other rules say so).
    References are resolved inside the schema only: nothing is downloaded."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    try:
        error = best_match(Draft202012Validator(schema).iter_errors(example))
    except Exception:  # an invalid schema, an unresolvable $ref: no verdict on the example
        return
    if error is not None:
        path = tuple(str(t) for t in error.absolute_path)
        yield path, tuple(str(t) for t in error.absolute_schema_path), error.message


def responses_effective_schema(found: UnwrappedTool) -> tuple[JsonSchema, list[str]] | None:
    """The schema the Responses API uses for a function sent without ``strict``, and the
    root properties that were optional; ``None`` when ``strict`` is given, nothing is
    optional, or the schema cannot be strict (the API then keeps it non-strict).

    The conversion is toollens' own strict conversion (the one every strict view uses).
    """
    tool = found.tool
    if found.provider != "openai-responses" or tool.get("strict") is not None:
        return None
    schema = tool.get("parameters")
    if not isinstance(schema, dict):
        return None
    props = schema.get("properties")
    required = schema.get("required")
    listed = set(required) if isinstance(required, list) else set()
    optional = [str(n) for n in props if n not in listed] if isinstance(props, dict) else []
    if not optional:
        return None
    # lazy: the strict converter (~11 ms); `toollens --help` imports this module, not it
    from toollens.core.strict import explain_strict

    try:
        converted, _ = explain_strict(schema)
    except ToolLensError:
        return None
    return converted, optional


# Seen in public threads (tests/rejections/cases): the Responses API answers a Chat
# Completions tool with "Missing required parameter: 'tools[0].name'", and Chat Completions
# answers a Responses tool with "Missing required parameter: 'tools[0].function'".
OPENAI_LAYOUTS = Citation(
    "OpenAI API reference: Responses tools[] hold name and parameters at the top; Chat "
    "Completions tools[] hold them in function (openai 3.57 FunctionToolParam, "
    "ChatCompletionFunctionToolParam)",
    "https://platform.openai.com/docs/guides/function-calling",
    "2026-12-04",
    evidence="code",
)


def chat_layout(ctx: RuleContext) -> Iterator[Hit]:
    yield Hit(_found(ctx).tool_pointer, {})


def responses_layout(ctx: RuleContext) -> Iterator[Hit]:
    yield Hit("/name", {})


# --------------------------------------------------------------------------------------------
# The rules, per payload shape

# fmt: off
ANTHROPIC_PAYLOAD_RULES: tuple[ProviderRule, ...] = (
    rule("anthropic.unknown-field", W, A, "a tool field the Messages API does not define",
         "{field} is not a field of an Anthropic tool (anthropic 2.16 ToolParam); the API "
         "refuses fields it does not know", "remove it, or check its spelling",
         ANTHROPIC_TOOL_TYPE, unknown_fields(ANTHROPIC_TOOL_FIELDS)),
    rule("anthropic.input-examples-malformed", E, A, "input_examples is not a list of objects",
         "input_examples {why}", "give a list of argument objects, one per example",
         ANTHROPIC_EXAMPLES, input_examples),
    rule("anthropic.input-example-invalid", E, A, "an input example input_schema rejects",
         "input_examples[{index}] is not valid for input_schema at {at}: {reason} "
         "(schema {schema_at}); the API refuses the request",
         "fix the example, or the schema if the example is right", ANTHROPIC_EXAMPLES,
         invalid_examples),
    rule("anthropic.allowed-callers-unknown", E, A, "allowed_callers outside the SDK's values",
         "allowed_callers value {value} is not one of {allowed}",
         "use one of the listed callers", ANTHROPIC_TOOL_TYPE, callers(ANTHROPIC_CALLERS)),
    rule("anthropic.deferred", I, A, "a tool sent with defer_loading",
         "defer_loading is true: the definition is left out of the prompt until a tool "
         "search tool in the same request returns it", "keep a tool search tool in the request",
         ANTHROPIC_TOOL_SEARCH, deferred),
)
RESPONSES_PAYLOAD_RULES: tuple[ProviderRule, ...] = (
    rule("openai.unknown-field", W, A, "a function field the OpenAI API does not define",
         "{field} is not a field of an OpenAI function tool (openai 3.57 types); the API "
         "refuses unknown parameters", "remove it, or check its spelling",
         OPENAI_TOOL_TYPE, unknown_fields(RESPONSES_FUNCTION_FIELDS)),
    rule("openai.allowed-callers-unknown", E, A, "allowed_callers outside direct/programmatic",
         "allowed_callers value {value} is not one of {allowed}",
         "use one of the listed callers", OPENAI_TOOL_TYPE, callers(OPENAI_CALLERS)),
    rule("openai.output-schema-not-object", E, A, "output_schema is not a JSON Schema object",
         "output_schema must be a JSON Schema object, found {value}",
         "give a schema object, or leave output_schema out", OPENAI_TOOL_TYPE,
         output_schema_not_object),
    rule("openai.deferred", I, A, "a function sent with defer_loading",
         "defer_loading is true: the function is discovered through tool_search, not listed "
         "in the prompt up front", "keep a tool_search tool in the request", OPENAI_TOOL_TYPE,
         deferred),
    rule("openai.responses-strict-default", W, A,
         "a Responses function without strict, with optional properties",
         "strict is not given, so the Responses API sends this function strict: its "
         "optional properties ({count}: {optional}) become required (Chat Completions "
         "would keep it non-strict). The schema the API uses: {schema}",
         "set \"strict\": false to keep the schema as written, or \"strict\": true and "
         "make the optional properties nullable", OPENAI_STRICT_DEFAULT, strict_by_default),
)
CHAT_PAYLOAD_RULES: tuple[ProviderRule, ...] = (
    rule("openai.unknown-function-field", W, A, "a Chat Completions function field unknown",
         "{field} is not a field of a Chat Completions function (openai 3.57 "
         "FunctionDefinition); the API refuses unknown parameters",
         "remove it; defer_loading, allowed_callers and output_schema are Responses fields",
         OPENAI_TOOL_TYPE, unknown_fields(CHAT_FUNCTION_FIELDS)),
)
GEMINI_PAYLOAD_RULES: tuple[ProviderRule, ...] = (
    rule("gemini.unknown-field", W, A, "a declaration field google-genai does not define",
         "{field} is not a field of a Gemini FunctionDeclaration (google-genai 3.6.1)",
         "remove it, or check its spelling", GENAI_TYPE,
         unknown_fields(GEMINI_DECLARATION_FIELDS)),
    rule("gemini.parameters-exclusive", E, A, "parameters and parametersJsonSchema together",
         "parameters and {other} are both given; Gemini takes one or the other",
         "keep parametersJsonSchema (full JSON Schema) and drop parameters", GENAI_TYPE,
         both_parameter_fields),
)
# fmt: on

# A payload written for one provider (the key's first) and sent to another (its second).
LAYOUT_RULES: dict[tuple[str, str], ProviderRule] = {
    ("openai-chat", "openai-responses"): rule(
        "openai.responses-chat-layout", E, A,
        "a Chat Completions tool sent to the Responses API",
        "this is a Chat Completions tool ({{\"type\": \"function\", \"function\": {{...}}}}); "
        "the Responses API wants name, description, parameters and strict beside type and "
        "refuses it (Missing required parameter: 'tools[0].name')",
        "move the fields of \"function\" up beside \"type\" and drop \"function\"",
        OPENAI_LAYOUTS, chat_layout),
    ("openai-responses", "openai-chat"): rule(
        "openai.chat-responses-layout", E, A,
        "a Responses tool sent to Chat Completions",
        "this is a Responses tool (name beside type); Chat Completions wants them inside "
        "\"function\" and refuses it (Missing required parameter: 'tools[0].function')",
        "wrap name, description, parameters and strict in \"function\"",
        OPENAI_LAYOUTS, responses_layout),
}  # fmt: skip

_BY_PROVIDER: dict[str, tuple[ProviderRule, ...]] = {
    "anthropic": ANTHROPIC_PAYLOAD_RULES,
    "openai-responses": RESPONSES_PAYLOAD_RULES,
    "openai-chat": CHAT_PAYLOAD_RULES,
    "gemini": GEMINI_PAYLOAD_RULES,
}
PAYLOAD_RULE_PROVIDERS: dict[str, tuple[str, ...]] = {
    r.id: (provider,) for provider, rules in _BY_PROVIDER.items() for r in rules
}
"""The provider each payload rule speaks for (its column in a toolset table)."""
for (_, _sent_to), _rule in LAYOUT_RULES.items():
    PAYLOAD_RULE_PROVIDERS[_rule.id] = (_sent_to,)
PAYLOAD_RULES: tuple[ProviderRule, ...] = tuple(
    build_rule_table(
        (*(r for rules in _BY_PROVIDER.values() for r in rules), *LAYOUT_RULES.values())
    ).values()
)
"""Every rule :func:`check_payload` runs (in the rules page with the schema rules)."""


def _no_parameter(pointer: str | None) -> str | None:
    return None


def check_payload(found: UnwrappedTool) -> tuple[Finding, ...]:
    """What the provider of ``found`` (a payload as the user wrote it) does with its fields
    beside the schema: unknown fields, ``input_examples`` validated against the schema,
    ``allowed_callers``, deferred loading, Responses' strict default. Pointers point into
    the payload."""
    rules = _BY_PROVIDER.get(found.provider, ())
    ctx = PayloadContext(found)
    out: list[Finding] = []
    for item in rules:
        for hit in item.check(ctx):
            out.append(make_finding(item, hit, _no_parameter))
    return tuple(out)


def check_layout(found: UnwrappedTool, sent_to: str) -> tuple[Finding, ...]:
    """What ``sent_to`` says of ``found``, a payload laid out for its own provider (a Chat
    Completions tool sent to the Responses API, and the reverse); nothing for other pairs,
    whose payload toollens builds itself. Pointers point into the payload."""
    item = LAYOUT_RULES.get((found.provider, sent_to))
    if item is None:
        return ()
    ctx = PayloadContext(found)
    return tuple(make_finding(item, hit, _no_parameter) for hit in item.check(ctx))
