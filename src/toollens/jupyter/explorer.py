"""The explorer widget: edit a tool's source and watch every view the model sees update.

The widget is thin: :func:`toollens.core.report.report` computes the views and
:func:`toollens.render.html.render_panels` renders them; this module keeps the editor's text,
the toolbar's options and the rendered panels as synced traits of one anywidget
(:class:`~toollens.jupyter.explorer_state.ExplorerState`), renders an edit at once when idle
(coalescing the edits that come while a render runs), and keeps the
last good views (marked stale) while the source does not run. The front end
(``frontend/src``, bundled into ``static/explorer.js``) hosts a CodeMirror editor and places
the panels; it renders nothing of its own.
"""

from __future__ import annotations

import dataclasses
import html
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from typing_extensions import Unpack

from toollens.core.edit_changes import Baseline, EditChanges
from toollens.core.errors import ToolLensError
from toollens.core.memo import next_generation
from toollens.core.report import OptionOverrides, ReportOptions, report
from toollens.jupyter.clients_panel import ClientsPanel, attach_clients
from toollens.jupyter.debounce import Coalescer, Debouncer, Scheduler
from toollens.jupyter.edit_session import EditSession
from toollens.jupyter.explorer_state import (
    PANELS,
    TOOLBAR,
    ExplorerState,
    toolbar_options,
    toolbar_traits,
    trigger_text,
)
from toollens.jupyter.frameworks_view import FrameworksView, attach_frameworks
from toollens.jupyter.live import LiveError, exception_error
from toollens.jupyter.opening import Opened
from toollens.jupyter.opening import opened as open_target
from toollens.jupyter.remedy_panel import attach_remedies
from toollens.jupyter.try_view import Caller, TryView
from toollens.render.change_list import render_change_list
from toollens.render.css import STYLE, WIDGET_STYLE
from toollens.render.html import StrictLayout, render_html, resolve_span
from toollens.render.markup import utf8_length
from toollens.render.remedy_html import REMEDY_STYLE
from toollens.render.roundtrip_css import ROUNDTRIP_STYLE, TRY_STYLE

if TYPE_CHECKING:
    from toollens.consumers import ToolList
    from toollens.core.report import Report

__all__ = ["FOLDED_LINES", "PANELS", "Explorer", "RenderStats"]

# Lines shown of a folded JSON document (the schema before strict conversion, the provider
# payload) while editing: every edit resends the panels, and for a tool with hundreds of
# parameters those documents are most of the bytes. The static report shows every line.
FOLDED_LINES = 400


@dataclass(frozen=True)
class RenderStats:
    """What the last render did: which views changed and how many bytes they resent."""

    ok: bool
    panels_updated: tuple[str, ...] = ()
    bytes_sent: int = 0
    seconds: float = 0.0


class WidgetSource:
    """The editor's text as Python sees it: the widget's synced ``source`` trait.

    The editor itself (CodeMirror) lives in the front end; setting :attr:`value` here is
    what typing there does, so headless code and tests drive the explorer the same way.
    """

    def __init__(self, widget: Explorer) -> None:
        self._widget = widget

    @property
    def value(self) -> str:
        return str(self._widget.source)

    @value.setter
    def value(self, text: str) -> None:
        self._widget.source = text

    @property
    def read_only(self) -> bool:
        return bool(self._widget.read_only)


