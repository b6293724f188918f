"""The Toolset view: one row per tool, sortable and filterable, and the chosen tool below.

``ToolsetView(source)`` is a ``VBox`` of the table widget (:class:`ToolsetTable`, the same
anywidget bundle as the explorer; rows are data, the front end sorts, filters and pages
them) and, once a row is clicked, that tool's view: the explorer for a Python tool (live
editing, as ``%toolschema`` gives), the static report for a JSON or framework tool
(read-only: its schema is not Python source), or the reason it could not be read. Saved
notebooks and front ends without the widget's JavaScript get the static table
(:func:`toollens.render.toolset_html.render_toolset_html`).

marimo builds a widget only while a cell runs (its JavaScript is served as a file of that
cell), never in the handler of a click, and shows no ipywidgets box: there the view displays
as its table, and another cell opens the clicked tool, re-run by marimo on each click::

    view = ToolsetView(tools)                 # one cell
    table = mo.ui.anywidget(view.table)
    table

    view.open_tool(table.value["selected"])        # another cell
"""

from __future__ import annotations

import html
import sys
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets
import traitlets

from toollens.assess import AssessRequest, assess, assess_toolset
from toollens.jupyter.widget_base import BaseWidget
from toollens.render.css import STYLE
from toollens.render.toolset_html import (
    TOOLSET_STYLE,
    across_html,
    assessed,
    assessment_table,
    render_toolset_html,
    render_toolset_text,
    totals_html,
)
from toollens.toolsets import Tool, Toolset

if TYPE_CHECKING:
    from toollens.assess import Assessment
    from toollens.consumers import ConsumerReport, ToolList
    from toollens.core.report import ReportOptions

__all__ = ["ToolsetTable", "ToolsetView", "toolset_live_bundle"]


class ToolsetTable(BaseWidget):
    """The table of a toolset: the table model as data (:mod:`toollens.render.toolset_table`);
    the bundle draws, sorts, filters and pages it with the static page's own table code."""

    view_kind = traitlets.Unicode("toolset").tag(sync=True)
    css = traitlets.Unicode().tag(sync=True)
    label = traitlets.Unicode().tag(sync=True)
    providers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    columns = traitlets.List(traitlets.Dict()).tag(sync=True)
    rows = traitlets.List(traitlets.Dict()).tag(sync=True)
    groups = traitlets.List(traitlets.Unicode()).tag(sync=True)  # the sources rows share
    levels = traitlets.List(traitlets.List()).tag(sync=True)  # the filter's choices
    totals = traitlets.Unicode().tag(sync=True)  # HTML, escaped by render
    across = traitlets.Unicode().tag(sync=True)  # HTML, escaped by render
    selected = traitlets.Int(-1).tag(sync=True)
    # The client whose verdict column shows (an MCP tool list: one column per client), and
    # whose Clients view the opened tool shows; "" for the first.
    client = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self, subject: Toolset | Assessment, providers: Sequence[str] | None = None
    ) -> None:
        super().__init__(css=STYLE + TOOLSET_STYLE, providers=list(providers or []))
        self.show(subject)

    def show(self, subject: Toolset | Assessment) -> None:
        """Draw an assessment (a toolset as read: judged for the providers, which stay):
        its table model, totals and cross-tool findings, as ``check`` and the page show them."""
        self.result = assessed(subject, self.providers or None)
        ts = self.result.toolset
        assert ts is not None
        # an MCP tool list's clients' verdicts: the table's and the opened tools'
        self.judged = self.result.clients.report if self.result.clients is not None else None
        table = assessment_table(self.result)
        data = table.to_json()
        self.toolset = ts
        with self.hold_sync():
            self.label = ts.label
            self.providers = list(table.providers)
            self.columns = data["columns"]
            self.rows = data["rows"]
            self.groups = data["groups"]
            self.levels = data["levels"]
            self.totals = str(totals_html(self.result))
            self.across = str(across_html(ts) or "")

    def _static_html(self) -> str | None:
        return render_toolset_html(self.result)


