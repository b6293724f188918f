"""report(): every target kind, isolated view errors, options honoured."""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import re
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field
from typing_extensions import TypedDict

from toollens.core.errors import SchemaConstructionError, TargetError
from toollens.core.function_schema import function_schema
from toollens.core.report import (
    Report,
    ReportOptions,
    parse_schema_text,
    report,
    target_kind,
)
from toollens.examples import EXAMPLE_CONTEXT_TYPES, EXAMPLE_OPTIONS, EXAMPLES


def weather(city: str, unit: Literal["c", "f"] = "c") -> str:
    """Get the weather.

    Args:
        city: The city.
        unit: The unit.
    """
    return city + unit


class Point(BaseModel):
    """A point."""

    x: int
    y: int | None = None


class Movie(TypedDict):
    title: str


class Colour(enum.Enum):
    RED = "red"


class Greeter:
    """A class: its constructor is the tool."""

    def __init__(self, name: str) -> None:
        self.name = name


@dataclasses.dataclass
class Pair:
    left: int
    right: int


NESTED = {
    "type": "object",
    "properties": {"inner": {"type": "object", "properties": {"x": {"type": "string"}}}},
}


# ------------------------------------------------------------------------ target kinds


@pytest.mark.parametrize(
    ("target", "kind"),
    [
        (weather, "callable"),
        (Greeter, "callable"),  # a plain class is a callable (its constructor)
        (Pair, "callable"),  # so is a dataclass
        (Point, "model"),
        (list[int], "output-type"),
        (Literal["a", "b"], "output-type"),
        (int, "output-type"),  # builtins are data shapes, not tools
        (None, "output-type"),
        (Movie, "output-type"),
        (Colour, "output-type"),
        (int | None, "output-type"),
        (Annotated[int, Field(ge=0)], "output-type"),
        (NESTED, "json-schema"),
        (json.dumps(NESTED), "json-schema"),
    ],
    # getattr: a name that is the same in every process (pytest-xdist compares the ids)
    ids=lambda v: re.sub(r" at 0x[0-9a-f]+", "", getattr(v, "__qualname__", None) or str(v))[:30],
)
def test_target_kind(target: object, kind: str) -> None:
    assert target_kind(target) == kind


def test_not_a_target() -> None:
    with pytest.raises(TargetError, match="is not a callable"):
        report(42)


def test_callable_report_uses_function_schema() -> None:
    rep = report(weather)
    fs = function_schema(weather)
    assert rep.target_kind == "callable"
    assert rep.title == "weather"
    assert rep.function is not None
    assert rep.schema == fs.json_schema
    assert rep.raw_schema == fs.raw_json_schema
    assert [c.pointer for c in rep.strict_changes] == [c.pointer for c in fs.strict_changes]
    assert rep.output is not None
    assert rep.output.is_plain_text
    assert rep.view_errors == {}


def test_callable_report_provider_and_lint_views() -> None:
    providers = pytest.importorskip("toollens.core.providers")
    lint = pytest.importorskip("toollens.core.lint")
    rep = report(weather)
    fs = function_schema(weather)
    assert rep.provider_payload == providers.provider_tool(fs, "openai-chat")
    assert list(rep.provider_findings) == providers.check_provider(fs, "openai-chat")
    assert list(rep.lint) == lint.lint(fs)
    assert rep.findings == (*rep.lint, *rep.provider_findings)


def test_model_report() -> None:
    from toollens.core.strict import explain_strict

    rep = report(Point)
    assert rep.target_kind == "model"
    assert rep.title == "Point"
    assert rep.function is None
    assert rep.raw_schema == Point.model_json_schema()
    assert rep.schema == explain_strict(Point.model_json_schema())[0]
    assert rep.strict_changes
    assert rep.output is not None
    assert rep.output.path.value == "direct"
    assert rep.provider_payload is not None


