"""Provider payloads, the Gemini translation, and every provider compatibility rule."""

from __future__ import annotations

import copy
import json
import re
from enum import Enum
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from support import REPO_ROOT
from support.goldens import check_json as check_golden
from toollens.core.errors import SchemaConstructionError
from toollens.core.function_schema import FunctionSchema, function_schema
from toollens.core.providers import (
    PROVIDERS,
    RULES,
    RULES_BY_ID,
    Scope,
    check_provider,
    iter_provider_findings,
    provider_payload,
    provider_tool,
    translate_for,
)
from toollens.core.providers.walk import iter_schema_nodes
from toollens.core.records import Finding, Severity

# --------------------------------------------------------------------------------------------
# Helpers


def only(findings: list[Finding], rule: str) -> Finding:
    """Exactly one finding of ``rule``; return it for comparing its text."""
    matching = [f for f in findings if f.rule == rule]
    assert len(matching) == 1, f"expected one {rule}, got {[str(f) for f in findings]}"
    return matching[0]


UNFILLED = re.compile(r"\{[a-z_]+(![rs])?\}")


def none_of(findings: list[Finding], rule: str) -> None:
    assert [str(f) for f in findings if f.rule == rule] == []


def obj(props: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """A closed object with every property required (clean for OpenAI strict)."""
    props = {"q": {"type": "string", "description": "search keywords"}} if props is None else props
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
        **extra,
    }


def gobj(props: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    """An object in Gemini's subset (no additionalProperties)."""
    schema = obj(props, **extra)
    del schema["additionalProperties"]
    return schema


def nested(levels: int) -> dict[str, Any]:
    """``levels`` objects nested one in another, the root included."""
    schema = obj({"leaf": {"type": "string"}})
    for _ in range(levels - 1):
        schema = obj({"child": schema})
    return schema


def prop(**node: Any) -> dict[str, Any]:
    return obj({"p": node})


def gprop(**node: Any) -> dict[str, Any]:
    return gobj({"p": node})


RECURSIVE = {
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
            "required": ["kids"],
            "additionalProperties": False,
        }
    },
    **obj({"root": {"$ref": "#/$defs/Node"}}),
}
GEMINI_RECURSIVE = json.loads(json.dumps(RECURSIVE).replace(', "additionalProperties": false', ""))
WITH_DEF = {
    "$defs": {"A": {"type": "string"}},
    **obj({"a": {"$ref": "#/$defs/A"}}),
}


# --------------------------------------------------------------------------------------------
# Every provider rule: a triggering and a clean example
# (rule id, provider, bad schema, clean schema, tool name for bad, for clean, pointer)

