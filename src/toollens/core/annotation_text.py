"""One spelling for an annotation, whatever the Python version: ``dict[str, int] | None``.

``repr`` of a type is not stable across the supported interpreters: Python 3.10's
``get_type_hints`` turns ``x: T | None = None`` into ``typing.Optional[T]``, ``typing.List[int]``
prints as ``typing.List[int]`` and a nested class carries its module path. Every view (the
Signature and Metadata tables, the text report, the golden files) shows the text made here, so
an author sees the same annotation on every version: PEP 604 unions, builtin generics, classes
by their qualified name without the module.
"""

from __future__ import annotations

import types
import typing
from typing import Annotated, Any, Literal, get_args, get_origin

__all__ = ["annotation_text"]

_UNION_ORIGINS = (typing.Union, types.UnionType)


def annotation_text(tp: object) -> str:
    """How toollens writes an annotation: ``int``, ``list[str]``, ``Literal['c'] | None``.

    Unions (``Optional``, ``Union``, ``|``) become ``A | B``; ``typing.List[int]`` becomes
    ``list[int]``; classes show their ``__qualname__``; anything else falls back to its
    ``repr`` without the ``typing.`` prefix.
    """
    origin = get_origin(tp)
    if origin is not None:
        return _generic_text(tp, origin, get_args(tp))
    if tp is Any:
        return "Any"
    if tp is None or tp is type(None):
        return "None"
    if tp is Ellipsis:
        return "..."
    if isinstance(tp, str):
        return tp
    if isinstance(tp, typing.ForwardRef):
        return tp.__forward_arg__
    if isinstance(tp, list):  # the parameter list of ``Callable[[int, str], bool]``
        return "[" + ", ".join(annotation_text(arg) for arg in tp) + "]"
    if isinstance(tp, type):
        return _class_name(tp)
    return repr(tp).replace("typing.", "")


def _generic_text(tp: Any, origin: Any, args: tuple[Any, ...]) -> str:
    if origin in _UNION_ORIGINS:
        return " | ".join(annotation_text(arg) for arg in args)
    if origin is Literal:
        return "Literal[" + ", ".join(repr(arg) for arg in args) + "]"
    if origin is Annotated:
        extras = "".join(", " + repr(meta) for meta in args[1:])
        return f"Annotated[{annotation_text(args[0])}{extras}]"
    name = _origin_name(origin)
    if origin is tuple and (args in ((), ((),))) and tp is not tuple:
        return f"{name}[()]"  # ``tuple[()]``: Python 3.10 keeps an inner () in the args
    if not args:
        return name
    return f"{name}[{', '.join(annotation_text(arg) for arg in args)}]"


def _origin_name(origin: Any) -> str:
    if isinstance(origin, type):
        return _class_name(origin)
    # typing's special forms (ClassVar, Final, Required...) know their bare name
    name = getattr(origin, "_name", None) or getattr(origin, "__name__", None)
    return str(name) if name else repr(origin).replace("typing.", "")


def _class_name(cls: type) -> str:
    return cls.__name__ if cls.__module__ == "builtins" else cls.__qualname__
