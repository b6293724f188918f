"""The explorer widget: edit a tool's source and watch every view the model sees update.

The widget is thin: :func:`toollens.core.report.report` computes the views and
:func:`toollens.render.html.render_panels` renders them; this module keeps the editor's text,
the toolbar's options and the rendered panels as synced traits of one anywidget, debounces
edits, and keeps the last good views (marked stale) while the source does not run. The
front end (``frontend/src``, bundled into ``static/explorer.js``) hosts a CodeMirror editor
and places the panels; it renders nothing of its own.
"""

from __future__ import annotations

import asyncio
import html
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import traitlets

from toollens.core.edit_changes import EditChanges
from toollens.core.metadata import MISSING
from toollens.core.providers import PROVIDERS as _PROVIDER_TABLE
from toollens.jupyter.edit_session import EditSession
from toollens.jupyter.frameworks_view import FrameworksView, waiting_html
from toollens.jupyter.live import (
    LiveError,
    exception_error,
)
from toollens.jupyter.widget_base import BaseWidget

PROVIDERS = tuple(_PROVIDER_TABLE)
DOCSTRING_STYLES = ("auto", "google", "numpy", "sphinx")  # "auto": detect from the text
OPTIONAL_DEFAULTS = ("keep", "nullable")
# Where the front end places each view: the strict schema and the metadata table get the
# whole width (they are what an author reads), signature and output share a row, findings last.
# Adding a view (e.g. "frameworks"): put its key here, declare a synced ``panel_<key>`` trait
# on Explorer, and have render_panels() return it; the front end makes a slot per key
# (class ``tl-slot-<key>``, in this order) and redraws/flashes it when its trait changes.
PANELS = ("strict", "metadata", "signature", "output", "findings")
# Lines shown of a folded JSON document (the schema before strict conversion, the provider
# payload) while editing: every edit resends the panels, and for a tool with hundreds of
# parameters those documents are most of the bytes. The static report shows every line.
FOLDED_LINES = 400

Cancel = Callable[[], None]
Scheduler = Callable[[float, Callable[[], None]], Cancel]

# What each toolbar trait is called in the change list ("what triggered this").
_TRIGGERS = {
    "provider": "provider: {}",
    "docstring_style": "docstring: {}",
    "optional_defaults": "optional defaults: {}",
    "name_override": "name override",
    "description_override": "description override",
}


@dataclass(frozen=True)
class RenderStats:
    """What the last render did: which views changed and how many bytes they resent."""

    ok: bool
    panels_updated: tuple[str, ...] = ()
    bytes_sent: int = 0
    seconds: float = 0.0