CASES: list[tuple[str, str, Any, Any, str | None, str | None, str | None]] = [
    ("schema.not-a-schema", "openai-chat", obj({"a": 5}), obj({"a": {"type": "string"}}),
     None, None, "/properties/a"),
    ("schema.unresolved-ref", "anthropic", obj({"a": {"$ref": "https://example.com/a.json"}}),
     WITH_DEF, None, None, "/properties/a/$ref"),
    ("openai.name-invalid", "openai-chat", obj(), obj(), "get weather!", "get_weather", None),
    ("openai.root-not-object", "openai-responses", {"type": "string"}, obj(), None, None, ""),
    ("openai.root-any-of", "openai-chat", {"anyOf": [obj(), obj()]}, obj(), None, None,
     "/anyOf"),
    ("openai.object-not-closed", "openai-chat",
     {"type": "object", "properties": {}, "required": []}, obj(), None, None, ""),
    ("openai.property-not-required", "openai-chat", {**obj(), "required": []}, obj(), None,
     None, "/properties/q"),
    ("openai.one-of", "openai-chat", prop(oneOf=[{"type": "string"}, {"type": "integer"}]),
     prop(anyOf=[{"type": "string"}, {"type": "integer"}]), None, None, "/properties/p/oneOf"),
    ("openai.all-of", "openai-chat", prop(allOf=[{"type": "string"}]), prop(type="string"),
     None, None, "/properties/p/allOf"),
    ("openai.default", "openai-chat", prop(type="integer", default=3), prop(type="integer"),
     None, None, "/properties/p/default"),
    ("openai.ref-siblings", "openai-chat",
     {"$defs": {"A": {"type": "string"}}, **obj({"a": {"$ref": "#/$defs/A", "description": "d"}})},
     WITH_DEF, None, None, "/properties/a"),
    ("openai.unsupported-keyword", "openai-chat",
     prop(type="array", items={"type": "string"}, uniqueItems=True),
     prop(type="array", items={"type": "string"}), None, None, "/properties/p/uniqueItems"),
    ("openai.untyped-node", "openai-chat", prop(description="anything"), prop(type="string"),
     None, None, "/properties/p"),
    ("openai.array-items-missing", "openai-chat", prop(type="array"),
     prop(type="array", items={"type": "string"}), None, None, "/properties/p"),
    ("openai.object-properties-missing", "openai-chat", {"type": "object"},
     {"type": "object", "properties": {}}, None, None, ""),
    ("openai.required-not-array", "openai-chat", {**obj(), "required": None}, obj(), None, None,
     "/required"),
    ("openai.id-not-uri-reference", "openai-chat", {**obj(), "$id": "Parameters Schema"},
     {**obj(), "$id": "https://example.com/schemas/tool"}, None, None, "/$id"),
    ("openai.format-unsupported", "openai-chat", prop(type="string", format="uri"),
     prop(type="string", format="email"), None, None, "/properties/p/format"),
    ("openai.too-many-properties", "openai-chat",
     obj({f"p{i}": {"type": "string"} for i in range(5001)}),
     obj({f"p{i}": {"type": "string"} for i in range(5000)}), None, None, ""),
    ("openai.too-deep", "openai-chat", nested(11), nested(10), None, None,
     "/properties/child" * 10),
    ("openai.too-many-chars", "openai-chat",
     prop(type="string", enum=[f"{i:03d}" + "x" * 700 for i in range(200)]),
     prop(type="string", enum=[f"{i:03d}" + "x" * 500 for i in range(200)]), None, None, ""),
    ("openai.too-many-enum-values", "openai-chat",
     obj({f"e{j}": {"type": "integer", "enum": list(range(201))} for j in range(5)}),
     obj({f"e{j}": {"type": "integer", "enum": list(range(200))} for j in range(5)}),
     None, None, ""),
    ("openai.enum-too-long", "openai-chat",
     prop(type="string", enum=[f"{i:03d}" + "x" * 58 for i in range(251)]),
     prop(type="string", enum=[f"{i:03d}" + "x" * 58 for i in range(250)]), None, None,
     "/properties/p/enum"),
    ("openai.grammar-rejected", "openai-chat",
     prop(type="object", properties={}, required=[], additionalProperties=False,
          dependencies={"a": ["b"]}),
     prop(type="object", properties={}, required=[], additionalProperties=False), None, None,
     "/properties/p/dependencies"),
    ("anthropic.root-not-object", "anthropic", [1], obj(), None, None, ""),
    ("anthropic.name-invalid", "anthropic", obj(), obj(), "lookup user", "lookup_user", None),
    ("anthropic.schema-invalid", "anthropic",
     prop(type="array", items=[{"type": "string"}]),
     prop(type="array", prefixItems=[{"type": "string"}]), None, None, "/properties/p/items"),
    ("anthropic.property-name-invalid", "anthropic", gobj({"ids[]": {"type": "string"}}),
     gobj({"ids.any": {"type": "string"}}), None, None, "/properties/ids[]"),
    ("anthropic.name-bedrock", "anthropic", obj(), obj(), "a" * 65, "a" * 64, None),
    ("anthropic.one-of", "anthropic", prop(oneOf=[{"type": "string"}]),
     prop(anyOf=[{"type": "string"}]), None, None, "/properties/p/oneOf"),
    ("anthropic.recursive-schema", "anthropic", RECURSIVE, WITH_DEF, None, None,
     "/$defs/Node/properties/kids/items"),
    ("anthropic.all-of-ref", "anthropic", {**prop(allOf=[{"$ref": "#/$defs/A"}]),
     "$defs": {"A": {"type": "string"}}}, WITH_DEF, None, None, "/properties/p/allOf/0/$ref"),
    ("anthropic.numeric-constraint", "anthropic", prop(type="integer", minimum=1),
     prop(type="integer"), None, None, "/properties/p/minimum"),
    ("anthropic.string-constraint", "anthropic", prop(type="string", maxLength=5),
     prop(type="string"), None, None, "/properties/p/maxLength"),
    ("anthropic.complex-pattern", "anthropic", prop(type="string", pattern="^(?!x)a+$"),
     prop(type="string", pattern="^a+$"), None, None, "/properties/p/pattern"),
    ("anthropic.array-constraint", "anthropic",
     prop(type="array", items={"type": "string"}, minItems=2),
     prop(type="array", items={"type": "string"}, minItems=1), None, None,
     "/properties/p/minItems"),
    ("anthropic.additional-properties", "anthropic",
     prop(type="object", additionalProperties={"type": "integer"}),
     prop(type="object", properties={}, additionalProperties=False), None, None,
     "/properties/p/additionalProperties"),
    ("anthropic.complex-enum", "anthropic", prop(enum=[{"a": 1}, "b"]), prop(enum=["a", "b"]),
     None, None, "/properties/p/enum"),
    ("anthropic.format-unsupported", "anthropic", prop(type="string", format="regex"),
     prop(type="string", format="hostname"), None, None, "/properties/p/format"),
    ("anthropic.sdk-moves-keyword", "anthropic",
     prop(type="object", properties={}, additionalProperties=False, minProperties=1),
     prop(type="object", properties={}, additionalProperties=False), None, None,
     "/properties/p/minProperties"),
    ("anthropic.untyped-node", "anthropic", prop(description="anything"), prop(type="string"),
     None, None, "/properties/p"),
    ("gemini.name-invalid", "gemini", gobj(), gobj(), "1st-tool", "tools.v1:get-weather", None),
    ("gemini.parameter-name-invalid", "gemini", gobj({"page-size": {"type": "integer"}}),
     gobj({"page_size": {"type": "integer"}}), None, None, "/properties/page-size"),
    ("gemini.root-not-object", "gemini", {"type": "array", "items": {"type": "string"}}, gobj(),
     None, None, ""),
    ("gemini.additional-properties", "gemini-openapi", obj(), gobj(), None, None,
     "/additionalProperties"),
    ("gemini.type-list", "gemini-openapi", gprop(type=["string", "null"]),
     gprop(type="string", nullable=True), None, None, "/properties/p/type"),
    ("gemini.type-unsupported", "gemini-openapi", gprop(type="date"), gprop(type="null"), None,
     None, "/properties/p/type"),
    ("gemini.const", "gemini-openapi", gprop(type="string", const="a"),
     gprop(type="string", enum=["a"]), None, None, "/properties/p/const"),
    ("gemini.one-of", "gemini-openapi", gprop(oneOf=[{"type": "string"}]),
     gprop(anyOf=[{"type": "string"}]), None, None, "/properties/p/oneOf"),
    ("gemini.default", "gemini-openapi", gprop(type="integer", default=1),
     gprop(type="integer"), None, None, "/properties/p/default"),
    ("gemini.property-names", "gemini-openapi",
     gprop(type="object", propertyNames={"pattern": "^a"}), gprop(type="object"), None, None,
     "/properties/p/propertyNames"),
    ("gemini.ref-siblings", "gemini-openapi",
     {"$defs": {"A": {"type": "string"}}, **gobj({"a": {"$ref": "#/$defs/A", "title": "A"}})},
     {"$defs": {"A": {"type": "string"}}, **gobj({"a": {"$ref": "#/$defs/A"}})}, None, None,
     "/properties/a"),
    ("gemini.recursive-schema", "gemini-openapi", GEMINI_RECURSIVE,
     {"$defs": {"A": {"type": "string"}}, **gobj({"a": {"$ref": "#/$defs/A"}})}, None, None,
     "/$defs/Node/properties/kids/items"),
    ("gemini.enum-not-string", "gemini-openapi", gprop(type="integer", enum=[1, 2]),
     gprop(type="string", enum=["1", "2"]), None, None, "/properties/p/enum"),
    ("gemini.empty-properties", "gemini-openapi", gprop(type="object", properties={}),
     gprop(type="object", properties={"a": {"type": "string"}}), None, None,
     "/properties/p/properties"),
    ("gemini.empty-root-properties", "gemini-openapi", {"type": "object", "properties": {}},
     gobj({"a": {"type": "string"}}), None, None, "/properties"),
    ("gemini.array-items-missing", "gemini-openapi", gprop(type="array"),
     gprop(type="array", items={"type": "string"}), None, None, "/properties/p"),
    ("gemini.enum-type-not-string", "gemini-openapi", gprop(enum=["asc", "desc"]),
     gprop(type="string", enum=["asc", "desc"]), None, None, "/properties/p/enum"),
    ("gemini.any-of-siblings", "gemini-openapi",
     gprop(anyOf=[{"type": "string"}], description="d"),
     gprop(anyOf=[{"type": "string", "description": "d"}]), None, None, "/properties/p"),
    ("gemini.unknown-keyword", "gemini-openapi",
     gprop(type="array", items={"type": "string"}, uniqueItems=True),
     gprop(type="array", items={"type": "string"}, maxItems=3), None, None,
     "/properties/p/uniqueItems"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule", "provider", "bad", "good", "bad_name", "good_name", "pointer"),
    CASES,
    ids=[c[0] for c in CASES],
)
def test_provider_rule(
    rule: str,
    provider: str,
    bad: Any,
    good: Any,
    bad_name: str | None,
    good_name: str | None,
    pointer: str | None,
) -> None:
    spec = RULES_BY_ID[rule]
    if spec.cite.ended is not None:  # the party changed: the rule is a record, it judges nothing
        none_of(check_provider(bad, provider, name=bad_name, translate=False), rule)
        return
    # Judged as given: the gemini-openapi translation would otherwise rewrite what it can.
    finding = only(check_provider(bad, provider, name=bad_name, translate=False), rule)
    assert finding.pointer == pointer
    assert finding.severity is spec.severity
    assert finding.source == spec.source
    assert finding.source is not None
    assert finding.source.startswith("https://")
    assert finding.message
    assert finding.fix
    assert not UNFILLED.search(finding.message + finding.fix)
    none_of(check_provider(good, provider, name=good_name, translate=False), rule)


def test_every_provider_rule_has_a_case() -> None:
    covered = {c[0] for c in CASES}
    assert covered == {r.id for r in RULES}


def test_rule_ids_are_prefixed_by_their_family() -> None:
    for rule in RULES_BY_ID.values():
        assert rule.family in ("schema", "openai", "anthropic", "gemini"), rule.id


@pytest.mark.parametrize("rule", [r for r in RULES if r.scope is Scope.STRICT], ids=lambda r: r.id)
def test_strict_only_rules_are_silent_when_not_strict(rule: Any) -> None:
    case = next(c for c in CASES if c[0] == rule.id)
    none_of(check_provider(case[2], case[1], name=case[4], strict=False, translate=False), rule.id)


def test_finding_names_the_parameter_under_properties() -> None:
    finding = only(check_provider(prop(type="integer", default=3), "openai-chat"), "openai.default")
    assert finding.parameter == "p"
    assert "'default' 3" in finding.message
    root = only(check_provider({"type": "string"}, "openai-chat"), "openai.root-not-object")
    assert root.parameter is None
    assert 'type "string"' in root.message


def test_property_not_required_lists_each_missing_property() -> None:
    schema = {**obj({"a": {"type": "string"}, "b": {"type": "string"}}), "required": ["a"]}
    finding = only(check_provider(schema, "openai-chat"), "openai.property-not-required")
    assert finding.parameter == "b"
    assert "'b'" in finding.message


def test_limits_are_exact_at_the_boundary() -> None:
    findings = check_provider(nested(11), "openai-chat")
    assert "11 levels" in only(findings, "openai.too-deep").message
    big = obj({f"p{i}": {"type": "string"} for i in range(5001)})
    assert (
        "5001 object properties"
        in only(check_provider(big, "openai-chat"), "openai.too-many-properties").message
    )


def test_nesting_follows_refs() -> None:
    inner = nested(6)
    schema = {"$defs": {"Inner": inner}, **obj({"a": {"$ref": "#/$defs/Inner"}})}
    schema = {"$defs": schema.pop("$defs"), **nested(5)}
    schema["properties"]["child"]["properties"]["child"]["properties"]["child"]["properties"][
        "child"
    ]["properties"]["leaf"] = {"$ref": "#/$defs/Inner"}
    only(check_provider(schema, "openai-chat"), "openai.too-deep")


# --------------------------------------------------------------------------------------------
# Odd schemas never raise


ODD: list[Any] = [
    None,
    [],
    "string",
    {"type": "object", "properties": None},
    {"type": "object", "properties": {"a": None, "b": [1], "c": True}},
    {"type": "object", "properties": {"a": {"type": 5, "enum": "x", "required": 3}}},
    {"$ref": "#"},
    {"$ref": "#/nope"},
    {"$ref": 12, "anyOf": "x", "allOf": [None]},
    {"type": "object", "$defs": {"A": {"$ref": "#/$defs/A"}},
     "properties": {"a": {"$ref": "#/$defs/A"}}},
    {"type": ["object", 3], "required": "a", "properties": {"a": {"items": [None, {}]}}},
]  # fmt: skip


def _deep(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return schema


ODD_IDS = [f"odd{i}" for i in range(len(ODD))] + ["deep-1500"]


@pytest.mark.parametrize("provider", list(PROVIDERS))
def test_check_provider_on_odd_schemas(provider: str) -> None:
    """No odd schema raises; what each one gets is pinned in a reviewable golden file."""
    verdicts: dict[str, list[list[str | None]]] = {}
    for case, schema in zip(ODD_IDS, [*ODD, _deep(1500)], strict=True):
        findings = check_provider(schema, provider, name="t")
        assert all(isinstance(f, Finding) and f.message and f.fix for f in findings), case
        if not isinstance(schema, dict):  # a non-object root is always an error
            assert any(
                f.rule.endswith("root-not-object") and f.severity is Severity.ERROR
                for f in findings
            ), (case, findings)
        verdicts[case] = sorted([[f.rule, f.severity.value, f.pointer] for f in findings], key=str)
    check_golden(f"providers/odd_schemas.{provider}.json", verdicts)


def test_deep_schema_is_translated_up_to_a_limit() -> None:
    fsdeep = _deep(1500)
    payload = provider_payload(fsdeep, "gemini-openapi", name="t")
    only(list(payload.findings), "gemini.translation-limit")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(
        st.sampled_from(
            ["type", "properties", "items", "anyOf", "oneOf", "$ref", "$defs", "enum", "const",
             "required", "additionalProperties", "default", "allOf", "a", "title"]
        ),
        children,
        max_size=4,
    ),
    max_leaves=20,
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(schema=json_values, provider=st.sampled_from(list(PROVIDERS)))
def test_only_findings_never_exceptions(schema: Any, provider: str) -> None:
    before = copy.deepcopy(schema)
    check_provider(schema, provider, name="t")
    if isinstance(schema, dict):
        translate_for(provider, schema, True)
    assert schema == before


# --------------------------------------------------------------------------------------------
# Payload shapes


def weather(city: str, days: int = 1) -> str:
    """Get the weather forecast for a city.

    Args:
        city: the city name, e.g. "Paris".
        days: how many days to forecast.
    """
    return city


def undocumented(x: int) -> int:
    return x


@pytest.mark.parametrize("strict", [True, False])
def test_openai_chat_shape(strict: bool) -> None:
    fs = function_schema(weather, strict=strict)
    assert provider_tool(fs, "openai-chat") == {
        "type": "function",
        "function": {
            "name": "weather",
            "description": "Get the weather forecast for a city.",
            "parameters": fs.json_schema,
            "strict": strict,
        },
    }


@pytest.mark.parametrize("strict", [True, False])
def test_openai_responses_shape_and_key_order(strict: bool) -> None:
    fs = function_schema(weather, strict=strict)
    tool = provider_tool(fs, "openai-responses")
    assert list(tool) == ["name", "parameters", "strict", "type", "description"]
    assert tool["strict"] is strict
    assert tool["description"] == "Get the weather forecast for a city."


def test_missing_description_per_provider() -> None:
    fs = function_schema(undocumented)
    assert provider_tool(fs, "openai-chat")["function"]["description"] == ""
    assert provider_tool(fs, "openai-responses")["description"] == ""
    assert "description" not in provider_tool(fs, "anthropic")
    assert "description" not in provider_tool(fs, "gemini")


@pytest.mark.parametrize("strict", [True, False])
def test_anthropic_shape(strict: bool) -> None:
    fs = function_schema(weather, strict=strict)
    expected: dict[str, Any] = {
        "name": "weather",
        "description": "Get the weather forecast for a city.",
        "input_schema": fs.json_schema,
    }
    if strict:
        expected["strict"] = True
    assert provider_tool(fs, "anthropic") == expected


def test_gemini_shape() -> None:
    # The default Gemini declaration carries the normalised JSON Schema as it is.
    fs = function_schema(weather)
    assert provider_tool(fs, "gemini") == {
        "name": "weather",
        "description": "Get the weather forecast for a city.",
        "parametersJsonSchema": fs.json_schema,
    }


def test_gemini_openapi_shape() -> None:
    fs = function_schema(weather)
    tool = provider_tool(fs, "gemini-openapi")
    assert tool == {
        "name": "weather",
        "description": "Get the weather forecast for a city.",
        "parameters": {
            "properties": {
                "city": {"description": 'the city name, e.g. "Paris".', "type": "string"},
                "days": {"description": "how many days to forecast.", "type": "integer"},
            },
            "required": ["city", "days"],
            "type": "object",
        },
    }


def test_unknown_provider_lists_valid_names() -> None:
    fs = function_schema(weather)
    with pytest.raises(SchemaConstructionError) as info:
        provider_tool(fs, "mistral")
    for name in PROVIDERS:
        assert repr(name) in str(info.value)
    with pytest.raises(SchemaConstructionError):
        check_provider(obj(), "openai")


def test_strictness_is_decided_once() -> None:
    fs = function_schema(weather, strict=True)
    with pytest.raises(SchemaConstructionError, match="decided once"):
        provider_tool(fs, "openai-chat", strict=False)


def test_plain_schema_needs_a_name_and_is_strict_by_default() -> None:
    with pytest.raises(SchemaConstructionError, match="name"):
        provider_tool(obj(), "openai-chat")
    assert provider_tool(obj(), "openai-chat", name="t")["function"]["strict"] is True
    tool = provider_tool(obj(), "anthropic", name="t", description="d", strict=False)
    assert tool == {"name": "t", "description": "d", "input_schema": obj()}
    with pytest.raises(SchemaConstructionError, match="JSON object"):
        translate_for("gemini", [], True)  # type: ignore[arg-type]


def test_payload_is_a_copy() -> None:
    fs = function_schema(weather)
    before = copy.deepcopy(fs.json_schema)
    for provider in PROVIDERS:
        payload = provider_payload(fs, provider)
        payload.schema["properties"]["city"]["type"] = "mutated"
    assert fs.json_schema == before


# --------------------------------------------------------------------------------------------
# Seed checklist item 5: every adapter receives the same normalized schema and strictness


class Unit(str, Enum):
    C = "celsius"
    F = "fahrenheit"


class Place(BaseModel):
    city: str
    country: str | None = None


def rich(
    place: Place,
    unit: Unit = Unit.C,
    tags: list[str] | None = None,
    mode: Literal["fast", "slow"] = "fast",
    note: Annotated[str | None, "free text"] = None,
) -> str:
    """Forecast for a place.

    Args:
        place: where.
    """
    return ""


def _strict_flag(provider: str, tool: dict[str, Any]) -> bool:
    if provider == "openai-chat":
        return bool(tool["function"]["strict"])
    if provider == "openai-responses":
        return bool(tool["strict"])
    if provider == "anthropic":
        return bool(tool.get("strict", False))
    return False  # Gemini has no flag; checked separately


def _schema_of(provider: str, tool: dict[str, Any]) -> dict[str, Any]:
    key = {
        "openai-chat": None,
        "openai-responses": "parameters",
        "anthropic": "input_schema",
        "gemini": "parametersJsonSchema",
    }
    if provider == "openai-chat":
        return dict(tool["function"]["parameters"])
    return dict(tool[key.get(provider) or "parameters"])


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "non-strict"])
@pytest.mark.parametrize("func", [weather, rich, undocumented])
def test_every_adapter_gets_the_same_schema_and_strictness(func: Any, strict: bool) -> None:
    fs = function_schema(func, strict=strict)
    before = copy.deepcopy(fs.json_schema)
    for provider in PROVIDERS:
        payload = provider_payload(fs, provider)
        tool = payload.payload
        assert payload.strict is fs.strict
        if provider == "gemini-openapi":
            expected, changes = translate_for("gemini-openapi", fs.json_schema, fs.strict)
            assert _schema_of(provider, tool) == expected
            assert list(payload.changes) == changes
            assert "strict" not in tool
        else:
            assert _schema_of(provider, tool) == fs.json_schema
            assert payload.changes == ()
            if provider != "gemini":  # Gemini has no strict flag
                assert _strict_flag(provider, tool) is strict
    if not strict:  # "strict": false is sent explicitly, never dropped
        assert provider_tool(fs, "openai-chat")["function"]["strict"] is False
        assert provider_tool(fs, "openai-responses")["strict"] is False
        assert "strict" not in provider_tool(fs, "anthropic")
    assert fs.json_schema == before


