"""Callable -> inspected parameters: kinds, resolved annotations, the run-context parameter.

Everything that can go wrong while inspecting a callable (no signature, an annotation that
does not resolve, a context parameter in the wrong place) is turned into a
``SchemaConstructionError`` here, at construction, naming the parameter concerned.
"""

from __future__ import annotations

import enum
import functools
import inspect
import sys
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import GenericAlias
from typing import Annotated, Any, get_args, get_origin

from toollens.core.binding import check_binding
from toollens.core.callables import resolve_shape
from toollens.core.errors import SchemaConstructionError
from toollens.core.hint_memo import resolve_type_hints
from toollens.core.shape_rules import check_concrete_hints

# Context types recognised by qualified name, so neither SDK has to be installed or imported.
KNOWN_CONTEXT_TYPES = frozenset(
    {
        "agents.run_context.RunContextWrapper",
        "agents.tool_context.ToolContext",
        "pydantic_ai.tools.RunContext",
        "pydantic_ai._run_context.RunContext",
        # The bundled examples' stand-in for an SDK context: they read with no options.
        "toollens.examples.ToolContext",
    }
)

EMPTY: Any = inspect.Parameter.empty


class ParameterKind(str, enum.Enum):
    """The five ways a Python parameter can bind."""

    POSITIONAL_ONLY = "positional-only"
    POSITIONAL_OR_KEYWORD = "positional-or-keyword"
    VAR_POSITIONAL = "var-positional"
    KEYWORD_ONLY = "keyword-only"
    VAR_KEYWORD = "var-keyword"

    @property
    def label(self) -> str:
        return {"var-positional": "*args", "var-keyword": "**kwargs"}.get(self.value, self.value)


_KIND_OF = {
    inspect.Parameter.POSITIONAL_ONLY: ParameterKind.POSITIONAL_ONLY,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: ParameterKind.POSITIONAL_OR_KEYWORD,
    inspect.Parameter.VAR_POSITIONAL: ParameterKind.VAR_POSITIONAL,
    inspect.Parameter.KEYWORD_ONLY: ParameterKind.KEYWORD_ONLY,
    inspect.Parameter.VAR_KEYWORD: ParameterKind.VAR_KEYWORD,
}


@dataclass(frozen=True)
class InspectedParameter:
    """One parameter as Python sees it.

    Attributes:
        name: the parameter name.
        kind: how it binds.
        hint: the resolved annotation with ``Annotated`` extras (``Any`` when missing).
        annotated: whether the source carried an annotation at all.
        default: the default value, or ``inspect.Parameter.empty``.
        is_context: the injected run context (first position only).
    """

    name: str
    kind: ParameterKind
    hint: Any
    annotated: bool
    default: Any
    is_context: bool = False


@dataclass(frozen=True)
class InspectedCallable:
    """A callable reduced to what a tool schema needs."""

    func: Callable[..., Any]
    name: str
    doc: str | None
    signature: inspect.Signature
    parameters: tuple[InspectedParameter, ...]
    return_hint: Any
    is_async: bool
    summary_doc: str | None = None  # a callable object's class docstring, whose summary wins

    @property
    def context_parameter(self) -> str | None:
        first = self.parameters[0] if self.parameters else None
        return first.name if first is not None and first.is_context else None


