"""The explorer's change list: what changed since the baseline, and what the last edit did.

The list compares the baseline the author chose (the schema as the explorer opened it, or as
last applied) with the schema now, so intermediate states typed through do not show; the
last edit's own effect is a short separate section (the front end flashes it). "Did not
change the schema" is said only when the schema equals the baseline.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toollens.render.display import enum_value, plural
from toollens.render.markup import Child, Markup, badge, code, join, note, tag

if TYPE_CHECKING:
    from toollens.core.edit_changes import EditStep

__all__ = ["BASELINE_NAMES", "render_change_list"]

#: How the list names each baseline ("changes since ...").
BASELINE_NAMES = {"opened": "opened", "applied": "last applied"}


def _keyword(change: Any) -> Child:
    keyword = getattr(change, "keyword", None)
    return join(tag("span", str(keyword), class_="tl-rule"), ": ") if keyword else None


def _item(change: Any) -> Markup:
    severity = enum_value(change.severity)
    return tag(
        "li",
        badge(severity, f"tl-sev-{severity}"),
        code(str(change.pointer) or "/"),
        " ",
        _keyword(change),
        change.message,
    )


def _items(changes: Sequence[Any], cls: str) -> Markup:
    return tag("ul", [_item(c) for c in changes], class_=cls)


def _last_edit(step: EditStep, trigger: str) -> Child:
    if step.last is None:
        return None
    what = "Last edit" if trigger == "edit" else f"Last change ({trigger})"
    label = tag("span", f"{what}: ", class_="tl-muted")
    if not step.last.changes:
        return tag(
            "div", label, tag("span", "no schema change", class_="tl-muted"), class_="tl-last"
        )
    return tag("div", label, _items(step.last.changes, "tl-edit tl-last-edit"), class_="tl-last")


def _opening(step: EditStep) -> bool:
    """The first report: equal to the baseline, with no edit before it."""
    return step.last is None and step.since_baseline is not None and not step.since_baseline.changes


def render_change_list(step: EditStep | None, *, trigger: str = "edit") -> str:
    """The change list as a fragment (no stylesheet); ``data-empty`` when there is nothing.

    Args:
        step: what the last report changed (``None`` before anything could be compared).
        trigger: what caused the last report (``"edit"``, ``"strict off"``...).
    """
    since = BASELINE_NAMES.get(step.baseline if step else "opened", "opened")
    if step is None or step.since_baseline is None or _opening(step):
        return str(
            tag(
                "div",
                tag("strong", f"Changes since {since}"),
                " ",
                tag("span", "none yet", class_="tl-muted"),
                class_="tl-edit-changes",
                data_empty="1",
            )
        )
    changes = step.since_baseline.changes
    head = tag(
        "div",
        tag("strong", f"Changes since {since}"),
        " ",
        badge(plural(len(changes), "change"), "tl-trigger"),
        class_="tl-changes-head",
    )
    body: Child
    if changes:
        body = _items(changes, "tl-edit")
    else:
        body = note(f"The schema equals the one {since}: the edits did not change the schema.")
    return str(
        tag(
            "div",
            head,
            body,
            _last_edit(step, trigger),
            class_="tl-edit-changes",
            data_trigger=trigger,
            data_empty="1" if not changes and not (step.last and step.last.changes) else None,
        )
    )