def test_gemini_translation_of_rich_function_is_clean() -> None:
    for strict in (True, False):
        fs = function_schema(rich, strict=strict)
        assert check_provider(fs, "gemini") == []
        assert check_provider(fs, "gemini-openapi") == []


def test_check_provider_checks_what_the_provider_receives() -> None:
    fs = function_schema(rich, strict=False)
    # OpenAI rules run on fs.json_schema, non-strict: no strict-only rule applies.
    assert [f.rule for f in check_provider(fs, "openai-chat")] == []
    # A raw copy of the same schema, claimed strict, breaks the strict rules.
    rules = {f.rule for f in check_provider(fs.json_schema, "openai-chat", strict=True)}
    assert "openai.property-not-required" in rules


def test_findings_for_a_function_schema_use_python_parameter_names() -> None:
    def aliased(page_size: Annotated[int, Field(alias="page-size")] = 10) -> None:
        """List things in pages of a given size."""

    fs = function_schema(aliased, strict=False)
    finding = only(check_provider(fs, "gemini"), "gemini.parameter-name-invalid")
    assert finding.parameter == "page_size"
    assert finding.pointer == "/properties/page-size"


def test_iter_provider_findings_is_lazy() -> None:
    gen = iter_provider_findings(obj(), "openai-chat")
    assert iter(gen) is gen


