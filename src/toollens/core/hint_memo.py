"""A function's resolved annotations, remembered from one live edit to the next.

Every live edit runs the edited ``def`` again, and resolving its string annotations (``from
__future__ import annotations``) compiles and evaluates each one: for a tool with hundreds
of parameters that is a tenth of an edit, redone although the author changed a docstring.
The answer of ``typing.get_type_hints`` is kept for the annotation texts, together with the
objects every name in them (and every dotted attribute chain, ``models.Order``) is bound to
where the evaluation looks (the class namespace, the module, builtins); the next edit gets
it only when the texts are the same and every one of those names is bound to the very same
object.

Only a plain function whose annotations are all strings is remembered, and only when each
name binds to a value whose evaluation cannot read hidden state: classes, modules, enum
members, immutable scalars, the forms of ``typing`` / ``typing_extensions`` and the
functions of pydantic, ``typing`` and ``annotated_types`` (``Field(...)``). A name bound to
anything else (a list, a user function, an instance) resolves afresh every time. The cache
holds a few entries (one tool being edited, and a second open explorer), and holding an
entry keeps the bound objects alive, so an ``id`` in the key cannot be reused meanwhile.
"""

from __future__ import annotations

import builtins
import enum
import re
import threading
import types
import typing
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from toollens.core import memo

__all__ = ["resolve_type_hints"]

_SIZE = 8
_NAME = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")
_MISSING = object()
_SCALARS = (str, int, float, complex, bool, bytes, type(None), range)
_PURE_MODULES = ("pydantic", "typing", "typing_extensions", "annotated_types")
_FORM_MODULES = frozenset({"typing", "typing_extensions", "types"})

_lock = threading.Lock()
_entries: OrderedDict[tuple[object, ...], tuple[tuple[object, ...], dict[str, Any]]] = OrderedDict()


def resolve_type_hints(
    source: Any, localns: dict[str, Any] | None, resolve: Callable[[], dict[str, Any]]
) -> dict[str, Any]:
    """``resolve()`` (``get_type_hints`` of ``source`` with ``localns``), or the answer it
    gave for the same annotation texts bound to the same objects."""
    key = _key(source, localns) if memo.enabled() else None
    if key is None:
        return resolve()
    ids, bound = key
    with _lock:
        hit = _entries.get(ids)
        if hit is not None and all(a is b for a, b in zip(hit[0], bound, strict=True)):
            _entries.move_to_end(ids)
            return dict(hit[1])
    hints = resolve()
    with _lock:
        _entries[ids] = (bound, dict(hints))
        while len(_entries) > _SIZE:
            _entries.popitem(last=False)
    return hints


def clear() -> None:
    """Forget every entry (tests)."""
    with _lock:
        _entries.clear()


def _key(
    source: Any, localns: Mapping[str, Any] | None
) -> tuple[tuple[object, ...], tuple[object, ...]] | None:
    """``(hashable key, bound objects)`` for ``source``'s annotations, or ``None`` when
    they cannot be remembered safely."""
    if type(source) is not types.FunctionType or "__wrapped__" in source.__dict__:
        return None
    if getattr(source, "__type_params__", ()):  # PEP 695 parameters join the namespace
        return None
    annotations = source.__annotations__  # a function always has its dict
    if not isinstance(annotations, dict) or not all(
        isinstance(v, str) for v in annotations.values()
    ):
        return None
    spaces = _namespaces(source.__globals__, localns)
    bound: list[object] = []
    for text in annotations.values():
        for match in _NAME.finditer(text):
            chain = _bind(match.group(), spaces)
            if chain is None:
                return None
            bound.extend(chain)
    items = tuple(annotations.items())
    ids = (items, _none_defaults(source), localns is None, tuple(map(id, bound)))
    return ids, tuple(bound)


def _namespaces(globalns: dict[str, Any], localns: Mapping[str, Any] | None) -> tuple[Any, ...]:
    # eval looks a name up in the locals, then the globals, then the globals' builtins
    found = globalns.get("__builtins__", builtins)
    builtin = vars(found) if isinstance(found, types.ModuleType) else found
    return (localns or {}, globalns, builtin if isinstance(builtin, Mapping) else {})


def _bind(dotted: str, spaces: tuple[Any, ...]) -> list[object] | None:
    """The objects a (dotted) name binds to, or ``None`` when one is not safe to trust."""
    head, *attrs = (part.strip() for part in dotted.split("."))
    value = next((space[head] for space in spaces if head in space), _MISSING)
    if value is _MISSING:  # a keyword argument, a word in a Literal string: binds nothing
        return [value]
    chain = [value]
    for attr in attrs:
        if not _trusted(value):
            return None
        try:
            value = getattr(value, attr)
        except Exception:  # the evaluation will raise too, and report it
            return None
        chain.append(value)
    return chain if _trusted(value) else None


def _trusted(value: object) -> bool:
    """Whether evaluating an annotation that names ``value`` reads nothing else."""
    if isinstance(value, (type, types.ModuleType, enum.Enum, *_SCALARS)):
        return True
    if isinstance(value, (typing.TypeVar, types.GenericAlias, types.UnionType)):
        return True
    if type(value).__module__ in _FORM_MODULES:  # typing's special forms and aliases
        return True
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType)):
        module = getattr(value, "__module__", None) or ""
        return module.split(".")[0] in _PURE_MODULES
    return False


def _none_defaults(func: types.FunctionType) -> tuple[str, ...]:
    """Parameters defaulting to ``None`` (Python 3.10 makes their hints ``Optional``)."""
    code = func.__code__
    positional = code.co_varnames[: code.co_argcount]
    defaults = func.__defaults__ or ()
    named = list(zip(positional[len(positional) - len(defaults) :], defaults, strict=True))
    named += list((func.__kwdefaults__ or {}).items())
    return tuple(name for name, value in named if value is None)
