"""The function-schema engine: precedence with provenance (seed checklist 1), call
reconstruction (seed checklist 2), context placement, callable shapes and errors."""

from __future__ import annotations

import inspect
import textwrap
from typing import Annotated, Any

import pytest
from pydantic import Field

from support import corpus_callables as corpus
from toollens import ModelBehaviorError, SchemaConstructionError, StrictSchemaError
from toollens.core.function_schema import function_schema
from toollens.core.metadata import MISSING, Source


def build(source: str, name: str | None = None, **namespace: Any) -> Any:
    """Define a function from source text (dedented) and return it."""
    ns: dict[str, Any] = {"Annotated": Annotated, "Field": Field, "Any": Any, **namespace}
    exec(textwrap.dedent(source), ns)
    funcs = [v for k, v in ns.items() if inspect.isfunction(v) and k not in namespace]
    return ns[name] if name else funcs[-1]


# --- seed checklist 1: precedence among explicit metadata, docstrings, Annotated, Field ---

PRECEDENCE = [
    # (callable name, parameter, winning description, winning source, losing sources)
    ("annotated_str_only", "city", "City from Annotated", Source.ANNOTATED_STR, []),
    (
        "docstring_beats_annotated",
        "city",
        "City from the docstring.",
        Source.DOCSTRING,
        [Source.ANNOTATED_STR],
    ),
    ("annotated_field_only", "count", "Count from Field", Source.ANNOTATED_FIELD, []),
    (
        "docstring_beats_annotated_field",
        "count",
        "Count from the docstring.",
        Source.DOCSTRING,
        [Source.ANNOTATED_FIELD],
    ),
    (
        "annotated_str_beats_annotated_field",
        "count",
        "Count from str",
        Source.ANNOTATED_STR,
        [Source.ANNOTATED_FIELD],
    ),
    ("field_default_description", "limit", "Limit from default", Source.FIELD_DEFAULT, []),
    (
        "docstring_beats_field_default",
        "limit",
        "Limit from the docstring.",
        Source.DOCSTRING,
        [Source.FIELD_DEFAULT],
    ),
    (
        "annotated_str_beats_field_default",
        "limit",
        "Limit from str",
        Source.ANNOTATED_STR,
        [Source.FIELD_DEFAULT],
    ),
    (
        "docstring_beats_both_fields",
        "size",
        "Size from the docstring.",
        Source.DOCSTRING,
        [Source.FIELD_DEFAULT, Source.ANNOTATED_FIELD],
    ),
    ("nested_annotated", "value", "inner", Source.ANNOTATED_STR, []),
    ("two_annotated_fields", "size", "Size", Source.ANNOTATED_FIELD, []),
]


@pytest.mark.parametrize(
    ("func_name", "param", "text", "winner", "losers"),
    PRECEDENCE,
    ids=[row[0] for row in PRECEDENCE],
)
def test_description_precedence(
    func_name: str, param: str, text: str, winner: Source, losers: list[Source]
) -> None:
    fs = function_schema(corpus.CORPUS[func_name], strict=False)
    meta = fs.parameter(param)
    assert meta.description == text
    assert fs.json_schema["properties"][meta.schema_name]["description"] == text
    won = meta.winner("description")
    assert won is not None
    assert (won.source, won.value) == (winner, text)
    assert [c.source for c in meta.candidates_for("description") if not c.won] == losers
    assert won.reason
    for lost in meta.candidates_for("description"):
        if not lost.won:
            assert lost.reason.startswith("overridden by the")


def test_docstring_info_off_keeps_annotated_and_marks_docstring_ignored() -> None:
    fs = function_schema(corpus.docstring_beats_annotated, use_docstring_info=False)
    meta = fs.parameter("city")
    assert meta.description == "City from Annotated"
    ignored = [c for c in meta.candidates_for("description") if c.source is Source.DOCSTRING]
    assert ignored[0].won is False
    assert "turned off" in ignored[0].reason
    assert fs.description is None