# --------------------------------------------------------------------------------------------
# Gemini translation, rewrite by rewrite

TRANSLATIONS: list[tuple[str, dict[str, Any], dict[str, Any], list[str]]] = [
    ("type-list", gprop(type=["integer", "null"]), gprop(type="integer", nullable=True),
     ["gemini.type-list"]),
    ("type-list-many", gprop(type=["integer", "string"]),
     gprop(anyOf=[{"type": "integer"}, {"type": "string"}]), ["gemini.type-list"]),
    ("anyof-null", gprop(anyOf=[{"type": "string"}, {"type": "null"}], description="d"),
     gprop(type="string", description="d", nullable=True), ["gemini.null-union-to-nullable"]),
    ("anyof-null-many", gprop(anyOf=[{"type": "string"}, {"type": "integer"}, {"type": "null"}]),
     gprop(anyOf=[{"nullable": True, "type": "string"}, {"nullable": True, "type": "integer"}]),
     ["gemini.null-union-to-nullable", "gemini.any-of-alone"]),
    ("anyof-siblings", gprop(anyOf=[{"type": "string"}, {"type": "integer"}], description="d"),
     gprop(anyOf=[{"description": "d", "type": "string"},
                  {"description": "d", "type": "integer"}]),
     ["gemini.any-of-alone"]),
    ("const", gprop(type="string", const="x"), gprop(type="string", enum=["x"]),
     ["gemini.const-to-enum"]),
    ("oneof", gprop(oneOf=[{"type": "string"}, {"type": "integer"}]),
     gprop(anyOf=[{"type": "string"}, {"type": "integer"}]), ["gemini.oneof-to-anyof"]),
    ("drop", {"$schema": "x", "title": "T", **obj({"p": {"type": "integer", "default": 1,
                                                          "title": "P"}})},
     gobj({"p": {"type": "integer"}}),
     ["gemini.drop-keyword"] * 5),
    ("ref-inline-siblings-win",
     {"$defs": {"A": {"type": "string", "description": "def"}},
      **gobj({"a": {"$ref": "#/$defs/A", "description": "use"}})},
     gobj({"a": {"type": "string", "description": "use"}}),
     ["gemini.drop-keyword", "gemini.inline-ref"]),
    ("ref-nullable",
     {"$defs": {"A": gobj()}, **gobj({"a": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}})},
     gobj({"a": {**gobj(), "nullable": True}}),
     ["gemini.drop-keyword", "gemini.null-union-to-nullable", "gemini.inline-ref"]),
    ("all-of-single", gprop(allOf=[{"type": "string"}], description="d"),
     gprop(type="string", description="d"), ["gemini.flatten-all-of"]),
    ("property-called-title", gobj({"title": {"type": "string", "title": "Title"}}),
     gobj({"title": {"type": "string"}}), ["gemini.drop-keyword"]),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "schema", "expected", "rules"), TRANSLATIONS, ids=[t[0] for t in TRANSLATIONS]
)
def test_gemini_translation(
    case: str, schema: dict[str, Any], expected: dict[str, Any], rules: list[str]
) -> None:
    before = copy.deepcopy(schema)
    out, changes = translate_for("gemini-openapi", schema, True)
    assert out == expected
    assert json.dumps(out) == json.dumps(expected)  # key order too
    assert [c.rule for c in changes] == rules
    assert schema == before
    assert translate_for("gemini-openapi", schema, True) == (out, changes)  # deterministic
    assert check_provider(out, "gemini-openapi", translate=False) == []


