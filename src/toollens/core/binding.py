"""The engine's guard: the call built from a schema binds to the code Python really runs.

``inspect.signature`` describes a callable as it presents itself: it follows ``__wrapped__``,
honours a ``__signature__`` and drops a bound receiver. The code Python runs may take its
arguments differently, and then a schema that looks right rebuilds a call that fails (or, worse,
puts a value in the wrong parameter). So, once a callable is inspected, a probe call is built
from its parameters exactly as ``FunctionSchema.to_call_args`` builds real calls (one marker
object per value) and bound to the *real* calling convention: the function's code with its
receiver and any ``functools.partial`` arguments in front. Every marker must land in the
parameter of the same name, or in a ``*args``/``**kwargs`` that passes it on; otherwise the
callable is refused with how to write an explicit wrapper.
"""

from __future__ import annotations

import functools
import inspect
import types
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from toollens.core.errors import SchemaConstructionError

_KIND = inspect.Parameter
_NAMED = (_KIND.POSITIONAL_ONLY, _KIND.POSITIONAL_OR_KEYWORD, _KIND.KEYWORD_ONLY)
_PROBE_KEY = "toollens_probe_keyword"
WRAPPER_HINT = (
    "write an explicit wrapper: a plain function with annotated parameters, exactly the ones "
    "the model should send, whose body calls the tool"
)


class ParameterKindLike(Protocol):
    """A parameter kind as routing reads it: its ``value`` (``\"var-positional\"``...)."""

    @property
    def value(self) -> str: ...


class RoutedParameter(Protocol):
    """What routing needs of a parameter (``InspectedParameter`` and ``ParameterMetadata``)."""

    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> ParameterKindLike: ...  # a ParameterKind
    @property
    def is_context(self) -> bool: ...


# Any: argument values are whatever the model sent (validated by the tool's own model), and
# they go on to the tool function, whose parameters take any types.
def route_call(
    parameters: Iterable[RoutedParameter],
    value_of: Callable[[str], Any],
    context: object,
    *,
    skip_context: bool,
) -> tuple[list[Any], dict[str, Any]]:
    """``(args, kwargs)`` for the parameters: how toollens calls a tool.

    Every parameter is passed explicitly (defaults included): positional ones in order,
    ``*args`` items after them, keyword-only ones and ``**kwargs`` items by name. The run
    context goes first, unless ``skip_context`` (the caller supplies it).
    """
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for param in parameters:
        kind = param.kind.value
        if param.is_context:
            if not skip_context:
                args.append(context)
            continue
        value = value_of(param.name)
        if kind == "var-positional":
            args.extend(value or [])
        elif kind == "var-keyword":
            kwargs.update(value or {})
        elif kind == "keyword-only":
            kwargs[param.name] = value
        else:
            args.append(value)
    return args, kwargs