@pytest.mark.parametrize(
    ("kwargs", "name", "description", "name_source", "description_source"),
    [
        ({}, "google_style", None, Source.CALLABLE, Source.DOCSTRING),
        ({"name": "forecast"}, "forecast", None, Source.OVERRIDE, Source.DOCSTRING),
        ({"description": "Custom."}, "google_style", "Custom.", Source.CALLABLE, Source.OVERRIDE),
        ({"name": "", "description": ""}, "google_style", None, Source.CALLABLE, Source.DOCSTRING),
    ],
    ids=["inferred", "name-override", "description-override", "empty-overrides-fall-back"],
)
def test_explicit_overrides_beat_inferred(
    kwargs: dict[str, str],
    name: str,
    description: str | None,
    name_source: Source,
    description_source: Source,
) -> None:
    fs = function_schema(corpus.google_style, **kwargs)
    assert fs.name == name
    assert fs.raw_json_schema["title"] == f"{name}_args"
    if description is not None:
        assert fs.description == description
    else:
        assert fs.description.startswith("Get the forecast for a city.")
    winners = {c.attribute: c.source for c in fs.provenance if c.won}
    assert winners == {"name": name_source, "description": description_source}


def test_field_constraints_alias_and_defaults_survive_the_merge() -> None:
    fs = function_schema(corpus.two_annotated_fields, strict=False)
    meta = fs.parameter("size")
    assert meta.constraints == {"ge": 0, "le": 100}
    assert meta.default == 5
    assert fs.json_schema["properties"]["size"] == {
        "default": 5,
        "description": "Size",
        "maximum": 100,
        "minimum": 0,
        "title": "Size",
        "type": "integer",
    }
    alias = function_schema(corpus.field_alias).parameter("user_id")
    assert (alias.alias, alias.schema_name) == ("userId", "userId")
    assert alias.winner("alias").source is Source.ANNOTATED_FIELD

    mixed = function_schema(corpus.annotated_constraints_and_default, strict=False)
    name = mixed.parameter("name")
    assert name.constraints == {"max_length": 20, "min_length": 2}
    assert {c.attribute: c.source for c in name.candidates if c.won} == {
        "description": Source.DOCSTRING,
        "default": Source.DEFAULT,
        "max_length": Source.ANNOTATED_CONSTRAINT,
        "min_length": Source.ANNOTATED_FIELD,
    } or name.description is None


def test_default_provenance() -> None:
    fs = function_schema(corpus.annotated_field_only, strict=False)
    won = fs.parameter("count").winner("default")
    assert (won.source, won.value) == (Source.DEFAULT, 5)
    factory = function_schema(corpus.field_default_factory, strict=False).parameter("tags")
    assert factory.winner("default").source is Source.FIELD_DEFAULT
    required = function_schema(corpus.field_constraints_required, strict=False)
    assert required.parameter("code").default is MISSING
    assert required.parameter("code").required


# --- docstring styles ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("func_name", "style", "confident", "params"),
    [
        ("google_style", "google", True, {"city": "The city to look up."}),
        ("google_no_blank_line", "google", True, {"city": "The city."}),
        ("google_args_first", "google", True, {"query": "What to search for."}),
        ("numpy_style", "numpy", True, {"x": "The first number."}),
        ("sphinx_style", "sphinx", True, {"path": "Directory to list."}),
        ("mixed_style", "sphinx", False, {"b": "sphinx b."}),
        (
            "google_multiline_param",
            "google",
            True,
            {"query": "The search terms,\njoined with AND."},
        ),
        (
            "google_typed_params",
            "google",
            True,
            {"limit": "Maximum number of hits. Defaults to 10."},
        ),
    ],
)
def test_docstring_styles_are_detected(
    func_name: str, style: str, confident: bool, params: dict[str, str]
) -> None:
    fs = function_schema(corpus.CORPUS[func_name], strict=False)
    assert fs.docstring.guess.style.value == style
    assert fs.docstring.guess.confident is confident
    for name, text in params.items():
        assert fs.parameter(name).description == text


def test_docstring_style_can_be_forced() -> None:
    fs = function_schema(corpus.mixed_style, docstring_style="google", strict=False)
    assert fs.docstring.guess.forced
    assert fs.parameter("a").description == "google a."
    with pytest.raises(SchemaConstructionError, match="unknown docstring style 'rst'"):
        function_schema(corpus.mixed_style, docstring_style="rst")


def test_dropped_sections_are_recorded() -> None:
    fs = function_schema(corpus.google_with_raises)
    assert fs.docstring.dropped_sections == ("Raises", "Examples")
    assert fs.description == "Validate a number."


# --- seed checklist 2: invocation reconstruction ------------------------------------------

