"""The callable shapes the newest OpenAI Agents SDK refuses, and what toollens does (issue 27).

``SHAPES`` lists every shape of the reference's own table
(``tests/test_function_tool_decorator.py::test_unsupported_callable_shapes_require_explicit_wrappers``
and ``test_callable_object_requires_override_for_invalid_fallback_name``; read at
openai-agents-python ``main`` 7f7a44f8, the behaviour checked here against the installed
``openai-agents`` 0.24.0) plus the shapes of issue 27. Each row says what toollens does: the
properties the model gets (and then the arguments built from them reach the code), or the
refusal and its advice. ``function_tool`` itself is called for the SDK's side, and the
Frameworks view must show that refusal. Every shape toollens accepts while the SDK refuses is
explained in docs/callable-shapes.md.
"""

from __future__ import annotations

import functools
import importlib.metadata
import inspect
import operator
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar, cast

import pytest
from binding_support import delivered, received
from corpus_callables import ToolContext
from pydantic import BaseModel
from typing_extensions import Self

from toollens import SchemaConstructionError, compare, frameworks, function_schema, report
from toollens.frameworks.openai_agents import REFERENCE_VERSION
from toollens.frameworks.records import Status

ValueT = TypeVar("ValueT")
DOCS = Path(__file__).parents[2] / "docs" / "callable-shapes.md"


def target(value: int) -> int:
    """Double a whole number.

    Args:
        value: The number to double.
    """
    return value * 2


def forwarding(func: Any) -> Any:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapper


class UpdateWrapper:
    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped
        functools.update_wrapper(self, wrapped)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.wrapped(*args, **kwargs)


SELF = inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _one(name: str, kind: Any = inspect.Parameter.POSITIONAL_OR_KEYWORD) -> inspect.Signature:
    return inspect.Signature([inspect.Parameter(name, kind, annotation=int)])


class StaticCall:
    __call__ = staticmethod(target)


class ClassCall:
    @classmethod
    def __call__(cls, value: int) -> int:
        return value


class WrapsKeepsReceiver:  # issue 27, finding 1
    @functools.wraps(target)
    def __call__(self, *args: Any, **kwargs: Any) -> int:
        return target(*args, **kwargs)


class DecoratedMethod:
    @forwarding
    def __call__(self, value: int) -> int:
        return value


class WrapsForwardsReceiver:
    __call__ = forwarding(target)


class PublishedAnnotations:
    def __init__(self) -> None:
        self.__annotations__ = {"value": int, "return": int}

    def __call__(self, value: int) -> int:
        return value


class ClassSignature:
    __signature__ = _one("value")

    def __call__(self, *args: Any, **kwargs: Any) -> int:
        return cast(int, args[0])


class MethodSignatureWithoutSelf:
    def __call__(self, value: int) -> int:
        return value


cast(Any, MethodSignatureWithoutSelf.__call__).__signature__ = _one("value")


class MethodSignatureWithSelf:
    def __call__(self, **kwargs: Any) -> int:
        return cast(int, kwargs["value"])


cast(Any, MethodSignatureWithSelf.__call__).__signature__ = inspect.Signature(
    [SELF, *_one("value", inspect.Parameter.KEYWORD_ONLY).parameters.values()]
)


class SignatureOfAnotherFunction:
    def __call__(self, count: int) -> int:
        return count


cast(Any, SignatureOfAnotherFunction.__call__).__signature__ = inspect.Signature(
    [SELF, *_one("number").parameters.values()]
)


class SingleDispatch:
    __call__ = functools.singledispatchmethod(target)


class PartialMethod:
    __call__ = functools.partialmethod(target, 1)


class NestedCall:
    def __call__(self, value: int) -> int:
        return value


class KeywordOnlyContext:
    def __call__(self, *, ctx: ToolContext, value: int) -> int:
        return value


