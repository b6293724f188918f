"""``*args``/``**kwargs`` item types and defaults with unusual ``==``, against the reference.

Issue 27: the reference (openai-agents 0.24.0) makes ``*args: tuple[int, ...]`` an array of
arrays (each positional argument is a tuple) and ``**kwargs: dict[str, int]`` an object of
objects, refuses a fixed-length tuple on ``*args``, and keeps a default whose ``==`` is
elementwise or always true as the default (identity, not equality, decides "no default"),
warning through ``PydanticJsonSchemaWarning`` that it is not JSON serialisable. toollens
builds the same schemas and calls; the one difference is that the warning is kept in
``FunctionSchema.schema_warnings`` (and the lint finding ``lint.schema-warning``) instead
of being printed.
"""

from __future__ import annotations

import warnings
from typing import Annotated, Any, Tuple  # noqa: UP035 - the bare Tuple is the case

import pytest
from pydantic import Field
from pydantic.json_schema import PydanticJsonSchemaWarning

from toollens import SchemaConstructionError, function_schema, lint

agents_fs = pytest.importorskip("agents.function_schema")
agents_exceptions = pytest.importorskip("agents.exceptions")
pytestmark = pytest.mark.reference


def args_tuple(*rows: tuple[int, ...]) -> int:
    return len(rows)


def args_bare_tuple(*rows: Tuple) -> int:  # type: ignore[type-arg]  # noqa: UP006
    return len(rows)


def args_constrained(*counts: Annotated[int, Field(ge=0)]) -> int:
    return sum(counts)


def kwargs_dict(**tables: dict[str, int]) -> int:
    return len(tables)


def kwargs_constrained(label: str, **counts: Annotated[int, Field(ge=0, le=9)]) -> int:
    return len(counts)


def args_and_kwargs(first: int, *rest: list[str], **named: tuple[int, ...]) -> int:
    return first


def args_fixed_tuple(*pairs: tuple[int, str]) -> int:
    return len(pairs)


def args_empty_tuple(*nothing: tuple[()]) -> int:
    return 0


SAME = [args_tuple, args_bare_tuple, args_constrained, kwargs_dict, kwargs_constrained,
        args_and_kwargs]  # fmt: skip
SAMPLES: dict[str, dict[str, Any]] = {
    "args_tuple": {"rows": [[1, 2], [], [3]]},
    "args_bare_tuple": {"rows": [[1, "a"], []]},
    "args_constrained": {"counts": [0, 4]},
    "kwargs_dict": {"tables": {"a": {"x": 1}, "b": {}}},
    "kwargs_constrained": {"label": "l", "counts": {"a": 3}},
    "args_and_kwargs": {"first": 1, "rest": [["a"], []], "named": {"k": [1, 2]}},
}


@pytest.mark.parametrize("func", SAME, ids=lambda f: f.__name__)
def test_item_types_match_the_reference(func: Any) -> None:
    ours = function_schema(func, strict=False)
    theirs = agents_fs.function_schema(func, strict_json_schema=False)
    assert ours.json_schema == theirs.params_json_schema
    instance = ours.validate_arguments(SAMPLES[func.__name__])
    assert ours.to_call_args(instance) == theirs.to_call_args(instance)
    assert func(*ours.to_call_args(instance)[0], **ours.to_call_args(instance)[1]) is not None


def test_tuple_items_reach_the_function_as_tuples() -> None:
    fs = function_schema(args_tuple, strict=False)
    args, _ = fs.to_call_args(fs.validate_arguments({"rows": [[1, 2], [3]]}))
    assert args == [(1, 2), (3,)]


@pytest.mark.parametrize("func", [args_fixed_tuple, args_empty_tuple], ids=lambda f: f.__name__)
def test_fixed_length_tuples_on_args_are_refused_by_both(func: Any) -> None:
    with pytest.raises(SchemaConstructionError, match="fixed-length tuple") as refused:
        function_schema(func, strict=False)
    assert refused.value.parameter in ("pairs", "nothing")
    with pytest.raises(agents_exceptions.UserError, match="fixed-length tuple"):
        agents_fs.function_schema(func, strict_json_schema=False)


@pytest.mark.parametrize("func", [kwargs_dict, kwargs_constrained], ids=lambda f: f.__name__)
def test_kwargs_are_refused_in_strict_mode_by_both(func: Any) -> None:
    with pytest.raises(SchemaConstructionError, match="strict"):
        function_schema(func)
    with pytest.raises(agents_exceptions.UserError, match="strict"):
        agents_fs.function_schema(func)


# ------------------------------------------------------------- defaults with unusual ==


class ElementwiseEqual:
    """Like a numpy array: ``==`` answers a container whose truth value raises."""

    def __eq__(self, other: object) -> Any:
        return ElementwiseEqual()

    def __ne__(self, other: object) -> Any:
        return ElementwiseEqual()

    def __bool__(self) -> bool:
        raise ValueError("the truth value of an elementwise comparison is ambiguous")

    def __hash__(self) -> int:
        return 0


class AlwaysEqual:
    """Equal to everything, sentinels included."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0


ELEMENTWISE = ElementwiseEqual()
ALWAYS = AlwaysEqual()


def elementwise_default(x: int, value: Any = ELEMENTWISE) -> int:
    return x


def always_equal_default(x: int, value: Any = ALWAYS) -> int:
    return x


@pytest.mark.parametrize(
    ("func", "default"),
    [(elementwise_default, ELEMENTWISE), (always_equal_default, ALWAYS)],
    ids=["elementwise", "always-equal"],
)
def test_unusual_equality_defaults_stay_defaults(func: Any, default: Any) -> None:
    with pytest.warns(PydanticJsonSchemaWarning, match="is not JSON serializable"):
        theirs = agents_fs.function_schema(func, strict_json_schema=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # toollens prints nothing: the warning is kept
        ours = function_schema(func, strict=False)
    assert ours.json_schema == theirs.params_json_schema
    assert ours.json_schema["required"] == ["x"]
    assert any("is not JSON serializable" in note for note in ours.schema_warnings)
    assert "lint.schema-warning" in {str(f.rule) for f in lint(ours)}
    instance = ours.validate_arguments({"x": 1})
    args, _ = ours.to_call_args(instance)
    assert args[-1] is default
    assert theirs.to_call_args(instance)[0][-1] is default
