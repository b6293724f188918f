"""toollens strict conversion against the reference ``ensure_strict_json_schema``.

Same output (``==`` and the same ``json.dumps`` key order) on every schema the reference
accepts; a ``StrictSchemaError`` wherever it raises. The reference runs on a deep copy
because it mutates its input.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
from typing import Annotated, Any, Literal

import jsonschema
import pytest
from pydantic import BaseModel, Field, TypeAdapter
from typing_extensions import TypedDict

from toollens.core.errors import StrictSchemaError
from toollens.core.strict import ensure_strict_json_schema, explain_strict, strict_schema

agents_strict = pytest.importorskip("agents.strict_schema")

pytestmark = pytest.mark.reference


# -- pydantic models covering what function tools use


class Color(str, enum.Enum):
    RED = "red"
    GREEN = "green"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Address(BaseModel):
    street: str
    city: str = Field(description="City name.")
    zip: str | None = None


class Person(BaseModel):
    name: str = Field(min_length=1, description="Full name.")
    age: int = Field(ge=0, le=150, default=30)
    home: Address
    work: Address | None = None
    mailing: Address = Field(description="Where letters go.")


class Cat(BaseModel):
    kind: Literal["cat"]
    lives: int = 9


class Dog(BaseModel):
    kind: Literal["dog"]
    good: bool = True


class Owner(BaseModel):
    pet: Cat | Dog = Field(discriminator="kind")
    pets: list[Annotated[Cat | Dog, Field(discriminator="kind")]] = []


class PlainUnion(BaseModel):
    value: int | str | None = None
    either: Cat | Dog


class Node(BaseModel):
    name: str
    children: list[Node] = []
    parent: Node | None = None


class Tree(BaseModel):
    root: Node
    nodes: dict[str, int] = Field(default_factory=dict, max_length=0)


class Collections(BaseModel):
    tags: set[str] = set()
    frozen: frozenset[int] = frozenset()
    pair: tuple[int, str]
    var: tuple[int, ...] = ()
    matrix: list[list[float]]
    people: list[Person] = []


class Enums(BaseModel):
    color: Color = Color.RED
    priority: Priority
    mode: Literal["fast", "slow"] = "fast"
    flag: Literal[True] = True
    number: Literal[1, 2, 3]


@dataclasses.dataclass
class Point:
    x: float
    y: float = 0.0
    label: str | None = None


class Movie(TypedDict):
    title: str
    year: int


class Mixed(BaseModel):
    point: Point
    movie: Movie
    points: list[Point]


class Constrained(BaseModel):
    code: str = Field(pattern=r"^[A-Z]{3}$", examples=["ABC"])
    ratio: float = Field(gt=0, lt=1, default=0.5, title="Ratio")
    count: int = Field(multiple_of=2, default=2, deprecated=True)
    items: list[str] = Field(min_length=1, max_length=3, default_factory=lambda: ["a"])


class Described(BaseModel):
    """A model with a docstring."""

    color: Color = Field(description="Pick one.")
    owner: Owner = Field(description="Who owns it.", title="The owner")


class Deep(BaseModel):
    level1: Person
    level2: list[Owner]
    level3: Tree | None = None


class WithAlias(BaseModel):
    user_name: str = Field(alias="userName")
    maybe: int | None = Field(default=None, description="Maybe a number.")


def _schema_of(target: Any) -> dict[str, Any]:
    if isinstance(target, type) and issubclass(target, BaseModel):
        return target.model_json_schema()
    return TypeAdapter(target).json_schema()


PYDANTIC_TARGETS: list[tuple[str, Any]] = [
    ("address", Address),
    ("person", Person),
    ("owner-discriminated", Owner),
    ("plain-union", PlainUnion),
    ("recursive-node", Node),
    ("tree", Tree),
    ("collections", Collections),
    ("enums", Enums),
    ("mixed-dataclass-typeddict", Mixed),
    ("constrained", Constrained),
    ("described", Described),
    ("deep", Deep),
    ("alias", WithAlias),
    ("dataclass", Point),
    ("typeddict", Movie),
    ("list-of-models", list[Person]),
    ("dict-of-str", dict[str, str]),
    ("optional-model", Address | None),
    ("union-of-models", Cat | Dog),
    ("tuple", tuple[int, str]),
    ("set", set[int]),
    ("enum", Color),
]

ADDRESS = {"type": "object", "properties": {"street": {"type": "string"}}}

HAND_WRITTEN: list[tuple[str, dict[str, Any]]] = [
    ("object-only", {"type": "object"}),
    ("string-with-properties", {"type": "string", "properties": {}}),
    (
        "nested-nullable-object",
        {
            "type": "object",
            "properties": {
                "o": {"type": ["object", "null"], "properties": {"a": {"type": "integer"}}}
            },
        },
    ),
    (
        "root-ref-with-description",
        {"$ref": "#/$defs/A", "description": "Root.", "$defs": {"A": ADDRESS}},
    ),
    ("root-ref-with-id", {"$id": "urn:x", "$ref": "#/$defs/A", "$defs": {"A": ADDRESS}}),
    (
        "ref-default-leaks",
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/S", "description": "d", "default": None}},
            "$defs": {"S": {"type": "string", "default": "x"}},
        },
    ),
    (
        "ref-target-later-in-defs",
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/B"}},
            "$defs": {
                "B": {"properties": {"c": {"$ref": "#/$defs/C", "title": "C"}}},
                "C": {"properties": {"d": {"type": "integer", "default": None}}},
            },
        },
    ),
    (
        "percent-and-tilde-refs",
        {
            "type": "object",
            "properties": {
                "a": {"$ref": "#/$defs/a~1b", "title": "slash"},
                "b": {"$ref": "#/$defs/c~0d", "title": "tilde"},
                "c": {"$ref": "#/$defs/sp%20ace", "title": "space"},
            },
            "$defs": {
                "a/b": {"type": "integer"},
                "c~d": {"type": "string"},
                "sp ace": {"type": "boolean"},
            },
        },
    ),
    ("unused-defs-kept", {"type": "object", "properties": {}, "$defs": {"U": ADDRESS}}),
    (
        "anyof-not-a-list-with-oneof",
        {
            "type": "object",
            "properties": {"x": {"anyOf": {"type": "string"}, "oneOf": [{"type": "integer"}]}},
        },
    ),
    ("allof-two-entries", {"type": "object", "properties": {"x": {"allOf": [ADDRESS, ADDRESS]}}}),
    ("allof-empty", {"type": "object", "properties": {"x": {"allOf": [], "type": "string"}}}),
    (
        "allof-equal-numbers",
        {
            "type": "object",
            "properties": {"x": {"allOf": [{"type": "number", "maximum": 1}], "maximum": 1.0}},
        },
    ),
    (
        "allof-bool-vs-int",
        {"type": "object", "properties": {"x": {"allOf": [{"const": True}], "const": 1}}},
    ),
    (
        "allof-closed-parent-no-properties",
        {
            "type": "object",
            "properties": {
                "x": {"allOf": [ADDRESS], "type": "object", "additionalProperties": False}
            },
        },
    ),
    (
        "allof-parent-annotations-win",
        {
            "type": "object",
            "properties": {
                "x": {
                    "allOf": [{"type": "string", "title": "inner", "default": "a"}],
                    "title": "outer",
                    "default": None,
                }
            },
        },
    ),
    (
        "allof-ref-chain-with-siblings",
        {
            "type": "object",
            "properties": {
                "x": {"allOf": [{"$ref": "#/$defs/P", "description": "outer"}], "title": "X"}
            },
            "$defs": {"P": {"$ref": "#/$defs/A", "description": "inner"}, "A": ADDRESS},
        },
    ),
    (
        "allof-nested",
        {
            "type": "object",
            "properties": {
                "x": {"allOf": [{"allOf": [{"properties": {"a": {"type": "string"}}}]}]}
            },
        },
    ),
    (
        "allof-parent-with-properties",
        {
            "type": "object",
            "properties": {
                "x": {"allOf": [{"type": "object"}], "properties": {"a": {"type": "string"}}}
            },
        },
    ),
    (
        "items-tuple-form-kept",
        {"type": "object", "properties": {"t": {"type": "array", "items": [{"type": "object"}]}}},
    ),
    (
        "not-and-if-kept",
        {
            "type": "object",
            "properties": {
                "n": {
                    "not": {"type": "object"},
                    "if": {"properties": {}},
                    "then": {"type": "object"},
                }
            },
        },
    ),
    (
        "definitions-draft7",
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/definitions/A", "description": "A."}},
            "definitions": {"A": ADDRESS},
        },
    ),
    (
        "non-object-additional-properties",
        {"type": "object", "properties": {"s": {"type": "string", "additionalProperties": True}}},
    ),
    (
        "junk-keywords-copied",
        {
            "type": "object",
            "x-extra": {"a": [1, {"b": 2}]},
            "properties": {"a": {"type": "string", "enum": ["x", "y"], "examples": [["x"]]}},
        },
    ),
    # Refused by both.
    ("open-object", {"type": "object", "additionalProperties": True}),
    ("open-object-schema", {"type": "object", "additionalProperties": {"type": "integer"}}),
    (
        "ref-incompatible-sibling",
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A", "minLength": 1}},
            "$defs": {"A": {"type": "string"}},
        },
    ),
    (
        "ref-missing-target",
        {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing", "title": "A"}}},
    ),
    (
        "ref-remote",
        {
            "type": "object",
            "properties": {"a": {"$ref": "https://example.com/a.json", "title": "A"}},
        },
    ),
    (
        "allof-circular",
        {
            "type": "object",
            "properties": {"a": {"allOf": [{"$ref": "#/$defs/A"}]}},
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        },
    ),
    (
        "allof-conflict",
        {"type": "object", "properties": {"a": {"allOf": [{"type": "string"}], "type": "integer"}}},
    ),
    (
        "nested-id-ref",
        {
            "type": "object",
            "properties": {"a": {"$id": "urn:a", "properties": {"b": {"$ref": "#/$defs/B"}}}},
            "$defs": {"B": {"type": "string"}},
        },
    ),
    ("root-anyof", {"anyOf": [{"type": "object"}, {"type": "null"}]}),
    ("root-nullable", {"type": ["object", "null"], "properties": {}}),
    ("non-dict-property", {"type": "object", "properties": {"a": "string"}}),
    (
        "recursive-described-ref",
        {
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/N"}},
            "$defs": {
                "N": {
                    "type": "object",
                    "properties": {"next": {"$ref": "#/$defs/N", "description": "Next."}},
                }
            },
        },
    ),
    (
        "too-deep",
        {"type": "object", "properties": {"a": json.loads('{"items":' * 120 + "{}" + "}" * 120)}},
    ),
]

# The reference accepts these; toollens refuses them on purpose (see the README).
STRICTER: list[tuple[str, dict[str, Any]]] = [
    ("bare-ref-missing-target", {"type": "object", "properties": {"a": {"$ref": "#/$defs/X"}}}),
    ("bare-ref-remote", {"type": "object", "properties": {"a": {"$ref": "other.json#/x"}}}),
    (
        "empty-ref-with-sibling",
        {"type": "object", "properties": {"a": {"$ref": "", "description": "d"}}},
    ),
]

SCHEMAS = [(name, _schema_of(target)) for name, target in PYDANTIC_TARGETS] + HAND_WRITTEN


def _reference(schema: dict[str, Any]) -> dict[str, Any] | Exception:
    try:
        return agents_strict.ensure_strict_json_schema(copy.deepcopy(schema))
    except Exception as error:  # any reference failure is compared as "it raised"
        return error


def test_corpus_is_large_enough() -> None:
    assert len(SCHEMAS) >= 40


@pytest.mark.parametrize(("name", "schema"), SCHEMAS, ids=[s[0] for s in SCHEMAS])
def test_same_as_reference(name: str, schema: dict[str, Any]) -> None:
    expected = _reference(schema)
    before = copy.deepcopy(schema)
    if isinstance(expected, Exception):
        with pytest.raises(StrictSchemaError):
            strict_schema(schema)
    else:
        result, _ = explain_strict(schema)
        assert result == expected
        assert json.dumps(result) == json.dumps(expected)
        if jsonschema.Draft202012Validator(jsonschema.Draft202012Validator.META_SCHEMA).is_valid(
            schema
        ):  # inputs that break the meta-schema on purpose (tuple-form items) are skipped
            jsonschema.Draft202012Validator.check_schema(result)
    assert schema == before


@pytest.mark.parametrize(("name", "schema"), SCHEMAS, ids=[s[0] for s in SCHEMAS])
def test_drop_in_matches_reference_in_place(name: str, schema: dict[str, Any]) -> None:
    expected = _reference(schema)
    mine = copy.deepcopy(schema)
    if isinstance(expected, Exception):
        with pytest.raises(StrictSchemaError):
            ensure_strict_json_schema(mine)
        return
    result = ensure_strict_json_schema(mine)
    assert result == expected
    assert (result is mine) == (schema != {})


@pytest.mark.parametrize(("name", "schema"), STRICTER, ids=[s[0] for s in STRICTER])
def test_stricter_than_reference(name: str, schema: dict[str, Any]) -> None:
    assert not isinstance(_reference(schema), Exception)
    with pytest.raises(StrictSchemaError):
        strict_schema(schema)


def test_empty_schema_matches_reference() -> None:
    assert strict_schema({}) == agents_strict.ensure_strict_json_schema({})
