"""Which function describes a callable: the shapes people write, resolved the way Python calls them.

A tool is a function, a bound method, a ``functools.partial``, a class (its constructor) or a
callable object. For a callable object Python calls ``type(obj).__call__`` through the
descriptor protocol, so that is what this module inspects: a plain method is bound (``self``
is never sent), a ``staticmethod`` is taken as it is (nothing is dropped), a
``functools.wraps`` wrapper is followed to the function it wraps, and a descriptor whose
binding cannot be known (``singledispatchmethod``, a custom ``__get__``) is refused with
what to do instead. A function read from a class (``Search.run``) still expects ``self``;
it is refused too, because the model would otherwise be asked for ``self``.

Annotations are resolved in the namespace where they were written: the wrapped function's
module and, for a method, its class body (a type nested in the tool class is found).
"""

from __future__ import annotations

import functools
import inspect
import sys
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toollens.core.binding import WRAPPER_HINT
from toollens.core.errors import SchemaConstructionError, TargetError

_MISSING = object()
_RECEIVERS = ("self", "cls")


@dataclass(frozen=True)
class CallShape:
    """What describes one callable.

    Attributes:
        signature_of: the object ``inspect.signature`` is taken of (Python's own view of
            the call, with ``self`` already bound away).
        hint_source: the function whose annotations name the parameters' types, or ``None``
            when the annotations come from an explicit ``__signature__`` only.
        localns: names visible where the annotations were written besides the module's
            (the class body of a method), or ``None``.
        doc_owner: the object whose docstring describes the call.
        class_owner: for a callable object, its class: when both the class and ``__call__``
            have a docstring, the class's summary wins and the ``__call__`` docstring gives
            the parameter docs (as the OpenAI Agents SDK does); when only one has one, it is
            used whole.
    """

    signature_of: Any
    hint_source: Any
    localns: Mapping[str, Any] | None = None
    doc_owner: Any = None
    class_owner: type | None = None

    def docstrings(self) -> tuple[str | None, str | None]:
        """``(docstring, summary docstring)``; read only when asked (it may run user code).

        Raises:
            SchemaConstructionError: reading a docstring raised.
        """
        if self.class_owner is None:
            return read_doc(self.doc_owner), None
        call_doc = read_doc(self.doc_owner, inherit=False)
        class_doc = read_doc(self.class_owner)
        if call_doc and class_doc:
            return call_doc, class_doc
        return call_doc or class_doc, None


# Any: whatever was handed over as a tool (a function, a partial, an instance, a class);
# telling which is this function's job, one isinstance/inspect test at a time.
def resolve_shape(func: Any, name: str, *, receiver_bound: bool = False) -> CallShape:
    """The ``CallShape`` of ``func`` (named ``name`` in messages).

    ``receiver_bound``: a ``functools.partial`` already supplies the first argument.

    Raises:
        SchemaConstructionError: a method read from its class (it still expects ``self``), or
            a callable object whose ``__call__`` is a descriptor that cannot be inspected.
    """
    if isinstance(func, functools.partial):
        # partial(Search.run, instance) binds self itself: the method is not refused then
        inner = resolve_shape(func.func, name, receiver_bound=bool(func.args) or receiver_bound)
        return CallShape(func, inner.hint_source, inner.localns, func.func)
    if isinstance(func, (staticmethod, classmethod)):
        inner = resolve_shape(func.__func__, name, receiver_bound=isinstance(func, classmethod))
        return CallShape(func, inner.hint_source, inner.localns, func.__func__)
    if inspect.ismethod(func):
        function = func.__func__
        owner = func.__self__ if inspect.isclass(func.__self__) else type(func.__self__)
        namespace = _class_namespace(owner, function)
        kept = _receiver_kept_inner(function, name, None)
        if kept is not None:  # the wrapper keeps the receiver: describe the wrapped whole
            return kept
        source, localns = _hint_source(function, namespace, name)
        return CallShape(func, source, localns, function)
    if inspect.isclass(func):
        return CallShape(func, func.__init__, _class_namespace(func, func.__init__), func)
    if inspect.isfunction(func):
        if not receiver_bound:
            _refuse_unbound_method(func)
        source, localns = _hint_source(func, None, name)
        return CallShape(func, source, localns, func)
    if inspect.isroutine(func):  # builtins and method wrappers: no annotations to resolve
        return CallShape(func, func, None, func)
    return _callable_object(func, name)


def _unwrap(func: Any) -> Any:
    """Follow ``__wrapped__`` as ``inspect.signature`` does (stopping at a ``__signature__``)."""
    try:
        return inspect.unwrap(func, stop=lambda f: hasattr(f, "__signature__"))
    except Exception:  # a __wrapped__ cycle or a raising property: inspect.signature reports it
        return func