@pytest.mark.parametrize(
    ("tp", "path"),
    [
        (list[int], "wrapped"),
        (Literal["a", "b"], "wrapped"),
        (None, "plain-text"),
        (str, "plain-text"),
        (Movie, "direct"),
    ],
)
def test_output_type_report(tp: object, path: str) -> None:
    rep = report(tp)
    assert rep.target_kind == "output-type"
    assert rep.output is not None
    assert rep.output.path.value == path
    assert rep.raw_schema is None
    assert rep.schema is None
    assert rep.function is None


def test_json_schema_report_dict_and_text_agree() -> None:
    from_dict = report(NESTED)
    from_text = report(json.dumps(NESTED))
    assert from_dict.target_kind == from_text.target_kind == "json-schema"
    assert from_dict.schema == from_text.schema
    assert from_dict.raw_schema == NESTED
    assert from_dict.schema is not None
    assert from_dict.schema["properties"]["inner"]["additionalProperties"] is False
    assert "/properties/inner" in {c.pointer for c in from_dict.strict_changes}


def test_json_schema_report_does_not_mutate_caller_dict() -> None:
    given = copy.deepcopy(NESTED)
    rep = report(given)
    assert given == NESTED
    assert rep.raw_schema is not given


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{\n  "type": ,\n}', "line 2 column 11"),
        ("[1, 2]", "must be an object, got list"),
        ('{"minimum": NaN}', "NaN"),
        (b"\xff", "not UTF-8"),
    ],
)
def test_json_text_errors(text: str | bytes, match: str) -> None:
    with pytest.raises(SchemaConstructionError, match=match):
        parse_schema_text(text)


def test_invalid_schema_names_the_pointer() -> None:
    with pytest.raises(SchemaConstructionError) as info:
        report({"type": "object", "properties": {"a": {"type": "objekt"}}})
    assert info.value.pointer == "/properties/a/type"


@pytest.mark.parametrize(
    ("schema", "pointer"),
    [
        ({"type": "object", "properties": {"a": {"type": "objekt"}}}, "/properties/a/type"),
        ({"type": "object", "required": "a"}, "/required"),
        ({"type": "object", "properties": []}, "/properties"),
        ({"anyOf": []}, "/anyOf"),
        ({"type": "array", "items": 3}, "/items"),
    ],
)
def test_structurally_invalid_schemas(schema: dict[str, object], pointer: str) -> None:
    with pytest.raises(SchemaConstructionError) as info:
        report(schema, strict=False)
    assert info.value.pointer == pointer


def test_boolean_and_tuple_subschemas_are_accepted() -> None:
    schema = {"type": "array", "items": [{"type": "string"}, True]}
    rep = report(copy.deepcopy(schema), strict=False)
    assert rep.raw_schema == schema
    assert rep.schema == schema
    assert rep.strict_changes == ()
    # the only complaint is OpenAI's about the array root, none about the sub-schemas
    assert [(f.rule, f.pointer) for f in rep.findings] == [("openai.root-not-object", "")]


def test_construction_error_propagates() -> None:
    def context_second(x: int, ctx: ToolContextLike) -> None:
        return None

    with pytest.raises(SchemaConstructionError):
        report(context_second, context_types=[ToolContextLike])  # context not first


class ToolContextLike:
    """A type passed as a context type in the test above."""


def test_strict_refusal_of_kwargs_keeps_every_other_view() -> None:
    def kwargs_tool(x: int, **extra: int) -> None:
        return None

    rep = report(kwargs_tool)  # **kwargs cannot be strict: only the strict view fails
    assert rep.schema is None
    assert "**extra cannot be expressed in a strict schema" in rep.view_errors["strict"]
    assert rep.raw_schema is not None
    assert set(rep.raw_schema["properties"]) == {"x", "extra"}
    assert rep.output is not None
    assert rep.output.is_plain_text
    assert "output" not in rep.view_errors
    assert "lint" not in rep.view_errors


# ---------------------------------------------------------------- view errors isolated