def test_gemini_translation_stops_at_recursion() -> None:
    payload = provider_payload(RECURSIVE, "gemini-openapi", name="tree")
    findings = list(payload.findings)
    sites = [f.pointer for f in findings if f.rule == "gemini.recursive-schema"]
    # Once where the definition was inlined, once inside the kept definition.
    assert sites == ["/properties/root/properties/kids/items", "/$defs/Node/properties/kids/items"]
    assert {f.severity for f in findings} == {Severity.ERROR}
    # The recursive definition is kept so the remaining ref still resolves.
    assert payload.schema["$defs"]["Node"]["properties"]["kids"]["items"] == {
        "$ref": "#/$defs/Node"
    }
    all_findings = check_provider(RECURSIVE, "gemini-openapi", name="tree")
    assert [f.rule for f in all_findings].count("gemini.recursive-schema") >= 1


class Tree(BaseModel):
    label: str
    children: list[Tree]


def walk(tree: Tree) -> None:
    """Walk a tree of labels."""


def test_gemini_recursive_function_schema() -> None:
    fs = function_schema(walk)
    findings = check_provider(fs, "gemini-openapi")
    first = findings[0]
    assert first.rule == "gemini.recursive-schema"
    assert first.parameter == "tree"
    # The translator's findings replace the rule's own, so recursion is reported once per site.
    pointers = [f.pointer for f in findings if f.rule == "gemini.recursive-schema"]
    assert len(pointers) == len(set(pointers))