def _hint_source(
    function: Any, namespace: dict[str, Any] | None, name: str
) -> tuple[Any, Mapping[str, Any] | None]:
    """Where the annotations of ``function`` resolve: the function it wraps, in its class body.

    ``namespace``: the class body ``function`` was found in, if any; a wrapped function
    defined elsewhere resolves in its own. A wrapped partial or object is resolved as itself.
    """
    unwrapped = _unwrap(function)
    if unwrapped is function:
        return function, namespace if namespace is not None else _qualname_namespace(function)
    if not inspect.isfunction(unwrapped):
        inner = resolve_shape(unwrapped, name, receiver_bound=True)
        return inner.hint_source, inner.localns
    return unwrapped, namespace if namespace is not None else _qualname_namespace(unwrapped)


def _callable_object(obj: Any, name: str) -> CallShape:
    cls = type(obj)
    # inspect.signature follows __wrapped__ and honours __signature__ before it looks at
    # __call__ (functools.update_wrapper(self, fn) in a decorator class does both).
    if _has_static(obj, "__wrapped__"):
        unwrapped = _unwrap(obj)
        if unwrapped is not obj:
            inner = resolve_shape(unwrapped, name)
            return CallShape(obj, inner.hint_source, inner.localns, obj)
    if _has_static(obj, "__signature__") and _own_signature(obj):
        return CallShape(obj, None, None, obj)
    owner = next((k for k in cls.__mro__ if "__call__" in vars(k)), None)
    if owner is None:
        raise SchemaConstructionError(
            f"{name} is callable but has no __call__ method to inspect",
            hint="pass a function that calls it, with annotated parameters",
        )
    descriptor = vars(owner)["__call__"]
    namespace = _namespace_of_class(owner)
    if isinstance(descriptor, staticmethod):
        function = descriptor.__func__
        bound: Any = function
        if not inspect.isfunction(function):  # staticmethod(partial(...)) and the like
            inner = resolve_shape(function, name, receiver_bound=True)
            return CallShape(inner.signature_of, inner.hint_source, inner.localns, function, cls)
    elif isinstance(descriptor, (types.FunctionType, classmethod)):
        function = descriptor.__func__ if isinstance(descriptor, classmethod) else descriptor
        bound = descriptor.__get__(obj, cls)
        kept = _receiver_kept_inner(function, name, cls)
        if kept is not None:  # the wrapper keeps the receiver: describe the wrapped whole
            return kept
    elif not hasattr(type(descriptor), "__get__"):  # e.g. a builtin stored as __call__
        return CallShape(descriptor, descriptor, namespace, descriptor, cls)
    elif isinstance(descriptor, (types.WrapperDescriptorType, types.MethodDescriptorType)):
        # __call__ written in C (a subclass of a builtin callable): Python's own view
        return CallShape(obj, None, None, obj)
    else:
        raise _unsupported_descriptor(name, descriptor)
    source, localns = _hint_source(function, namespace, name)
    return CallShape(bound, source, localns, doc_owner=function, class_owner=cls)


def _receiver_kept_inner(function: Any, name: str, cls: type | None) -> CallShape | None:
    """The shape of the wrapped callable, described whole, when a method wrapper keeps its receiver.

    ``inspect.signature`` of a bound ``functools.wraps`` wrapper takes the wrapped callable's
    signature and drops its first parameter as if it were ``self``. That is right only when
    the wrapper passes the receiver on (``def wrapper(*args, **kwargs)``) to a method that
    expects one. A wrapper that takes the receiver itself (``def __call__(self, *a, **k)``)
    around a function with no receiver calls it with the model's arguments only: the wrapped
    signature is the contract, whole. ``None``: inspect's view is right (or no wrapper).

    Raises:
        SchemaConstructionError: the wrapper passes the receiver on to a callable that has
            no parameter for it, so no schema can describe the call.
    """
    inner = _unwrap(function)
    if inner is function or _expects_receiver(inner):
        return None  # no wrapper, or the receiver reaches the wrapped method: inspect's view
    if _first_kind(function) is inspect.Parameter.VAR_POSITIONAL:
        raise SchemaConstructionError(
            f"the wrapper around {name} passes the instance on as the first argument of "
            f"{_label(inner)}, which has no parameter for it",
            hint=WRAPPER_HINT,
        )
    shape = resolve_shape(inner, name, receiver_bound=True)
    return CallShape(shape.signature_of, shape.hint_source, shape.localns, function, cls)


