"""Which kind of target an object is: a callable, a pydantic model class, an output type
(``list[int]``, ``Literal[...]``, a TypedDict, an enum, a builtin type) or a JSON Schema.
"""

from __future__ import annotations

import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, TypeVar, get_origin

from pydantic import BaseModel
from typing_extensions import is_typeddict

from toollens.core.errors import TargetError
from toollens.core.schema.toolkit import shorten

__all__ = ["TargetKind", "target_kind"]

TargetKind = Literal["callable", "model", "output-type", "json-schema"]


def target_kind(target: object) -> TargetKind:
    """Which kind of target ``target`` is; raises ``TargetError`` when it is none."""
    if isinstance(target, (Mapping, str, bytes, bytearray)):
        return "json-schema"
    if isinstance(target, type) and issubclass(target, BaseModel):
        return "model"
    if _is_output_type(target):
        return "output-type"
    if callable(target):
        return "callable"
    raise TargetError(
        f"{type(target).__name__} object {_short(target)} is not a callable, model, type or "
        "JSON schema",
        hint="pass a function, a pydantic model class, a type such as list[int], or a dict",
    )


def _is_output_type(target: Any) -> bool:
    # Generic aliases (list[int], Literal[...]) are callable objects, so types are checked
    # before callables. Classes are callables (their constructor) except the ones that only
    # make sense as a shape of data.
    if target is None or target is Any or target is type(None):
        return True
    if get_origin(target) is not None or isinstance(target, (TypeVar, types.UnionType)):
        return True
    if isinstance(target, typing.NewType):
        return True
    if isinstance(target, type):
        return (
            target.__module__ == "builtins" or is_typeddict(target) or issubclass(target, enum.Enum)
        )
    return False


def _short(value: Any) -> str:
    return shorten(repr(value) if not isinstance(value, type) else value.__qualname__)