def test_walker_skips_data_keywords() -> None:
    schema = obj({"p": {"type": "string", "enum": [{"type": "object"}], "default": {"items": 1}}})
    pointers = [n.pointer for n in iter_schema_nodes(schema)]
    assert pointers == ["", "/properties/p"]


def test_function_schema_type_is_used() -> None:
    fs = function_schema(weather)
    assert isinstance(fs, FunctionSchema)
    # The reference keeps non-None defaults in strict schemas: accepted, but worth a warning.
    assert [f.rule for f in check_provider(fs, "openai-chat")] == ["openai.default"]
    assert check_provider(fs, "anthropic") == []
    nullable = function_schema(weather, optional_defaults="nullable")
    assert check_provider(nullable, "openai-chat") == []


def test_percent_encoded_ref_resolves_like_strict_and_diff() -> None:
    # A $ref is a URI: "#/$defs/My%20T" names the definition "My T" everywhere.
    from toollens.core.diff import diff
    from toollens.core.strict import explain_strict

    schema = {"$defs": {"My T": {"type": "string"}}, **obj({"a": {"$ref": "#/$defs/My%20T"}})}
    explain_strict(schema)  # resolves, or it would raise ref-missing
    for provider in PROVIDERS:
        none_of(check_provider(schema, provider, name="t"), "schema.unresolved-ref")
    assert diff(schema, schema).changes == ()
    bad = {"$defs": {"My T": {"type": "string"}}, **obj({"a": {"$ref": "#/$defs/My%FFT"}})}
    assert "%-escapes" in only(check_provider(bad, "openai-chat"), "schema.unresolved-ref").message


