"""A function's resolved annotations, remembered one by one from one live edit to the next.

Every live edit runs the edited ``def`` again, and resolving its string annotations (``from
__future__ import annotations``) compiles and evaluates each one: for a tool with hundreds
of parameters that is a tenth of an edit, redone although the author changed one docstring
line or one parameter. Each annotation's resolved hint is kept with its text and the
objects every name in it (and every dotted attribute chain, ``models.Order``) is bound to
where the evaluation looks (the class namespace, the module, builtins); the next edit
reuses it only when the text is the same and every one of those names is bound to the very
same object, and resolves the others (on Python 3.10, which makes a hint ``Optional`` when
the default is ``None``, any change resolves the whole function).

Only a plain function whose annotations are all strings is remembered, and only when each
name binds to a value whose evaluation reads nothing else: classes (constructing one is
taken to be pure), modules, enum members, immutable scalars, the forms of ``typing`` /
``typing_extensions`` and the functions of pydantic, ``typing`` and ``annotated_types``
(``Field(...)``). A name bound to anything else (a list, a user function, an instance)
makes the function resolve afresh every time. The entries are those of the last two
generations of renders (``toollens.core.memo.Generations``); an entry keeps its bound
objects alive, so an
``id`` in a key cannot be reused meanwhile.
"""

from __future__ import annotations

import builtins
import enum
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from toollens.core import memo

__all__ = ["resolve_type_hints"]

_H = TypeVar("_H")
_SIZE = 4096  # annotations: a few renders of the biggest tools
_NAME = re.compile(r"[A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*")
_MISSING = object()
_SCALARS = (str, int, float, complex, bool, bytes, type(None), range)
_PURE_MODULES = ("pydantic", "typing", "typing_extensions", "annotated_types")
_FORM_MODULES = frozenset({"typing", "typing_extensions", "types"})
_PARTIAL = sys.version_info >= (3, 11)  # 3.10's Optional-for-None needs the function

# (text, local namespace given, None default on 3.10, ids of the bound objects)
# -> (the bound objects, the resolved hint)
_Key = tuple[str, bool, bool, tuple[int, ...]]
_entries: memo.Generations[_Key, tuple[tuple[object, ...], Any]] = memo.Generations(_SIZE)


class _Probe:
    """An object carrying some of a function's annotations, resolved as the function's are."""

    def __init__(self, annotations: dict[str, str]) -> None:
        self.__annotations__ = annotations


def resolve_type_hints(
    source: object, localns: dict[str, object] | None, resolve: Callable[[], dict[str, _H]]
) -> dict[str, _H]:
    """``resolve()`` (``get_type_hints`` of ``source`` with ``localns``), each annotation
    taken from the last renders when its text and the objects its names bind to are the
    same."""
    keys = _keys(source, localns) if memo.enabled() else None
    if keys is None:
        return resolve()
    hints: dict[str, _H] = {}
    missing: dict[str, str] = {}
    for name, (key, bound) in keys.items():
        hit = _entries.get(key)
        if hit is not None and all(a is b for a, b in zip(hit[0], bound, strict=True)):
            hints[name] = hit[1]
        else:
            missing[name] = key[0]
    if missing:
        fresh = _resolve_missing(source, localns, missing, resolve)
        for name in missing:
            key, bound = keys[name]
            _entries.put(key, (bound, fresh[name]))
        hints.update(fresh)
    return {name: hints[name] for name in keys}


def _resolve_missing(
    source: Any,
    localns: dict[str, object] | None,
    missing: dict[str, str],
    resolve: Callable[[], dict[str, _H]],
) -> dict[str, _H]:
    if not _PARTIAL or len(missing) == len(source.__annotations__):
        return resolve()
    probe = _Probe(missing)
    try:
        return typing.get_type_hints(
            probe, globalns=source.__globals__, localns=localns, include_extras=True
        )
    except Exception:  # the function's own resolution reports it, as without the cache
        return resolve()


def clear() -> None:
    """Forget every entry (tests)."""
    _entries.cache_clear()


def _keys(
    source: object, localns: Mapping[str, object] | None
) -> dict[str, tuple[_Key, tuple[object, ...]]] | None:
    """Each annotation's ``(key, bound objects)``, or ``None`` when the function's
    annotations cannot be remembered safely."""
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
    nones = frozenset(_none_defaults(source)) if not _PARTIAL else frozenset()
    keys = {}
    chains: dict[tuple[str, ...], list[object] | None] = {}  # the same names recur
    for name, text in annotations.items():
        bound: list[object] = []
        for dotted in _names(text):
            chain = (
                chains[dotted]
                if dotted in chains
                else chains.setdefault(dotted, _bind(dotted, spaces))
            )
            if chain is None:
                return None
            bound.extend(chain)
        key = (text, localns is None, name in nones, tuple(map(id, bound)))
        keys[name] = (key, tuple(bound))
    return keys


@memo.edit_cache(_SIZE)
def _names(text: str) -> tuple[tuple[str, ...], ...]:
    """The (dotted) names an annotation text mentions, each split at its dots."""
    return tuple(
        tuple(part.strip() for part in match.group().split(".")) for match in _NAME.finditer(text)
    )


def _namespaces(globalns: dict[str, Any], localns: Mapping[str, Any] | None) -> tuple[Any, ...]:
    # eval looks a name up in the locals, then the globals, then the globals' builtins
    found = globalns.get("__builtins__", builtins)
    builtin = vars(found) if isinstance(found, types.ModuleType) else found
    return (localns or {}, globalns, builtin if isinstance(builtin, Mapping) else {})


def _bind(dotted: tuple[str, ...], spaces: tuple[Any, ...]) -> list[object] | None:
    """The objects a (dotted) name binds to, or ``None`` when one is not safe to trust."""
    head, *attrs = dotted
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
