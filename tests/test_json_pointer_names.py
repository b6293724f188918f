"""A property or definition whose name holds ``/`` or ``~`` (escaped ``~1`` and ``~0`` in a
JSON pointer) or a space (``%20`` in a ``$ref``) reads the same along every path that
follows pointers: token counting, the toolset rules, the diff and the views. Each path goes
through :mod:`toollens.core.schema.pointer`; a hand-written split or escape breaks one here.
"""

from __future__ import annotations

from typing import Any

import pytest

import toollens
from toollens.core.schema.pointer import join_pointer, resolve_tokens, split_pointer
from toollens.render.model import schema_type
from toollens.tokens.openai_render import render, text_of
from toollens.tokens.tooldefs import ToolDef

# name, how a $ref to the definition of that name spells it
NAMES = [
    ("a/b", "#/$defs/a~1b"),
    ("a~b", "#/$defs/a~0b"),
    ("a~1b", "#/$defs/a~01b"),  # a literal "~1" in a name: escaped, never read as "/"
    ("a b", "#/$defs/a%20b"),
]


def _by_ref(name: str, ref: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: {"$ref": ref}},
        "required": [name],
        "$defs": {name: {"type": "integer", "description": "How many."}},
    }


def _inline(name: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: {"type": "integer", "description": "How many."}},
        "required": [name],
    }


@pytest.mark.parametrize(("name", "ref"), NAMES)
def test_tokens_count_a_referenced_definition_as_the_definition(name: str, ref: str) -> None:
    by_ref = text_of(render([ToolDef("t", "T.", _by_ref(name, ref))]))
    inline = text_of(render([ToolDef("t", "T.", _inline(name))]))
    assert by_ref == inline
    assert f"{name}: number" in by_ref

    def payload(schema: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {"name": "t", "description": "T.", "parameters": schema},
        }

    assert toollens.tokens(payload(_by_ref(name, ref))).total == (
        toollens.tokens(payload(_inline(name))).total
    )


@pytest.mark.parametrize(("name", "ref"), NAMES)
def test_the_toolset_type_rule_follows_the_reference(name: str, ref: str) -> None:
    def tool(tool_name: str, parameter: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
        schema = {"type": "object", "properties": {"x": parameter}, "$defs": defs}
        return {"name": tool_name, "description": "D.", "inputSchema": schema}

    defs = {name: {"type": "integer"}}
    same = toollens.Toolset.from_definitions(
        [tool("one", {"$ref": ref}, defs), tool("two", {"type": "integer"}, {})]
    )
    assert "toolset.parameter-type-conflict" not in {f.rule for f in same.findings}
    differ = toollens.Toolset.from_definitions(
        [tool("one", {"$ref": ref}, defs), tool("two", {"type": "string"}, {})]
    )
    (conflict,) = [f for f in differ.findings if f.rule == "toolset.parameter-type-conflict"]
    assert "integer in one" in conflict.message
    assert "string in two" in conflict.message


@pytest.mark.parametrize(("name", "ref"), NAMES)
def test_a_diff_points_at_the_property_by_its_escaped_name(name: str, ref: str) -> None:
    old, new = _inline(name), _inline(name)
    new["properties"][name] = {"type": "string", "description": "How many."}
    (change,) = toollens.diff(old, new).changes
    assert change.pointer == join_pointer("/properties", name)
    assert split_pointer(change.pointer) == ["properties", name]
    assert resolve_tokens(new, split_pointer(change.pointer)) == new["properties"][name]


@pytest.mark.parametrize(("name", "ref"), NAMES)
def test_a_diff_inside_a_definition_points_into_it(name: str, ref: str) -> None:
    old, new = _by_ref(name, ref), _by_ref(name, ref)
    new["$defs"][name] = {"type": "string", "description": "How many."}
    pointers = {c.pointer for c in toollens.diff(old, new).changes}
    assert pointers
    for pointer in pointers:
        tokens = split_pointer(pointer)
        assert name in tokens, pointer  # the name itself, decoded, is one token
        resolve_tokens(new, tokens[: tokens.index(name) + 1])


@pytest.mark.parametrize(("name", "ref"), NAMES)
def test_the_views_name_a_reference_by_its_decoded_name(name: str, ref: str) -> None:
    assert schema_type({"$ref": ref}) == name
