"""HTML of the explorer's Remedies view: the fixable findings (each with its Fix button) and
what an error pasted in the view says (each place, with the schema's line marked).

Pure functions over records; everything user-written is escaped by :func:`tag`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from toollens.render.highlight import LineMark, highlight_json
from toollens.render.markup import Markup, badge, code, join, note, tag

if TYPE_CHECKING:
    from toollens.explain import Explanation
    from toollens.fixes import Edit

__all__ = ["EXPLAINED_CLASS", "REMEDY_STYLE", "explanations_html", "fixes_html"]

REMEDY_STYLE = """
.tl-root .tl-explain { margin: 6px 0; }
.tl-root .tl-explain > summary { cursor: pointer; font-weight: 600; padding: 2px 0; }
.tl-root .tl-explain-row { display: flex; gap: 6px; align-items: flex-start; }
.tl-root .tl-error-input { flex: 1; min-width: 0; font-family: var(--jp-code-font-family,
  ui-monospace, monospace); font-size: 0.9em; box-sizing: border-box; }
.tl-root .tl-explained-body .tl-code { max-height: 18em; overflow: auto; }
.tl-root .tl-explained-list { margin: 4px 0; padding-left: 18px; }
.tl-root .tl-line.tl-explained { background: rgba(207, 34, 46, 0.16);
  outline: 1px solid rgba(207, 34, 46, 0.6); }
.tl-root .tl-fixes { margin: 4px 0; padding-left: 0; list-style: none; }
.tl-root .tl-fix { display: flex; flex-wrap: wrap; gap: 4px; align-items: baseline;
  padding: 2px 0; }
.tl-root .tl-fix-btn { margin-left: auto; }
"""

EXPLAINED_CLASS = "tl-explained"
"""The class of the schema line an explained error points at."""


def fixes_html(edits: Sequence[Edit], keys: Sequence[str]) -> Markup:
    """Each fixable finding with a Fix button (``data-tl-fix`` is the fix's key)."""
    if not edits:
        return Markup("")
    rows = [
        tag(
            "li",
            badge(e.safety.value, "tl-sev-info" if e.safety.value == "safe" else "tl-sev-warning"),
            " ",
            code(e.rule),
            " ",
            e.summary,
            " ",
            tag(
                "button",
                "Fix",
                type="button",
                class_="tl-fix-btn",
                data_tl_fix=key,
                title=f"edit the source: {e.summary}",
            ),
            class_="tl-fix",
        )
        for e, key in zip(edits, keys, strict=True)
    ]
    return tag("ul", *rows, class_="tl-fixes")


def _place(e: Explanation) -> Markup:
    parts: list[Markup | str] = [
        tag("strong", e.place.author),
        f": {e.place.reason}",
    ]
    if e.pointer is not None:
        parts += [" at ", code(e.pointer or "/")]
    if e.finding is not None:
        parts += [
            " ",
            badge(e.finding.severity.value, f"tl-sev-{e.finding.severity.value}"),
            " ",
            code(e.finding.rule),
            f" Fix: {e.finding.fix}",
        ]
    elif e.note:
        parts += [" ", tag("span", e.note, class_="tl-muted")]
    return tag("li", *parts, class_="tl-explained-place")


def explanations_html(found: Sequence[Explanation], schema: object | None) -> Markup:
    """Each place of a pasted error, then the schema with the places' lines marked."""
    if not found:
        return note("The error names no place in this tool.")
    items = tag("ul", *(_place(e) for e in found), class_="tl-explained-list")
    marks = {
        e.pointer: LineMark(EXPLAINED_CLASS, (e.place.reason,))
        for e in found
        if e.pointer is not None
    }
    if schema is None or not marks:
        return items
    return join(items, highlight_json(schema, marks=marks))
