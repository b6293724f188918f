"""The Toolset view: one row per tool, sortable and filterable, and the chosen tool below.

``ToolsetView(source)`` is a ``VBox`` of the table widget (:class:`ToolsetTable`, the same
anywidget bundle as the explorer; rows are data, the front end sorts, filters and pages
them) and, once a row is clicked, that tool's view: the explorer for a Python tool (live
editing, as ``%toolschema`` gives), the static report for a JSON or framework tool
(read-only: its schema is not Python source), or the reason it could not be read. Saved
notebooks and front ends without the widget's JavaScript get the static table
(:func:`toollens.render.toolset_html.render_toolset_html`).
"""

from __future__ import annotations

import dataclasses
import html
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets
import traitlets

from toollens.jupyter.widget_base import BaseWidget

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions
    from toollens.toolsets import ToolEntry, Toolset

__all__ = ["ToolsetTable", "ToolsetView", "show_toolsets_live", "toolset_live_bundle"]


class ToolsetTable(BaseWidget):
    """The table of a toolset (rows as data; the bundle draws, sorts, filters and pages it)."""

    view_kind = traitlets.Unicode("toolset").tag(sync=True)
    css = traitlets.Unicode().tag(sync=True)
    label = traitlets.Unicode().tag(sync=True)
    providers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    rows = traitlets.List(traitlets.Dict()).tag(sync=True)
    totals = traitlets.Unicode().tag(sync=True)  # HTML, escaped by render
    across = traitlets.Unicode().tag(sync=True)  # HTML, escaped by render
    selected = traitlets.Int(-1).tag(sync=True)

    def __init__(self, ts: Toolset, providers: Sequence[str] | None = None) -> None:
        from toollens.render.css import STYLE
        from toollens.render.toolset_html import (
            TOOLSET_STYLE,
            across_html,
            toolset_row_views,
            totals_html,
        )

        chosen = list(providers or [ts.options.provider if ts.options else "openai-chat"])
        rows = toolset_row_views(ts, chosen)
        super().__init__(
            css=STYLE + TOOLSET_STYLE,
            label=ts.label,
            providers=chosen,
            rows=[dataclasses.asdict(row) for row in rows],
            totals=str(totals_html(ts, rows)),
            across=str(across_html(ts) or ""),
        )
        self.toolset = ts

    def _static_html(self) -> str | None:
        from toollens.render.toolset_html import render_toolset_html

        return render_toolset_html(self.toolset, self.providers)


class ToolsetView(ipywidgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped
    """A toolset's table with the clicked tool's view below it.

    Args:
        source: anything :func:`toollens.toolset` reads (a module, a list, an agent, ...).
        options: the report options every tool is read with.
        providers: the provider columns (the options' provider when ``None``).
        namespace: where the explorer's Apply binds an edited function (the notebook's).
    """

    def __init__(
        self,
        source: Any,
        options: ReportOptions | None = None,
        *,
        providers: Sequence[str] | None = None,
        namespace: dict[str, Any] | None = None,
    ) -> None:
        from toollens.toolsets import toolset

        self.toolset = toolset(source, options)
        self.table = ToolsetTable(self.toolset, providers)
        self.detail: Any = None
        self._namespace = namespace
        super().__init__([self.table])
        self.table.observe(self._open, names=["selected"])

    def _open(self, change: dict[str, Any]) -> None:
        index = change["new"]
        if not 0 <= index < len(self.toolset):
            self.detail = None
            self.children = [self.table]
            return
        self.detail = detail_widget(self.toolset.tools[index], self._namespace)
        self.children = [self.table, self.detail]

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # As BaseWidget: the static table rides along for saved notebooks and nbconvert.
        result = super()._repr_mimebundle_(**kwargs)
        if result is None:
            return None
        data, metadata = result if isinstance(result, tuple) else (result, {})
        return {**data, "text/html": self.table._static_html() or ""}, metadata


def detail_widget(entry: ToolEntry, namespace: dict[str, Any] | None) -> Any:
    """What opens under the table for one tool."""
    rep = entry.report
    if rep is None:
        why = entry.error or f"{entry.origin.role or 'this tool'}: listed, not checked"
        return ipywidgets.HTML(f'<div class="tl-error-box">{html.escape(why)}</div>')
    if rep.target_kind == "callable":
        from toollens.jupyter.explorer import Explorer

        return Explorer(rep.target, rep.options, namespace=namespace)
    from toollens.render.html import render_html

    return ipywidgets.HTML(render_html(rep))


def toolset_live_bundle(ts: Toolset) -> dict[str, str]:
    """A Toolset's display as the live view, with the static table and text alongside."""
    from toollens.render.toolset_html import render_toolset_text

    result = ToolsetView(ts)._repr_mimebundle_()
    data = result[0] if isinstance(result, tuple) else (result or {})
    return {**data, "text/plain": render_toolset_text(ts)}


def show_toolsets_live() -> None:
    """Display every Toolset as the live Toolset view from now on (``%load_ext toollens``)."""
    import toollens.render  # noqa: F401  # registers the static display first, which this replaces
    from toollens.core.display_hooks import register_renderer
    from toollens.toolsets import Toolset

    register_renderer(Toolset, toolset_live_bundle)