def test_unwrap_recognises_every_payload_toollens_builds() -> None:
    from toollens.core.providers import unwrap_payload

    fs = function_schema(weather)
    for provider in PROVIDERS:
        payload = provider_payload(fs, provider)
        found = unwrap_payload(payload.payload)
        assert found is not None
        assert found.provider == provider
        assert found.schema == payload.schema
        assert found.field("name") == "weather"
    assert unwrap_payload(obj()) is None


def test_verdict_names_each_judge() -> None:
    from toollens.core.providers import provider_verdict

    verdict = provider_verdict(obj(), "openai-chat", name="t")
    assert verdict.accepted
    assert [j.origin.value for j in verdict.judgements] == ["documented rule", "llguidance"]
    assert [j.detail for j in verdict.judgements] == ["no rule broken", "compiles"]
    assert all(s.date for s in verdict.judgements[0].sources)
    rejected = provider_verdict(
        prop(type="string", minLength=5, maxLength=2), "openai-chat", name="t"
    )
    assert not rejected.accepted
    grammar = rejected.judgements[1]
    assert grammar.outcome == "rejected"
    assert "unsatisfiable" in grammar.detail
    lax = provider_verdict(obj(), "openai-chat", name="t", strict=False)
    assert lax.judgements[1].outcome == "not run"
    assert [
        j.origin.value for j in provider_verdict(obj(), "gemini-openapi", name="t").judgements
    ] == [
        "documented rule",
        "translation",
    ]