class Explorer(ExplorerState):
    """Edit a tool's source (or JSON Schema) and see every view update live.

    Args:
        target: a function, a pydantic model class, an output type, or a JSON Schema dict.
        options: the :class:`~toollens.core.report.ReportOptions` to open with (the toolbar
            then changes strict, provider, docstring style, name, description and optional
            defaults; output_type and context_types stay).
        debounce: ``None``: render an edit at once when idle, coalesce edits made during a
            render (:class:`~toollens.jupyter.debounce.Coalescer`); else seconds to wait.
        namespace: where Apply binds the edited function (``%toolschema`` passes the
            notebook's user namespace); the function's module globals when not given. Edits
            always run against a copy of the function's own module globals.
        source: the text to edit instead of the target's own source (a ``%%toolschema`` cell).
        source_transform: applied to the text before it runs (IPython syntax in a cell).
        scheduler: ``scheduler(delay, callback) -> cancel`` for coalesced or debounced renders.
        frameworks: ``True`` adds a Frameworks view (what each installed framework sends,
            where they disagree); a list names the frameworks. Built on a worker thread
            after each render; off by default (frameworks take seconds to import).
        arguments: a model's arguments (JSON text or a mapping) to open the Try-it view with.
        caller: what Try-it's Call does for a tool without a Python function (an MCP tool).
        listing: the MCP tool list the tool is from (a toolset's ``.listing``; the tool is the
            one the ``name`` option names): adds the Clients view; its ``client`` trait picks.
        **changes: fields of ``ReportOptions`` to change (``strict=False``, ``output_type=...``),
            as :func:`~toollens.core.report.report` takes them.
    """

    def __init__(
        self,
        target: object,
        options: ReportOptions | None = None,
        *,
        debounce: float | None = None,
        namespace: dict[str, Any] | None = None,
        source: str | None = None,
        source_transform: Callable[[str], str] | None = None,
        scheduler: Scheduler | None = None,
        frameworks: bool | Sequence[str] = False,
        arguments: str | Mapping[str, object] | None = None,
        caller: Caller | None = None,
        listing: ToolList | None = None,
        **overrides: Unpack[OptionOverrides],
    ) -> None:
        start = open_target(target, listing)  # a toolset's tool, a target string, ...
        target, listing, caller, opened = _opening(start, caller, options, overrides)
        session = EditSession(target, source, namespace, source_transform)
        super().__init__(
            css=_css(),
            source=session.text,
            read_only=session.mode == "read-only",
            **toolbar_traits(opened),
        )
        self.add_class("tl-explorer")
        self._session, self._opened = session, opened
        self._options: ReportOptions | None = None  # the toolbar's, until a toolbar change
        self._debouncer = _render_policy(debounce, scheduler)
        self._trigger = "open"
        self.report: Report | None = None
        self.error: LiveError | None = None
        self.last_render_stats = RenderStats(ok=False)
        self._failure: Exception | None = None
        self._edits = EditChanges()  # the baselines and the previous schema, for the change list
        self.editor = WidgetSource(self)
        _attach_views(self, frameworks, listing, opened.name, caller)
        self._set_note(session.note)
        self.observe(self._on_edit, names="source")
        self.observe(self._on_option, names=list(TOOLBAR))
        self.observe(self._on_layout, names="side_by_side")
        self.observe(self._on_baseline, names="changes_since")
        self.on_msg(self._on_message)
        self.render()
        if arguments is not None:
            self.try_view.open_with(arguments)
        if self.report is None and session.mode == "read-only" and self._failure is not None:
            raise self._failure

    # -- rendering -------------------------------------------------------------------------

    def options(self) -> ReportOptions:
        """The options the toolbar currently gives ``report``."""
        if self._options is None:
            self._options = toolbar_options(self, self._opened)
        return self._options

    def _on_edit(self, _change: Any) -> None:
        self._trigger = "edit"
        self._debouncer.request(self.render)

    def _on_option(self, change: Any) -> None:
        self._options = None
        self._trigger = trigger_text(change["name"], change["new"])
        self.render()

    @property
    def baseline(self) -> Baseline:
        """What the change list compares with (the ``changes_since`` toolbar choice)."""
        return cast("Baseline", self.changes_since)

    def _on_baseline(self, _change: Any) -> None:
        with self._debouncer.lock, self.hold_sync():
            self.changes = _changes_html(self._edits, None, self._trigger, self.baseline)

    def _on_layout(self, _change: Any) -> None:
        with self._debouncer.lock, self.hold_sync():
            if self.report is not None:  # the same report, the other layout of its diff
                self._send_panels(self.report)

    def wait_frameworks(self, timeout: float | None = None) -> bool:
        """Block until the Frameworks view shows the current source (False on timeout)."""
        return self._frameworks is None or self._frameworks.wait(timeout)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        kind = content.get("type") if isinstance(content, dict) else None
        if kind == "apply":
            self.apply()
        elif kind == "try":  # a button of the Try-it view
            self.try_view.handle(content.get("action"))
        elif kind == "span":  # a click on a view: where is that value written?
            key = content.get("key")
            self.send({"type": "span", "key": key, "span": _locate(self.report, key)})

    def flush(self) -> None:
        """Run a pending (coalesced or debounced) render now; a no-op when none is pending."""
        with self._debouncer.lock:
            if self._debouncer.pending:
                self.render()

    def render(self) -> None:
        """Render the current source and toolbar options now."""
        with self._debouncer.lock, self.hold_sync():
            self._debouncer.cancel()
            started = time.perf_counter()
            next_generation()  # the views' caches keep what this render and the last use
            self._failure = None
            target, error, note = self._session.current_target(self.source)
            rep = None
            if error is None:
                try:
                    rep = _with_schema_lint(report(target, self.options()))
                except KeyboardInterrupt:
                    raise
                except Exception as exc:  # user annotations and defaults may raise anything
                    self._failure = exc
                    error = _build_error(exc, self._session.filename)
            if rep is not None:
                try:
                    self._show(rep, note, started)
                    if self._frameworks is not None and rep.target_kind == "callable":
                        self._frameworks.request(target)  # off the keystroke path
                    return
                except Exception as exc:  # a rendering bug must not become a traceback
                    error = LiveError("exception", f"rendering the views failed: {exc!r}")
            self._show_error(error or LiveError("exception", "no views"), started)

    def _send_panels(self, rep: Report) -> tuple[list[str], int]:
        """Render the panels and sync the ones that changed: their keys, and the bytes."""
        layout: StrictLayout = "side-by-side" if self.side_by_side else "inline"
        # per call, not hoisted: tests replace render.html.render_panels (test_explorer.py)
        from toollens.render.html import render_panels

        # Spans are located when the author clicks one (see locate), not on every edit.
        rendered = render_panels(
            rep, folded_lines=FOLDED_LINES, strict_layout=layout, span_keys=True
        )
        fresh = {
            panel.key: panel.render(rep) if panel.render else rendered.get(panel.key, "")
            for panel in self.declarations
        }
        if rep.target_kind == "json-schema" and "signature" in fresh:
            fresh["signature"] = SCHEMA_ONLY_MARK  # no Python signature: the CSS hides it
        published = self.publish(fresh)
        return list(published.updated), published.bytes_sent

    def _show(self, rep: Report, note: str | None, started: float) -> None:
        updated, sent = self._send_panels(rep)
        changes = _changes_html(self._edits, rep, self._trigger, self.baseline)
        if changes != self.changes:
            self.changes = changes
            updated.append("changes")
            sent += utf8_length(changes)
        self.report, self.error = rep, None
        self.error_mark, self.banner, self.stale = {}, "", False
        self._set_note(note or self._session.note)
        self.can_apply = self._session.can_apply
        self.try_view.show(rep)
        elapsed = time.perf_counter() - started
        self.last_render_stats = RenderStats(True, tuple(updated), sent, elapsed)

    def _show_error(self, error: LiveError, started: float) -> None:
        self.error = error
        self.stale = self.report is not None
        self.error_mark = {"line": error.line, "column": error.column, "message": error.message}
        self.banner = _banner_html(error, stale=self.stale)
        self.can_apply = False
        elapsed = time.perf_counter() - started
        self.last_render_stats = RenderStats(False, ("banner",), utf8_length(self.banner), elapsed)

    def _set_note(self, note: str | None) -> None:
        self.note = _escaped_div("tl-note-body", note) if note else ""

    # -- apply, display, teardown ----------------------------------------------------------

    def apply(self) -> bool:
        """Write the edited source into the namespace (the Apply button); ``True`` on success."""
        ok, note = self._session.apply(self.source)
        if note is not None:
            self._set_note(note)
        if ok and self.report is not None and not self.stale:
            self._edits.mark_applied()  # the "since last applied" baseline
            if self.changes_since == "applied":
                self._on_baseline(None)
        return ok

    def __repr__(self) -> str:
        session = getattr(self, "_session", None)  # None when __init__ raised early
        return f"<toollens Explorer of {session.label if session else '?'}>"

    def _static_html(self) -> str | None:  # shown where the widget's JavaScript does not run
        return _static_copy(self)

    def close(self) -> None:
        debouncer = getattr(self, "_debouncer", None)  # None when __init__ raised before it
        if debouncer is not None:
            debouncer.cancel()
        super().close()