def default_scheduler(delay: float, callback: Callable[[], None]) -> Cancel:
    """Run ``callback`` after ``delay`` seconds on the kernel's event loop, else a timer thread."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        timer = threading.Timer(delay, callback)
        timer.daemon = True
        timer.start()
        return timer.cancel
    return loop.call_later(delay, callback).cancel


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


class Explorer(BaseWidget):
    """Edit a tool's source (or JSON Schema) and see every view update live.

    Args:
        target: a function, a pydantic model class, an output type, or a JSON Schema dict.
        output_type, strict, provider, docstring_style, name, description, optional_defaults,
            context_types: passed to :func:`toollens.core.report.report`.
        debounce: seconds to wait after an edit before rendering; ``0`` renders at once.
        namespace: where Apply binds the edited function (``%toolschema`` passes the
            notebook's user namespace); the function's module globals when not given. Edits
            always run against a copy of the function's own module globals.
        source: the text to edit instead of the target's own source (a ``%%toolschema`` cell).
        source_transform: applied to the text before it runs (IPython syntax in a cell).
        scheduler: ``scheduler(delay, callback) -> cancel`` used for the debounce.
        frameworks: ``True`` adds a Frameworks view (what each installed framework sends,
            a matrix of where they disagree and a diff between any two), a list names the
            frameworks to compare; built on a worker thread after each render, never while
            you type. Off by default: frameworks take seconds to import.
    """

    view_kind = traitlets.Unicode("explorer").tag(sync=True)
    css = traitlets.Unicode().tag(sync=True)
    source = traitlets.Unicode().tag(sync=True)
    read_only = traitlets.Bool(False).tag(sync=True)
    strict = traitlets.Bool(True).tag(sync=True)
    provider = traitlets.Unicode("openai-chat").tag(sync=True)
    providers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    docstring_style = traitlets.Unicode("auto").tag(sync=True)
    docstring_styles = traitlets.List(traitlets.Unicode(), list(DOCSTRING_STYLES)).tag(sync=True)
    optional_defaults = traitlets.Unicode("keep").tag(sync=True)
    optional_defaults_choices = traitlets.List(traitlets.Unicode(), list(OPTIONAL_DEFAULTS)).tag(
        sync=True
    )
    name_override = traitlets.Unicode("").tag(sync=True)
    description_override = traitlets.Unicode("").tag(sync=True)
    can_apply = traitlets.Bool(False).tag(sync=True)
    panel_order = traitlets.List(traitlets.Unicode(), list(PANELS)).tag(sync=True)
    # One trait per view, so an edit resends only the views it changed.
    panel_strict = traitlets.Unicode("").tag(sync=True)
    panel_metadata = traitlets.Unicode("").tag(sync=True)
    panel_signature = traitlets.Unicode("").tag(sync=True)
    panel_output = traitlets.Unicode("").tag(sync=True)
    panel_findings = traitlets.Unicode("").tag(sync=True)
    # The Frameworks view (opt-in: ``frameworks=``), filled by a worker thread.
    panel_frameworks = traitlets.Unicode("").tag(sync=True)
    frameworks_pair = traitlets.List(traitlets.Unicode()).tag(sync=True)
    changes = traitlets.Unicode("").tag(sync=True)
    banner = traitlets.Unicode("").tag(sync=True)
    error_mark = traitlets.Dict().tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)
    stale = traitlets.Bool(False).tag(sync=True)

    def __init__(
        self,
        target: Any,
        *,
        output_type: Any = MISSING,
        strict: bool = True,
        provider: str = "openai-chat",
        docstring_style: str | None = None,
        name: str | None = None,
        description: str | None = None,
        optional_defaults: str | None = None,
        context_types: Iterable[Any] | None = None,
        debounce: float = 0.1,
        namespace: dict[str, Any] | None = None,
        source: str | None = None,
        source_transform: Callable[[str], str] | None = None,
        scheduler: Scheduler | None = None,
        frameworks: bool | Sequence[str] = False,
    ) -> None:
        session = EditSession(target, source, namespace, source_transform)
        super().__init__(
            css=_css(),
            source=session.text,
            read_only=session.mode == "read-only",
            strict=strict,
            provider=provider,
            providers=list(PROVIDERS if provider in PROVIDERS else (*PROVIDERS, provider)),
            docstring_style=docstring_style or "auto",
            optional_defaults=optional_defaults or "keep",
            name_override=name or "",
            description_override=description or "",
        )
        self.add_class("tl-explorer")
        self._session, self._base_note = session, session.note
        self._output_type = output_type
        self._context_types = tuple(context_types or ())
        self._debounce = debounce
        self._scheduler = scheduler or default_scheduler
        self._lock = threading.RLock()
        self._pending: Cancel | None = None
        self._trigger = "open"
        self.report: Any = None
        self.error: LiveError | None = None
        self.last_render_stats = RenderStats(ok=False)
        self._failure: Exception | None = None
        self._edits = EditChanges()  # the previous schema, for "what this edit changed"
        self.editor = WidgetSource(self)
        self._frameworks = self._frameworks_view(frameworks)
        self._set_note(session.note)
        self.observe(self._on_edit, names="source")
        self.observe(self._on_option, names=["strict", *_TRIGGERS])
        self.on_msg(self._on_message)
        self.render()
        if self.report is None and session.mode == "read-only" and self._failure is not None:
            raise self._failure

    # -- rendering -------------------------------------------------------------------------

    def options(self) -> dict[str, Any]:
        """The keyword arguments the toolbar currently gives ``report``."""
        return {
            "strict": bool(self.strict),
            "provider": self.provider,
            "docstring_style": None if self.docstring_style == "auto" else self.docstring_style,
            "name": self.name_override or None,
            "description": self.description_override or None,
            "output_type": self._output_type,
            "optional_defaults": None
            if self.optional_defaults == "keep"
            else self.optional_defaults,
            "context_types": self._context_types,
        }

    def _on_edit(self, _change: Any) -> None:
        self._trigger = "edit"
        if self._debounce <= 0:
            self.render()
            return
        with self._lock:
            self._cancel_pending()
            self._pending = self._scheduler(self._debounce, self.render)

    def _on_option(self, change: Any) -> None:
        name = change["name"]
        if name == "strict":
            self._trigger = "strict on" if change["new"] else "strict off"
        else:
            self._trigger = _TRIGGERS[name].format(change["new"])
        self.render()

    def _frameworks_view(self, frameworks: bool | Sequence[str]) -> FrameworksView | None:
        if frameworks is False:
            return None
        chosen = None if frameworks is True else list(frameworks)
        view = FrameworksView(chosen, self._show_frameworks)
        self.panel_order = [*PANELS, "frameworks"]
        self.panel_frameworks = waiting_html()
        self.observe(lambda change: view.choose(change["new"]), names="frameworks_pair")
        return view

    def _show_frameworks(self, html: str) -> None:
        self.panel_frameworks = html

    def wait_frameworks(self, timeout: float | None = None) -> bool:
        """Block until the Frameworks view shows the current source (False on timeout)."""
        return self._frameworks is None or self._frameworks.wait(timeout)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "apply":
            self.apply()

    def _cancel_pending(self) -> None:
        if self._pending is not None:
            self._pending()
            self._pending = None

    def flush(self) -> None:
        """Run a pending (debounced) render now; a no-op when nothing is pending."""
        with self._lock:
            if self._pending is not None:
                self.render()

    def render(self) -> None:
        """Render the current source and toolbar options now."""
        from toollens.core.report import report

        with self._lock, self.hold_sync():
            self._cancel_pending()
            started = time.perf_counter()
            self._failure = None
            target, error, note = self._current_target()
            rep = None
            if error is None:
                try:
                    rep = report(target, **self.options())
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

    @property
    def panels(self) -> dict[str, str]:
        """Each view's current HTML, by panel key (see :data:`PANELS`)."""
        return {key: str(getattr(self, f"panel_{key}")) for key in PANELS}

    def _current_target(self) -> tuple[Any, LiveError | None, str | None]:
        return self._session.current_target(self.source)

    def _show(self, rep: Any, note: str | None, started: float) -> None:
        from toollens.render.html import render_panels

        fresh = render_panels(rep, folded_lines=FOLDED_LINES)
        fresh = {key: fresh.get(key, "") for key in PANELS}
        old = self.panels
        updated = [key for key in PANELS if old[key] != fresh[key]]
        sent = sum(len(fresh[key].encode()) for key in updated)
        for key in updated:
            setattr(self, f"panel_{key}", fresh[key])
        changes = self._changes_html(rep)
        if changes != self.changes:
            self.changes = changes
            updated.append("changes")
            sent += len(changes.encode())
        self.report = rep
        self.error = None
        self.error_mark = {}
        self.banner = ""
        self.stale = False
        self._set_note(note or self._base_note)
        self.can_apply = self._session.can_apply
        self.last_render_stats = RenderStats(
            True, tuple(updated), sent, time.perf_counter() - started
        )

    def _changes_html(self, rep: Any) -> str:
        from toollens.render.diff_html import render_edit_changes

        try:
            changes = self._edits.advance(rep)
        except Exception as exc:  # a diff failure must not hide the views themselves
            return _escaped_div("tl-changes-error", f"changes unavailable: {exc}")
        if changes is None:
            return str(render_edit_changes(None))
        return str(render_edit_changes(changes, trigger=self._trigger))

    def _show_error(self, error: LiveError, started: float) -> None:
        self.error = error
        stale = self.report is not None
        tail = (
            "The views below are from the last version that worked (stale)."
            if stale
            else "No views yet: fix the source to see them."
        )
        where = f"Line {error.line}" if error.line is not None else "The source"
        if error.line is not None and error.column is not None:
            where += f", column {error.column}"
        body = (
            f'<div class="tl-banner-body"><b>{html.escape(where)}:</b> '
            f"{html.escape(error.message)}<br><small>{html.escape(tail)}</small></div>"
        )
        self.error_mark = {"line": error.line, "column": error.column, "message": error.message}
        self.banner = body
        self.stale = stale
        self.can_apply = False
        self.last_render_stats = RenderStats(
            False, ("banner",), len(body.encode()), time.perf_counter() - started
        )

    def _set_note(self, note: str | None) -> None:
        self.note = _escaped_div("tl-note-body", note) if note else ""

    # -- apply, display, teardown ----------------------------------------------------------

    def apply(self) -> bool:
        """Write the edited source into the namespace (the Apply button); ``True`` on success."""
        ok, note = self._session.apply(self.source)
        if note is not None:
            self._set_note(note)
        return ok

    def __repr__(self) -> str:
        session = getattr(self, "_session", None)  # None when __init__ raised early
        return f"<toollens Explorer of {session.label if session else '?'}>"

    def _static_html(self) -> str | None:
        if self.report is None:
            return None
        from toollens.render.html import render_html

        static = render_html(self.report)
        view = getattr(self, "_frameworks", None)
        if view is not None and view.comparison is not None:
            from toollens.render.frameworks import comparison_html

            static += comparison_html(view.comparison, view.pair)
        return static

    def close(self) -> None:
        lock = getattr(self, "_lock", None)  # None when __init__ raised before setting it
        if lock is not None:
            with lock:
                self._cancel_pending()
        super().close()


def _build_error(exc: Exception, filename: str) -> LiveError:
    from toollens.core.errors import ToolLensError

    located = exception_error(exc, filename)
    if isinstance(exc, ToolLensError):
        return LiveError("exception", str(exc), located.line)
    return located


def _css() -> str:
    from toollens.render.css import STYLE, WIDGET_STYLE

    return STYLE + WIDGET_STYLE


def _escaped_div(cls: str, text: str) -> str:
    return f'<div class="{cls}">{html.escape(text)}</div>'