def test_providers_page_lists_every_rule_with_its_source_and_date() -> None:

    readme = (REPO_ROOT / "docs" / "providers.md").read_text(encoding="utf-8")
    for rule in RULES_BY_ID.values():
        rows = [line for line in readme.splitlines() if line.startswith("|")]
        row = next((line for line in rows if f"`{rule.id}`" in line), "")
        assert rule.cite.url in row, rule.id
        assert rule.cite.date in row, rule.id


def test_llguidance_failing_itself_is_a_warning_not_a_verdict(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # llguidance 1.9 can panic (a BaseException from Rust) while cutting an error message
    # inside a multi-byte character; that says nothing about the schema.
    llguidance = pytest.importorskip("llguidance")
    from toollens.core.providers import provider_verdict
    from toollens.core.providers.grammar import _compile

    class Panic(BaseException):
        pass

    class Matcher:
        @staticmethod
        def grammar_from_json_schema(text: str) -> str:
            return text

        @staticmethod
        def validate_grammar(grammar: str, **_: Any) -> str:
            raise Panic("end byte index 100 is not a char boundary")

    monkeypatch.setattr(llguidance, "LLMatcher", Matcher)
    _compile.cache_clear()
    try:
        findings = check_provider(obj(), "openai-chat", name="t")
        finding = only(findings, "openai.grammar-unchecked")
        assert finding.severity is Severity.WARNING
        assert "char boundary" in finding.message
        none_of(findings, "openai.grammar-rejected")
        verdict = provider_verdict(obj(), "openai-chat", name="t")
        assert verdict.accepted
        assert verdict.judgements[1].outcome == "not run"
    finally:
        _compile.cache_clear()