class VariadicContext:
    def __call__(self, *ctx: ToolContext) -> int:
        return len(ctx)


class NonFirstContext:
    def __call__(self, value: int, ctx: ToolContext) -> int:
        return value


class GenericCall(Generic[ValueT]):
    def __call__(self, value: ValueT) -> ValueT:
        return value


class GenericSignature(Generic[ValueT]):
    __signature__ = inspect.Signature(
        [inspect.Parameter("value", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation="ValueT")]
    )

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return args[0]


class SelfCall:
    def __call__(self, other: Self) -> Self:
        return other


class PydanticGeneric(BaseModel, Generic[ValueT]):
    def __call__(self, value: ValueT) -> ValueT:
        return value


def kw_context_function(*, ctx: ToolContext, value: int) -> int:
    return value


def call(self: Any, value: int) -> int:
    return value


def two(first: int, second: int) -> int:
    return first + second


def local_annotation() -> Any:
    """A ``__call__`` annotated with a class local to this function: it cannot resolve."""

    class LocalPayload(BaseModel):
        value: int

    class LocalAnnotation:
        def __call__(self, value: LocalPayload) -> int:
            return value.value

    return LocalAnnotation()


BUILDERS: dict[str, Callable[[], Any]] = {
    "partial": lambda: functools.partial(target, 1),
    "partial-keyword": lambda: functools.partial(two, second=2),
    "partialmethod": PartialMethod,
    "staticmethod": StaticCall,
    "classmethod": ClassCall,
    "wraps-keeps-receiver": WrapsKeepsReceiver,
    "decorated-call": DecoratedMethod,
    "wraps-forwards-receiver": WrapsForwardsReceiver,
    "update-wrapper": lambda: UpdateWrapper(target),
    "nested-wrapper": lambda: UpdateWrapper(NestedCall()),
    "published-annotations": PublishedAnnotations,
    "custom-signature": ClassSignature,
    "method-signature": MethodSignatureWithoutSelf,
    "method-signature-with-self": MethodSignatureWithSelf,
    "signature-of-another-function": SignatureOfAnotherFunction,
    "local-annotation": local_annotation,
    "singledispatchmethod": SingleDispatch,
    "builtin": lambda: operator.itemgetter(0),
    "keyword-only-context": KeywordOnlyContext,
    "keyword-only-context-function": lambda: kw_context_function,
    "variadic-context": VariadicContext,
    "non-first-context": NonFirstContext,
    "generic": lambda: GenericCall[int](),
    "generic-signature": lambda: GenericSignature[int](),
    "self": SelfCall,
    "pydantic-generic": lambda: PydanticGeneric[int](),
    "fallback-name-not-ascii": lambda: type("Café", (), {"__call__": call})(),
    "fallback-name-65-characters": lambda: type("A" * 65, (), {"__call__": call})(),
}


def build(key: str) -> Any:
    made = BUILDERS[key]()
    return made() if inspect.isclass(made) else made


@dataclass(frozen=True)
class Row:
    """One shape: what toollens does, and what the SDK's ``function_tool`` says.

    ``params``: the properties toollens shows (``None``: refused with ``refusal``).
    ``sdk``: a fragment of the SDK's refusal (``None``: the SDK builds the tool).
    """

    key: str
    params: tuple[str, ...] | None = None
    refusal: str | None = None
    sdk: str | None = "explicit wrapper"