class _Marker:
    """One value of the probe call, remembering which schema parameter sent it."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


_RECEIVER = _Marker("receiver")


def check_binding(func: object, parameters: tuple[RoutedParameter, ...], name: str) -> None:
    """Refuse ``func`` when the call built from ``parameters`` cannot reach its code intact.

    Callables whose code cannot be read (builtins, C extensions) are left to
    ``inspect.signature``, which reads their real convention from the text signature.

    Raises:
        SchemaConstructionError: a probe call does not bind, or a value lands in a parameter
            of another name.
    """
    if _described_by_its_code(func):
        return  # inspect.signature read the code itself: the probe binds by construction
    convention = real_convention(func)
    if convention is None:
        return
    signature, leading, preset = convention
    context = _Marker(next((p.name for p in parameters if p.is_context), "context"))
    kinds = {p.name: p.kind.value for p in parameters}
    for with_items in (True, False):
        probe = functools.partial(_probe_value, kinds, with_items=with_items)
        args, kwargs = route_call(parameters, probe, context, skip_context=False)
        try:
            bound = signature.bind(*leading, *args, **{**preset, **kwargs})
        except TypeError as exc:
            raise SchemaConstructionError(
                f"the call toollens builds from the schema of {name} does not bind to the code "
                f"Python runs ({exc}); its signature describes another function",
                hint=WRAPPER_HINT,
            ) from exc
        _check_landing(bound, name)


def _described_by_its_code(func: Any) -> bool:
    """A plain function or bound method: no ``__wrapped__``, no ``__signature__`` to follow."""
    function = func.__func__ if isinstance(func, types.MethodType) else func
    if type(function) is not types.FunctionType:
        return False
    own = vars(function)
    return "__wrapped__" not in own and "__signature__" not in own


def _probe_value(kinds: Mapping[str, str], name: str, with_items: bool) -> Any:
    kind = kinds[name]
    if kind == "var-positional":
        return [_Marker(name), _Marker(name)] if with_items else []
    if kind == "var-keyword":
        return {_PROBE_KEY: _Marker(name)} if with_items else {}
    return _Marker(name)


def _check_landing(bound: inspect.BoundArguments, name: str) -> None:
    for real_name, value in bound.arguments.items():
        kind = bound.signature.parameters[real_name].kind
        marker = isinstance(value, _Marker) and value is not _RECEIVER
        if kind in _NAMED and marker and value.name != real_name:
            raise SchemaConstructionError(
                f"the value the model sends as {value.name!r} would reach parameter "
                f"{real_name!r} of the code Python runs for {name}; its signature "
                "describes another function",
                parameter=value.name,
                hint=WRAPPER_HINT,
            )


Convention = tuple[inspect.Signature, tuple[Any, ...], Mapping[str, Any]]


def real_convention(func: object) -> Convention | None:
    """How Python really calls ``func``: the code's signature, leading arguments, preset keywords.

    ``None`` when there is no Python code to read (a builtin) or the call goes through
    machinery whose binding is not known here (a metaclass ``__call__``, a custom ``__new__``).
    """
    try:
        return _convention(func, depth=0)
    except Exception:  # a hostile attribute: nothing can be said, inspect's view stands
        return None


def _convention(func: Any, depth: int) -> Convention | None:
    if depth > 20:
        return None
    if isinstance(func, functools.partial):
        inner = _convention(func.func, depth + 1)
        if inner is None:
            return None
        return inner[0], (*inner[1], *func.args), {**inner[2], **func.keywords}
    if isinstance(func, (types.MethodType, classmethod, staticmethod)):
        receiver = () if isinstance(func, staticmethod) else (_RECEIVER,)
        inner = _convention(func.__func__, depth + 1)
        return None if inner is None else (inner[0], (*receiver, *inner[1]), inner[2])
    if isinstance(func, types.FunctionType):
        return _code_signature(func), (), {}
    if inspect.isclass(func):
        return _constructor_convention(func, depth)
    if inspect.isroutine(func):
        return None
    descriptor = _class_attribute(type(func), "__call__")
    if isinstance(descriptor, types.FunctionType):
        return _code_signature(descriptor), (_RECEIVER,), {}
    if isinstance(descriptor, (staticmethod, classmethod)):
        return _convention(descriptor, depth + 1)
    return None


def _constructor_convention(cls: type, depth: int) -> Convention | None:
    if _class_attribute(type(cls), "__call__") is not _class_attribute(type, "__call__"):
        return None  # a metaclass decides how the class is called
    if _class_attribute(cls, "__new__") is not object.__new__:
        return None
    init = _class_attribute(cls, "__init__")
    if not isinstance(init, types.FunctionType):
        return None
    return _convention(types.MethodType(init, _RECEIVER), depth + 1)


def _class_attribute(cls: type, attribute: str) -> Any:
    """The attribute as stored in the first class of the MRO that has it (no binding)."""
    for klass in cls.__mro__:
        if attribute in vars(klass):
            return vars(klass)[attribute]
    return None


def _code_signature(func: types.FunctionType) -> inspect.Signature:
    """The signature of the code itself: no ``__wrapped__`` followed, no ``__signature__``."""
    clean = types.FunctionType(
        func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__
    )
    clean.__kwdefaults__ = func.__kwdefaults__
    return inspect.signature(clean, follow_wrapped=False)


__all__ = ["WRAPPER_HINT", "RoutedParameter", "check_binding", "real_convention", "route_call"]
