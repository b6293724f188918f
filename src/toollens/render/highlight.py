"""Pretty-printed, syntax-highlighted JSON whose lines know which JSON pointer they show.

:func:`pretty_json` prints like ``json.dumps(value, indent=2)`` (keys in their original order)
and records, for every node, the line it starts on. :func:`highlight_json` runs pygments over
that text and wraps each line in a ``tl-line`` span, so a rewrite at ``/properties/filters``
can be marked on exactly the line that shows ``"filters": {``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import JsonLexer

from toollens.core.records import join_pointer
from toollens.render.markup import Markup, h, safe_repr, tag

__all__ = ["TOKEN_CLASS_PREFIX", "LineMark", "highlight_json", "line_for", "pretty_json"]

TOKEN_CLASS_PREFIX = "tl-tok-"


@dataclass(frozen=True)
class LineMark:
    """How to mark one line: a CSS class and the reasons shown in its tooltip."""

    css_class: str
    reasons: tuple[str, ...]


def _dump_scalar(value: Any, ensure_ascii: bool) -> str:
    try:
        return json.dumps(value, ensure_ascii=ensure_ascii)
    except (TypeError, ValueError):  # not JSON: show its repr as a string, never crash a view
        return json.dumps(safe_repr(value), ensure_ascii=ensure_ascii)


def _key_text(key: Any) -> str:
    # json.dumps turns non-string keys into strings the same way; other keys (tuples,
    # objects) cannot be JSON at all, so show their repr rather than fail the view.
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)
    return safe_repr(key)


def pretty_json(value: Any, *, ensure_ascii: bool = False) -> tuple[str, dict[str, int]]:
    """Print ``value`` as ``json.dumps(value, indent=2)`` does and map pointers to lines.

    Returns:
        The text (no trailing newline) and ``{json_pointer: zero-based line}`` for every
        node, the document itself being ``""``.
    """
    lines: list[str] = []
    line_of: dict[str, int] = {}

    def emit(node: Any, pointer: str, depth: int, prefix: str, suffix: str) -> None:
        line_of.setdefault(pointer, len(lines))
        pad = "  " * depth
        if isinstance(node, Mapping) and node:
            lines.append(f"{pad}{prefix}{{")
            items = list(node.items())
            for index, (key, child) in enumerate(items):
                name = _key_text(key)
                emit(
                    child,
                    join_pointer(pointer, name),
                    depth + 1,
                    json.dumps(name, ensure_ascii=ensure_ascii) + ": ",
                    "," if index < len(items) - 1 else "",
                )
            lines.append(f"{pad}}}{suffix}")
        elif isinstance(node, (list, tuple)) and node:
            lines.append(f"{pad}{prefix}[")
            for index, child in enumerate(node):
                emit(
                    child,
                    join_pointer(pointer, index),
                    depth + 1,
                    "",
                    "," if index < len(node) - 1 else "",
                )
            lines.append(f"{pad}]{suffix}")
        elif isinstance(node, Mapping):
            lines.append(f"{pad}{prefix}{{}}{suffix}")
        elif isinstance(node, (list, tuple)):
            lines.append(f"{pad}{prefix}[]{suffix}")
        else:
            lines.append(f"{pad}{prefix}{_dump_scalar(node, ensure_ascii)}{suffix}")

    emit(value, "", 0, "", "")
    return "\n".join(lines), line_of


def line_for(pointer: str, line_of: Mapping[str, int]) -> int | None:
    """The line showing ``pointer``, or its nearest shown ancestor (a removed key)."""
    while True:
        if pointer in line_of:
            return line_of[pointer]
        if not pointer:
            return None
        pointer = pointer.rsplit("/", 1)[0]


# Pygments costs about a millisecond a line; past this many lines (a schema with thousands
# of properties) the JSON is shown escaped but uncoloured, so a view still renders in time.
HIGHLIGHT_MAX_LINES = 4000


@functools.lru_cache(maxsize=1)
def _formatter() -> HtmlFormatter:
    # Building one compiles its whole stylesheet (a seventh of a live edit's time); it
    # keeps no state between calls, so one serves every view.
    return HtmlFormatter(nowrap=True, classprefix=TOKEN_CLASS_PREFIX)


def _highlighted_lines(text: str) -> list[str]:
    count = text.count("\n") + 1
    if count > HIGHLIGHT_MAX_LINES:
        return [h(line) for line in text.split("\n")]
    out: str = highlight(text, JsonLexer(), _formatter())
    lines = out.split("\n")[:count]
    if len(lines) != count:  # a lexer surprise must not shift marks: fall back to plain text
        return [h(line) for line in text.split("\n")]
    return lines


def highlight_json(
    value: Any,
    *,
    marks: Mapping[str, LineMark] | None = None,
    css_class: str = "tl-code",
) -> Markup:
    """``<pre>`` of highlighted JSON; lines of pointers in ``marks`` get the mark's class.

    A pointer that is not in the document (a key that was removed) marks its nearest
    ancestor. Several marks on one line merge their reasons.
    """
    text, line_of = pretty_json(value)
    by_line: dict[int, tuple[list[str], list[str]]] = {}
    for pointer, mark in (marks or {}).items():
        line = line_for(pointer, line_of)
        if line is None:
            continue
        classes, reasons = by_line.setdefault(line, ([], []))
        if mark.css_class not in classes:
            classes.append(mark.css_class)
        reasons.extend(r for r in mark.reasons if r not in reasons)
    rows: list[str] = []
    for index, body in enumerate(_highlighted_lines(text)):
        if index not in by_line:  # the common case, built cheaply: body is escaped markup
            rows.append(f'<span class="tl-line">{body}</span>')
            continue
        classes, reasons = by_line[index]
        rows.append(
            tag(
                "span",
                Markup(body),
                class_=" ".join(["tl-line", *classes]),
                title="\n".join(reasons) or None,
            )
        )
    return tag("pre", tag("code", Markup("\n".join(rows))), class_=css_class)
