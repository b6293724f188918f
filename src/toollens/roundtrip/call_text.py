"""The Python call a model's arguments become, as text: ``get_weather(city='Oslo', days=3)``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from toollens.core.signature import ParameterKind

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema

_VALUE_LIMIT = 160  # characters of one value's repr; reprlib is not used: it sorts dict keys

_NAMED = (ParameterKind.POSITIONAL_OR_KEYWORD,)


def call_text(
    fs: FunctionSchema, args: Sequence[object], kwargs: Mapping[str, object], *, context: bool
) -> str:
    """``name(arg, name=value, ...)`` for ``func(*args, **kwargs)``.

    Positional-or-keyword arguments are shown by name, as a reader would write the call,
    unless ``*args`` values follow them (then Python needs them positional). ``context``:
    ``args`` starts with the run context.
    """
    positional = [
        p
        for p in fs.parameters
        if p.kind in (ParameterKind.POSITIONAL_ONLY, ParameterKind.POSITIONAL_OR_KEYWORD)
        and (context or not p.is_context)
    ]
    extra_positional = len(args) > len(positional)
    parts: list[str] = []
    for index, value in enumerate(args):
        param = positional[index] if index < len(positional) else None
        if param is not None and param.kind in _NAMED and not extra_positional:
            parts.append(f"{param.name}={show_value(value)}")
        else:
            parts.append(show_value(value))
    parts.extend(f"{key}={show_value(value)}" for key, value in kwargs.items())
    return f"{fs.callable_info.name}({', '.join(parts)})"


def show_value(value: object) -> str:
    """A Python repr, cut short (``...``) past a limit."""
    text = repr(value)
    return text if len(text) <= _VALUE_LIMIT else text[: _VALUE_LIMIT - 3] + "..."
