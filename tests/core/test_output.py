"""Output schemas: the three paths, names, golden schemas, and the model-behaviour boundary.

Golden schemas live in ``tests/golden/output/<case>.json``; rerun with
``pytest --update-goldens`` to rewrite them after a deliberate change, then review the diff.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import typing
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Generic, Literal, Optional, TypeVar, Union

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from support import goldens
from toollens.core.errors import ModelBehaviorError, SchemaConstructionError, StrictSchemaError
from toollens.core.output import (
    PROVIDER_NAME,
    OutputFailure,
    OutputPath,
    OutputSchema,
    OutputStreamValidator,
    output_schema,
    type_name,
)
from toollens.core.records import Change

# --- the types of the corpus (module level, so pydantic resolves their annotations) --------

T = TypeVar("T")


class Foo(BaseModel):
    name: str
    n: int


class Cat(BaseModel):
    kind: Literal["cat"]
    meow: bool


class Dog(BaseModel):
    kind: Literal["dog"]
    bark: bool


class Page(BaseModel, Generic[T]):
    items: list[T]
    next: str | None = None


class Movie(TypedDict):
    title: str
    year: int


@dataclasses.dataclass
class Point:
    x: int
    y: int


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Node(BaseModel):
    value: int
    children: list[Node] = []


class Open(BaseModel):
    model_config = ConfigDict(extra="allow")
    a: int


class Item(BaseModel):
    sku: str
    qty: Annotated[int, Field(ge=1)]


class Order(BaseModel):
    id: int
    items: list[Item]
    note: str | None = None


@dataclasses.dataclass(frozen=True)
class Case:
    """One output type, with an answer that validates and one that does not."""

    id: str
    tp: Any
    path: OutputPath
    name: str
    valid: str
    value: Any
    invalid: str | bytes
    pointer: str
    message: str  # a fragment of the failure message
    strict_ok: bool = True  # False: the type is open, so strict construction must fail

    @property
    def modes(self) -> list[bool]:
        return [True, False] if self.strict_ok else [False]


P, D, W = OutputPath.PLAIN_TEXT, OutputPath.DIRECT, OutputPath.WRAPPED
LITERAL = Literal["ok", "done"]

CORPUS = [
    Case("none", None, P, "str", "hello", "hello", b"\xff", "", "not valid UTF-8"),
    Case("str", str, P, "str", "{not json", "{not json", b"ok \xc3", "", "byte offset 3"),
    Case("int", int, W, "int", '{"response": 3}', 3, '{"response": "x"}', "/response",
         'expected an integer, got "x"'),
    Case("float", float, W, "float", '{"response": 2}', 2.0, '{"response": "abc"}', "/response",
         'expected a number, got "abc"'),
    Case("bool", bool, W, "bool", '{"response": false}', False, '{"response": "maybe"}',
         "/response", "expected a boolean"),
    # `-> None` takes the plain-text path like no declared type (issue 13)
    Case("none_type", type(None), P, "str", "hello", "hello", b"\xff", "", "not valid UTF-8"),
    Case("list_int", list[int], W, "list[int]", '{"response": [1, 2]}', [1, 2],
         '{"response": [1, 2, "x"]}', "/response/2", 'expected an integer, got "x"'),
    Case("list_model", list[Foo], W, "list[Foo]", '{"response": [{"name": "a", "n": 1}]}',
         [Foo(name="a", n=1)], '{"response": [{"name": "a"}]}', "/response/0/n",
         "missing required property 'n'"),
    Case("list_list_int", list[list[int]], W, "list[list[int]]", '{"response": [[1], []]}',
         [[1], []], '{"response": [[1], ["a"]]}', "/response/1/0", "expected an integer"),
    Case("set_int", set[int], W, "set[int]", '{"response": [1, 2, 2]}', {1, 2},
         '{"response": 5}', "/response", "expected an array, got 5"),
    Case("tuple_int_str", tuple[int, str], W, "tuple[int, str]", '{"response": [1, "a"]}',
         (1, "a"), '{"response": [1]}', "/response/1", "missing array item 1"),
    Case("tuple_variadic", tuple[int, ...], W, "tuple[int, ...]", '{"response": [1, 2, 3]}',
         (1, 2, 3), '{"response": [1, null]}', "/response/1", "expected an integer, got null"),
    Case("dict_str_int", dict[str, int], D, "dict[str, int]", '{"a": 1}', {"a": 1},
         '{"a": "x"}', "/a", 'expected an integer, got "x"', strict_ok=False),
    Case("dict_bare", dict, D, "dict", '{"a": [1]}', {"a": [1]}, "[1]", "",
         "expected an object, got [1]", strict_ok=False),
    Case("typed_dict", Movie, D, "Movie", '{"title": "Up", "year": 2009}',
         {"title": "Up", "year": 2009}, '{"title": "Up"}', "/year",
         "missing required property 'year'"),
    Case("model", Foo, D, "Foo", '{"name": "a", "n": 1}', Foo(name="a", n=1),
         '{"name": 1, "n": 1}', "/name", "expected a string, got 1"),
    Case("generic_model", Page[int], D, "Page[int]", '{"items": [1, 2], "next": null}',
         Page[int](items=[1, 2]), '{"items": ["a"], "next": null}', "/items/0",
         'expected an integer, got "a"'),
    Case("list_generic_model", list[Page[Foo]], W, "list[Page[Foo]]",
         '{"response": [{"items": [], "next": "p2"}]}', [Page[Foo](items=[], next="p2")],
         '{"response": [{"items": [{"name": "a", "n": "x"}], "next": null}]}',
         "/response/0/items/0/n", "expected an integer"),
    Case("dataclass", Point, W, "Point", '{"response": {"x": 1, "y": 2}}', Point(1, 2),
         '{"response": {"x": 1}}', "/response/y", "missing required property 'y'"),
    Case("enum", Color, W, "Color", '{"response": "red"}', Color.RED, '{"response": "blue"}',
         "/response", "expected one of 'red' or 'green', got \"blue\""),
    Case("literal", LITERAL, W, "Literal['ok', 'done']", '{"response": "ok"}', "ok",
         '{"response": "x"}', "/response", "expected one of 'ok' or 'done', got \"x\""),
    Case("list_literal", list[LITERAL], W, "list[Literal['ok', 'done']]",
         '{"response": ["done", "ok"]}', ["done", "ok"], '{"response": ["ok", "nope"]}',
         "/response/1", "expected one of 'ok' or 'done'"),
    Case("optional_model", Optional[Foo], W, "Foo | None", '{"response": null}', None,  # noqa: UP045 - the spelling under test
         '{"response": 3}', "/response", "expected an object, got 3"),
    Case("union_models", Union[Foo, Cat], W, "Foo | Cat",  # noqa: UP007 - the spelling under test
         '{"response": {"kind": "cat", "meow": true}}', Cat(kind="cat", meow=True),
         '{"response": 3}', "/response", "expected an object, got 3"),
    Case("union_pipe", int | str, W, "int | str", '{"response": "a"}', "a", '{"response": []}',
         "/response", "expected an integer or a string, got []"),
    Case("optional_int", int | None, W, "int | None", '{"response": 4}', 4,
         '{"response": 1.5}', "/response", "expected an integer"),
    Case("discriminated", Annotated[Cat | Dog, Field(discriminator="kind")], W, "Cat | Dog",
         '{"response": {"kind": "dog", "bark": true}}', Dog(kind="dog", bark=True),
         '{"response": {"kind": "dog"}}', "/response/bark", "missing required property 'bark'"),
    Case("any", Any, W, "Any", '{"response": {"a": [1, null]}}', {"a": [1, None]},
         '{"answer": 1}', "/response", "missing required property 'response'"),
    Case("annotated", Annotated[int, Field(ge=0)], W, "int", '{"response": 0}', 0,
         '{"response": -1}', "/response", "expected a value greater than or equal to 0, got -1"),
    Case("nested_generic", dict[str, list[Optional[Foo]]], D,  # noqa: UP045 - the spelling under test
         "dict[str, list[Foo | None]]", '{"a": [null, {"name": "x", "n": 1}]}',
         {"a": [None, Foo(name="x", n=1)]}, '{"a": [3]}', "/a/0", "expected an object, got 3",
         strict_ok=False),
    Case("recursive_model", Node, D, "Node",
         '{"value": 1, "children": [{"value": 2, "children": []}]}',
         Node(value=1, children=[Node(value=2)]),
         '{"value": 1, "children": [{"value": "x", "children": []}]}', "/children/0/value",
         'expected an integer, got "x"'),
    Case("nested_model", Order, D, "Order",
         '{"id": 1, "items": [{"sku": "é-1", "qty": 2}], "note": null}',
         Order(id=1, items=[Item(sku="é-1", qty=2)]),
         '{"id": 1, "items": [{"sku": "a", "qty": 0}], "note": null}', "/items/0/qty",
         "expected a value greater than or equal to 1, got 0"),
    Case("open_model", Open, D, "Open", '{"a": 1, "b": 2}', Open(a=1, b=2), '{"b": 2}', "/a",
         "missing required property 'a'", strict_ok=False),
]  # fmt: skip

BY_ID = {case.id: case for case in CORPUS}
CASES = [pytest.param(case, id=case.id) for case in CORPUS]
CASE_MODES = [
    pytest.param(case, strict, id=f"{case.id}-{'strict' if strict else 'lax'}")
    for case in CORPUS
    for strict in case.modes
]


def build(case: Case, strict: bool | None = None) -> OutputSchema:
    return output_schema(case.tp, strict=case.strict_ok if strict is None else strict)


def outcome(call: Callable[[], Any]) -> tuple[Any, ...]:
    """What a validation did, comparable across the streaming and one-shot paths."""
    try:
        value = call()
    except ModelBehaviorError as exc:
        return ("error", exc.message, exc.pointer, exc.rule, exc.hint)
    return ("value", type(value), value)


def test_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 25
    assert {case.path for case in CORPUS} == set(OutputPath)


# --- paths, names, explanations ----------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
def test_path_and_name(case: Case) -> None:
    schema = build(case)
    assert schema.path is case.path
    assert schema.is_plain_text == (case.path is P)
    assert schema.is_wrapped == (case.path is W)
    assert schema.name == case.name
    assert schema.provider_name == PROVIDER_NAME == "final_output"
    # type(None) is normalised to None: both mean "no structured output" (issue 13)
    assert schema.output_type is (None if case.tp is type(None) else case.tp)


@pytest.mark.parametrize(
    ("tp", "name"),
    [
        pytest.param(None, "str", id="none-is-plain-text"),
        pytest.param(list[Foo], "list[Foo]", id="list-model"),
        pytest.param(typing.List[int], "list[int]", id="typing-list"),  # noqa: UP006
        pytest.param(Page[int], "Page[int]", id="generic-model"),
        pytest.param(Page[Page[Foo]], "Page[Page[Foo]]", id="generic-of-generic"),
        pytest.param(Literal["ok"], "Literal['ok']", id="literal-one"),
        pytest.param(Literal[1, True, None], "Literal[1, True, None]", id="literal-mixed"),
        pytest.param(Literal[Color.RED], "Literal[Color.RED]", id="literal-enum-member"),
        pytest.param(list[LITERAL], "list[Literal['ok', 'done']]", id="list-literal"),
        pytest.param(Union[Foo, Cat], "Foo | Cat", id="union"),  # noqa: UP007
        pytest.param(Union[Cat, Foo], "Cat | Foo", id="union-order-kept"),  # noqa: UP007
        pytest.param(Optional[Foo], "Foo | None", id="optional"),  # noqa: UP045
        pytest.param(int | str, "int | str", id="pipe-union"),
        pytest.param(
            dict[str, list[Optional[Foo]]],  # noqa: UP045
            "dict[str, list[Foo | None]]",
            id="nested-generic-union",
        ),
        pytest.param(Any, "Any", id="any"),
        pytest.param(Color, "Color", id="enum"),
        pytest.param(tuple[int, ...], "tuple[int, ...]", id="variadic-tuple"),
        pytest.param(tuple[()], "tuple[()]", id="empty-tuple"),
        pytest.param(Callable[[int], str], "Callable[[int], str]", id="callable"),
        pytest.param(Annotated[int, Field(ge=0)], "int", id="annotated-drops-metadata"),
        pytest.param(Annotated[list[Annotated[int, "x"]], "y"], "list[int]", id="annotated-nested"),
        pytest.param(type(None), "None", id="none-type"),
    ],
)
def test_type_name(tp: Any, name: str) -> None:
    assert type_name(tp) == name
    assert type_name(tp) == type_name(tp)  # deterministic


@pytest.mark.parametrize(
    ("tp", "sentence"),
    [
        pytest.param(None, "No output type was declared", id="none"),
        pytest.param(str, "str output is plain text", id="str"),
        pytest.param(Foo, "Foo is a pydantic model, so its object schema is sent", id="model"),
        pytest.param(Movie, "Movie is a TypedDict (a dict at runtime)", id="typed-dict"),
        pytest.param(dict[str, int], "dict[str, int] is a dict type", id="dict"),
        pytest.param(
            list[int],
            'list[int] is not an object type, so it is wrapped in {"response": ...}; '
            'the model must answer {"response": <list[int]>}.',
            id="list",
        ),
        pytest.param(Point, "Point is a dataclass, and only pydantic models", id="dataclass"),
    ],
)
def test_explain(tp: Any, sentence: str) -> None:
    text = output_schema(tp, strict=False).explain()
    assert text.startswith(sentence)
    assert text.endswith(".")
    assert text.count(". ") == 0  # one sentence


# --- schemas ------------------------------------------------------------------------------


def _golden_record(case: Case) -> dict[str, Any]:
    lax = build(case, strict=False)
    record: dict[str, Any] = {
        "name": lax.name,
        "path": lax.path.value,
        "raw_json_schema": lax.raw_json_schema,
    }
    if case.path is P:
        record["strict"] = None
    elif case.strict_ok:
        record["strict"] = {"json_schema": build(case, strict=True).json_schema}
    else:
        with pytest.raises(StrictSchemaError) as info:
            build(case, strict=True)
        record["strict"] = {"error_pointer": info.value.pointer}
    return record


@pytest.mark.parametrize("case", CASES)
def test_schema_matches_golden(case: Case) -> None:
    record = _golden_record(case)
    goldens.check_json(f"output/{case.id}.json", record)


@pytest.mark.parametrize(("case", "strict"), CASE_MODES)
def test_schemas_are_valid_json_schema(case: Case, strict: bool) -> None:
    schema = build(case, strict)
    if case.path is P:
        assert schema.json_schema is None
        assert schema.raw_json_schema is None
        assert schema.strict_changes == []
        return
    assert schema.json_schema is not None
    assert schema.raw_json_schema is not None
    jsonschema.Draft202012Validator.check_schema(schema.json_schema)
    jsonschema.Draft202012Validator.check_schema(schema.raw_json_schema)
    assert schema.json_schema.get("type") == "object" or "$ref" in schema.json_schema


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].path is W])
def test_wrapper_shape(case: Case) -> None:
    raw = build(case, strict=False).raw_json_schema
    assert raw is not None
    assert raw["title"] == "OutputType"
    assert raw["type"] == "object"
    assert raw["required"] == ["response"]
    assert list(raw["properties"]) == ["response"]
    member = raw["properties"]["response"]
    # pydantic titles the member "Response" unless it is a reference or a union of them
    assert member.get("title", "Response") == "Response"


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].strict_ok])
def test_strict_schema_is_closed(case: Case) -> None:
    schema = build(case, strict=True)
    assert schema.strict is True
    if case.path is P:
        return
    assert schema.json_schema is not None
    assert schema.json_schema["additionalProperties"] is False
    assert schema.strict_changes, "closing the root object is at least one rewrite"
    assert all(isinstance(change, Change) for change in schema.strict_changes)


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].path is not P])
def test_non_strict_is_pydantics_schema_unchanged(case: Case) -> None:
    schema = build(case, strict=False)
    assert schema.strict is False
    assert schema.strict_changes == []
    assert schema.json_schema == schema.raw_json_schema
    assert schema.json_schema is not schema.raw_json_schema


@pytest.mark.parametrize("case", [c for c in CASES if not c.values[0].strict_ok])
def test_open_types_cannot_be_strict(case: Case) -> None:
    with pytest.raises(StrictSchemaError) as info:
        output_schema(case.tp)
    error = info.value
    assert f"output type {case.name} cannot be strict" in error.message
    assert error.hint is not None
    assert "strict=False" in error.hint
    assert "closed" in error.hint
    cause = error.__cause__
    assert isinstance(cause, StrictSchemaError)
    assert error.pointer == cause.pointer
    assert error.pointer is not None


def test_schemas_are_fresh_copies_and_construction_is_cached() -> None:
    first = output_schema(list[Foo])
    assert first.json_schema is not None
    first.json_schema["title"] = "changed"
    first.raw_json_schema["title"] = "changed"  # type: ignore[index]
    second = output_schema(list[Foo])
    assert second.json_schema is not None
    assert second.json_schema["title"] == "OutputType"
    assert second.raw_json_schema is not None
    assert second.raw_json_schema["title"] == "OutputType"
    assert first._adapter is second._adapter  # the TypeAdapter is built once per type


def test_union_member_order_is_not_shared_through_the_cache() -> None:
    # typing compares unions as sets, so a cache keyed on the type alone would mix them up.
    int_first = output_schema(int | str, strict=False).json_schema
    str_first = output_schema(str | int, strict=False).json_schema
    assert int_first is not None
    assert str_first is not None
    members = [s["properties"]["response"]["anyOf"] for s in (int_first, str_first)]
    orders = [[m["type"] for m in anyof] for anyof in members]
    assert orders == [["integer", "string"], ["string", "integer"]]


def test_unhashable_type_is_built_without_the_cache() -> None:
    tp = Annotated[int, {"not": ["hashable"]}]
    with pytest.raises(TypeError):
        hash(tp)
    schema = output_schema(tp, strict=False)
    assert schema.name == "int"
    assert schema.validate_json('{"response": 5}') == 5


@pytest.mark.parametrize(
    ("tp", "fragment"),
    [
        pytest.param(Callable[[int], int], "cannot become a JSON schema", id="callable"),
        pytest.param(list["Missing"], "cannot become a JSON schema", id="unresolved-forward-ref"),  # noqa: F821
    ],
)
def test_types_without_a_schema_fail_at_construction(tp: Any, fragment: str) -> None:
    with pytest.raises(SchemaConstructionError, match=fragment) as info:
        output_schema(tp, strict=False)
    assert info.value.__cause__ is not None
    assert "\n" not in info.value.message


# --- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(("case", "strict"), CASE_MODES)
def test_valid_answer(case: Case, strict: bool) -> None:
    result = build(case, strict).validate_json(case.valid)
    assert result == case.value
    assert type(result) is type(case.value)


@pytest.mark.parametrize(("case", "strict"), CASE_MODES)
def test_valid_answer_as_bytes(case: Case, strict: bool) -> None:
    assert build(case, strict).validate_json(case.valid.encode()) == case.value


@pytest.mark.parametrize(("case", "strict"), CASE_MODES)
def test_invalid_answer(case: Case, strict: bool) -> None:
    schema = build(case, strict)
    with pytest.raises(ModelBehaviorError) as info:
        schema.validate_json(case.invalid)
    error = info.value
    assert error.pointer == case.pointer
    assert case.message in error.message
    assert error.rule in {failure.value for failure in OutputFailure}
    assert isinstance(error.__cause__, Exception)  # always chained, never bare
    if case.path is not P:
        assert error.hint == schema.answer_hint


@pytest.mark.parametrize(
    ("strict", "text", "result"),
    [
        pytest.param(True, '{"response": "3"}', None, id="strict-rejects-string-for-int"),
        pytest.param(False, '{"response": "3"}', 3, id="lax-coerces-string-to-int"),
        pytest.param(True, '{"response": 3}', 3, id="strict-accepts-int"),
    ],
)
def test_strictness_decides_coercion(strict: bool, text: str, result: int | None) -> None:
    schema = output_schema(int, strict=strict)
    if result is None:
        with pytest.raises(ModelBehaviorError, match='expected an integer, got "3"'):
            schema.validate_json(text)
    else:
        assert schema.validate_json(text) == result


def test_wrapped_answer_ignores_extra_keys() -> None:
    assert output_schema(list[int]).validate_json('{"response": [1], "note": "hi"}') == [1]


@pytest.mark.parametrize(
    ("text", "rule", "fragment", "pointer"),
    [
        pytest.param("", "output-empty", "output is empty", "", id="empty"),
        pytest.param(" \n\t", "output-empty", "only whitespace", "", id="whitespace"),
        pytest.param(
            '{"response": [1, 2',
            "output-truncated",
            "stops early (EOF while parsing a list) at the end of the input (char 18)",
            "",
            id="truncated",
        ),
        pytest.param(
            '{"response": [1]} extra',
            "output-invalid-json",
            "trailing characters at line 1, column 19 (char 18)",
            "",
            id="trailing-text",
        ),
        pytest.param(
            'Sure!\n{"response": [1]}',
            "output-invalid-json",
            "expected value at line 1, column 1 (char 0)",
            "",
            id="prose",
        ),
        pytest.param(
            '{"response":\n  [1, }',
            "output-invalid-json",
            "at line 2, column 7 (char 19)",
            "",
            id="position-on-second-line",
        ),
        pytest.param(
            '{"response": ["é", }',
            "output-invalid-json",
            "at line 1, column 20 (char 19)",
            "",
            id="position-counts-characters-not-bytes",
        ),
        pytest.param(
            '{"response": [NaN]}',
            "output-invalid-json",
            "NaN is not a JSON number at line 1, column 15 (char 14)",
            "",
            id="nan",
        ),
        pytest.param(
            '{"response": [-Infinity]}',
            "output-invalid-json",
            "-Infinity is not a JSON number",
            "",
            id="negative-infinity",
        ),
        pytest.param(
            '{"response": [Infinity]}',
            "output-invalid-json",
            "Infinity is not a JSON number",
            "",
            id="infinity",
        ),
        pytest.param(
            '{"response": [1, 1e400]}',
            "output-non-finite-number",
            "number overflows a 64-bit float",
            "/response/1",
            id="float-overflow",
        ),
        pytest.param(
            '{"response": [-1e999]}',
            "output-non-finite-number",
            "got -1e309 or more",
            "/response/0",
            id="negative-float-overflow",
        ),
        pytest.param(
            '{"response": [1' + "0" * 5000 + "]}",
            "output-invalid-json",
            "number out of range",
            "",
            id="huge-integer",
        ),
        pytest.param(
            '{"response": ' + "[" * 5000 + "]" * 5000 + "}",
            "output-invalid-json",
            "nested more deeply than the parser allows",
            "",
            id="deep-nesting",
        ),
        pytest.param(
            b'{"response": [1, "\xff"]}',
            "output-not-utf8",
            "byte 0xff at byte offset 18",
            "",
            id="bytes-not-utf8",
        ),
        pytest.param(
            '{"response": ["\ud800"]}',
            "output-not-utf8",
            "unpaired surrogate '\\ud800' at char 15",
            "",
            id="lone-surrogate",
        ),
        pytest.param(
            "[1, 2]",
            "output-missing-wrapper",
            'expected an object with the key "response"',
            "",
            id="wrapper-forgotten",
        ),
        pytest.param(
            '{"answer": [1]}',
            "output-missing-wrapper",
            "missing required property 'response'",
            "/response",
            id="wrapper-key-wrong",
        ),
        pytest.param('"x"', "output-missing-wrapper", 'got "x"', "", id="bare-string-for-wrapped"),
    ],
)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_malformed_answers(
    strict: bool, text: str | bytes, rule: str, fragment: str, pointer: str
) -> None:
    schema = output_schema(list[float], strict=strict)
    with pytest.raises(ModelBehaviorError) as info:
        schema.validate_json(text)
    error = info.value
    assert error.rule == rule
    assert fragment in error.message
    assert error.pointer == pointer
    assert error.hint is not None


def test_code_fences_get_their_own_hint() -> None:
    with pytest.raises(ModelBehaviorError) as info:
        output_schema(list[int]).validate_json('```json\n{"response": [1]}\n```')
    assert info.value.hint is not None
    assert info.value.hint.startswith("answer with bare JSON, without Markdown code fences")
    assert info.value.hint.endswith('the model must answer {"response": <list[int]>}')


def test_message_shows_pointer_value_and_hint() -> None:
    with pytest.raises(ModelBehaviorError) as info:
        output_schema(list[int]).validate_json('{"response": [1, 2, "x"]}')
    assert str(info.value) == (
        'at /response/2: expected an integer, got "x"; '
        'the model must answer {"response": <list[int]>}'
    )


def test_long_values_are_shortened_and_extra_problems_counted() -> None:
    text = json.dumps({"response": ["x" * 200, "y", "z"]})
    with pytest.raises(ModelBehaviorError) as info:
        output_schema(list[int]).validate_json(text)
    message = info.value.message
    assert message.endswith("xxx... (and 2 more problems)")
    assert len(message) < 140


def test_direct_hint_names_the_type() -> None:
    with pytest.raises(ModelBehaviorError) as info:
        output_schema(Foo).validate_json("[]")
    assert info.value.message == "expected an object, got []"
    assert info.value.hint == "the model must answer a JSON object matching Foo"


def test_extra_property_is_named() -> None:
    class Closed(BaseModel):
        model_config = ConfigDict(extra="forbid")
        a: int

    with pytest.raises(ModelBehaviorError) as info:
        output_schema(Closed).validate_json('{"a": 1, "b/c": 2}')
    assert info.value.message == "unexpected property 'b/c'"
    assert info.value.pointer == "/b~1c"  # RFC 6901 escaping


@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_plain_text_is_returned_as_written(strict: bool) -> None:
    for tp in (None, str):
        schema = output_schema(tp, strict=strict)
        assert schema.strict is strict
        for text in ("", "   ", "not json", '"quoted"', "{}", "é ✓"):
            assert schema.validate_json(text) == text
            assert schema.validate_json(text.encode()) == text


def test_non_text_input_is_a_programming_error() -> None:
    with pytest.raises(TypeError, match="expected str or bytes, got int"):
        output_schema(list[int]).validate_json(3)  # type: ignore[arg-type]


# --- streaming ----------------------------------------------------------------------------

STREAM_TEXTS = [
    '{"response": [1, 2.5, "é✓"]}',
    '{"response": [1, 2',
    '{"response": [NaN]}',
    "",
    "  ",
    "[1]",
]


def _split_points(size: int) -> Iterator[tuple[int, int]]:
    for i in range(size + 1):
        yield i, i
    for i in range(0, size + 1, 3):
        for j in range(i, size + 1, 5):
            yield i, j


def _stream_pairs(case: Case) -> list[str | bytes]:
    texts: list[str | bytes] = [case.valid, case.invalid]
    if case.path is W:
        texts += STREAM_TEXTS
    return texts


@pytest.mark.parametrize(("case", "strict"), CASE_MODES)
def test_streaming_matches_one_shot(case: Case, strict: bool) -> None:
    schema = build(case, strict)
    for text in _stream_pairs(case):
        expected = outcome(lambda t=text: schema.validate_json(t))
        for data in {text, text.encode("utf-8") if isinstance(text, str) else text}:
            for i, j in _split_points(len(data)):
                chunks = [data[:i], data[i:j], data[j:]]
                assert outcome(lambda c=chunks: schema.validate_stream(c)) == expected, (
                    f"{data!r} split at {i}, {j}"
                )


def test_stream_validator_feed_and_finish() -> None:
    schema = output_schema(list[Foo])
    validator = OutputStreamValidator(schema)
    for chunk in ('{"resp', b'onse": [{"name": "\xc3', b'\xa9", "n": 1}]}'):
        validator.feed(chunk)
    assert validator.finish() == [Foo(name="é", n=1)]
    assert validator.schema is schema
    with pytest.raises(ValueError, match="already finished"):
        validator.feed("more")


def test_stream_of_nothing_is_an_empty_answer() -> None:
    with pytest.raises(ModelBehaviorError) as info:
        output_schema(list[int]).validate_stream([])
    assert info.value.rule == OutputFailure.EMPTY.value
    assert output_schema(None).validate_stream([]) == ""


def test_stream_surrogate_mixed_with_bytes_is_a_model_error() -> None:
    with pytest.raises(ModelBehaviorError) as info:
        output_schema(list[str]).validate_stream(['{"response": ["\ud800', b'"]}'])
    assert info.value.rule == OutputFailure.NOT_UTF8.value


def test_stream_rejects_non_text_chunks() -> None:
    with pytest.raises(TypeError, match="chunk must be str or bytes"):
        OutputStreamValidator(output_schema(list[int])).feed(1)  # type: ignore[arg-type]


# --- properties ---------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
PROPERTY_TYPES = [list[int], Foo, int | str, Any, Optional[Page[Foo]], None]  # noqa: UP045


@settings(max_examples=150, deadline=None)
@given(
    tp=st.sampled_from(PROPERTY_TYPES),
    strict=st.booleans(),
    text=st.text() | st.binary() | JSON_VALUES.map(json.dumps),
)
def test_only_model_behavior_errors_escape(tp: Any, strict: bool, text: str | bytes) -> None:
    result = outcome(lambda: output_schema(tp, strict=strict).validate_json(text))
    if result[0] == "error":
        _, _message, pointer, rule, _hint = result
        assert pointer is not None
        assert rule in {failure.value for failure in OutputFailure}


@settings(max_examples=150, deadline=None)
@given(
    tp=st.sampled_from(PROPERTY_TYPES),
    value=JSON_VALUES,
    cuts=st.lists(st.integers(min_value=0, max_value=400), max_size=4),
    as_bytes=st.booleans(),
)
def test_any_split_streams_like_one_shot(
    tp: Any, value: Any, cuts: list[int], as_bytes: bool
) -> None:
    schema = output_schema(tp)
    text: str | bytes = json.dumps({"response": value}, ensure_ascii=False)
    if as_bytes:
        text = text.encode("utf-8")
    points = sorted(min(cut, len(text)) for cut in cuts)
    chunks = [text[a:b] for a, b in zip([0, *points], [*points, len(text)], strict=True)]
    expected = outcome(lambda: schema.validate_json(text))
    assert outcome(lambda: schema.validate_stream(chunks)) == expected
    if expected[0] == "value" and schema.is_wrapped and isinstance(value, float):
        assert math.isfinite(expected[2])
