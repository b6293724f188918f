"""Schema diff -> HTML: two schemas side by side with changed lines marked, and the changes
grouped by severity; plus the short "what the last edit changed" list of the explorer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from toollens.core.diff.changes import DiffSeverity
from toollens.render.css import style_tag
from toollens.render.display import enum_value
from toollens.render.line_diff import Side, side_by_side
from toollens.render.markup import Child, Markup, badge, code, join, note, tag

if TYPE_CHECKING:
    from toollens.core.diff import SchemaChange, SchemaDiff
__all__ = ["render_diff_html", "render_edit_changes"]

_SEVERITY_ORDER = tuple(DiffSeverity)  # worst first
_badge, _code, _note = badge, code, note


def _pointer_candidates(change: SchemaChange) -> list[str]:
    pointer = str(change.pointer)
    keyword = getattr(change, "keyword", None)
    out = [f"{pointer}/{keyword}"] if keyword else []
    return [*out, pointer]


def _tag_changes(changes: Iterable[SchemaChange], before: Side, after: Side) -> None:
    """Put each change's severity in the gutter of its line, on the side that shows it."""
    for change in changes:
        sev = enum_value(change.severity)
        for side in (after, before):
            found = (side.line(p) for p in _pointer_candidates(change))
            line = next((n for n in found if n is not None), None)
            if line is not None:
                side.tag_at(line, sev, f"{sev}: {change.message}")
                break


def _keyword(change: SchemaChange) -> Child:
    keyword = getattr(change, "keyword", None)
    return join(tag("span", str(keyword), class_="tl-rule"), ": ") if keyword else None


def _grouped_changes(changes: Sequence[SchemaChange]) -> Markup:
    groups: dict[DiffSeverity, list[SchemaChange]] = {}
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


def render_diff_html(schema_diff: SchemaDiff, old_schema: object, new_schema: object) -> str:
    """Two schemas side by side, changed lines marked, the changes grouped by severity.

    Self-contained (carries the stylesheet): used by the diff widget and the static output
    of ``%toolschema --diff``.
    """
    changes = list(schema_diff.changes)
    before, after = Side(old_schema), Side(new_schema)
    _tag_changes(changes, before, after)
    columns = tag("div", side_by_side(before, after), class_="tl-panel tl-diff")
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


def render_edit_changes(schema_diff: SchemaDiff | None, *, trigger: str = "edit") -> str:
    """A short list of what the last change did to the schema, for the explorer.

    ``trigger`` names what caused it (``"edit"``, ``"strict off"``, ``"provider: gemini"``)
    and heads the list. A fragment without the stylesheet: the explorer shows it next to
    the editor.
    """
    if schema_diff is None:  # nothing changed yet
        return str(
            tag(
                "div",
                tag("div", tag("strong", "What changed"), class_="tl-changes-head"),
                _note(
                    "Edit the source or change an option: what that does to the schema "
                    "shows here, and flashes in the views."
                ),
                class_="tl-edit-changes",
            )
        )
    changes = list(schema_diff.changes)
    head = tag(
        "div",
        tag("strong", "What changed"),
        " ",
        _badge(f"after {trigger}", "tl-trigger"),
        class_="tl-changes-head",
    )
    if not changes:
        return str(
            tag(
                "div",
                head,
                _note(f"The last {_noun(trigger)} did not change the schema."),
                class_="tl-edit-changes",
                data_trigger=trigger,
            )
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
            head,
            tag("ul", items, class_="tl-edit"),
            class_="tl-edit-changes",
            data_trigger=trigger,
        )
    )


def _noun(trigger: str) -> str:
    return "edit" if trigger == "edit" else "change"
