"""Schema diff -> HTML: two schemas side by side with changed lines marked, and the changes
grouped by severity; plus the short "what the last edit changed" list of the explorer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from toollens.core.diff.changes import DiffSeverity
from toollens.render.css import style_tag
from toollens.render.display import enum_value
from toollens.render.highlight import LineMark, highlight_json, pretty_json
from toollens.render.markup import Child, Markup, badge, code, join, note, tag

__all__ = ["render_diff_html", "render_edit_changes"]

_SEVERITY_ORDER = tuple(DiffSeverity)  # worst first
_badge, _code, _note = badge, code, note


def _pointer_candidates(change: Any) -> list[str]:
    pointer = str(change.pointer)
    keyword = getattr(change, "keyword", None)
    out = [f"{pointer}/{keyword}"] if keyword else []
    return [*out, pointer]


def _diff_marks(
    changes: Iterable[Any], present: Mapping[str, int], side: str
) -> dict[str, LineMark]:
    marks: dict[str, LineMark] = {}
    for change in changes:
        pointer = next((p for p in _pointer_candidates(change) if p in present), None)
        if pointer is None:
            continue
        sev = enum_value(change.severity)
        old = marks.get(pointer)
        reasons = (*(old.reasons if old else ()), f"{sev}: {change.message}")
        marks[pointer] = LineMark(f"{side} tl-sev-line-{sev}", reasons)
    return marks


def _keyword(change: Any) -> Child:
    keyword = getattr(change, "keyword", None)
    return join(tag("span", str(keyword), class_="tl-rule"), ": ") if keyword else None


def _grouped_changes(changes: Sequence[Any]) -> Markup:
    groups: dict[DiffSeverity, list[Any]] = {}
    for change in changes:
        groups.setdefault(DiffSeverity(change.severity), []).append(change)
    sections = []
    for sev in _SEVERITY_ORDER:
        items = groups.get(sev)
        if not items:
            continue
        sections.append(tag("h4", _badge(sev.value, f"tl-sev-{sev.value}"), f" {len(items)}"))
        sections.append(
            tag(
                "ul",
                [
                    tag("li", _code(str(c.pointer) or "/"), " ", _keyword(c), c.message)
                    for c in items
                ],
                class_="tl-findings",
            )
        )
    return join(*sections)


def render_diff_html(schema_diff: Any, old_schema: Any, new_schema: Any) -> str:
    """Two schemas side by side, changed lines marked, the changes grouped by severity.

    Self-contained (carries the stylesheet): used by the diff widget and the static output
    of ``%toolschema --diff``.
    """
    changes = list(schema_diff.changes)
    _, old_lines = pretty_json(old_schema)
    _, new_lines = pretty_json(new_schema)
    columns = tag(
        "div",
        tag(
            "div",
            tag("h4", "Before"),
            highlight_json(old_schema, marks=_diff_marks(changes, old_lines, "tl-del")),
            class_="tl-panel",
        ),
        tag(
            "div",
            tag("h4", "After"),
            highlight_json(new_schema, marks=_diff_marks(changes, new_lines, "tl-add")),
            class_="tl-panel",
        ),
        class_="tl-diff",
    )
    counts = dict.fromkeys(_SEVERITY_ORDER, 0)
    for change in changes:
        counts[DiffSeverity(change.severity)] += 1
    summary = (
        ", ".join(f"{n} {sev.value}" for sev, n in counts.items() if n) if changes else "no changes"
    )
    header = tag(
        "div",
        tag("span", "Schema diff", class_="tl-title"),
        _badge(summary, "tl-sev-breaking" if counts[DiffSeverity.BREAKING] else ""),
        class_="tl-header",
    )
    body = _grouped_changes(changes) if changes else _note("The schemas are the same.")
    return str(
        tag(
            "div",
            style_tag(),
            header,
            columns,
            tag("div", body, class_="tl-panel tl-wide"),
            class_="tl-root",
            data_toollens="diff",
        )
    )


def render_edit_changes(schema_diff: Any) -> str:
    """A short list of what the last edit changed in the schema, for the explorer.

    A fragment without the stylesheet: the explorer shows it next to the panels.
    """
    changes = list(schema_diff.changes)
    if not changes:
        return str(
            tag("div", _note("The last edit did not change the schema."), class_="tl-edit-changes")
        )
    items = [
        tag(
            "li",
            _badge(enum_value(c.severity), f"tl-sev-{enum_value(c.severity)}"),
            _code(str(c.pointer) or "/"),
            " ",
            _keyword(c),
            c.message,
        )
        for c in changes
    ]
    return str(
        tag(
            "div",
            tag("strong", "Last edit changed"),
            tag("ul", items, class_="tl-edit"),
            class_="tl-edit-changes",
        )
    )
