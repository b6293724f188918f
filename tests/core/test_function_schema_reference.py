"""Compare the engine with the OpenAI Agents SDK's function_schema on the callable corpus."""

from __future__ import annotations

from typing import Any

import pytest

from support import CLI_FIXTURES
from support import corpus_callables as corpus
from toollens import SchemaConstructionError, ToolLensError
from toollens.core.function_schema import function_schema

agents_fs = pytest.importorskip("agents.function_schema")
agents_exceptions = pytest.importorskip("agents.exceptions")
pytestmark = pytest.mark.reference

CASES = sorted(set(corpus.CORPUS) - corpus.REFERENCE_CRASHES - corpus.REFERENCE_DIFFERENCES)


def ours(func: Any, strict: bool) -> tuple[Any, ...]:
    try:
        fs = function_schema(func, strict=strict)
    except ToolLensError:
        return ("error",)
    return (fs.name, fs.description, fs.json_schema, fs.context_parameter is not None)


def theirs(func: Any, strict: bool) -> tuple[Any, ...]:
    try:
        ref = agents_fs.function_schema(func, strict_json_schema=strict)
    except Exception:  # the reference raises UserError, TypeError, pydantic errors ...
        return ("error",)
    return (ref.name, ref.description, ref.params_json_schema, ref.takes_context)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_matches_reference(name: str, strict: bool) -> None:
    func = corpus.CORPUS[name]
    assert ours(func, strict) == theirs(func, strict)


@pytest.mark.parametrize("name", sorted(corpus.REFERENCE_DIFFERENCES))
def test_documented_differences_really_differ(name: str) -> None:
    func = corpus.CORPUS[name]
    assert ours(func, False) != theirs(func, False)


@pytest.mark.parametrize("name", CASES)
def test_call_args_match_reference(name: str) -> None:
    func = corpus.CORPUS[name]
    try:
        fs = function_schema(func, strict=False)
        ref = agents_fs.function_schema(func, strict_json_schema=False)
    except (ToolLensError, Exception):
        pytest.skip("not constructible in non-strict mode")
    example = fs.model.model_construct()
    try:
        instance = fs.model.model_validate(_sample(fs.json_schema))
    except Exception:
        instance = example
        pytest.skip("no simple sample arguments for this signature")
    assert fs.to_call_args(instance) == ref.to_call_args(instance)


def _sample(schema: dict[str, Any]) -> dict[str, Any]:
    samples = {"integer": 1, "number": 1.5, "string": "s", "boolean": True, "array": []}
    out: dict[str, Any] = {}
    for key, prop in schema.get("properties", {}).items():
        kind = prop.get("type")
        if kind in samples:
            out[key] = samples[kind]
        elif kind == "object":
            out[key] = {}
    return out


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40


# --- callable objects (issue 13): against the reference's function_tool ---------------------
#
# The reference's function_schema cannot name a callable object (no __name__); its
# function_tool adapts one first: name from the class, summary from the class docstring,
# parameter docs from __call__, annotations resolved in the class body. These shapes are
# compared with what function_tool builds; the shapes toollens treats differently are listed
# below, each with the reason, and pinned by a test.

SHAPES_DIR = CLI_FIXTURES
agents_tool = pytest.importorskip("agents.tool")

# Same name, description and parameters schema, strict and lax, docstrings on and off.
SAME_AS_FUNCTION_TOOL = [
    "documented_call",  # class summary + __call__ Args
    "call_only_doc",  # only __call__ is documented: its docstring is used whole
    "nested_type_tool",  # `payload: Payload`, a model nested in the tool class
    "async_call",
    "bound_run",
]

# Deliberate difference 1: toollens inspects what Python calls (the descriptor bound as
# Python binds it, a wrapper followed to what it wraps, an explicit __signature__); the
# reference asks for an explicit wrapper function instead.
RESOLVED_HERE_REFUSED_THERE = [
    "static_call",
    "class_call",
    "wrapped_call",
    "signature_call",
    "updated_wrapper",
    "keeps_receiver_call",
]

# Both refuse; toollens says why and what to do, as a SchemaConstructionError.
REFUSED_BY_BOTH = ["dispatch_call", "descriptor_call"]