def test_output_view_error_keeps_other_views() -> None:
    def counts(word: str) -> dict[str, int]:
        """Count letters."""
        return {}

    rep = report(counts)
    assert "output" in rep.view_errors
    assert "strict" not in rep.view_errors
    assert rep.schema is not None
    assert rep.function is not None
    # the lax output schema is still shown, marked not strict
    assert rep.output is not None
    assert rep.output.strict is False


def test_strict_parameter_error_keeps_other_views() -> None:
    def tally(counts: dict[str, int]) -> int:
        """Sum the counts."""
        return sum(counts.values())

    rep = report(tally)
    assert "strict" in rep.view_errors
    assert "counts" in rep.view_errors["strict"]
    assert rep.schema is None
    assert rep.raw_schema is not None
    assert "counts" in rep.raw_schema["properties"]
    assert rep.function is not None
    assert rep.function.parameters[0].name == "counts"
    assert rep.output is not None
    assert rep.output.name == "int"
    assert rep.provider_payload is None
    assert "provider" in rep.view_errors


def test_json_schema_strict_error_is_a_view_error() -> None:
    schema = {
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}},
    }
    rep = report(schema)
    assert rep.view_errors["strict"].startswith("at /properties/m")
    assert rep.schema is None
    assert rep.raw_schema == schema


def test_output_type_strict_error_falls_back_to_lax() -> None:
    rep = report(dict[str, int])
    assert "output" in rep.view_errors
    assert rep.output is not None
    assert not rep.output.strict


# ---------------------------------------------------------------------------- options


def test_strict_off() -> None:
    rep = report(weather, strict=False)
    assert rep.options.strict is False
    assert rep.schema == rep.raw_schema
    assert rep.strict_changes == ()
    assert rep.output is not None
    assert rep.output.strict is False


def test_name_and_description_overrides() -> None:
    rep = report(weather, name="forecast", description="Forecast the weather.")
    assert rep.title == "forecast"
    assert rep.function.description == "Forecast the weather."
    if rep.provider_payload is not None:
        assert rep.provider_payload["function"]["name"] == "forecast"
    assert report(NESTED, name="nested").title == "nested"
    assert report(Point, name="P").title == "P"


def test_provider_option() -> None:
    pytest.importorskip("toollens.core.providers")
    rep = report(weather, provider="anthropic")
    assert rep.provider == "anthropic"
    assert rep.provider_payload is not None
    assert "input_schema" in rep.provider_payload


def test_unknown_provider_is_a_view_error() -> None:
    pytest.importorskip("toollens.core.providers")
    rep = report(weather, provider="nope")
    assert "provider" in rep.view_errors
    assert rep.schema is not None


def test_docstring_options() -> None:
    assert report(weather, use_docstring_info=False).function.description is None
    forced = report(weather, docstring_style="sphinx").function
    assert forced.docstring.guess is not None
    assert forced.docstring.guess.forced


def test_optional_defaults_nullable() -> None:
    rep = report(weather, optional_defaults="nullable")
    assert rep.options.optional_defaults == "nullable"
    assert rep.function.nullable_defaults == {"unit": "c"}


class Deps:
    """A run context no framework list knows."""


def find(deps: Deps, query: str) -> str:
    return query


def test_context_types() -> None:
    lookup = EXAMPLES["lookup_order"]
    for rep in (report(lookup, context_types=EXAMPLE_CONTEXT_TYPES), report(lookup)):
        assert rep.function.context_parameter == "ctx"  # the examples' stand-in is known
        assert "ctx" not in rep.schema["properties"]

    with pytest.raises(SchemaConstructionError, match="--context-type MODULE:CLASS"):
        report(find)  # without it, the context is an ordinary (unschemable) parameter
    assert report(find, context_types=[Deps]).function.context_parameter == "deps"


def test_output_type_override() -> None:
    rep = report(weather, output_type=list[int])
    assert rep.output is not None
    assert rep.output.is_wrapped