WRAPPER = "explicit wrapper"
SHAPES = [
    Row("partial", (), sdk="does not infer functools.partial"),
    Row("partial-keyword", ("first", "second"), sdk="does not infer functools.partial"),
    Row("partialmethod", refusal="is a partialmethod descriptor"),
    Row("staticmethod", ("value",)),
    Row("classmethod", ("value",)),
    Row("wraps-keeps-receiver", ("value",)),
    Row("decorated-call", ("value",)),
    Row("wraps-forwards-receiver", refusal="passes the instance on as the first argument"),
    Row("update-wrapper", ("value",)),
    Row("nested-wrapper", ("value",)),
    Row("published-annotations", ("value",)),
    Row("custom-signature", ("value",)),
    Row("method-signature", refusal="does not bind to the code Python runs"),
    Row("method-signature-with-self", ("value",)),
    Row("signature-of-another-function", refusal="would reach parameter 'count'"),
    Row("local-annotation", refusal="cannot be resolved", sdk="annotations resolvable"),
    Row("singledispatchmethod", refusal="dispatches on the type of its first argument"),
    Row("builtin", refusal="has no inspectable signature"),
    Row("keyword-only-context", refusal="is a keyword-only run context"),
    Row("keyword-only-context-function", refusal="is a keyword-only run context", sdk=None),
    Row("variadic-context", refusal="is a *args run context"),
    Row("non-first-context", refusal="is a run context at position 2"),
    Row("generic", refusal="the type variable ~ValueT of a generic", sdk="Unsupported generic"),
    Row("generic-signature", refusal="is an unresolved string"),
    Row("self", refusal="is annotated with Self", sdk="Unsupported generic or aliased"),
    Row("pydantic-generic", refusal="the type variable ~ValueT of a generic class"),
    Row("fallback-name-not-ascii", ("value",), sdk="Pass name_override"),
    Row("fallback-name-65-characters", ("value",), sdk="Pass name_override"),
]  # fmt: skip
ACCEPTED = [pytest.param(r, id=r.key) for r in SHAPES if r.params is not None]
REFUSED = [pytest.param(r, id=r.key) for r in SHAPES if r.params is None]
SDK_REFUSED = [pytest.param(r, id=r.key) for r in SHAPES if r.sdk is not None]


def test_every_builder_has_a_row() -> None:
    assert sorted(BUILDERS) == sorted(r.key for r in SHAPES)


@pytest.mark.parametrize("row", ACCEPTED)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_accepted_shapes_bind_what_the_model_sends(row: Row, strict: bool) -> None:
    tool = build(row.key)
    fs = function_schema(tool, strict=strict)
    assert tuple(fs.json_schema["properties"]) == row.params
    sent = {name: 20 + i for i, name in enumerate(row.params or ())}
    model = fs.validate_arguments(sent)
    args, kwargs = fs.to_call_args(model)
    got = received(tool, args, kwargs)
    assert got is not None, "the call built from the schema does not bind"
    for name in sent:
        assert delivered(got, tool, name, model.__dict__[name])


@pytest.mark.parametrize("row", REFUSED)
def test_refused_shapes_say_how_to_write_a_wrapper(row: Row) -> None:
    tool = build(row.key)
    if row.key == "builtin" and _has_signature(tool):
        pytest.skip("this builtin has a text signature on this Python (3.13+): it is described")
    for strict in (True, False):
        with pytest.raises(SchemaConstructionError) as refused:
            function_schema(tool, strict=strict)
        assert row.refusal is not None
        assert row.refusal in str(refused.value)
        assert refused.value.hint
    with pytest.raises(SchemaConstructionError, match=_escaped(row.refusal)):
        report(tool)


def _has_signature(tool: object) -> bool:
    try:
        inspect.signature(tool)
    except (TypeError, ValueError):
        return False
    return True


def _escaped(text: str | None) -> str:
    import re

    return re.escape(text or "")


def test_the_issue_27_wrapper_gets_value() -> None:
    class Wrapped:
        @functools.wraps(target)
        def __call__(self, *a: Any, **k: Any) -> int:
            return target(*a, **k)

    fs = function_schema(Wrapped())
    assert list(fs.json_schema["properties"]) == ["value"]
    assert fs.parameter("value").description == "The number to double."
    args, kwargs = fs.to_call_args(fs.validate_arguments('{"value": 21}'))
    assert Wrapped()(*args, **kwargs) == 42


