"""The explorer's Remedies: a Fix button on each finding with a mechanical fix, and an
error pasted to be explained.

It is no panel of the layout: the front end (``frontend/src/remedy.js``) asks for the fixes
when the views change, so an explorer nobody looks at computes none. Three messages:

- ``{"type": "tl-fixes"}``: the fixes of the report shown, answered with
  ``{"type": "tl-fixes", "html": ...}`` (:func:`fixes_html`; each button carries its key).
- ``{"type": "tl-fix", "key": k}``: the fix of that key is made on the editor's text
  (libcst, :mod:`toollens.fixes.python_source`); the kernel answers
  ``{"type": "tl-fixed", "text": ...}`` and the front end puts that text in the editor as
  one edit (one undo step), which re-renders the views as any edit does.
- ``{"type": "tl-explain", "text": ...}``: the error is read and mapped onto the tool shown
  (:mod:`toollens.explain`); the answer ``{"type": "tl-explained", "html", "line",
  "message"}`` marks the editor's line, and its HTML marks the pointer in the schema.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from toollens.core.errors import ToolLensError
from toollens.render.markup import note
from toollens.render.remedy_html import explanations_html, fixes_html

if TYPE_CHECKING:
    from toollens.core.report import Report, ReportOptions
    from toollens.core.schema.types import JsonObject
    from toollens.fixes import Edit


class Explorer(Protocol):
    """What the Remedies read of an explorer (a Protocol: the explorer imports this module)."""

    report: Report | None
    source: Any

    def options(self) -> ReportOptions: ...
    def send(self, content: JsonObject) -> None: ...
    def on_msg(self, callback: Callable[[object, object, object], None]) -> None: ...


__all__ = ["RemedyPanel", "attach_remedies"]


class RemedyPanel:
    """The Remedies view of one explorer: the fixes of the report shown, and the actions."""

    def __init__(self, explorer: Explorer) -> None:
        self.explorer = explorer
        self.edits: tuple[Edit, ...] = ()

    def render(self) -> str:
        """The fixes of the report shown, as the Remedies list's HTML."""
        rep = self.explorer.report
        self.edits = tuple(_edits(rep)) if rep is not None else ()
        return str(fixes_html(self.edits, [edit_key(e) for e in self.edits]))

    def handle(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        if kind == "tl-fixes":
            self.explorer.send({"type": "tl-fixes", "html": self.render()})
        elif kind == "tl-fix":
            self.explorer.send({"type": "tl-fixed", **self.fixed(content.get("key"))})
        elif kind == "tl-explain":
            self.explorer.send(
                {"type": "tl-explained", **self.explained(str(content.get("text", "")))}
            )

    def fixed(self, key: object) -> dict[str, object]:
        """The editor's text with the fix of ``key`` made, or why it was not."""
        # lazy: libcst (~120 ms) loads when a fix is applied, not with the Explorer
        from toollens.fixes.python_source import apply_python_edits

        rep = self.explorer.report
        edits = _edits(rep) if rep is not None else []
        chosen = next((e for e in edits if edit_key(e) == key), None)
        if chosen is None:
            return {"text": None, "message": "that fix is gone: the source changed"}
        try:
            text, done = apply_python_edits(str(self.explorer.source), [chosen])
        except ToolLensError as exc:
            return {"text": None, "message": str(exc)}
        return {"text": text if done else None, "message": "" if done else "nothing to change"}

    def explained(self, text: str) -> dict[str, object]:
        """What the pasted error says of the tool shown: HTML, the editor line, a message."""
        # lazy: toollens.explain (~9 ms) and toolsets with the MCP client (~20 ms) load when
        # an error is pasted, not with the Explorer
        from toollens.explain import UnreadableError, explain
        from toollens.explain.sources import relative_line
        from toollens.toolsets import toolset

        rep = self.explorer.report
        if rep is None:
            return {"html": str(note("No views yet: fix the source first.")), "line": None}
        try:
            found = explain(text, toolset([rep.target], self.explorer.options()))
        except UnreadableError as exc:
            return {"html": str(note(str(exc))), "line": None, "message": str(exc)}
        first = next((e for e in found if e.tool is not None), None)
        line = None
        if first is not None and rep.function is not None:
            line = relative_line(rep.function, first.pointer) or 1
        message = "" if first is None else f"{first.place.author}: {first.place.reason}"
        html = explanations_html(found, rep.raw_schema)
        return {"html": str(html), "line": line, "message": message}


def edit_key(edit: Edit) -> str:
    """A fix's key: the same fix keeps it while the author types elsewhere."""
    return f"{edit.rule}|{edit.op!r}"


def _edits(rep: Report) -> list[Edit]:
    """The fixes of the findings shown, for a Python function (the one thing edited here)."""
    # lazy: toollens.fixes (~11 ms) loads when fixes are listed, not with the Explorer
    from toollens.fixes.python_remedies import python_edits

    if rep.function is None or not callable(rep.target):
        return []
    edits: list[Edit] = []
    seen: set[str] = set()
    for finding in rep.findings:
        for edit in python_edits(finding, rep.title, rep.target, rep.function):
            if repr(edit.op) not in seen:
                seen.add(repr(edit.op))
                edits.append(edit)
    return edits


def attach_remedies(explorer: Explorer) -> RemedyPanel:
    """Answer ``explorer``'s Remedies messages (the fixes, a fix, an explanation)."""
    panel = RemedyPanel(explorer)
    explorer.on_msg(panel.handle)
    return panel
