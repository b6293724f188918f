"""The binding property (issue 27): a schema's arguments reach the code with their values.

For every callable toollens accepts, arguments generated from its JSON schema (valid by
construction) are validated, rebuilt with ``to_call_args`` and used to call the callable;
the code Python finally runs must be entered, each parameter holding the very value the
model sent. Run over the callable corpus, the callable-shape table and hypothesis-generated
wrappers (stacked ``functools.wraps`` decorators, ``wraps`` on methods, descriptors,
partials). A wrapper whose call toollens cannot prove is refused, saying how to write an
explicit wrapper.
"""

from __future__ import annotations

import functools
from typing import Any

import corpus_callables as corpus
import pytest
import test_callable_shapes as shape_table
from binding_support import arguments, delivered, received
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toollens import ModelBehaviorError, SchemaConstructionError, ToolLensError, function_schema
from toollens.core.function_schema import FunctionSchema
from toollens.core.signature import ParameterKind

CONTEXT = object()
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_reaches(fs: FunctionSchema, func: Any, data: dict[str, Any]) -> dict[str, Any]:
    """Validate ``data``, call ``func`` with the rebuilt call; what its code received."""
    try:
        model = fs.validate_arguments(data)
    except ModelBehaviorError:
        assume(False)  # the strategy is approximate for a few pydantic keywords
        raise
    call = call_args(fs, model, CONTEXT)
    if call is None:
        return {}
    got = received(func, *call)
    assert got is not None, f"{fs.name}: the call built from the schema did not bind"
    values = object.__getattribute__(model, "__dict__")
    for param in fs.parameters:
        if param.is_context:
            assert got[param.name] is CONTEXT
            continue
        sent = values[param.name]
        if param.kind is ParameterKind.VAR_POSITIONAL:
            assert list(got[param.name]) == list(sent)
            assert all(a is b for a, b in zip(got[param.name], sent, strict=True))
        elif param.kind is ParameterKind.VAR_KEYWORD:
            assert got[param.name] == sent
        else:
            assert delivered(got, func, param.name, sent), (param.name, got, sent)
    return got


def call_args(fs: FunctionSchema, model: Any, context: Any) -> Any:
    """``to_call_args``, or ``None`` for the one call no Python call expresses.

    A ``**kwargs`` key naming a keyword parameter is valid for the schema but refused by
    ``to_call_args`` (as the reference does): the model misbehaved, nothing reaches the code.
    """
    try:
        return fs.to_call_args(model, context=context)
    except ModelBehaviorError as exc:
        refusal = str(exc)
    assert "both a named parameter and a key in" in refusal
    return None


# ------------------------------------------------------------------------------ the corpus


@pytest.mark.parametrize("name", sorted(corpus.CORPUS))
@PROPERTY
@given(data=st.data())
def test_corpus_arguments_reach_the_code(name: str, data: st.DataObject) -> None:
    func = corpus.CORPUS[name]
    try:
        fs = function_schema(func, strict=False)
    except ToolLensError:
        return  # refused: nothing is shown to a model
    check_reaches(fs, func, data.draw(arguments(fs.json_schema)))


# ------------------------------------------------------------------- the shape table


@pytest.mark.parametrize("shape", shape_table.ACCEPTED)
@PROPERTY
@given(data=st.data())
def test_shape_table_arguments_reach_the_code(shape: Any, data: st.DataObject) -> None:
    target = shape_table.load(shape)
    fs = function_schema(target, strict=False)
    check_reaches(fs, target, data.draw(arguments(fs.json_schema)))


# ----------------------------------------------------------- generated wrappers

ANNOTATIONS = {"int": int, "str": str, "bool": bool, "list[int]": list[int], "float": float}
BOUND = object()  # what a functools.partial supplies


@st.composite
def base_source(draw: st.DrawFn, receiver: str | None) -> tuple[str, list[str]]:
    """The source of a function recording what it receives, and its parameter names."""
    names = draw(st.lists(st.sampled_from("abcdefg"), max_size=4, unique=True))
    split = sorted(draw(st.lists(st.integers(0, len(names)), min_size=2, max_size=2)))
    kinds = ["/"] * split[0] + ["p"] * (split[1] - split[0]) + ["*"] * (len(names) - split[1])
    star_args, star_kw = draw(st.booleans()), draw(st.booleans())
    hints = [draw(st.sampled_from(sorted(ANNOTATIONS))) for _ in names]
    parts = [receiver] if receiver else []
    for name, kind, hint in zip(names, kinds, hints, strict=True):
        if kind == "*" and not any(p.startswith("*") for p in parts):
            parts.append("*rest: int" if star_args else "*")
        default = " = None" if kind == "*" and draw(st.booleans()) else ""
        parts.append(f"{name}: {hint}{default}")
        if kind == "/" and kinds.count("/") == names.index(name) + 1:
            parts.append("/")
    if star_args and "*rest: int" not in parts:
        parts.append("*rest: int")
    if star_kw:
        parts.append("**options: int")
    head = ", ".join(parts)
    source = f"def base({head}) -> int:\n    RECORD.append(dict(locals()))\n    return 0\n"
    return source, names