def test_changed_options_recompute() -> None:
    rep = report(weather)
    lax = report(rep.target, rep.options, strict=False)
    assert lax.options.strict is False
    assert lax.strict_changes == ()
    assert lax.options.provider == rep.options.provider


def test_one_options_object_travels() -> None:
    options = ReportOptions(strict=False, provider="anthropic", context_types=[int])
    assert options.context_types == (int,)  # kept as hashable data
    rep = report(weather, options, name="forecast")
    assert rep.options == dataclasses.replace(options, name="forecast")
    assert rep.title == "forecast"
    assert report(rep.target, rep.options, provider="gemini").options == dataclasses.replace(
        rep.options, provider="gemini"
    )
    with pytest.raises(TypeError):
        report(weather, options, no_such_option=True)


# ------------------------------------------------------------------------------ record


def test_report_is_frozen_data() -> None:
    rep = report(weather)
    assert isinstance(rep, Report)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rep.title = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        rep.view_errors["x"] = "y"  # type: ignore[index]


def test_mimebundle() -> None:
    rep = report(weather)
    bundle = rep._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"].startswith("toollens: weather")
    assert 'class="tl-root"' in bundle["text/html"]
    assert set(rep._repr_mimebundle_(include=["text/plain"])) == {"text/plain"}


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_report_cleanly(name: str) -> None:
    rep = report(EXAMPLES[name], **EXAMPLE_OPTIONS.get(name, {}))
    assert rep.view_errors == {}
    assert rep.function is not None
    assert rep.function.description
    assert all(p.description for p in rep.function.schema_parameters)


def test_examples_run() -> None:
    import datetime as dt

    from toollens.examples import Attendee, ShopState, ToolContext, VideoCall

    assert EXAMPLES["get_weather"]("Paris", days=2).count("day ") == 2
    hits = EXAMPLES["search_documents"]("strict schemas")
    assert hits
    assert hits[0].doc_id == "doc-1"
    booking = EXAMPLES["book_meeting"](
        "Sync",
        dt.datetime(2025, 1, 1, 9),
        Attendee(email="a@x.org"),
        [Attendee(email="b@x.org")],
        VideoCall(kind="video"),
    )
    assert booking.end - booking.start == dt.timedelta(minutes=30)
    ctx = ToolContext(ShopState("c1", {"ORD-000001": ["mug"]}))
    assert EXAMPLES["lookup_order"](ctx, "ORD-000001", True).items == ["mug"]


# -- a lone MCP tool object -----------------------------------------------------------------

_MCP_TOOL = {
    "name": "search",
    "description": "Search the catalogue.",
    "inputSchema": {
        "type": "object",
        "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["query"],
    },
    "annotations": {"readOnlyHint": True},
}


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic", "gemini"])
@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("spelled", ["dict", "json-text"])
def test_report_of_an_mcp_tool_reads_its_input_schema_as_a_list_of_it_does(
    provider: str, strict: bool, spelled: str
) -> None:
    import json

    import toollens

    target = _MCP_TOOL if spelled == "dict" else json.dumps(_MCP_TOOL)
    options = toollens.ReportOptions(provider=provider, strict=strict)
    rep = toollens.report(target, options)
    (listed,) = toollens.toolset([_MCP_TOOL], options).tools
    assert listed.report is not None
    assert rep.title == listed.report.title == "search"
    assert rep.raw_schema == _MCP_TOOL["inputSchema"]
    assert (rep.schema, rep.provider_payload) == (
        listed.report.schema,
        listed.report.provider_payload,
    )
    assert rep.provider_payload is not None
    assert "Search the catalogue." in json.dumps(rep.provider_payload)


def test_report_of_an_mcp_tool_lets_a_given_name_win() -> None:
    import toollens

    rep = toollens.report(_MCP_TOOL, name="find", description="Find items.")
    assert (rep.title, rep.options.description) == ("find", "Find items.")