# Any: a type hint is any runtime object (a class, a typing form, a string), and the
# typing and pydantic calls it goes on to are typed with Any.
def strip_annotated(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    """Return the bare type and the flattened ``Annotated`` metadata (outer last)."""
    metadata: tuple[Any, ...] = ()
    while get_origin(hint) is Annotated:
        args = get_args(hint)
        hint = args[0]
        metadata = (*metadata, *args[1:])
    return hint, metadata


# Any: type hints in and out, as for strip_annotated.
def annotate(tp: Any, metadata: tuple[Any, ...]) -> Any:
    """``Annotated[tp, *metadata]``, spelled so that Python 3.10 accepts it."""
    args = (tp, *metadata)
    return Annotated[args]


def qualified_name(obj: object) -> str:
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', repr(obj))}"


def _same_class(a: object, b: object) -> bool:
    """``a is b``, or the same class from the same file loaded twice (a ``file.py:`` target
    and a ``--context-type file.py:CLASS`` each import the file anew)."""
    if a is b:
        return True
    if not (isinstance(a, type) and isinstance(b, type)) or a.__qualname__ != b.__qualname__:
        return False
    where = [getattr(sys.modules.get(c.__module__), "__file__", None) for c in (a, b)]
    return where[0] is not None and where[0] == where[1]


# Any: type hints, as for strip_annotated.
def is_context_type(hint: Any, extra: Iterable[Any] = ()) -> bool:
    """Whether an annotation names a run-context type (bare or parametrised)."""
    if isinstance(hint, type) and not isinstance(hint, GenericAlias):
        origin = hint  # a plain class is its own origin: skip the two typing calls
    else:
        bare, _ = strip_annotated(hint)
        origin = get_origin(bare) or bare
    if extra and any(_same_class(origin, t) for t in extra):
        return True
    # No cache keyed on the class: it would keep every model class defined while live
    # editing alive, and the name lookup is already cheap.
    return isinstance(origin, type) and qualified_name(origin) in KNOWN_CONTEXT_TYPES


def _display_name(func: Any) -> str:
    if isinstance(func, functools.partial):
        return _display_name(func.func)
    if isinstance(func, (staticmethod, classmethod)):
        return _display_name(func.__func__)
    try:
        name = getattr(func, "__name__", None)
    except Exception:  # a hostile __getattr__: the type's name still identifies it
        name = None
    if isinstance(name, str):
        return name
    return type(func).__name__


def _resolve_hints(
    source: Any, params: Iterable[str], localns: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    if source is None:  # the parameters come from an explicit __signature__ only
        return {}
    local = dict(localns) if localns is not None else None
    try:
        return resolve_type_hints(  # the last edit's answer when nothing they name changed
            source,
            local,
            lambda: typing.get_type_hints(source, localns=local, include_extras=True),
        )
    except Exception as exc:  # any error in user annotations must become ours, not crash
        raw = getattr(source, "__annotations__", {}) or {}
        globalns = getattr(source, "__globals__", None)
        if globalns is None:
            module = sys.modules.get(getattr(source, "__module__", ""), None)
            globalns = vars(module) if module else {}
        for name in [*params, "return"]:
            if name not in raw:
                continue
            try:
                typing.get_type_hints(
                    _Probe({name: raw[name]}), globalns=globalns, localns=local, include_extras=True
                )
            except Exception as inner:  # the first annotation that fails is the culprit
                raise SchemaConstructionError(
                    f"annotation {raw[name]!r} cannot be resolved ({type(inner).__name__}: "
                    f"{inner})",
                    parameter=name if name != "return" else "return",
                    hint="import the names it uses at module level, or quote a valid type",
                ) from inner
        raise SchemaConstructionError(
            f"the annotations of {_display_name(source)} cannot be resolved "
            f"({type(exc).__name__}: {exc})",
            hint="check that every annotation names a type that exists",
        ) from exc


def _is_async(obj: Any) -> bool:
    try:
        return inspect.iscoroutinefunction(obj)
    except Exception:  # inspect reads __annotations__ and __code__, which user code can raise
        return False


class _Probe:
    """An object carrying one annotation, to find which annotation fails to resolve."""

    def __init__(self, annotations: dict[str, Any]) -> None:
        self.__annotations__ = annotations


def _signature(obj: Any, name: str) -> inspect.Signature:
    try:
        return inspect.signature(obj)
    except (ValueError, TypeError) as exc:
        raise SchemaConstructionError(
            f"{name} has no inspectable signature ({exc})",
            hint="wrap it in a Python function with annotated parameters",
        ) from exc
    except Exception as exc:  # a broken __signature__ may raise anything
        raise SchemaConstructionError(
            f"inspecting the signature of {name} failed ({type(exc).__name__}: {exc})",
            hint="wrap it in a plain Python function",
        ) from exc


def _inspect_parameter(
    index: int, param: inspect.Parameter, hints: dict[str, Any], extra: tuple[Any, ...]
) -> InspectedParameter:
    pname = param.name
    if not pname.isidentifier():
        raise SchemaConstructionError(
            "is not a valid Python identifier", parameter=pname, hint="rename the parameter"
        )
    annotation = param.annotation
    if pname in hints:
        annotated, hint = True, hints[pname]
    else:
        annotated = annotation is not EMPTY
        hint = annotation if annotated else Any
    if isinstance(hint, str):
        raise SchemaConstructionError(
            f"annotation {hint!r} is an unresolved string",
            parameter=pname,
            hint="make the name it refers to importable from the function's module",
        )
    context = annotated and is_context_type(hint, extra)
    if context and index != 0:
        raise SchemaConstructionError(
            f"is a run context at position {index + 1}; only the first parameter is "
            "injected as context",
            parameter=pname,
            hint="move it to the first position, or drop its context annotation",
        )
    if context and param.kind not in _POSITIONAL:
        raise SchemaConstructionError(
            f"is a {_KIND_OF[param.kind].label} run context; frameworks pass the context as the "
            "first positional argument",
            parameter=pname,
            hint="make it the first positional parameter (before any * or *args)",
        )
    return InspectedParameter(pname, _KIND_OF[param.kind], hint, annotated, param.default, context)


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


# Any: a tool function's result and its context types are whatever the author wrote.
def inspect_callable(
    func: Callable[..., Any], *, context_types: Iterable[Any] = (), docstring_required: bool = True
) -> InspectedCallable:
    """Inspect a callable: parameters with resolved hints and the context parameter.

    A docstring that raises when read (a ``__doc__`` property) is an error when
    ``docstring_required``, else it counts as absent (the docstring is only shown, not used).
    """
    if not callable(func):
        raise SchemaConstructionError(
            f"{func!r} is not callable", hint="pass a function, method or callable object"
        )
    name = _display_name(func)
    shape = resolve_shape(func, name)
    signature = _signature(shape.signature_of, name)
    source = shape.hint_source
    hints = _resolve_hints(source, signature.parameters, shape.localns)
    extra = tuple(context_types)
    params = [
        _inspect_parameter(index, param, hints, extra)
        for index, param in enumerate(signature.parameters.values())
    ]

    return_hint = hints.get("return", signature.return_annotation)
    named_hints = [(p.name, p.hint) for p in params if not p.is_context]
    check_concrete_hints(func, [*named_hints, ("return", return_hint)], name)
    check_binding(func, tuple(params), name)
    is_async = _is_async(source) or _is_async(shape.signature_of)
    try:
        doc, summary_doc = shape.docstrings()
    except SchemaConstructionError:
        if docstring_required:
            raise
        doc, summary_doc = None, None
    return InspectedCallable(
        func, name, doc, signature, tuple(params), return_hint, is_async, summary_doc
    )
