"""Short, readable text for types, values and signatures, shared by the HTML and text views."""

from __future__ import annotations

import inspect
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toollens.core.annotation_text import annotation_text
from toollens.core.metadata import MISSING, ParameterMetadata
from toollens.core.signature import ParameterKind
from toollens.render.markup import safe_repr

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema
__all__ = [
    "default_text",
    "enum_value",
    "kind_short",
    "plural",
    "short_type",
    "signature_line",
    "type_text",
]

# A quoted string (kept as is: Literal values may contain dots) or a dotted name.
_DOTTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\b(?:[A-Za-z_]\w*\.)+([A-Za-z_]\w*)")


def enum_value(enum_or_str: object) -> str:
    """``StrictRule.CLOSE_OBJECT`` -> ``"close-object"``; plain strings pass through."""
    return str(getattr(enum_or_str, "value", enum_or_str))


def plural(n: int, word: str, many: str | None = None) -> str:
    """``plural(1, "warning")`` -> ``"1 warning"``; ``plural(2, "warning")`` -> ``"2 warnings"``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


# Short enough for a narrow table column; the full kind goes in a tooltip.
_KIND_SHORT = {
    ParameterKind.POSITIONAL_ONLY: "pos-only",
    ParameterKind.POSITIONAL_OR_KEYWORD: "pos/kw",
    ParameterKind.VAR_POSITIONAL: "*args",
    ParameterKind.KEYWORD_ONLY: "kw-only",
    ParameterKind.VAR_KEYWORD: "**kwargs",
}


def kind_short(kind: ParameterKind) -> str:
    """``positional-or-keyword`` -> ``pos/kw``: a parameter kind in a few characters."""
    return _KIND_SHORT.get(kind, kind.label)


def short_type(text: str) -> str:
    """Drop module paths from a type's text: ``pkg.mod.Foo[pkg.Bar]`` -> ``Foo[Bar]``."""
    return _DOTTED.sub(lambda m: m.group(1) or m.group(0), text)


def type_text(tp: object) -> str:
    """A type as people write it, without module paths; never raises."""
    if tp is inspect.Signature.empty:
        return "(not annotated)"
    try:
        return short_type(annotation_text(tp))
    except Exception:  # exotic annotation objects: a safe repr is better than no view
        return safe_repr(tp, limit=80)


def default_text(meta: ParameterMetadata, inspected_default: object, *, limit: int = 60) -> str:
    """What a parameter defaults to; ``Field(...)`` defaults show the value they resolve to."""
    if meta.is_context:
        return "injected"
    value = "required" if meta.default is MISSING else safe_repr(meta.default, limit=limit)
    if _is_field_info(inspected_default):
        return f"{value} (= Field(…))"
    return value


def _is_field_info(value: object) -> bool:
    return type(value).__name__ == "FieldInfo"


def signature_line(fs: FunctionSchema, types: Sequence[str] | None = None) -> str:
    """``def name(a: int, /, b: str = 'x', *args: int, c: bool, **kw: str) -> T``.

    Built from the resolved annotations (``Annotated`` stripped) rather than
    ``str(inspect.signature(...))``, which shows string annotations verbatim. ``types``:
    each parameter's ``type_text``, when the caller has them already.
    """
    info = fs.callable_info
    inspected = {p.name: p for p in info.parameters}
    parts: list[str] = []
    saw_positional_only = False
    star_done = False
    for index, meta in enumerate(fs.parameters):
        kind = meta.kind
        if saw_positional_only and kind is not ParameterKind.POSITIONAL_ONLY:
            parts.append("/")
            saw_positional_only = False
        if kind is ParameterKind.KEYWORD_ONLY and not star_done:
            parts.append("*")
            star_done = True
        stars = {ParameterKind.VAR_POSITIONAL: "*", ParameterKind.VAR_KEYWORD: "**"}.get(kind, "")
        if kind is ParameterKind.VAR_POSITIONAL:
            star_done = True
        param = inspected.get(meta.name)
        annotated = param is not None and param.annotated
        text = stars + meta.name
        if annotated:
            text += ": " + (types[index] if types is not None else type_text(meta.annotation))
        if param is not None and param.default is not inspect.Parameter.empty and not stars:
            default = (
                "Field(…)" if _is_field_info(param.default) else safe_repr(param.default, limit=40)
            )
            text += (" = " if annotated else "=") + default
        parts.append(text)
        saw_positional_only = kind is ParameterKind.POSITIONAL_ONLY
    if saw_positional_only:
        parts.append("/")
    prefix = "async def " if info.is_async else "def "
    returns = ""
    if info.return_hint is not inspect.Signature.empty:
        returns = " -> " + type_text(info.return_hint)
    return f"{prefix}{info.name}({', '.join(parts)}){returns}"
