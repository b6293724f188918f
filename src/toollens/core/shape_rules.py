"""Annotations no schema can honour on a method: the class's type parameters and ``Self``.

A callable object or bound method of a generic class (``Handler[int]()``) is annotated with
the class's type variables, and the instance does not say which type they stand for: pydantic
would turn ``value: T`` into "any value" although the author meant ``int``. ``Self`` names the
tool's own class, which pydantic resolves to the *arguments model*: a schema that recurses into
itself. Both are refused with how to write an explicit wrapper.
"""

from __future__ import annotations

import functools
import inspect
import types
import typing
from collections.abc import Iterable
from typing import Any, ParamSpec, TypeVar, get_args

import typing_extensions

from toollens.core.binding import WRAPPER_HINT
from toollens.core.errors import SchemaConstructionError

_SELF = {id(typing_extensions.Self), id(getattr(typing, "Self", typing_extensions.Self))}


def check_concrete_hints(func: Any, hints: Iterable[tuple[str, Any]], name: str) -> None:
    """Refuse ``Self``, and a method's or callable object's type variables, in ``hints``.

    ``hints``: ``(parameter name or "return", resolved annotation)`` pairs. A plain generic
    function keeps its type variables (pydantic reads an unbound one as "any value", as the
    reference does).

    Raises:
        SchemaConstructionError: naming the first parameter whose annotation is not concrete.
    """
    method = isinstance(func, types.MethodType) or not (
        inspect.isroutine(func) or inspect.isclass(func) or isinstance(func, functools.partial)
    )
    for parameter, hint in hints:
        found = _first_abstract(hint, method, depth=0)
        if found is None:
            continue
        if id(found) in _SELF:
            why = "Self, the tool's own class, which pydantic would read as the arguments model"
        else:
            why = (
                f"the type variable {found!r} of a generic class; the instance {name} does not "
                "say which type it stands for"
            )
        raise SchemaConstructionError(
            f"is annotated with {why}",
            parameter=parameter,
            hint=WRAPPER_HINT + " (with concrete types)",
        )


def _first_abstract(hint: Any, method: bool, depth: int) -> Any:
    if depth > 30:
        return None
    if id(hint) in _SELF:
        return hint
    if method and isinstance(hint, (TypeVar, ParamSpec)):
        return hint
    try:
        args = get_args(hint)
    except Exception:  # an exotic annotation object: nothing to look into
        return None
    for arg in args if isinstance(args, tuple) else ():
        found = _first_abstract(arg, method, depth + 1)
        if found is not None:
            return found
    return None


__all__ = ["check_concrete_hints"]