def _render_policy(debounce: float | None, scheduler: Scheduler | None) -> Coalescer | Debouncer:
    return Coalescer(scheduler) if debounce is None else Debouncer(debounce, scheduler)


SCHEMA_ONLY_MARK = '<div class="tl-schema-only" hidden></div>'
"""The Signature slot of a tool that is only a schema: the CSS hides the slot, and the
toolbar's docstring and defaults choices (they change how Python is read)."""


def _with_schema_lint(rep: Report) -> Report:
    """A JSON or MCP tool's report with the lint rules that read only a schema: the ones
    ``toollens check "mcp:..."`` runs (the others read Python source, which it has none of)."""
    if rep.target_kind != "json-schema" or rep.lint or rep.raw_schema is None:
        return rep
    # lazy: toollens.mcp.lint (~1.4 ms), for an MCP tool's definition only
    from toollens.mcp.lint import definition_lint

    found = definition_lint(
        rep.title, rep.options.description, dict(rep.raw_schema), strict=rep.options.strict
    )
    return dataclasses.replace(rep, lint=found)


def _locate(rep: Report | None, key: object) -> str | None:
    """The source span (``"l1:c1-l2:c2"``) of a ``data-span`` key in the views shown."""
    return None if rep is None else resolve_span(rep, str(key))


