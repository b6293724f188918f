"""Properties over generated schema-like dicts and random model output.

Strict conversion has its own properties (``test_strict_properties.py``); these cover the
rest of the engine: provider checks never raise and point into the schema, ``diff`` of a
schema with itself is empty and only raises ``SchemaConstructionError``, output validation
of arbitrary text or bytes only raises ``ModelBehaviorError``, and a report of any schema
renders to safe, balanced HTML or raises a ``ToolLensError``.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from support.hostile import XSS_PAYLOADS, assert_helpful, audit_html, time_limit
from toollens import (
    Finding,
    ModelBehaviorError,
    SchemaConstructionError,
    ToolLensError,
    check_provider,
    diff,
    output_schema,
    report,
)
from toollens.core.providers import PROVIDERS as _PROVIDER_TABLE
from toollens.render.html import render_html
from toollens.render.text import render_text

SETTINGS = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
SECONDS = 10.0
PROVIDERS = tuple(_PROVIDER_TABLE)

# --------------------------------------------------------------------------- strategies

NAMES = st.sampled_from(["a", "b", "a/b", "t~1", "", "<b>", "not valid", "é"])
TEXT = st.one_of(st.text(max_size=6), st.sampled_from(XSS_PAYLOADS))
ATOMS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
)
JSON_VALUES = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=6,
)
TYPES = st.sampled_from(
    ["string", "integer", "number", "boolean", "null", "object", "array", "date", 5, None]
)
REFS = st.sampled_from(
    [
        "#/$defs/A",
        "#/$defs/B",
        "#/definitions/C",
        "#",
        "#/properties/a",
        "#/$defs/missing",
        "https://example.com/x.json",
        "other.json#/y",
        "file:///etc/passwd",
        "#/$defs/A~2",
        "",
    ]
)
FORMATS = st.sampled_from(["date-time", "email", "uuid", "uri", "regex", "made-up"])

LEAVES = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(TYPES, st.lists(TYPES, max_size=3)),
            "description": TEXT,
            "title": TEXT,
            "default": JSON_VALUES,
            "enum": st.lists(ATOMS, max_size=3),
            "const": ATOMS,
            "format": FORMATS,
            "pattern": st.sampled_from(["^a+$", "(", "[a-z]{2,}"]),
            "minimum": ATOMS,
            "maxLength": st.one_of(st.integers(-1, 10), TEXT),
            "examples": st.lists(JSON_VALUES, max_size=2),
            "x-custom": JSON_VALUES,
        },
    ),
    st.builds(lambda ref: {"$ref": ref}, REFS),
    st.builds(lambda ref, d: {"$ref": ref, "description": d}, REFS, TEXT),
    st.booleans(),
    ATOMS,  # junk where a schema should be
)


def _extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    maps = st.dictionaries(NAMES, children, max_size=3)
    return st.one_of(
        st.fixed_dictionaries(
            {"properties": st.one_of(maps, maps, st.lists(children, max_size=2))},
            optional={
                "type": st.sampled_from(["object", ["object", "null"], "array"]),
                "required": st.one_of(st.lists(NAMES, max_size=3), NAMES),
                "additionalProperties": st.one_of(st.booleans(), children),
                "$defs": st.dictionaries(st.sampled_from(["A", "B"]), children, max_size=2),
                "definitions": st.dictionaries(st.just("C"), children, max_size=1),
                "patternProperties": st.dictionaries(st.just("^x"), children, max_size=1),
                "description": TEXT,
            },
        ),
        st.fixed_dictionaries(
            {"type": st.just("array"), "items": st.one_of(children, st.lists(children))},
            optional={"prefixItems": st.lists(children, max_size=2), "minItems": ATOMS},
        ),
        st.builds(lambda xs: {"anyOf": xs}, st.lists(children, max_size=3)),
        st.builds(lambda xs: {"oneOf": xs}, st.lists(children, min_size=1, max_size=2)),
        st.builds(lambda xs: {"allOf": xs}, st.lists(children, min_size=1, max_size=2)),
        st.builds(lambda x: {"not": x}, children),
        st.builds(lambda i, t, e: {"if": i, "then": t, "else": e}, children, children, children),
    )


SUBSCHEMAS = st.recursive(LEAVES, _extend, max_leaves=12)


def _rooted(body: Any, defs: dict[str, Any]) -> Any:
    if isinstance(body, dict) and defs:
        return {**body, "$defs": {**defs, **body.get("$defs", {})}}
    return body


# A root is usually an object with properties (as a tool's parameters are) plus $defs the
# generated refs can hit; sometimes anything at all.
SCHEMAS = st.one_of(
    st.builds(
        _rooted,
        st.builds(
            lambda props, req: {"type": "object", "properties": props, "required": req},
            st.dictionaries(NAMES, SUBSCHEMAS, max_size=4),
            st.lists(NAMES, max_size=3),
        ),
        st.dictionaries(st.sampled_from(["A", "B"]), SUBSCHEMAS, max_size=2),
    ),
    SUBSCHEMAS,
)

# --------------------------------------------------------------------------- helpers


def resolve(document: Any, pointer: str) -> Any:
    """The node at an RFC 6901 pointer; raises ``LookupError`` when there is none."""
    node = document
    if pointer == "":
        return node
    assert pointer.startswith("/"), f"pointer {pointer!r} does not start with '/'"
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict):
            if token in node:
                node = node[token]
                continue
            # non-string keys in a Python dict are written as their str() in pointers
            matches = [value for key, value in node.items() if str(key) == token]
            if not matches:
                raise LookupError(f"{pointer!r}: no key {token!r}")
            node = matches[0]
        elif isinstance(node, list):
            if not (token.isdigit() and int(token) < len(node)):
                raise LookupError(f"{pointer!r}: no index {token!r}")
            node = node[int(token)]
        else:
            raise LookupError(f"{pointer!r}: {token!r} under a {type(node).__name__}")
    return node


def _resolves_or_names_a_missing_key(document: Any, pointer: str) -> bool:
    """A finding may point at a keyword that should be there (e.g. a missing ``required``)."""
    try:
        resolve(document, pointer)
    except LookupError:
        parent, _, _ = pointer.rpartition("/")
        try:
            return isinstance(resolve(document, parent), dict)
        except LookupError:
            return False
    return True


def _bounded(what: str, call: Any) -> Any:
    with time_limit(SECONDS, what):
        return call()


# --------------------------------------------------------------------------- providers


@SETTINGS
@given(SCHEMAS)
def test_check_provider_never_raises_and_points_into_the_schema(schema: Any) -> None:
    before = copy.deepcopy(schema)
    for provider in PROVIDERS:
        findings = _bounded(provider, lambda p=provider: check_provider(schema, p))
        assert isinstance(findings, list)
        for finding in findings:
            assert isinstance(finding, Finding)
            assert finding.message, finding
            assert finding.fix, finding
            if finding.pointer is not None:
                assert _resolves_or_names_a_missing_key(schema, finding.pointer), (
                    provider,
                    str(finding),
                )
    assert schema == before, "check_provider mutated its input"


@SETTINGS
@given(SCHEMAS, st.sampled_from(PROVIDERS))
def test_check_provider_is_deterministic(schema: Any, provider: str) -> None:
    first = check_provider(schema, provider)
    assert check_provider(copy.deepcopy(schema), provider) == first


# --------------------------------------------------------------------------- diff


def _diff_or_error(a: Any, b: Any) -> Any:
    try:
        return _bounded("diff", lambda: diff(a, b))
    except SchemaConstructionError as exc:
        return exc


@SETTINGS
@given(SCHEMAS)
def test_diff_with_itself_is_empty(schema: Any) -> None:
    before = copy.deepcopy(schema)
    result = _diff_or_error(schema, copy.deepcopy(schema))
    if not isinstance(result, SchemaConstructionError):
        assert result.changes == (), [str(c) for c in result.changes]
        assert not result.breaking
    assert schema == before, "diff mutated its input"


@SETTINGS
@given(SCHEMAS, SCHEMAS)
def test_diff_only_raises_schema_construction_error(a: Any, b: Any) -> None:
    result = _diff_or_error(a, b)
    if not isinstance(result, SchemaConstructionError):
        json.dumps(result.to_dict(), default=repr)  # the CLI prints this
        reverse = _diff_or_error(b, a)
        if not isinstance(reverse, SchemaConstructionError):
            # no change in one direction means no change in the other
            assert (result.changes == ()) == (reverse.changes == ())


# --------------------------------------------------------------------------- output


class Answer(BaseModel):
    title: str
    tags: list[str] = []


VALIDATORS = [
    output_schema(list[int]),
    output_schema(Answer),
    output_schema(str),
    output_schema(dict[str, Any], strict=False),
    output_schema(int | None),
]

JSONISH = st.one_of(
    st.text(max_size=40),
    st.text(alphabet='[]{}",:0123456789.eE+-nultrfasNIy \\u\n', max_size=60),
    st.builds(json.dumps, JSON_VALUES),
    st.builds(lambda v: json.dumps({"response": v}), JSON_VALUES),
    st.builds(lambda v: json.dumps({"title": v, "tags": [v]}), JSON_VALUES),
)


@SETTINGS
@given(st.one_of(JSONISH, st.binary(max_size=40), st.builds(str.encode, JSONISH)))
def test_validate_json_only_raises_model_behavior_error(text: str | bytes) -> None:
    for schema in VALIDATORS:
        try:
            _bounded("validate_json", lambda s=schema: s.validate_json(text))
        except ModelBehaviorError as exc:
            assert_helpful(exc)


# --------------------------------------------------------------------------- report


@SETTINGS
@given(SCHEMAS, st.booleans(), st.sampled_from(PROVIDERS))
def test_report_renders_safe_balanced_html(schema: Any, strict: bool, provider: str) -> None:
    before = copy.deepcopy(schema)
    try:
        rep = _bounded("report", lambda: report(schema, strict=strict, provider=provider))
    except ToolLensError:
        return
    markup = _bounded("render_html", lambda: render_html(rep))
    audit_html(markup)
    assert render_text(rep)
    assert schema == before, "report mutated its input"