def test_only_the_class_type_variables_are_refused() -> None:
    class Repository(Generic[ValueT]):
        def get(self, key: ValueT) -> ValueT:
            return key

    class Plain:
        def echo(self, item: ValueT) -> ValueT:  # the method's own generic: any value
            return item

    with pytest.raises(SchemaConstructionError, match="type variable ~ValueT of a generic"):
        function_schema(Repository[int]().get)
    assert function_schema(Plain().echo).json_schema["properties"]["item"] == {"title": "Item"}


def test_invalid_fallback_names_are_flagged_by_the_provider_check() -> None:
    for key in ("fallback-name-not-ascii", "fallback-name-65-characters"):
        rules = {str(getattr(f, "rule", "")) for f in report(build(key)).findings}
        assert "openai.name-invalid" in rules, rules


# ------------------------------------------------------------------- the SDK's side


@pytest.fixture
def agents() -> Any:
    """The installed SDK (absent on some Pythons: then only toollens' side runs)."""
    return pytest.importorskip("agents")


def test_the_installed_sdk_is_the_tracked_version(agents: Any) -> None:
    # docs/callable-shapes.md and this table describe REFERENCE_VERSION; a new SDK needs a look
    assert importlib.metadata.version("openai-agents") == REFERENCE_VERSION


@pytest.mark.parametrize("row", SDK_REFUSED)
def test_the_sdk_refuses_and_the_frameworks_view_shows_it(row: Row, agents: Any) -> None:
    assert row.sdk is not None
    with pytest.raises(agents.UserError, match=_escaped(row.sdk)):
        agents.function_tool(build(row.key))
    result = frameworks.adapt(build(row.key), "openai-agents")
    assert result.status is Status.REFUSED
    assert result.message is not None
    assert row.sdk in result.message
    assert REFERENCE_VERSION in result.named
    assert result.finding is not None
    assert "refused the function" in result.finding.message
    if row.params is not None:  # toollens describes it: compare() shows the SDK refusing
        comparison = compare(build(row.key), ["openai-agents"])
        assert comparison.refused == ("openai-agents",)
        assert any(REFERENCE_VERSION in f.message for f in comparison.findings)


def test_the_sdk_builds_a_keyword_only_context_function_it_cannot_call(agents: Any) -> None:
    """Why toollens refuses it: the SDK passes the context positionally at call time."""
    tool = agents.function_tool(build("keyword-only-context-function"))
    assert list(tool.params_json_schema["properties"]) == ["value"]
    from agents.function_schema import function_schema as sdk_function_schema

    schema = sdk_function_schema(build("keyword-only-context-function"))
    assert schema.takes_context
    with pytest.raises(TypeError, match="positional argument"):
        build("keyword-only-context-function")(object(), value=1)
    comparison = compare(build("keyword-only-context-function"), ["openai-agents"])
    assert "keyword-only run context" in str(comparison.reference_error)
    assert comparison.accepted == ("openai-agents",)


@pytest.mark.parametrize(
    "row", [r for r in ACCEPTED if cast(Row, r.values[0]).sdk is not None]
)  # fmt: skip
def test_every_shape_the_sdk_refuses_and_toollens_accepts_is_documented(row: Any) -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert f"`{row.key}`" in text, f"docs/callable-shapes.md does not explain {row.key}"


def test_the_explorer_frameworks_view_shows_the_sdk_refusal(agents: Any) -> None:
    from toollens.jupyter.explorer import Explorer

    explorer = Explorer(build("staticmethod"), frameworks=["openai-agents"], debounce=0)
    try:
        assert explorer.wait_frameworks(120)
        html = explorer.panels["frameworks"]
        assert "refused" in html
        assert "function_tool supports instances with a plain __call__ method" in html
        assert REFERENCE_VERSION in html
        assert "value" in explorer.panels["signature"]  # toollens' own views still show it
    finally:
        explorer.close()
