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


def check_concrete_hints(func: object, hints: Iterable[tuple[str, object]], name: str) -> None:
    """Refuse ``Self``, and the type variables of a callable object's class, in ``hints``.

    ``hints``: ``(parameter name or "return", resolved annotation)`` pairs. A generic function
    or method keeps its own type variables (pydantic reads an unbound one as "any value", as
    the reference does); only those of the instance's class are refused.

    Raises:
        SchemaConstructionError: naming the first parameter whose annotation is not concrete.
    """
    class_variables = _class_type_variables(func)
    for parameter, hint in hints:
        found = _first_abstract(hint, class_variables, depth=0)
        if found is None:
            continue
        if id(found) in _SELF:
            why = "Self, the tool's own class, which pydantic would read as the arguments model"
        else:
            why = (
                f"the type variable {found!r} of a generic class; {name} is called through an "
                "instance, which does not say which type it stands for"
            )
        raise SchemaConstructionError(
            f"is annotated with {why}",
            parameter=parameter,
            hint=WRAPPER_HINT + " (with concrete types)",
        )


def _class_type_variables(func: Any) -> frozenset[int]:
    """The ids of the type parameters of the class a callable object or bound method uses."""
    if isinstance(func, types.MethodType):
        receiver = func.__self__
        owner = receiver if inspect.isclass(receiver) else type(receiver)
    elif inspect.isroutine(func) or inspect.isclass(func) or isinstance(func, functools.partial):
        return frozenset()
    else:
        owner = type(func)
    found: set[int] = set()
    for klass in getattr(owner, "__mro__", ()):
        for name in ("__parameters__", "__type_params__"):
            params = vars(klass).get(name, ())
            found.update(id(p) for p in params if isinstance(p, (TypeVar, ParamSpec)))
    return frozenset(found)


def _first_abstract(hint: Any, class_variables: frozenset[int], depth: int) -> Any:
    if depth > 30:
        return None
    if id(hint) in _SELF or id(hint) in class_variables:
        return hint
    try:
        args = get_args(hint)
    except Exception:  # an exotic annotation object: nothing to look into
        return None
    for arg in args if isinstance(args, tuple) else ():
        found = _first_abstract(arg, class_variables, depth + 1)
        if found is not None:
            return found
    return None


__all__ = ["check_concrete_hints"]