class ToolsetView(ipywidgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped
    """A toolset's table with the clicked tool's view below it.

    Args:
        source: anything :func:`toollens.toolset` reads (a module, a list, an agent, ...),
            or the request to assess (:class:`toollens.assess.AssessRequest`: providers,
            clients, budgets, as ``check`` takes them).
        options: the report options every tool is read with.
        providers: the provider columns (the options' provider when ``None``).
        clients: the MCP clients named (as ``check --client``; ``all`` for every one).
        namespace: where the explorer's Apply binds an edited function (the notebook's).
    """

    def __init__(
        self,
        source: Any,
        options: ReportOptions | None = None,
        *,
        providers: Sequence[str] | None = None,
        clients: Sequence[str] = (),
        namespace: dict[str, Any] | None = None,
    ) -> None:
        if isinstance(source, AssessRequest):
            self.request = source
        else:
            self.request = AssessRequest(
                target=source,
                providers=tuple(providers or ([options.provider] if options is not None else [])),
                clients=tuple(clients),
                strict=options.strict if options is not None else True,
                options=options,
                toolset=True,
            )
        result = assess(self.request)
        assert result.toolset is not None
        self.toolset = result.toolset
        self.table = ToolsetTable(result, result.providers)
        self.detail: Any = None
        self._namespace = namespace
        super().__init__([self.table])
        # Weakly: anywidget keeps every widget with a bundle file alive (it watches the
        # file), so a strong reference from the table would keep this view alive too.
        ref = weakref.ref(self)

        def opened(change: dict[str, Any]) -> None:
            view = ref()
            if view is not None and not _marimo_runs():  # there, `open_tool` in a cell does it
                view._open(change)

        def client(change: dict[str, Any]) -> None:
            view = ref()
            detail = view.detail if view is not None else None
            if detail is not None and hasattr(detail, "client"):  # an explorer's Clients view
                detail.client = change["new"]
            elif view is not None and detail is not None:  # a static copy: draw it again
                view._open({"new": view.table.selected})

        self.table.observe(opened, names=["selected"])
        self.table.observe(client, names=["client"])
        _refresh_after_each_cell(self)

    def refresh(self) -> bool:
        """Re-read every Python tool the notebook (or its module) has rebound since; returns
        whether anything changed. Called after each cell that runs in IPython."""
        entries, changed = [], False
        for entry in self.toolset.tools:
            current = _rebound(entry, self._namespace)
            if current is None:
                entries.append(entry)
                continue
            assert entry.report is not None
            rep_options = entry.report.options
            entries.append(Tool.from_callable(current, origin=entry.origin, options=rep_options))
            changed = True
        if not changed:
            return False
        old = self.toolset
        self.toolset = Toolset.from_entries(entries, label=old.label, options=old.options)
        self._redraw()
        return True

    def _redraw(self) -> None:
        table = self.table
        table.show(assess_toolset(self.toolset, self.request, table.providers))
        if 0 <= table.selected < len(self.toolset):
            self._open({"new": table.selected})

    def _open(self, change: dict[str, Any]) -> None:
        index = change["new"]
        if not 0 <= index < len(self.toolset):
            self.detail = None
            self.children = [self.table]
            return
        self.detail = detail_widget(
            self.toolset.tools[index],
            self._namespace,
            listing=self.toolset.listing,
            client=self.table.client or None,
            judged=self.table.judged,
        )
        detail: Any = self.detail
        if isinstance(detail, traitlets.HasTraits) and detail.has_trait("client"):
            # The explorer's own client picker moves the table's too (the table's moves the
            # explorer's, above); setting the same value again sends nothing back.
            table = weakref.ref(self.table)

            def picked(change: dict[str, Any]) -> None:
                shown = table()
                if shown is not None and change["new"]:
                    shown.client = change["new"]

            detail.observe(picked, names=["client"])
        self.children = [self.table, self.detail]

    def open_tool(self, index: int) -> object | None:
        """Open tool ``index`` (its row, from 0; the table's ``selected``) under the table and
        return its view; ``None`` for -1. In marimo, call it in a cell of its own with
        ``table.value["selected"]`` (see the module's docstring): it returns what marimo shows.
        """
        if self.table.selected != index:
            self.table.selected = index  # the observer opens it (outside marimo)
        if _marimo_runs():
            self._open({"new": index})
        detail: object | None = self.detail
        if isinstance(detail, ipywidgets.HTML) and _marimo_runs():  # marimo shows no ipywidgets
            return _StaticView(detail.value)
        return detail

    def _display_(self) -> ToolsetTable:
        """What marimo shows for the view: its table (marimo renders no ipywidgets box)."""
        return self.table

    def close(self) -> None:
        """Close the table and the open tool too (ipywidgets keeps open widgets alive)."""
        # getattr: a view whose reading failed in __init__ is closed by its finalizer too
        for child in (getattr(self, "table", None), getattr(self, "detail", None)):
            if child is not None:
                child.close()
        super().close()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # As BaseWidget: the static table rides along for saved notebooks and nbconvert.
        result = super()._repr_mimebundle_(**kwargs)
        if result is None:
            return None
        data, metadata = result if isinstance(result, tuple) else (result, {})
        return {**data, "text/html": self._static_html()}, metadata

    def _static_html(self) -> str:
        """The table, and the tool opened under it (its explorer's copy, or its HTML)."""
        detail = self.detail
        if hasattr(detail, "_static_html"):
            opened = detail._static_html() or ""
        else:
            opened = detail.value if isinstance(detail, ipywidgets.HTML) else ""
        return (self.table._static_html() or "") + opened


class _StaticView:
    """A read-only tool's report as HTML (rendered and escaped by ``render_html``)."""

    def __init__(self, html_text: str) -> None:
        self.html = html_text

    def _repr_html_(self) -> str:
        return self.html


def _marimo_runs() -> bool:
    """Whether this runs in a marimo notebook or app (marimo imported, and says so)."""
    marimo = sys.modules.get("marimo")
    running = getattr(marimo, "running_in_notebook", None)
    return bool(running is not None and running())


def _rebound(entry: Tool, namespace: dict[str, Any] | None) -> Any:
    """The object now bound where ``entry``'s Python tool was found, if it is a new one."""
    rep = entry.report
    if rep is None or rep.target_kind != "callable":
        return None
    old = rep.target
    name, module = getattr(old, "__name__", None), getattr(old, "__module__", None)
    if not isinstance(name, str):
        return None
    if module == "__main__" and namespace is not None:
        current = namespace.get(name)
    else:
        current = getattr(sys.modules.get(module or ""), name, None)
    return current if callable(current) and current is not old else None


def _refresh_after_each_cell(view: ToolsetView) -> None:
    # A weak reference: a view the notebook dropped must not be kept alive by the hook.
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - ipywidgets needs IPython
        return
    shell = get_ipython()
    if shell is None:
        return
    ref = weakref.ref(view)

    def after_cell(*_args: Any) -> None:
        alive = ref()
        if alive is None:
            shell.events.unregister("post_run_cell", after_cell)
        else:
            alive.refresh()

    shell.events.register("post_run_cell", after_cell)


def detail_widget(
    entry: Tool,
    namespace: dict[str, object] | None,
    *,
    listing: ToolList | None = None,
    client: str | None = None,
    judged: ConsumerReport | None = None,
) -> object:
    """What opens under the table for one tool; a tool of ``listing`` (an MCP tool list)
    gets the Clients view too, with ``client`` chosen (``judged``: the clients' verdicts on
    ``listing``, when the table has them)."""
    rep = entry.report
    if rep is None:
        why = entry.error or f"{entry.origin.role or 'this tool'}: listed, not checked"
        return ipywidgets.HTML(f'<div class="tl-error-box">{html.escape(why)}</div>')
    # lazy: a tool's Explorer (~55 ms) loads when a row is opened
    from toollens.jupyter.explorer import Explorer

    if rep.target_kind == "callable":
        return Explorer(rep.target, rep.options, namespace=namespace)
    listed = listing if listing is not None and entry.name in listing.names else None
    if entry.origin.kind == "mcp":  # its schema, and a Try-it Call that is a real tools/call
        # lazy: mcp.calling + the round trip (~17 ms), for an MCP tool's row only
        from toollens.mcp.calling import mcp_caller, one_tool

        spec = one_tool(entry.origin.label)
        caller = mcp_caller(spec, str(spec.tool))
        explorer = Explorer(rep.target, rep.options, caller=caller, listing=listed)
        explorer.client = client or ""
        return explorer
    # lazy: render.html (~39 ms) loads when a row is opened
    from toollens.render.html import render_html

    clients = None
    if listed is not None:  # a saved tools/list answer: read-only, with its Clients view
        # lazy: render.clients_view (~3 ms) loads when a row is opened
        from toollens.render.clients_view import tool_clients

        clients = tool_clients(listed, entry.name, judged=judged)
    return ipywidgets.HTML(render_html(rep, clients=clients, client=client))


def toolset_live_bundle(ts: Toolset) -> dict[str, str]:
    """A Toolset's display as the live view, with the static table and text alongside."""
    result = ToolsetView(ts)._repr_mimebundle_()
    data = result[0] if isinstance(result, tuple) else (result or {})
    return {**data, "text/plain": render_toolset_text(ts)}