def _first_kind(function: Any) -> Any:
    """The kind of the first parameter of the code itself (no ``__wrapped__``), or ``None``."""
    code = getattr(function, "__code__", None)
    if code is None:
        return None
    if code.co_argcount or code.co_posonlyargcount:
        return inspect.Parameter.POSITIONAL_OR_KEYWORD
    if code.co_flags & inspect.CO_VARARGS:
        return inspect.Parameter.VAR_POSITIONAL
    return None


def _expects_receiver(func: Any) -> bool:
    """Whether ``func`` was written to receive ``self``/``cls`` first (a method's code)."""
    if _first_kind(func) is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
        return False
    first = func.__code__.co_varnames[0]
    qualname = getattr(func, "__qualname__", "")
    parts = qualname.split(".") if isinstance(qualname, str) else []
    if first in _RECEIVERS:
        return True
    if len(parts) < 2 or parts[-2] == "<locals>":
        return False  # a module-level or nested function
    owner = _qualname_owner(func)
    found = inspect.getattr_static(owner, parts[-1], None) if owner is not None else None
    return not isinstance(found, staticmethod)


def _unsupported_descriptor(name: str, descriptor: Any) -> SchemaConstructionError:
    kind = type(descriptor).__name__
    if isinstance(descriptor, functools.singledispatchmethod):
        why = "dispatches on the type of its first argument, so it has no one signature"
    else:
        why = f"is a {kind} descriptor, so its parameters cannot be known before it is called"
    return SchemaConstructionError(
        f"the __call__ of {name} {why}",
        hint="define __call__ as a plain method or a staticmethod, or pass a function that "
        "calls the object with the parameters the model should send",
    )


def _own_signature(obj: Any) -> bool:
    """Whether ``inspect.signature(obj)`` would use ``obj.__signature__`` (read as it does).

    A pydantic model keeps a class-only ``__signature__`` (its fields) that raises
    ``AttributeError`` on an instance: a callable model is described by its ``__call__``.
    """
    try:
        return obj.__signature__ is not None
    except AttributeError:
        return False
    except Exception:  # a raising property: inspect.signature reports it
        return True


def _has_static(obj: Any, attribute: str) -> bool:
    """Whether ``obj`` has ``attribute`` without running a property or ``__getattr__``."""
    try:
        return inspect.getattr_static(obj, attribute, _MISSING) is not _MISSING
    except Exception:  # a hostile __dict__ or __mro__: treat as absent
        return False


# Any: any object may carry a docstring (inspect.getdoc is typed with Any too).
def read_doc(obj: Any, *, inherit: bool = True) -> str | None:
    """The cleaned docstring of ``obj``; user code raising while it is read becomes ours.

    ``inherit=False`` reads ``obj.__doc__`` only: ``inspect.getdoc`` would give an
    undocumented ``__call__`` the docstring of ``type.__call__`` ("Call self as a function.").
    """
    try:
        if inherit:
            doc = inspect.getdoc(obj)
        else:
            raw = getattr(obj, "__doc__", None)
            doc = inspect.cleandoc(raw) if isinstance(raw, str) else None
    except Exception as exc:  # a __doc__ property may raise anything
        raise SchemaConstructionError(
            f"reading the docstring of {_label(obj)} raised {type(exc).__name__}: {exc}",
            hint="make __doc__ a plain string, or pass use_docstring_info=False",
        ) from exc
    return doc if isinstance(doc, str) and doc.strip() else None


def _label(obj: Any) -> str:
    try:
        label = getattr(obj, "__qualname__", None)
    except Exception:  # a hostile attribute: fall back to the type's name
        label = None
    return label if isinstance(label, str) else type(obj).__name__


def _namespace_of_class(owner: type) -> dict[str, Any]:
    """The class body's names, plus the class itself (for a nested type or ``Self``)."""
    namespace = dict(vars(owner))
    namespace.setdefault(owner.__name__, owner)
    return namespace


def _class_namespace(cls: type, function: Any) -> dict[str, Any] | None:
    """The body of the class in ``cls``'s MRO that defines ``function``."""
    target = getattr(function, "__name__", None)
    for klass in cls.__mro__:
        found = vars(klass).get(target) if isinstance(target, str) else None
        if found is function or getattr(found, "__func__", None) is function:
            return _namespace_of_class(klass)
    return None


def _qualname_owner(func: Any) -> type | None:
    """The class whose body defined ``func``, found from its module by qualified name."""
    qualname = getattr(func, "__qualname__", "")
    parts = qualname.split(".") if isinstance(qualname, str) else []
    if len(parts) < 2 or "<locals>" in parts:
        return None
    value: Any = sys.modules.get(getattr(func, "__module__", None) or "")
    try:
        for part in parts[:-1]:
            value = getattr(value, part, None) if value is not None else None
    except Exception:  # a module __getattr__ or a metaclass property may raise anything
        return None
    return value if inspect.isclass(value) else None


