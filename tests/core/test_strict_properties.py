"""Properties of strict conversion over generated schema-like dicts.

Idempotent, never mutates its input, raises nothing but ``StrictSchemaError``, and every
object in the output is closed with all its properties required.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toollens.core.errors import StrictSchemaError
from toollens.core.strict import explain_strict, strict_schema

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

DEF_NAMES = ["A", "B", "C"]
NAMES = st.sampled_from(["a", "b", "c~d", "e/f"])
ATOMS = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=3))
TYPES = st.sampled_from(["string", "integer", "number", "boolean", "null", "object", "array"])
# Mostly valid input, so most examples convert; a missing target or junk now and then.
REFS = st.sampled_from([f"#/$defs/{name}" for name in DEF_NAMES * 8] + ["#/$defs/Z"])
JUNK = st.one_of(ATOMS, st.lists(ATOMS, max_size=2)).filter(lambda v: v != {})

VALID_LEAVES = st.one_of(
    st.fixed_dictionaries(
        {"type": TYPES},
        optional={"description": st.text(max_size=4), "default": ATOMS, "enum": st.lists(ATOMS)},
    ),
    st.just({}),
    st.builds(lambda ref: {"$ref": ref}, REFS),
    st.builds(lambda ref, text: {"$ref": ref, "description": text}, REFS, st.text(max_size=3)),
    st.builds(lambda ref: {"$ref": ref, "default": None}, REFS),
)
# one_of would flatten and weigh each junk branch like a valid one; pick junk 1 time in 100.
LEAVES = st.integers(0, 99).flatmap(lambda pick: JUNK if pick == 37 else VALID_LEAVES)


def _extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.fixed_dictionaries(
            {"properties": st.dictionaries(NAMES, children, max_size=3)},
            optional={
                "type": st.sampled_from(["object", ["object", "null"], None]),
                "additionalProperties": st.sampled_from([False] * 14 + [True, {}]),
                "required": st.lists(NAMES, max_size=2),
                "default": ATOMS,
                "title": st.text(max_size=3),
            },
        ),
        st.fixed_dictionaries({"type": st.just("array"), "items": children}),
        st.fixed_dictionaries(
            {"anyOf": st.lists(children, min_size=1, max_size=3)},
            optional={"default": st.none()},
        ),
        st.fixed_dictionaries(
            {"oneOf": st.lists(children, min_size=1, max_size=3)},
            optional={
                "discriminator": st.just({"propertyName": "a"}),
                "anyOf": st.lists(children, max_size=2),
            },
        ),
        st.fixed_dictionaries(
            {"allOf": st.lists(children, min_size=1, max_size=2)},
            optional={
                "description": st.text(max_size=3),
                "type": TYPES,
                "additionalProperties": st.just(False),
                "default": ATOMS,
            },
        ),
    )


SUBSCHEMAS = st.recursive(LEAVES, _extend, max_leaves=8)
SCHEMAS = st.builds(
    lambda props, defs, root_type: {
        **({"type": "object"} if root_type else {}),
        "properties": props,
        **({"$defs": defs} if defs else {}),
    },
    st.dictionaries(NAMES, SUBSCHEMAS, max_size=4),
    st.fixed_dictionaries(dict.fromkeys(DEF_NAMES, SUBSCHEMAS)),
    st.booleans(),
)

# Keywords the converter descends into; anything else is copied and never rewritten.
_SCHEMA_MAPS = ("properties", "$defs", "definitions")
_SCHEMA_LISTS = ("anyOf", "allOf")


def _schema_nodes(schema: dict[str, Any]) -> list[dict[str, Any]]:
    found, stack = [], [schema]
    while stack:
        node = stack.pop()
        found.append(node)
        for key in _SCHEMA_MAPS:
            if isinstance(node.get(key), dict):
                stack.extend(node[key].values())
        for key in _SCHEMA_LISTS:
            if isinstance(node.get(key), list):
                stack.extend(node[key])
        if isinstance(node.get("items"), dict):
            stack.append(node["items"])
    return found


def _container_ids(value: Any) -> set[int]:
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict | list):
            found.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return found


def _convert_or_none(schema: dict[str, Any]) -> dict[str, Any] | None:
    try:
        return strict_schema(schema)
    except StrictSchemaError:
        return None


@SETTINGS
@given(SCHEMAS)
def test_only_our_error_and_input_untouched(schema: dict[str, Any]) -> None:
    before = copy.deepcopy(schema)
    result = _convert_or_none(schema)  # anything but StrictSchemaError fails the test
    assert schema == before
    if result is not None:
        assert not _container_ids(schema) & _container_ids(result)


@SETTINGS
@given(SCHEMAS)
def test_idempotent(schema: dict[str, Any]) -> None:
    result = _convert_or_none(schema)
    if result is None:
        return
    again, changes = explain_strict(result)
    assert again == result
    assert json.dumps(again) == json.dumps(result)
    assert changes == []


@SETTINGS
@given(SCHEMAS)
def test_every_object_is_closed_and_fully_required(schema: dict[str, Any]) -> None:
    result = _convert_or_none(schema)
    if result is None:
        return
    for node in _schema_nodes(result):
        typ = node.get("type")
        if typ == "object" or (isinstance(typ, list) and "object" in typ):
            assert node["additionalProperties"] is False
        if isinstance(node.get("properties"), dict):
            assert node["required"] == list(node["properties"])
        assert "oneOf" not in node
        assert node.get("default", 0) is not None


@SETTINGS
@given(SCHEMAS)
def test_explain_and_strict_agree(schema: dict[str, Any]) -> None:
    plain = _convert_or_none(schema)
    if plain is None:
        return
    explained, _ = explain_strict(schema)
    assert json.dumps(explained) == json.dumps(plain)
