"""Bad-input corpus: every public entry point either works or raises a ToolLensError.

Each case runs one hostile input through one entry point under a bound of 10 s of CPU time.
The contract: a value comes back, or a ``ToolLensError`` subclass whose message names
where (parameter, JSON pointer, or the object) and what to do (``hint``). Nothing else
escapes: no ``RecursionError``, ``KeyError``, ``json``/``pydantic`` exception, no hang.

Cases (input x entry point), by category -- keep in step with ``test_corpus_size``:

- callables: 49 inputs x 4 entry points (function_schema, lint, report + render_html +
  render_text, check_provider for every provider) = 196 cases
- schemas: 42 inputs x 8 entry points (strict_schema, explain_strict,
  ensure_strict_json_schema, check_provider for every provider, diff against itself and
  against a plain schema, report + render_html + render_text, report as JSON text) = 336
  cases
- model outputs: 27 texts x 4 validators (output_schema(list[int]), a pydantic model, a
  dict output in lax mode, FunctionSchema.validate_arguments) = 108 cases
- widgets: 10 targets x 2 (Explorer, DiffWidget) = 20 cases
- command line: 16 cases (``main([...])`` over hostile files and modules)

Total: 676 cases.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from support.hostile import (
    ALL_PAYLOADS,
    ODD_TEXT,
    BrokenSignature,
    RaisingAnnotations,
    assert_helpful,
    deep_anyof_schema,
    deep_list,
    deep_object_schema,
    function_from_source,
    function_with_doc,
    function_with_parameter_named,
    function_with_raising_annotations,
    nested_models_function,
    object_schema,
    outcome,
    self_containing_dict,
    self_containing_properties,
    wide_function,
)
from toollens import (
    ModelBehaviorError,
    SchemaConstructionError,
    ToolLensError,
    check_provider,
    diff,
    ensure_strict_json_schema,
    explain_strict,
    function_schema,
    lint,
    output_schema,
    report,
    strict_schema,
)
from toollens.cli import main
from toollens.core.providers import PROVIDERS as _PROVIDER_TABLE
from toollens.render.html import render_html
from toollens.render.text import render_text

SECONDS = 10.0
PROVIDERS = tuple(_PROVIDER_TABLE)


@dataclasses.dataclass(frozen=True)
class Input:
    """A hostile input: how to build it, what its error must name, where it must fail."""

    id: str
    build: Callable[[], Any]
    where: str | None = None  # an error, when raised, must name this
    must_raise: tuple[str, ...] = ()  # entry points that must refuse it
    known_bug: dict[str, str] = dataclasses.field(default_factory=dict)  # entry -> xfail reason


def _run_report(target: Any) -> Any:
    rep = report(target)
    assert render_html(rep).startswith("<div")
    assert render_text(rep)
    bundle = rep._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    return rep


def _check(inp: Input, entry: str, call: Callable[[], Any]) -> None:
    result = outcome(call, what=f"{entry}({inp.id})", seconds=SECONDS)
    if isinstance(result, ToolLensError):
        assert_helpful(result, where=inp.where)
    elif entry in inp.must_raise:
        pytest.fail(f"{entry}({inp.id}) returned {type(result).__name__}; it must refuse it")


def _params(inputs: list[Input], entries: list[str]) -> list[Any]:
    params = []
    for inp in inputs:
        for entry in entries:
            marks = []
            if entry in inp.known_bug:
                marks.append(pytest.mark.xfail(strict=True, reason=inp.known_bug[entry]))
            params.append(pytest.param(inp, entry, id=f"{inp.id}-{entry}", marks=marks))
    return params


# =========================================================================== callables


class Node(BaseModel):
    value: int
    children: list[Node] = []


class Left(BaseModel):
    right: Right | None = None


class Right(BaseModel):
    left: Left | None = None


Left.model_rebuild()


def recursive_tool(tree: Node, pair: Left) -> Node:
    """Walk a tree.

    Args:
        tree: the tree.
        pair: two models that refer to each other.
    """
    return tree


class Color(enum.Enum):
    RED = "<script>alert(1)</script>"
    BLUE = 2


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr exploded")


class BadEq:
    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq exploded")

    __hash__ = object.__hash__


def _src(source: str, name: str | None = None) -> Callable[[], Any]:
    return lambda: function_from_source(source, name)


def _with_default(value: Any, annotation: Any = Any) -> Callable[[], Any]:
    def build() -> Any:
        def tool(x: int, option: Any = None) -> None:
            """Tool with an odd default."""

        tool.__defaults__ = (value,)
        tool.__annotations__["option"] = annotation
        return tool

    return build


def _named_object(name: Any) -> Callable[[], Any]:
    def build() -> Any:
        class Tool:
            def __call__(self, x: int) -> int:
                return x

        tool = Tool()
        tool.__name__ = name  # type: ignore[attr-defined]
        return tool

    return build


def _partial() -> Any:
    def tool(a: int, b: str) -> str:
        """Join."""
        return b * a

    return functools.partial(tool, 2)


class _Service:
    def lookup(self, key: Annotated[str, "the key"]) -> str:
        """Look up a key."""
        return key


def _decorated_without_wraps() -> Any:
    def deco(func: Any) -> Any:
        def inner(*args: Any, **kwargs: Any) -> Any:
            return func(*args, **kwargs)

        return inner

    @deco
    def tool(x: int) -> int:
        return x

    return tool


def _builtin_call_object() -> Any:
    class Caller:
        __call__ = print

    return Caller()


CALLABLES = [
    Input("builtin-len", lambda: len),
    Input("builtin-print", lambda: print),
    Input("builtin-max-no-signature", lambda: max, where="max"),
    Input("class-int", lambda: int),
    Input("class-dict", lambda: dict),
    Input(
        "class-plain",
        _src("class Plain:\n    def __init__(self, a: int, b: str = 'x'):\n        pass\n"),
    ),
    Input("lambda", lambda: lambda x, y=1: x),
    Input("broken-signature-property", BrokenSignature, where="BrokenSignature"),
    Input("annotations-property-raises", RaisingAnnotations, where="RaisingAnnotations"),
    Input("annotations-raise-on-function-like", function_with_raising_annotations),
    Input(
        "unresolvable-forward-ref",
        _src("def tool(x: 'Undefined') -> None:\n    pass\n"),
        where="x",
        must_raise=("function_schema", "lint", "report"),
    ),
    Input(
        "unresolvable-return-ref",
        _src("def tool(x: int) -> 'Nowhere':\n    pass\n"),
    ),
    Input(
        "annotation-string-syntax-error",
        _src("def tool(x: 'list[int') -> None:\n    pass\n"),
        where="x",
        must_raise=("function_schema",),
    ),
    Input(
        "annotation-evaluation-raises",
        _src("from __future__ import annotations\ndef tool(x: 1 / 0) -> None:\n    pass\n"),
        where="x",
        must_raise=("function_schema",),
    ),
    Input("annotation-is-an-int", _src("def tool(x: 5) -> None:\n    pass\n"), where="x"),
    Input("annotation-is-a-function", _src("def tool(x: print) -> None:\n    pass\n"), where="x"),
    Input("recursive-and-mutually-recursive-models", lambda: recursive_tool),
    Input("recursive-model-class", lambda: Node),
    Input("300-parameters", wide_function),
    Input("nested-models-20-levels", lambda: nested_models_function(20)),
    Input("nested-models-50-levels", lambda: nested_models_function(50), where="value"),
    Input(
        "parameter-named-not-valid",
        lambda: function_with_parameter_named("not valid"),
        where="not valid",
        must_raise=("function_schema",),
    ),
    Input(
        "parameter-named-empty",
        lambda: function_with_parameter_named(""),
        must_raise=("function_schema",),
    ),
    Input(
        "parameter-named-markup",
        lambda: function_with_parameter_named("<script>x</script>"),
        must_raise=("function_schema",),
    ),
    *[
        Input(
            f"docstring-odd-{i}", functools.partial(function_with_doc, f"{t}\n\nArgs:\n    x: {t}")
        )
        for i, t in enumerate(ODD_TEXT)
    ],
    Input(
        "docstring-1mb-words",
        lambda: function_with_doc("Summary.\n\nArgs:\n    x: " + "word " * 210_000),
    ),
    Input("docstring-1mb-one-line", lambda: function_with_doc("x" * 1_048_576)),
    Input(
        "docstring-5000-params-documented",
        lambda: function_with_doc(
            "Summary.\n\nArgs:\n" + "".join(f"    p{i}: thing {i}\n" for i in range(5000))
        ),
    ),
    Input(
        "docstring-payloads",
        lambda: function_with_doc(f"{ALL_PAYLOADS}\n\nArgs:\n    x: {ALL_PAYLOADS}"),
    ),
    Input("default-repr-raises", _with_default(BadRepr())),
    Input("default-eq-raises", _with_default(BadEq())),
    Input("default-object", _with_default(object(), annotation=object)),
    Input("default-1000-deep-list", _with_default(deep_list(1000), annotation=list)),
    Input("default-nan", _with_default(math.nan, annotation=float)),
    Input(
        "annotated-unhashable-metadata",
        _src("from typing import Annotated\ndef tool(x: Annotated[int, {'a': []}]) -> None: ...\n"),
    ),
    Input("literal-odd-values", lambda: _literal_tool),
    Input("partial", _partial),
    Input("bound-method", lambda: _Service().lookup),
    Input("decorated-without-wraps", _decorated_without_wraps),
    Input("call-is-a-builtin", _builtin_call_object),
    Input("name-is-not-a-string", _named_object(5)),
]


def _literal_tool(
    mode: Literal["<b>", b"bytes", Color.RED, 3, None] = None,  # type: ignore[valid-type]
    field: Annotated[int, Field(description="<script>", alias="not valid")] = 1,
) -> None:
    """Odd Literal members and an alias that is not an identifier."""


CALLABLE_ENTRIES = ["function_schema", "lint", "report", "providers"]


def _callable_entry(entry: str, target: Any) -> Any:
    if entry == "function_schema":
        return function_schema(target)
    if entry == "lint":
        return lint(target)
    if entry == "report":
        return _run_report(target)
    fs = function_schema(target, strict=False)
    return [check_provider(fs, provider) for provider in PROVIDERS]


@pytest.mark.parametrize(("inp", "entry"), _params(CALLABLES, CALLABLE_ENTRIES))
def test_callables(inp: Input, entry: str) -> None:
    target = inp.build()
    _check(inp, entry, lambda: _callable_entry(entry, target))


# =========================================================================== schemas

_PLAIN = object_schema(a={"type": "string"})
SCHEMAS = [
    Input(
        "list",
        lambda: [{"type": "string"}],
        must_raise=("strict", "explain", "ensure", "diff", "report"),
    ),
    Input("int", lambda: 5, must_raise=("strict", "explain", "ensure", "diff", "report")),
    Input("none", lambda: None, must_raise=("strict", "explain", "ensure", "diff")),
    Input("bare-string", lambda: "not json", must_raise=("strict", "explain", "ensure", "report")),
    Input("bytes-not-utf8", lambda: b'{"type": "object"}\xff', must_raise=("report",)),
    Input("json-text-nan", lambda: '{"type": "object", "default": NaN}', must_raise=("report",)),
    Input("json-text-100k-deep", lambda: "[" * 100_000 + "]" * 100_000, must_raise=("report",)),
    Input("empty", dict),
    Input("true-schema", lambda: True, must_raise=("report",)),
    Input(
        "self-containing-dict",
        self_containing_dict,
        must_raise=("strict", "explain", "ensure", "diff", "report"),
    ),
    Input(
        "self-containing-properties",
        self_containing_properties,
        must_raise=("strict", "explain", "ensure", "diff", "report"),
    ),
    Input(
        "ref-cycle",
        lambda: {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/X"}},
            "$defs": {"X": {"$ref": "#/$defs/Y"}, "Y": {"$ref": "#/$defs/X"}},
        },
        must_raise=("diff",),
    ),
    Input("ref-to-root", lambda: {"type": "object", "properties": {"me": {"$ref": "#"}}}),
    Input("ref-self-only", lambda: {"$ref": "#"}),
    Input(
        "ref-missing",
        lambda: object_schema(a={"$ref": "#/$defs/Nope"}),
        where="/properties/a",
        must_raise=("strict", "diff"),
    ),
    Input("ref-not-a-string", lambda: object_schema(a={"$ref": 5})),
    Input("ref-bad-escape", lambda: object_schema(a={"$ref": "#/$defs/~2x"})),
    Input(
        "ref-https",
        lambda: object_schema(a={"$ref": "https://example.com/s.json"}),
        where="/properties/a",
        must_raise=("strict", "explain", "ensure", "diff"),
    ),
    Input(
        "ref-relative-file",
        lambda: object_schema(a={"$ref": "other.json#/x"}),
        where="/properties/a",
        must_raise=("strict", "explain", "ensure", "diff"),
    ),
    Input(
        "ref-file-url",
        lambda: object_schema(a={"$ref": "file:///etc/passwd"}),
        where="/properties/a",
        must_raise=("strict", "explain", "ensure", "diff"),
    ),
    Input(
        "ref-protocol-relative",
        lambda: object_schema(a={"$ref": "//example.com/x"}),
        must_raise=("strict", "diff"),
    ),
    Input(
        "object-1000-deep",
        lambda: deep_object_schema(1000),
        must_raise=("strict", "explain", "ensure", "diff", "report"),
    ),
    Input(
        "anyof-1000-deep", lambda: deep_anyof_schema(1000), must_raise=("strict", "diff", "report")
    ),
    Input(
        "default-1000-deep",
        lambda: object_schema(a={"type": "array", "default": deep_list(1000)}),
        must_raise=("report",),
    ),
    Input(
        "unknown-keywords",
        lambda: object_schema(a={"type": "string", "frobnicate": {"x": 1}, "$comment": 5}),
    ),
    Input(
        "required-is-a-string",
        lambda: {"type": "object", "properties": {"a": {}}, "required": "a"},
        where="/required",
        must_raise=("report",),
    ),
    Input(
        "properties-is-a-list",
        lambda: {"type": "object", "properties": []},
        where="/properties",
        must_raise=("report",),
    ),
    Input("type-is-a-number", lambda: {"type": 5}, where="/type", must_raise=("report",)),
    Input(
        "type-list-with-junk",
        lambda: object_schema(a={"type": ["string", None, 5]}),
        must_raise=("report",),
    ),
    Input(
        "items-is-a-number",
        lambda: object_schema(a={"type": "array", "items": 5}),
        must_raise=("report",),
    ),
    Input("anyof-empty", lambda: object_schema(a={"anyOf": []}), must_raise=("report",)),
    Input(
        "anyof-not-a-list",
        lambda: object_schema(a={"anyOf": {"type": "string"}}),
        must_raise=("report",),
    ),
    Input("enum-not-a-list", lambda: object_schema(a={"enum": "abc"})),
    Input("defs-is-a-list", lambda: {**_PLAIN, "$defs": [1, 2]}, must_raise=("report",)),
    Input(
        "additional-properties-string",
        lambda: {**_PLAIN, "additionalProperties": "yes"},
        must_raise=("report",),
    ),
    Input(
        "non-string-keys",
        lambda: {"type": "object", "properties": {1: {"type": "string"}, None: {}}},
    ),
    Input(
        "python-values-in-schema",
        lambda: object_schema(a={"enum": [b"x", {1, 2}, (1, 2), object()], "default": math.inf}),
    ),
    Input(
        "nan-constraints",
        lambda: object_schema(a={"type": "number", "minimum": math.nan, "maximum": -math.inf}),
    ),
    Input(
        "5000-properties",
        lambda: object_schema(**{f"p{i}": {"type": "integer"} for i in range(5000)}),
    ),
    Input(
        "tuple-and-object-keys",
        lambda: object_schema(a={"type": "object", "properties": {(1, 2): {}, object(): {}}}),
    ),
    Input(
        "payload-names",
        lambda: object_schema(
            **{
                ALL_PAYLOADS: {
                    "type": "string",
                    "description": ALL_PAYLOADS,
                    "enum": [ALL_PAYLOADS],
                }
            }
        ),
    ),
    Input(
        "pointer-characters-in-names",
        lambda: object_schema(**{"a/b~c": {"type": "string"}, "": {"type": "integer"}, "~1": {}}),
    ),
]

SCHEMA_ENTRIES = [
    "strict",
    "explain",
    "ensure",
    "providers",
    "diff",
    "diff-other",
    "report",
    "report-json",
]


def _schema_entry(entry: str, schema: Any) -> Any:
    if entry == "strict":
        return strict_schema(schema)
    if entry == "explain":
        return explain_strict(schema)
    if entry == "ensure":
        return ensure_strict_json_schema(schema)
    if entry == "providers":
        return [check_provider(schema, provider) for provider in PROVIDERS]
    if entry == "diff":
        return diff(schema, schema)
    if entry == "diff-other":
        return diff(_PLAIN, schema)
    if entry == "report":
        return _run_report(schema)
    # report-json: the same input as JSON text, as the CLI and the JSON editor give it
    try:
        text = schema if isinstance(schema, (str, bytes)) else json.dumps(schema)
    except (TypeError, ValueError, RecursionError):
        return None  # not JSON-representable: nothing to send as text
    return _run_report(text)


@pytest.mark.parametrize(("inp", "entry"), _params(SCHEMAS, SCHEMA_ENTRIES))
def test_schemas(inp: Input, entry: str) -> None:
    schema = inp.build()
    _check(inp, entry, lambda: _schema_entry(entry, schema))


# =========================================================================== model outputs


class Answer(BaseModel):
    title: str
    score: float
    tags: list[str] = []


def _args_tool(items: list[int], note: str = "") -> None:
    """Take some items."""


OUTPUTS = [
    ("truncated", '{"response": [1, 2'),
    ("truncated-string", '{"response": ["abc'),
    ("nan", '{"response": [NaN]}'),
    ("infinity", '{"response": [Infinity], "title": -Infinity}'),
    ("huge-float", '{"response": [1e400], "score": 1e400}'),
    ("huge-int-5000-digits", '{"response": [' + "9" * 5000 + '], "score": ' + "9" * 5000 + "}"),
    ("arrays-100k-deep", "[" * 100_000 + "]" * 100_000),
    ("wrapped-arrays-100k-deep", '{"response": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    ("objects-100k-deep", '{"a":' * 100_000 + "1" + "}" * 100_000),
    ("invalid-utf8", b'{"response": [1], "title": "\xff\xfe"}'),
    ("overlong-utf8", b'{"title": "\xc0\xaf"}'),
    ("empty", ""),
    ("empty-bytes", b""),
    ("whitespace", " \n\t "),
    ("lone-surrogate", '{"response": ["\ud800"], "title": "\udfff"}'),
    ("escaped-lone-surrogate", '{"response": [1], "title": "\\ud800"}'),
    ("nul", "\x00"),
    ("bom", '\ufeff{"response": [1]}'),
    ("markdown-fence", '```json\n{"response": [1]}\n```'),
    ("trailing-garbage", '{"response": [1]} and more'),
    ("two-documents", '{"response": [1]}{"response": [2]}'),
    ("null", "null"),
    ("top-level-number", "42"),
    ("duplicate-keys", '{"response": [1], "response": "x", "title": "a", "title": 5}'),
    ("payload-strings", json.dumps({"response": [ALL_PAYLOADS], "title": ALL_PAYLOADS})),
    ("10mb-string", '{"response": [1], "title": "' + "x" * 10_000_000 + '"}'),
    ("1m-element-array", '{"response": [' + ",".join(["1"] * 1_000_000) + "]}"),
]

_VALIDATORS: dict[str, Callable[[], Callable[[Any], Any]]] = {
    "list-int": lambda: output_schema(list[int]).validate_json,
    "model": lambda: output_schema(Answer).validate_json,
    "lax-dict": lambda: output_schema(dict[str, Any], strict=False).validate_json,
    "arguments": lambda: function_schema(_args_tool).validate_arguments,
}


def _output_params() -> list[Any]:
    return [
        pytest.param(text, validator, id=f"{name}-{validator}")
        for name, text in OUTPUTS
        for validator in _VALIDATORS
    ]


@pytest.mark.parametrize(("text", "validator"), _output_params())
def test_model_outputs(text: str | bytes, validator: str) -> None:
    validate = _VALIDATORS[validator]()
    if validator == "arguments" and isinstance(text, str):
        text = text.replace('"response"', '"items"')
    result = outcome(lambda: validate(text), what=f"{validator}({text[:30]!r})", seconds=SECONDS)
    if isinstance(result, ToolLensError):
        assert isinstance(result, ModelBehaviorError), f"{type(result).__name__}: {result}"
        assert result.pointer is not None, f"no pointer in {result}"
        assert_helpful(result)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_arguments_refuse_non_json_numbers(number: str) -> None:
    def tool(x: float) -> None:
        """Take a number."""

    fs = function_schema(tool)
    with pytest.raises(ModelBehaviorError):
        fs.validate_arguments(f'{{"x": {number}}}')


# =========================================================================== widgets

WIDGET_INPUTS = [
    Input("self-containing-dict", self_containing_dict),
    Input("object-1000-deep", lambda: deep_object_schema(1000)),
    Input("default-5000-deep", lambda: object_schema(a={"default": deep_list(5000)})),
    Input("remote-ref", lambda: object_schema(a={"$ref": "https://example.com/s.json"})),
    Input("payload-names", lambda: object_schema(**{ALL_PAYLOADS: {"description": ALL_PAYLOADS}})),
    Input("broken-signature-property", BrokenSignature),
    Input("not-a-target", lambda: 5),
    Input("nested-models-50-levels", lambda: nested_models_function(50)),
    Input("300-parameters", wide_function),
    Input("unresolvable-forward-ref", _src("def tool(x: 'Undefined') -> None:\n    pass\n")),
]


def _widget_entry(entry: str, target: Any) -> Any:
    if entry == "explorer":
        from toollens.jupyter.explorer import Explorer

        explorer = Explorer(target, debounce=0)
        assert explorer.report is not None or explorer.error is not None
        return explorer
    from toollens.jupyter.diff_widget import DiffWidget

    widget = DiffWidget(target, _PLAIN)
    assert widget.diff is not None or widget.error is not None
    return widget


@pytest.mark.parametrize(("inp", "entry"), _params(WIDGET_INPUTS, ["explorer", "diff-widget"]))
def test_widgets(inp: Input, entry: str) -> None:
    """A widget given a hostile target shows a banner or refuses it with our error."""
    target = inp.build()
    _check(inp, entry, lambda: _widget_entry(entry, target))


# =========================================================================== command line

_CLI_FILES: dict[str, str | bytes] = {
    "malformed.json": '{"type": "object", "properties": {',
    "nan.json": '{"type": "object", "properties": {"a": {"type": "number", "default": NaN}}}',
    "not-utf8.json": b'{"type": "object", "description": "\xff"}',
    "deep.json": "[" * 100_000 + "]" * 100_000,
    "deep-object.json": json.dumps(deep_object_schema(150)),
    "remote-ref.json": json.dumps(object_schema(a={"$ref": "https://example.com/s.json"})),
    "type-5.json": '{"type": 5}',
    "empty.json": "",
    "array.json": "[]",
    "payload.json": json.dumps(object_schema(**{ALL_PAYLOADS: {"type": "string"}})),
    "exits.py": "raise SystemExit(0)\n",
    "syntax.py": "def tool(:\n",
    "wide.py": "def wide(" + ", ".join(f"p{i}: int" for i in range(300)) + ") -> None:\n    pass\n",
    "forward.py": "def tool(x: 'Undefined') -> None:\n    pass\n",
}

CLI_CASES = [
    ("show-malformed", ["show", "malformed.json"]),
    ("show-nan", ["show", "nan.json"]),
    ("show-not-utf8", ["show", "not-utf8.json"]),
    ("show-100k-deep", ["show", "deep.json"]),
    ("check-150-deep", ["check", "deep-object.json"]),
    ("show-remote-ref", ["show", "remote-ref.json", "--view", "strict"]),
    ("check-remote-ref", ["check", "remote-ref.json"]),
    ("show-type-5", ["show", "type-5.json"]),
    ("show-empty", ["show", "empty.json"]),
    ("show-array", ["show", "array.json"]),
    ("show-payload-json", ["show", "payload.json", "--format", "json"]),
    ("show-exiting-module", ["show", "exits.py:tool"]),
    ("show-syntax-error", ["show", "syntax.py:tool"]),
    ("check-300-parameters", ["check", "wide.py:wide"]),
    ("diff-forward-ref", ["diff", "forward.py:tool", "wide.py:wide"]),
    ("show-missing-file", ["show", "nowhere.json"]),
]


@pytest.mark.parametrize(("argv"), [pytest.param(a, id=i) for i, a in CLI_CASES])
def test_command_line(argv: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    for name, content in _CLI_FILES.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out, err = io.StringIO(), io.StringIO()
    code = outcome(lambda: main(argv, stdout=out, stderr=err), what=" ".join(argv))
    assert code in {0, 1, 2, 3}, code
    errors = err.getvalue()
    assert "rerun with --debug" not in errors, f"an unexpected exception reached the CLI: {errors}"
    assert "Traceback" not in errors + out.getvalue()
    if code == 3:
        assert errors.startswith("toollens: error: "), errors
        assert errors.count("\n") == 1, "one line on stderr"


def test_corpus_size() -> None:
    """The module docstring's counts match the tables (the README quotes them)."""
    counts = {
        "callables": len(CALLABLES) * len(CALLABLE_ENTRIES),
        "schemas": len(SCHEMAS) * len(SCHEMA_ENTRIES),
        "outputs": len(OUTPUTS) * len(_VALIDATORS),
        "widgets": len(WIDGET_INPUTS) * 2,
        "cli": len(CLI_CASES),
    }
    doc = __doc__ or ""
    assert f"{len(CALLABLES)} inputs x 4 entry points" in doc
    assert f"= {counts['callables']} cases" in doc
    assert f"{len(SCHEMAS)} inputs x 8 entry points" in doc
    assert f"{counts['schemas']}\n  cases" in doc
    assert f"{len(OUTPUTS)} texts x 4 validators" in doc
    assert f"= {counts['outputs']} cases" in doc
    assert f"widgets: {len(WIDGET_INPUTS)} targets x 2 (Explorer, DiffWidget)" in doc
    assert f"= {counts['widgets']} cases" in doc
    assert f"command line: {counts['cli']} cases" in doc
    assert f"Total: {sum(counts.values())} cases." in doc
    assert sum(counts.values()) >= 80