CALLS = [
    # (callable, strict, arguments, expected args, expected kwargs)
    ("positional_only", True, {"a": 1, "b": 2, "c": 3}, [1, 2, 3], {}),
    ("keyword_only", True, {"a": 2, "b": "y"}, [], {"a": 2, "b": "y"}),
    (
        "all_kinds",
        False,
        {"a": 1, "b": 2, "args": [3, 4], "c": 5, "kwargs": {"e": 6}},
        [1, 2, 3, 4],
        {"c": 5, "d": 4, "e": 6},
    ),
    ("var_positional", True, {"numbers": [1.5, 2.5]}, [1.5, 2.5], {}),
    ("var_positional", True, {}, [], {}),
    ("var_positional_tuple", True, {"pairs": [[1, 2], [3]]}, [(1, 2), (3,)], {}),
    ("var_keyword", False, {"options": {"a": "x"}}, [], {"a": "x"}),
    ("context_first", True, {"city": "Oslo"}, ["Oslo"], {}),
    ("unannotated", False, {"a": [1], "b": 3}, [[1], 3], {}),
    ("field_alias", True, {"userId": "u1"}, ["u1"], {}),
    ("bound_method", True, {"city": "Oslo", "days": 2}, ["Oslo", 2], {}),
    ("static_method", True, {"celsius": 100}, [100.0], {}),
    ("partial_tool", True, {"query": "q", "limit": 1}, ["q", 1], {}),
    ("callable_instance", True, {"a": 1, "b": 2}, [1, 2], {}),
    ("decorated", True, {"city": "Oslo", "units": "f"}, ["Oslo", "f"], {}),
]


@pytest.mark.parametrize(
    ("func_name", "strict", "arguments", "args", "kwargs"),
    CALLS,
    ids=[f"{row[0]}-{i}" for i, row in enumerate(CALLS)],
)
def test_to_call_args_binds_what_the_model_said(
    func_name: str, strict: bool, arguments: dict[str, Any], args: list[Any], kwargs: dict[str, Any]
) -> None:
    func = corpus.CORPUS[func_name]
    fs = function_schema(func, strict=strict)
    instance = fs.validate_arguments(arguments)
    got_args, got_kwargs = fs.to_call_args(instance)
    assert (got_args, got_kwargs) == (args, kwargs)
    if fs.context_parameter is None:
        inspect.signature(func).bind(*got_args, **got_kwargs)
        func(*got_args, **got_kwargs)


def test_context_is_handed_back_in_first_position() -> None:
    fs = function_schema(corpus.context_first)
    assert fs.context_parameter == "ctx"
    assert "ctx" not in fs.json_schema["properties"]
    ctx = object()
    args, kwargs = fs.to_call_args(fs.validate_arguments('{"city": "Oslo"}'), context=ctx)
    assert args == [ctx, "Oslo"]
    assert corpus.context_first(*args, **kwargs) == "Oslo"


@pytest.mark.parametrize("func_name", ["tool_context_first", "context_only"])
def test_known_context_types_are_recognised_by_name(func_name: str) -> None:
    fs = function_schema(corpus.CORPUS[func_name])
    assert fs.context_parameter == "ctx"
    assert fs.parameter("ctx").is_context


def test_context_in_a_later_position_is_a_construction_error() -> None:
    func = build(
        """
        def late(city: str, ctx: RunContextWrapper) -> str:
            return city
        """,
        RunContextWrapper=corpus.RunContextWrapper,
    )
    with pytest.raises(SchemaConstructionError) as info:
        function_schema(func)
    assert info.value.parameter == "ctx"
    assert "position 2" in str(info.value)
    assert "move it to the first position" in str(info.value)


def test_custom_context_types() -> None:
    class Deps:
        pass

    func = build(
        """
        def tool(deps: Deps, q: str) -> str:
            return q
        """,
        Deps=Deps,
    )
    assert function_schema(func, context_types=[Deps]).context_parameter == "deps"
    with pytest.raises(SchemaConstructionError, match="context_types") as info:
        function_schema(func)
    assert info.value.parameter == "deps"


def test_kwargs_collision_is_model_behaviour_error() -> None:
    fs = function_schema(corpus.all_kinds, strict=False)
    instance = fs.validate_arguments({"a": 1, "b": 2, "c": 3, "kwargs": {"c": 9, "d": 1}})
    with pytest.raises(ModelBehaviorError) as info:
        fs.to_call_args(instance)
    assert "'c', 'd' are both a named parameter" in str(info.value)
    assert info.value.pointer == "/kwargs"


def test_kwargs_key_may_match_positional_only_name() -> None:
    func = build("def f(a: int, /, **kw: int) -> int:\n    return a\n")
    fs = function_schema(func, strict=False)
    assert fs.to_call_args(fs.validate_arguments({"a": 1, "kw": {"a": 2}})) == ([1], {"a": 2})


