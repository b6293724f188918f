"""The source editor the explorer talks to, and its default implementation on a Textarea.

The explorer only uses :class:`SourceEditor`, so a richer editor (CodeMirror, an
anywidget) can replace :class:`TextareaEditor` without touching the explorer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

import ipywidgets as widgets

_MIN_ROWS = 6
_MAX_ROWS = 22


@runtime_checkable
class SourceEditor(Protocol):
    """What the explorer needs from an editor."""

    @property
    def value(self) -> str: ...

    @value.setter
    def value(self, text: str) -> None: ...

    @property
    def widget(self) -> widgets.Widget: ...

    def observe_value(self, callback: Callable[[str], None]) -> None:
        """Call ``callback(new_text)`` whenever the author changes the text."""

    def set_error(self, line: int | None, message: str | None) -> None:
        """Mark (or, with ``None``, clear) an error at a 1-based line."""

    def set_read_only(self, read_only: bool) -> None:
        """Forbid or allow editing."""


class TextareaEditor:
    """A monospace ``ipywidgets.Textarea`` (class ``tl-editor``) sized to its source."""

    def __init__(self, text: str = "") -> None:
        self._textarea = widgets.Textarea(
            value=text,
            rows=rows_for(text),
            continuous_update=True,
            layout=widgets.Layout(width="100%"),
        )
        self._textarea.add_class("tl-editor")
        self.error: tuple[int | None, str] | None = None

    @property
    def value(self) -> str:
        return str(self._textarea.value)

    @value.setter
    def value(self, text: str) -> None:
        self._textarea.value = text

    @property
    def widget(self) -> widgets.Textarea:
        return self._textarea

    def observe_value(self, callback: Callable[[str], None]) -> None:
        def on_change(change: dict[str, Any]) -> None:
            callback(str(change["new"]))

        self._textarea.observe(on_change, names="value")

    def set_error(self, line: int | None, message: str | None) -> None:
        if message is None:
            self.error = None
            self._textarea.remove_class("tl-editor-error")
            self._textarea.tooltip = None
            return
        self.error = (line, message)
        self._textarea.add_class("tl-editor-error")
        self._textarea.tooltip = f"line {line}: {message}" if line is not None else message

    def set_read_only(self, read_only: bool) -> None:
        self._textarea.disabled = read_only


def rows_for(text: str) -> int:
    """Enough rows to show the source without scrolling, within sane bounds."""
    return max(_MIN_ROWS, min(_MAX_ROWS, text.count("\n") + 2))