# =========================================================================== no network

REMOTE_REFS = [
    "https://example.com/s.json",
    "http://127.0.0.1:1/x.json",
    "other.json#/x",
    "file:///etc/passwd",
    "//example.com/x",
]


@pytest.fixture
def no_fetching(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every URL opener fail loudly and record the attempt (on top of no_network)."""
    import urllib.request

    attempts: list[str] = []

    def refuse(url: Any, *args: Any, **kwargs: Any) -> Any:
        attempts.append(str(getattr(url, "full_url", url)))
        raise AssertionError(f"toollens tried to fetch {url!r}")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    monkeypatch.setattr(
        urllib.request.OpenerDirector, "open", lambda self, url, *a, **k: refuse(url)
    )
    return attempts


@pytest.mark.parametrize("ref", REMOTE_REFS)
def test_remote_refs_are_errors_not_downloads(ref: str, no_fetching: list[str]) -> None:
    schema = object_schema(a={"$ref": ref}, b={"type": "string"})
    with pytest.raises(SchemaConstructionError) as strict_error:
        strict_schema(schema)
    assert strict_error.value.pointer == "/properties/a"
    with pytest.raises(SchemaConstructionError) as diff_error:
        diff(schema, _PLAIN)
    assert diff_error.value.pointer == "/properties/a"
    rep = report(schema)
    assert ref in rep.view_errors["strict"] or ref.replace('"', "") in rep.view_errors["strict"]
    assert rep.schema is None
    assert rep.provider_payload is None
    render_html(rep)
    for provider in PROVIDERS:
        check_provider(schema, provider)
    lax = report(schema, strict=False)
    render_html(lax)
    assert no_fetching == []


def test_the_no_network_guard_is_active() -> None:
    import socket

    from conftest import NetworkAccessError

    with pytest.raises(NetworkAccessError):
        socket.create_connection(("127.0.0.1", 9))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        with pytest.raises(NetworkAccessError):
            sock.connect(("127.0.0.1", 9))
    finally:
        sock.close()
    with pytest.raises(NetworkAccessError):
        socket.getaddrinfo("example.com", 443)