def test_async_functions_are_supported() -> None:
    fs = function_schema(corpus.async_tool)
    assert fs.callable_info.is_async
    assert fs.description == "Fetch a URL."


# --- optional defaults -> nullable ---------------------------------------------------------


def test_nullable_defaults_restore_python_default_on_null() -> None:
    fs = function_schema(corpus.google_style, optional_defaults="nullable")
    days = fs.json_schema["properties"]["days"]
    assert "default" not in days
    assert any(c.rule == "nullable-default" for c in fs.strict_changes)
    instance = fs.validate_arguments('{"city": "Oslo", "days": null}')
    assert fs.to_call_args(instance) == (["Oslo", 3], {})
    instance = fs.validate_arguments('{"city": "Oslo", "days": 5}')
    assert fs.to_call_args(instance) == (["Oslo", 5], {})


# --- errors -------------------------------------------------------------------------------


def test_kwargs_in_strict_mode_says_how_to_fix() -> None:
    with pytest.raises(SchemaConstructionError) as info:
        function_schema(corpus.var_keyword)
    assert info.value.parameter == "options"
    assert "strict=False" in str(info.value)


def test_fixed_length_tuple_varargs_are_rejected() -> None:
    func = build("def f(*pairs: tuple[int, int]) -> int:\n    return 0\n")
    with pytest.raises(SchemaConstructionError, match=r"tuple\[T, \.\.\.\]") as info:
        function_schema(func)
    assert info.value.parameter == "pairs"


@pytest.mark.parametrize(
    ("source", "parameter", "fragment"),
    [
        ("def f(x: 'Missing') -> int:\n    return 1\n", "x", "cannot be resolved"),
        ("def f(x: int, y: 'Nope[int]') -> int:\n    return 1\n", "y", "cannot be resolved"),
        ("def f(x: Callable) -> int:\n    return 1\n", "x", "pydantic cannot build a schema"),
    ],
    ids=["unresolvable-name", "unresolvable-generic", "unsupported-type"],
)
def test_unsupported_shapes_fail_at_construction(
    source: str, parameter: str, fragment: str
) -> None:
    from collections.abc import Callable

    func = build(source, Callable=Callable)
    with pytest.raises(SchemaConstructionError, match=fragment) as info:
        function_schema(func)
    assert info.value.parameter == parameter


@pytest.mark.parametrize(
    ("obj", "fragment"),
    [(getattr, "no inspectable signature"), (42, "is not callable")],
    ids=["builtin-getattr", "not-callable"],
)
def test_objects_without_a_signature(obj: Any, fragment: str) -> None:
    with pytest.raises(SchemaConstructionError, match=fragment):
        function_schema(obj, strict=False)


def test_builtin_with_a_text_signature_works() -> None:
    assert function_schema(len, strict=False).name == "len"


def test_open_map_in_strict_mode_names_parameter_and_pointer() -> None:
    with pytest.raises(StrictSchemaError) as info:
        function_schema(corpus.containers)
    assert info.value.parameter == "pairs"
    assert info.value.pointer.startswith("/properties/pairs")


@pytest.mark.parametrize(
    ("arguments", "pointer", "fragment"),
    [
        ('{"city": "x", "days": "many"}', "/days", "valid integer"),
        ('{"days": 2}', "/city", "Field required"),
        ("[1, 2]", "", "must be a JSON object"),
        ('{"city": ', "", "not valid JSON at line 1"),
        (b"\xff\xfe", "", "not UTF-8"),
    ],
    ids=["wrong-type", "missing", "not-object", "truncated", "not-utf8"],
)
def test_bad_arguments_are_model_behaviour_errors(
    arguments: str | bytes, pointer: str, fragment: str
) -> None:
    fs = function_schema(corpus.google_style)
    with pytest.raises(ModelBehaviorError, match=fragment) as info:
        fs.validate_arguments(arguments)
    assert info.value.pointer == pointer
    assert info.value.__cause__ is not None or fragment == "must be a JSON object"


def test_empty_arguments_mean_no_arguments() -> None:
    fs = function_schema(corpus.no_params)
    assert fs.to_call_args(fs.validate_arguments("")) == ([], {})


def test_union_error_pointer_names_the_json_node_not_the_union_member() -> None:
    func = build("def f(x: int | str) -> None:\n    pass\n")
    with pytest.raises(ModelBehaviorError) as info:
        function_schema(func).validate_arguments('{"x": [1]}')
    assert info.value.pointer == "/x"  # not pydantic's "/x/int"
