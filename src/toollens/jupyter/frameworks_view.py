"""The explorer's Frameworks view: what each installed framework sends, kept off typing.

Frameworks take seconds to import and a comparison tens of milliseconds to build, so this
runs ``toollens.compare`` on one worker thread, after the explorer's debounced render, and
only ever for the newest version of the function: a comparison that finishes after a newer
edit is dropped and the newest one runs next. The panel's HTML still comes from ``render``.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from toollens.jupyter.explorer_state import FRAMEWORKS_PANEL
from toollens.render.markup import Markup, note, tag

if TYPE_CHECKING:
    from toollens.jupyter.explorer_state import ExplorerState

__all__ = ["FrameworksView", "attach_frameworks"]

_WAITING = (
    '<div class="tl-fw" data-view="frameworks"><p class="tl-note">'
    "Asking each framework what it sends…</p></div>"
)


class FrameworksView:
    """Builds the comparison for the newest callable and hands its HTML to ``publish``.

    Args:
        frameworks: framework keys to compare, or ``None`` for every installed one.
        publish: called (on the worker thread) with the panel's HTML.
    """

    def __init__(self, frameworks: Sequence[str] | None, publish: Callable[[str], None]) -> None:
        self._frameworks = tuple(frameworks) if frameworks is not None else None
        self._publish = publish
        self._lock = threading.Lock()
        self._wanted: Any = None
        self._generation = 0
        self._worker: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()
        self.comparison: Any = None
        self.pair: tuple[str, str] | None = None

    def request(self, target: object) -> None:
        """Compare ``target`` soon; a newer request replaces one that has not started."""
        with self._lock:
            self._wanted, self._generation = target, self._generation + 1
            self._idle.clear()
            if self._worker is None:
                self._worker = threading.Thread(target=self._run, daemon=True)
                self._worker.start()

    def choose(self, pair: Sequence[str]) -> None:
        """Show the diff between two columns, re-rendered from the comparison already built."""
        if len(pair) == 2:
            self.pair = (str(pair[0]), str(pair[1]))
            if self.comparison is not None:
                self._publish(self._html(self.comparison))

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the newest request is shown (for tests and scripts); False on timeout."""
        return self._idle.wait(timeout)

    def _run(self) -> None:
        # lazy: toollens.frameworks (~4 ms) loads when the Frameworks view opens (issue 50)
        from toollens.frameworks import preload

        # Once per kernel: later calls find the modules imported. An import that fails is
        # reported by compare(), per framework, so it is not an error here.
        with contextlib.suppress(Exception):
            preload(self._frameworks)
        while True:
            with self._lock:
                target, generation = self._wanted, self._generation
            html = self._build(target)
            with self._lock:
                if generation == self._generation:  # nothing newer arrived meanwhile
                    self._publish(html)
                    self._worker = None
                    self._idle.set()
                    return

    def _build(self, target: Any) -> str:
        # lazy: frameworks.compare (~11 ms) loads when the Frameworks view opens (issue 50)
        from toollens.frameworks.compare import compare

        try:
            comparison = compare(target, self._frameworks)
        except Exception as exc:  # a framework or the user's code may raise anything
            return _note(f"The frameworks could not be compared: {exc}")
        self.comparison = comparison
        participants = comparison.participants
        if self.pair is not None and not set(self.pair) <= set(participants):
            self.pair = None
        return self._html(comparison)

    def _html(self, comparison: Any) -> str:
        # lazy: render.frameworks (~2 ms) loads when the Frameworks view opens
        from toollens.render.frameworks import frameworks_panel_html

        return _framed(frameworks_panel_html(comparison, self.pair, picker=True))


def waiting_html() -> str:
    """What the view shows before the first comparison arrives."""
    return _framed(_WAITING)


def _note(text: str) -> str:
    return _framed(str(tag("div", note(text), class_="tl-fw", data_view="frameworks")))


def _framed(body: str) -> str:
    """The view in the same frame and title bar as the explorer's other views."""
    title = tag("div", "Frameworks", class_="tl-panel-title")
    return str(tag("section", title, Markup(body), class_="tl-panel tl-panel-frameworks"))


def attach_frameworks(
    explorer: ExplorerState,
    frameworks: bool | Sequence[str],
    lock: contextlib.AbstractContextManager[object],
) -> FrameworksView | None:
    """Add the Frameworks view to ``explorer`` (``frameworks=`` of the explorer), or ``None``.

    ``lock`` is held while the worker thread publishes, so it never lands inside a render.
    """
    if frameworks is False:
        return None

    def show(html: str) -> None:
        with lock:
            explorer.publish({FRAMEWORKS_PANEL.key: html})

    view = FrameworksView(None if frameworks is True else list(frameworks), show)
    explorer.panel_order = [*explorer.panel_order, FRAMEWORKS_PANEL.key]
    explorer.panel_areas = {**explorer.panel_areas, FRAMEWORKS_PANEL.key: FRAMEWORKS_PANEL.area}
    explorer.publish({FRAMEWORKS_PANEL.key: waiting_html()})
    explorer.observe(lambda change: view.choose(change["new"]), names="frameworks_pair")
    return view