def _static_copy(explorer: Explorer) -> str | None:
    """The views as static HTML (what shows where the widget's JavaScript does not run)."""
    rep = explorer.report
    if rep is None:
        return None
    view: FrameworksView | None = getattr(explorer, "_frameworks", None)
    clients: ClientsPanel | None = getattr(explorer, "_clients", None)

    shown = clients.view if clients is not None else None
    static = render_html(rep, clients=shown, client=clients.chosen if clients else None)
    if view is not None and view.comparison is not None:
        # lazy: render.frameworks (~2 ms), for a static copy with a framework comparison only
        from toollens.render.frameworks import comparison_html

        static += comparison_html(view.comparison, view.pair)
    return static


def _build_error(exc: Exception, filename: str) -> LiveError:
    located = exception_error(exc, filename)
    if isinstance(exc, ToolLensError):
        return LiveError("exception", str(exc), located.line)
    return located


def _changes_html(edits: EditChanges, rep: Any, trigger: str, baseline: Baseline) -> str:
    """What changed since the baseline, and what this edit did (``rep=None``: no new report)."""
    try:
        step = edits.step(rep, baseline) if rep is not None else edits.rebased(baseline)
    except Exception as exc:  # a diff failure must not hide the views themselves
        return _escaped_div("tl-changes-error", f"changes unavailable: {exc}")
    return render_change_list(step, trigger=trigger)


def _banner_html(error: LiveError, *, stale: bool) -> str:
    """The error banner: where the source fails, and whether the views below are stale."""
    tail = (
        "The views below are from the last version that worked (stale)."
        if stale
        else "No views yet: fix the source to see them."
    )
    where = f"Line {error.line}" if error.line is not None else "The source"
    if error.line is not None and error.column is not None:
        where += f", column {error.column}"
    return (
        f'<div class="tl-banner-body"><b>{html.escape(where)}:</b> '
        f"{html.escape(error.message)}<br><small>{html.escape(tail)}</small></div>"
    )


def _attach_views(
    explorer: Explorer,
    frameworks: bool | Sequence[str],
    listing: ToolList | None,
    name: str | None,
    caller: Caller | None,
) -> None:
    """The views and helpers built beside the report's: Frameworks, Clients, Try-it, and
    the Remedies (the Fix buttons and the pasted error)."""
    lock = explorer._debouncer.lock
    explorer._frameworks = attach_frameworks(explorer, frameworks, lock)
    explorer._clients = attach_clients(explorer, listing, name, lock)
    explorer.try_view = TryView(explorer, lock, caller)
    explorer.remedies = attach_remedies(explorer)


def _css() -> str:
    return STYLE + WIDGET_STYLE + ROUNDTRIP_STYLE + TRY_STYLE + REMEDY_STYLE


def _escaped_div(cls: str, text: str) -> str:
    return f'<div class="{cls}">{html.escape(text)}</div>'


def _opening(
    start: Opened, caller: Caller | None, options: ReportOptions | None, overrides: Any
) -> tuple[object, ToolList | None, Caller | None, ReportOptions]:
    return (
        start.target,
        start.listing,
        caller or start.caller,
        _options_for(start, options, overrides),
    )


def _options_for(
    start: Opened, options: ReportOptions | None, overrides: OptionOverrides
) -> ReportOptions:
    """The caller's options over the ones a tool was read with (an MCP tool's name and
    description are its own unless the caller names others)."""
    base = options or start.options or ReportOptions()
    if start.options is not None and options is not None:
        base = dataclasses.replace(
            base,
            name=base.name or start.options.name,
            description=base.description or start.options.description,
        )
    return dataclasses.replace(base, **overrides)
