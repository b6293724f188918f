"""The OpenAI tools block toollens renders, feature by feature (a table of exact texts).

The validated features are checked against measured totals in test_tokens_measured.py;
this table pins the text of every feature, validated or not, so a change is deliberate.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("tiktoken")

from toollens.tokens import tokens, tool_defs
from toollens.tokens.openai_render import FOOTER, HEADER, render, text_of


def body(properties: dict[str, Any], required: tuple[str, ...] = (), **root: Any) -> str:
    schema = {"type": "object", "properties": properties, "required": list(required), **root}
    text = text_of(render(tool_defs({"title": "f", **schema})))
    assert text.startswith(HEADER)
    assert text.endswith(FOOTER)
    return text[len(HEADER) : -len(FOOTER)]


CASES = [
    pytest.param({"a": {"type": "string"}}, ("a",), "a: string,", id="required-string"),
    pytest.param({"a": {"type": "integer"}}, (), "a?: number,", id="optional-integer"),
    pytest.param({"a": {"type": "string", "enum": ["x", "y"]}}, (), 'a?: "x" | "y",', id="enum"),
    pytest.param({"a": {"type": "integer", "enum": [1, 2]}}, (), "a?: 1 | 2,", id="int-enum"),
    pytest.param({"a": {"const": "x"}}, (), 'a?: "x",', id="const"),
    pytest.param({"a": {"type": ["string", "null"]}}, (), "a?: string | null,", id="type-list"),
    pytest.param(
        {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
        (),
        "a?: string | null,",
        id="anyOf",
    ),
    pytest.param(
        {"a": {"type": "array", "items": {"type": "boolean"}}}, (), "a?: boolean[],", id="array"
    ),
    pytest.param({"a": {"type": "array"}}, (), "a?: any[],", id="array-no-items"),
    pytest.param({"a": {"type": "object"}}, (), "a?: object,", id="object-no-properties"),
    pytest.param(
        {"a": {"type": "string", "default": "c"}},
        (),
        "a?: string, // default: c",
        id="string-default-bare",
    ),
    pytest.param(
        {"a": {"type": "number", "default": 1.5}},
        (),
        "a?: number, // default: 1.5",
        id="number-default",
    ),
    pytest.param(
        {"a": {"type": "string", "description": "One\nTwo"}},
        (),
        "// One\n// Two\na?: string,",
        id="multi-line-description",
    ),
    pytest.param(
        {"a": {"type": "object", "properties": {"b": {"type": "string", "description": "B"}}}},
        (),
        "a?: {\n  // B\n  b?: string,\n},",
        id="nested-object",
    ),
]


@pytest.mark.parametrize(("properties", "required", "line"), CASES)
def test_feature_text(properties: dict[str, Any], required: tuple[str, ...], line: str) -> None:
    assert body(properties, required) == f"type f = (_: {{\n{line}\n}}) => any;\n\n"


def test_refs_expand_under_the_parameter_that_uses_them() -> None:
    defs = {"Geo": {"type": "object", "properties": {"lat": {"type": "number"}}}}
    text = body({"home": {"$ref": "#/$defs/Geo"}}, (), **{"$defs": defs})
    assert "home?: {\n  lat?: number,\n}," in text
    counted = tokens(
        {
            "title": "f",
            "type": "object",
            "$defs": defs,
            "properties": {"home": {"$ref": "#/$defs/Geo"}},
        }
    )
    paths = {p.path for p in counted.tools[0].parts}
    assert "home.lat" in paths


def test_a_recursive_ref_is_named_not_looped() -> None:
    defs = {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}
    text = body({"head": {"$ref": "#/$defs/Node"}}, (), **{"$defs": defs})
    assert "next?: Node," in text


def test_fan_out_refs_stop_expanding_past_the_budget() -> None:
    # D0 -> D1 twice -> D2 twice ...: 2**25 copies if expanded naively.
    defs = {
        f"D{i}": {
            "type": "object",
            "properties": {
                "left": {"$ref": f"#/$defs/D{i + 1}"},
                "right": {"$ref": f"#/$defs/D{i + 1}"},
            },
        }
        for i in range(25)
    }
    defs["D25"] = {"type": "string"}
    counted = tokens(
        {
            "title": "f",
            "type": "object",
            "$defs": defs,
            "properties": {"root": {"$ref": "#/$defs/D0"}},
        }
    )
    assert any("not expanded" in n for n in counted.notes)
    assert counted.total < 100_000


ESCAPED_DEFS = {
    "a/b": {"type": "string", "enum": ["x", "y"]},
    "c~d": {"type": "integer"},
    "e f": {"type": "boolean"},
}


@pytest.mark.parametrize(
    ("ref", "line"),
    [
        pytest.param("#/$defs/a~1b", 'p?: "x" | "y",', id="tilde-1-is-slash"),
        pytest.param("#/$defs/c~0d", "p?: number,", id="tilde-0-is-tilde"),
        pytest.param("#/%24defs/e%20f", "p?: boolean,", id="percent-encoded"),
        pytest.param("#/$defs/missing", "p?: any,", id="names-nothing"),
    ],
)
def test_a_ref_is_decoded_as_a_json_pointer(ref: str, line: str) -> None:
    # RFC 6901: `~1` is `/` and `~0` is `~` once the fragment is %-decoded; a `$ref` to
    # `#/$defs/a~1b` names the definition "a/b", not a missing "a~1b" counted as `any`.
    text = body({"p": {"$ref": ref}}, **{"$defs": ESCAPED_DEFS})
    assert line in text.splitlines()
