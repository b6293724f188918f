"""Pretty-printed, syntax-highlighted JSON whose lines know which JSON pointer they show.

:func:`pretty_json` prints like ``json.dumps(value, indent=2)`` (keys in their original order)
and records, for every node, the line it starts on. :func:`highlight_json` shows the same
text highlighted as pygments's JSON lexer would (``render.json_html`` emits those tokens
directly and caches them per subtree), one ``tl-line`` span per line, so a rewrite at
``/properties/filters`` can be marked on exactly the line that shows ``"filters": {``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toollens.core.schema.pointer import join_pointer
from toollens.render.json_html import (
    ROW_CLOSE,
    ROW_OPEN,
    TOKEN_CLASS_PREFIX,
    Rows,
    dump_scalar,
    json_rows,
    key_text,
)
from toollens.render.markup import Markup, h, note, tag

__all__ = ["TOKEN_CLASS_PREFIX", "LineMark", "highlight_json", "line_for", "pretty_json"]


@dataclass(frozen=True)
class LineMark:
    """How to mark one line: a CSS class and the reasons shown in its tooltip."""

    css_class: str
    reasons: tuple[str, ...]


def pretty_json(value: object, *, ensure_ascii: bool = False) -> tuple[str, dict[str, int]]:
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
                name = key_text(key)
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
            lines.append(f"{pad}{prefix}{dump_scalar(node, ensure_ascii)}{suffix}")

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


# Past this many lines (a schema with thousands of properties) the JSON is shown escaped but
# uncoloured, as it always was: colouring would multiply the bytes the front end receives.
HIGHLIGHT_MAX_LINES = 4000
# From this many lines on, each property's and definition's lines are wrapped in one
# ``tl-group`` span, which the explorer lays out and paints only when it is in view.
GROUP_MIN_LINES = 1000
GROUP_OPEN = '<span class="tl-group">'


def _plain_rows(value: Any) -> tuple[list[str], Mapping[str, int]]:
    text, line_of = pretty_json(value)
    return [f"{ROW_OPEN}{h(line)}{ROW_CLOSE}" for line in text.split("\n")], line_of


def _line_in(line_of: Mapping[str, int], pointer: str) -> int | None:
    return line_for(pointer, line_of)


def highlight_json(
    value: object,
    *,
    marks: Mapping[str, LineMark] | None = None,
    css_class: str = "tl-code",
    max_lines: int | None = None,
    highlighted: Rows | None = None,
) -> Markup:
    """``<pre>`` of highlighted JSON; lines of pointers in ``marks`` get the mark's class.

    A pointer that is not in the document (a key that was removed) marks its nearest
    ancestor. Several marks on one line merge their reasons. With ``max_lines``, a longer
    document shows its first ``max_lines`` lines and a note saying how many are left out.
    ``highlighted``: ``json_rows(value)``, when the caller has made it already.
    """
    doc = highlighted if highlighted is not None else json_rows(value)
    rows = list(doc.rows)  # marked and wrapped below; the caller's rows stay as they were
    find: Callable[[str], int | None]
    groups: list[tuple[int, int]] = []
    if len(rows) > HIGHLIGHT_MAX_LINES:
        rows, line_of = _plain_rows(value)
        find = functools.partial(_line_in, line_of)
    else:
        find = doc.line_of
        if len(rows) >= GROUP_MIN_LINES:
            groups = doc.groups()
    by_line: dict[int, tuple[list[str], list[str]]] = {}
    for pointer, mark in (marks or {}).items():
        line = find(pointer)
        if line is None:
            continue
        classes, reasons = by_line.setdefault(line, ([], []))
        if mark.css_class not in classes:
            classes.append(mark.css_class)
        reasons.extend(r for r in mark.reasons if r not in reasons)
    total = len(rows)
    if max_lines is not None and total > max_lines:
        rows = rows[:max_lines]
    for index, (classes, reasons) in by_line.items():
        if index >= len(rows):
            continue
        rows[index] = tag(
            "span",
            Markup(rows[index][len(ROW_OPEN) : -len(ROW_CLOSE)]),
            class_=" ".join(["tl-line", *classes]),
            title="\n".join(reasons) or None,
        )
    for first, end in groups:
        if end > len(rows):
            break
        rows[first] = GROUP_OPEN + rows[first]
        rows[end - 1] = f"{rows[end - 1]}</span>"
    # One string for the whole block (what tag("pre", tag("code", ...)) makes): a schema of
    # hundreds of properties is a megabyte, and every copy of it costs.
    rows[0] = f'<pre class="{h(css_class)}"><code>{rows[0]}'
    rows[-1] = f"{rows[-1]}</code></pre>"
    pre = Markup("\n".join(rows))
    if len(rows) == total:
        return pre
    return Markup(
        pre
        + note(
            f"The first {len(rows):,} of {total:,} lines, to keep live edits quick; "
            "display the explorer's .report to see every line."
        )
    )