def _shape(name: str) -> Any:
    from toollens.targets import resolve_target

    return resolve_target(f"shapes:{name}", cwd=SHAPES_DIR)


def _tool_view(target: Any, *, strict: bool, docs: bool) -> tuple[Any, ...]:
    tool = agents_tool.function_tool(target, strict_mode=strict, use_docstring_info=docs)
    return (tool.name, tool.description, tool.params_json_schema)


def _our_view(target: Any, *, strict: bool, docs: bool) -> tuple[Any, ...]:
    fs = function_schema(target, strict=strict, use_docstring_info=docs)
    return (fs.name, fs.description or "", fs.json_schema)


@pytest.mark.parametrize("docs", [True, False], ids=["docs", "no-docs"])
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
@pytest.mark.parametrize("name", SAME_AS_FUNCTION_TOOL)
def test_callable_objects_match_function_tool(name: str, strict: bool, docs: bool) -> None:
    target = _shape(name)
    assert _our_view(target, strict=strict, docs=docs) == _tool_view(
        target, strict=strict, docs=docs
    )


@pytest.mark.parametrize("name", RESOLVED_HERE_REFUSED_THERE)
def test_difference_callable_shapes_the_reference_refuses(name: str) -> None:
    target = _shape(name)
    with pytest.raises(agents_exceptions.UserError, match="Unsupported callable"):
        agents_tool.function_tool(target)
    fs = function_schema(target)
    assert "self" not in fs.json_schema["properties"]
    assert fs.json_schema["required"]


@pytest.mark.parametrize("name", REFUSED_BY_BOTH)
def test_callable_shapes_both_refuse(name: str) -> None:
    target = _shape(name)
    with pytest.raises(agents_exceptions.UserError):
        agents_tool.function_tool(target)
    with pytest.raises(SchemaConstructionError) as ours:
        function_schema(target)
    assert ours.value.hint is not None
    assert "pass a function that calls the object" in ours.value.hint


def test_difference_a_raising_docstring_is_our_error() -> None:
    # The reference lets the user's RuntimeError escape; toollens chains it. With docstrings
    # off, neither reads it and both agree.
    target = _shape("raising_doc_tool")
    with pytest.raises(RuntimeError):
        agents_tool.function_tool(target)
    with pytest.raises(SchemaConstructionError) as ours:
        function_schema(target)
    assert isinstance(ours.value.__cause__, RuntimeError)
    for strict in (True, False):
        assert _our_view(target, strict=strict, docs=False) == _tool_view(
            target, strict=strict, docs=False
        )


def test_difference_a_method_read_from_its_class_is_refused() -> None:
    # The reference sends `self` as a required, untyped parameter; toollens refuses and says
    # how to bind it.
    search = _shape("Search")
    theirs = agents_fs.function_schema(search.run).params_json_schema
    assert "self" in theirs["required"]
    with pytest.raises(SchemaConstructionError) as ours:
        function_schema(search.run)
    assert ours.value.parameter == "self"
    assert "Search().run" in str(ours.value)


class _Unserialisable:
    """A default pydantic cannot put in a schema."""


def _tool_with_odd_default(count: int, marker: object = _Unserialisable()) -> str:
    """Count things with an odd default marker object."""
    return str(count)


def test_difference_schema_warnings_are_captured_not_printed() -> None:
    import warnings

    from toollens import lint

    with warnings.catch_warnings(record=True) as theirs:
        warnings.simplefilter("always")
        agents_fs.function_schema(_tool_with_odd_default, strict_json_schema=False)
    assert [w.category.__name__ for w in theirs] == ["PydanticJsonSchemaWarning"]
    with warnings.catch_warnings(record=True) as ours:
        warnings.simplefilter("always")
        fs = function_schema(_tool_with_odd_default, strict=False)
    assert ours == []
    assert len(fs.schema_warnings) == 1
    assert "not JSON serializable" in fs.schema_warnings[0]
    assert [f.rule for f in lint(fs) if f.rule == "lint.schema-warning"] == ["lint.schema-warning"]
