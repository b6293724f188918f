"""The shared JSON-Schema plumbing: pointers, local ``$ref`` resolution, previews, copies.

Every module builds pointers and follows references through ``toollens.core.schema``; the
last tests pin that strict conversion, the provider checks and the diff agree on the same
%-encoded reference.
"""

from __future__ import annotations

import enum
import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toollens import check_provider, diff, explain_strict
from toollens.core.errors import SchemaConstructionError, StrictSchemaError
from toollens.core.schema.pointer import (
    RefProblem,
    UnresolvedRef,
    escape_token,
    join_pointer,
    linked_pointer,
    ref_tokens,
    resolve_local,
    split_pointer,
    unescape_token,
)
from toollens.core.schema.toolkit import (
    NotPlainJSON,
    PlainProblem,
    copy_json,
    plain_json,
    preview_json,
    quote_prose,
    shorten,
)

# -- pointers


@pytest.mark.parametrize(
    ("token", "escaped"),
    [
        ("plain", "plain"),
        ("a/b", "a~1b"),
        ("a~b", "a~0b"),
        ("~1", "~01"),  # the tilde is escaped first, so "~1" never turns into "/"
        ("", ""),
        (3, "3"),
    ],
)
def test_escape_token(token: str | int, escaped: str) -> None:
    assert escape_token(token) == escaped
    assert unescape_token(escaped) == str(token)


@given(st.lists(st.text(), max_size=6))
def test_join_then_split_gives_the_tokens_back(tokens: list[str]) -> None:
    pointer = join_pointer("", *tokens)
    assert split_pointer(pointer) == tokens


@given(st.lists(st.one_of(st.text(), st.integers(min_value=0)), max_size=6))
def test_a_linked_path_is_the_joined_pointer(tokens: list[str | int]) -> None:
    path: Any = None
    for token in tokens:
        path = (path, token)
    assert linked_pointer(path) == join_pointer("", *tokens)


def test_split_pointer_with_a_limit() -> None:
    assert split_pointer("/properties/a~1b/items/0", 2) == ["properties", "a/b"]
    assert split_pointer("") == []


# -- local references


@pytest.mark.parametrize(
    ("ref", "tokens"),
    [
        ("#", []),
        ("#/$defs/A", ["$defs", "A"]),
        ("#/$defs/My%20T", ["$defs", "My T"]),  # %-decoded (RFC 6901 section 6)
        ("#/$defs/a~1b", ["$defs", "a/b"]),
        ("#/$defs/a%7E1b", ["$defs", "a/b"]),  # decoded before ~ escapes are undone
        ("#/$defs/caf%C3%A9", ["$defs", "café"]),
        ("#/", [""]),
    ],
)
def test_ref_tokens(ref: str, tokens: list[str]) -> None:
    assert ref_tokens(ref) == tokens


@pytest.mark.parametrize(
    ("ref", "problem"),
    [
        (3, RefProblem.NOT_A_STRING),
        ("other.json#/$defs/A", RefProblem.REMOTE),
        ("https://example.invalid/s.json", RefProblem.REMOTE),
        ("#Anchor", RefProblem.ANCHOR),
        ("#/$defs/%FF", RefProblem.BAD_ESCAPE),  # not UTF-8
    ],
)
def test_ref_tokens_refuses(ref: Any, problem: RefProblem) -> None:
    with pytest.raises(UnresolvedRef) as caught:
        ref_tokens(ref)
    assert caught.value.problem is problem
    assert caught.value.ref == ref


def test_resolve_local_follows_objects_and_arrays() -> None:
    doc = {"$defs": {"My T": {"type": "string"}}, "anyOf": [{"type": "null"}]}
    assert resolve_local(doc, "#/$defs/My%20T") == ("/$defs/My T", {"type": "string"})
    assert resolve_local(doc, "#/anyOf/0") == ("/anyOf/0", {"type": "null"})
    assert resolve_local(doc, "#") == ("", doc)


@pytest.mark.parametrize(
    ("ref", "found"),
    [
        ("#/$defs/Missing", 1),
        ("#/anyOf/1", 1),
        ("#/anyOf/²", 1),  # a Unicode digit is no array index
        ("#/nothing/here", 0),
    ],
)
def test_resolve_local_names_how_far_it_got(ref: str, found: int) -> None:
    doc = {"$defs": {"A": {}}, "anyOf": [{}]}
    with pytest.raises(UnresolvedRef) as caught:
        resolve_local(doc, ref)
    assert caught.value.problem is RefProblem.MISSING
    assert caught.value.found == found


# -- previews


def test_preview_json_cuts_long_values() -> None:
    assert preview_json({"a": 1}) == '{"a": 1}'
    long = preview_json("x" * 100)
    assert len(long) == 60
    assert long.endswith("...")
    assert len(preview_json("x" * 100, 80)) == 80
    assert shorten("abc", 60) == "abc"
    assert shorten("a" * 61) == "a" * 57 + "..."


def test_preview_json_never_raises() -> None:
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    assert preview_json(cyclic).startswith("{")
    assert preview_json(object()).startswith('"<object object')
    assert preview_json({1: math.inf}) == '{"1": Infinity}'