def _qualname_namespace(func: Any) -> dict[str, Any] | None:
    owner = _qualname_owner(func)
    return _namespace_of_class(owner) if owner is not None else None


def _refuse_unbound_method(func: Callable[..., Any]) -> None:
    """Refuse a function read from a class whose first parameter is ``self`` or ``cls``."""
    qualname = getattr(func, "__qualname__", "")
    parts = qualname.split(".") if isinstance(qualname, str) else []
    if len(parts) < 2 or parts[-2] == "<locals>":
        return  # a module-level or nested function, not a class attribute
    try:
        first = next(iter(inspect.signature(func).parameters.values()), None)
    except Exception:  # inspect_callable reports an uninspectable signature itself
        return
    if (
        first is None
        or first.name not in _RECEIVERS
        or first.kind
        not in (
            inspect.Parameter.POSITIONAL_ONLY,
            inspect.Parameter.POSITIONAL_OR_KEYWORD,
        )
    ):
        return
    owner = _qualname_owner(func)
    if owner is not None and isinstance(
        inspect.getattr_static(owner, func.__name__, None), staticmethod
    ):
        return  # a staticmethod whose first parameter happens to be called self
    cls_name = ".".join(parts[:-1])
    bound = f"{cls_name}().{parts[-1]}" if first.name == "self" else f"{cls_name}.{parts[-1]}"
    raise SchemaConstructionError(
        f"{qualname} is a method read from its class, so {first.name!r} would be sent to the "
        "model as an argument",
        parameter=first.name,
        hint=f"pass the bound method ({bound}), or make it a @staticmethod"
        + (" or @classmethod" if first.name == "cls" else ""),
    )


__all__ = ["CallShape", "read_doc", "resolve_shape"]


# -- LangChain BaseTool: what LangChain sends, not the pydantic model it is -------------------


@dataclass(frozen=True)
class SentDefinition:
    """A tool as its framework sends it: the name, description and parameters schema."""

    name: str
    description: str | None
    parameters: dict[str, Any]


def _is_base_tool(cls: type) -> bool:
    return cls.__name__ == "BaseTool" and cls.__module__.startswith("langchain_core.tools")


def is_langchain_tool_class(value: object) -> bool:
    """Whether ``value`` is a subclass of LangChain's ``BaseTool`` (not ``BaseTool`` itself,
    nor a class LangChain defines), told by its bases' names so LangChain is never imported."""
    if not isinstance(value, type) or value.__module__.startswith("langchain_core."):
        return False
    return any(_is_base_tool(base) for base in value.__mro__[1:])


def is_langchain_tool(value: object) -> bool:
    """Whether ``value`` is a LangChain tool: a ``BaseTool`` instance (``@tool``, a
    ``StructuredTool``, an instance of a subclass) or a subclass of ``BaseTool``."""
    if isinstance(value, type):
        return is_langchain_tool_class(value)
    return any(_is_base_tool(cls) for cls in type(value).__mro__)


def langchain_definition(obj: object) -> SentDefinition | None:
    """What ``bind_tools`` sends for a LangChain tool: ``convert_to_openai_tool``'s function
    (for a ``BaseTool`` subclass with an ``args_schema``, that schema's fields, not the
    pydantic fields of ``BaseTool`` itself). ``None`` when ``obj`` is no LangChain tool.

    A subclass is read from its defaults (``name``, ``description``, ``args_schema``):
    ``model_construct`` builds the instance pydantic would, its ``__init__`` and validators
    never run. The one rule for ``report()``, the explorer, ``%toolschema`` and every
    toolset reader.

    Raises:
        TargetError: a subclass without a default ``name``, or whose ``name`` is no string.
    """
    if not is_langchain_tool(obj):
        return None
    import warnings

    from langchain_core.utils.function_calling import convert_to_openai_tool

    tool: Any = obj
    if isinstance(obj, type):
        try:
            tool = obj.model_construct()  # type: ignore[attr-defined]
            name = tool.name
        except AttributeError:
            raise TargetError(
                f"LangChain tool class {obj.__name__} has no default name",
                hint="give it `name: str = ...`, or name an instance of it (MODULE:ATTR)",
            ) from None
        if not isinstance(name, str):
            raise TargetError(f"{obj.__name__}.name is not a string", hint="give it a str name")
    with warnings.catch_warnings():  # pydantic warns on a class default it cannot dump
        warnings.simplefilter("ignore")
        function = convert_to_openai_tool(tool)["function"]
    parameters = function.get("parameters", {"type": "object", "properties": {}})
    return SentDefinition(function["name"], function.get("description"), dict(parameters))