def build_base(source: str, record: list[dict[str, Any]]) -> Any:
    namespace: dict[str, Any] = {"RECORD": record, **ANNOTATIONS}
    exec(source, namespace)  # test-generated signatures only
    return namespace["base"]


def forwarding(func: Any) -> Any:
    """A decorator as people write them: ``functools.wraps`` and ``*args, **kwargs``."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapper


def partial_of(func: Any, how: str) -> Any:
    import inspect

    params = list(inspect.signature(func).parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    named = [p for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
    if how == "first" and positional:
        return functools.partial(func, BOUND)
    if how == "keyword" and named:
        return functools.partial(func, **{named[-1].name: BOUND})
    return func


class Forward:
    """A decorator class: ``functools.update_wrapper(self, func)``."""

    def __init__(self, func: Any) -> None:
        functools.update_wrapper(self, func)
        self.func = func

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*args, **kwargs)


def shape_function(func: Any, shape: str) -> Any:
    """Put a function (no receiver) in one of the shapes people give as a tool."""
    if shape == "function":
        return func
    if shape == "update_wrapper":
        return Forward(func)
    if shape == "static_call":
        return type("StaticTool", (), {"__call__": staticmethod(func)})()
    if shape == "wraps_call_keeps_receiver":

        @functools.wraps(func)
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            return func(*args, **kwargs)

        return type("KeepsReceiver", (), {"__call__": call})()
    assert shape == "wraps_call_forwards_receiver"
    return type("ForwardsReceiver", (), {"__call__": forwarding(func)})()


FUNCTION_SHAPES = [
    "function",
    "update_wrapper",
    "static_call",
    "wraps_call_keeps_receiver",
    "wraps_call_forwards_receiver",
]


@PROPERTY
@given(
    spec=base_source(receiver=None),
    layers=st.lists(st.sampled_from(["wraps", "first", "keyword"]), max_size=3),
    shape=st.sampled_from(FUNCTION_SHAPES),
    data=st.data(),
)
def test_generated_function_wrappers(
    spec: tuple[str, list[str]], layers: list[str], shape: str, data: st.DataObject
) -> None:
    record: list[dict[str, Any]] = []
    func = build_base(spec[0], record)
    for layer in layers:
        func = forwarding(func) if layer == "wraps" else partial_of(func, layer)
    tool = shape_function(func, shape)
    _check_generated(tool, record, data, refused=shape == "wraps_call_forwards_receiver")


@PROPERTY
@given(
    spec=base_source(receiver="self"),
    decorators=st.integers(0, 3),
    as_call=st.booleans(),
    data=st.data(),
)
def test_generated_method_wrappers(
    spec: tuple[str, list[str]], decorators: int, as_call: bool, data: st.DataObject
) -> None:
    record: list[dict[str, Any]] = []
    method = build_base(spec[0], record)
    for _ in range(decorators):
        method = forwarding(method)
    owner = type("Service", (), {"__call__" if as_call else "run": method})
    tool = owner() if as_call else owner().run
    _check_generated(tool, record, data, refused=False)


@PROPERTY
@given(spec=base_source(receiver="cls"), decorators=st.integers(0, 2), data=st.data())
def test_generated_classmethod_call(
    spec: tuple[str, list[str]], decorators: int, data: st.DataObject
) -> None:
    record: list[dict[str, Any]] = []
    method = build_base(spec[0], record)
    for _ in range(decorators):
        method = forwarding(method)
    tool = type("ClassTool", (), {"__call__": classmethod(method)})()
    _check_generated(tool, record, data, refused=False)


def _check_generated(
    tool: Any, record: list[dict[str, Any]], data: st.DataObject, *, refused: bool
) -> None:
    if refused:  # the wrapper passes the instance to a function without a parameter for it
        with pytest.raises(SchemaConstructionError, match="explicit wrapper"):
            function_schema(tool, strict=False)
        return
    fs = function_schema(tool, strict=False)  # every other generated shape is provable
    model = fs.validate_arguments(data.draw(arguments(fs.json_schema)))
    call = call_args(fs, model, CONTEXT)
    if call is None:
        return
    tool(*call[0], **call[1])
    assert len(record) == 1, "the call did not reach the code exactly once"
    got = record[0]
    values = object.__getattribute__(model, "__dict__")
    for param in fs.parameters:
        sent = values[param.name]
        if param.kind is ParameterKind.VAR_POSITIONAL:
            assert list(got[param.name]) == list(sent)
        elif param.kind is ParameterKind.VAR_KEYWORD:
            assert got[param.name] == sent
        else:
            assert got[param.name] is sent, (param.name, got, values)
    hidden = set(got) - {p.name for p in fs.parameters} - {"self", "cls", "rest", "options"}
    assert all(got[name] is BOUND for name in hidden), (got, hidden)