# -- copies


class _Color(str, enum.Enum):
    RED = "red"

    def __str__(self) -> str:
        return "Color.RED"


def test_copy_json_shares_nothing() -> None:
    value = {"a": [1, {"b": (2, 3)}], "c": None}
    copied = copy_json(value)
    assert copied == value
    assert copied is not value
    assert copied["a"] is not value["a"]
    assert copied["a"][1] is not value["a"][1]
    assert type(copied["a"][1]["b"]) is tuple


def test_plain_json_is_the_json_round_trip() -> None:
    value = {"a": (1, 2.5, True, None), "b": _Color.RED, "c": {"d": []}}
    copied = plain_json(value, 10)
    assert copied == json.loads(json.dumps(value))
    assert type(copied["b"]) is str
    assert copied["b"] == "red"


@pytest.mark.parametrize(
    ("value", "problem", "pointer"),
    [
        ({"a": {"b": [1, [2]]}}, PlainProblem.TOO_DEEP, "/a/b/1/0"),
        ({"a": {1: "x"}}, PlainProblem.KEY_NOT_STRING, "/a"),
        ({"a": [0, math.nan]}, PlainProblem.NOT_FINITE, "/a/1"),
        ({"a/b": {"c": object()}}, PlainProblem.NOT_JSON, "/a~1b/c"),
    ],
)
def test_plain_json_says_what_and_where(value: Any, problem: PlainProblem, pointer: str) -> None:
    with pytest.raises(NotPlainJSON) as caught:
        plain_json(value, 3)
    assert caught.value.problem is problem
    assert caught.value.pointer == pointer


# -- one rule for %-encoded references, everywhere

_ENCODED = {
    "type": "object",
    "properties": {"t": {"$ref": "#/$defs/My%20T"}},
    "required": ["t"],
    "additionalProperties": False,
    "$defs": {
        "My T": {
            "type": "object",
            "properties": {"x": {"type": "string"}},
            "required": ["x"],
            "additionalProperties": False,
        }
    },
}


def test_strict_resolves_a_percent_encoded_ref() -> None:
    schema, _ = explain_strict(_ENCODED)
    assert schema["properties"]["t"] == {"$ref": "#/$defs/My%20T"}


def test_diff_resolves_a_percent_encoded_ref() -> None:
    changed = json.loads(json.dumps(_ENCODED))
    changed["$defs"]["My T"]["properties"]["x"]["maxLength"] = 3
    (change,) = diff(_ENCODED, changed).changes
    assert change.pointer == "/$defs/My T/properties/x"


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic", "gemini", "gemini-openapi"])
def test_provider_checks_resolve_a_percent_encoded_ref(provider: str) -> None:
    rules = {finding.rule for finding in check_provider(_ENCODED, provider)}
    assert "schema.unresolved-ref" not in rules


@pytest.mark.parametrize("ref", ["#/$defs/Missing%20T", "#/$defs/%FF"])
def test_strict_and_diff_refuse_the_same_refs(ref: str) -> None:
    schema = {"type": "object", "properties": {"t": {"$ref": ref}}, "$defs": {"My T": {}}}
    with pytest.raises(StrictSchemaError) as strict_error:
        explain_strict(schema)
    with pytest.raises(SchemaConstructionError) as diff_error:
        diff(schema, schema)
    assert strict_error.value.pointer == diff_error.value.pointer == "/properties/t"


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=20,
)


@given(_JSON)
def test_compact_json_is_json_dumps_compact(value: object) -> None:
    import json

    from toollens.core.schema.toolkit import compact_json, encode_compact

    try:
        expected = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:  # NaN and infinities: not JSON
        assert compact_json(value) is None
    else:
        assert compact_json(value) == expected
    lax = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    assert encode_compact(value, allow_nan=True) == lax


def test_compact_json_refuses_what_is_not_json() -> None:
    from toollens.core.schema.toolkit import compact_json

    looped: dict[str, object] = {}
    looped["self"] = looped
    assert compact_json({"a": object()}) is None
    assert compact_json(looped) is None


@pytest.mark.parametrize(
    ("text", "limit", "quoted"),
    [
        ("The city.", 60, '"The city."'),
        ('The city, e.g. "Paris" or "San Francisco".', 60,
         """'The city, e.g. "Paris" or "San Francisco".'"""),
        ('The city to forecast, e.g. "Paris" or "San Francisco" or "Oslo".', 40,
         """'The city to forecast, e.g. "Paris"...'"""),
        ("  two\n   lines  ", 60, '"two lines"'),
    ],
)  # fmt: skip
def test_prose_is_quoted_whole_or_cut_at_a_word(text: str, limit: int, quoted: str) -> None:
    assert quote_prose(text, limit) == quoted


@given(st.text(), st.integers(min_value=10, max_value=200))
def test_quoted_prose_is_delimited_and_never_escaped(text: str, limit: int) -> None:
    quoted = quote_prose(text, limit)
    assert quoted[0] == quoted[-1]
    assert quoted[0] in "'\""
    assert len(quoted) <= limit + 2
    assert quoted.count("\\") <= text.count("\\")  # nothing escaped
