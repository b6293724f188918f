"""What the explorer shares with its front end: the synced traits, and the toolbar's options.

The toolbar's traits are strings and flags the front end can show; :func:`toolbar_traits`
and :func:`toolbar_options` translate between them and the one typed
:class:`~toollens.core.report.ReportOptions` the report is computed with.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

import traitlets

from toollens.core.choices import (
    DEFAULT_PROVIDER,
    OPTIONAL_DEFAULTS,
    PROVIDER_IDS,
    DocstringStyleName,
    OptionalDefaults,
    ProviderId,
)
from toollens.core.choices import DOCSTRING_STYLES as _STYLES
from toollens.core.report import ReportOptions
from toollens.jupyter.panel_patch import PanelSync, Published
from toollens.jupyter.widget_base import BaseWidget

if TYPE_CHECKING:
    from toollens.core.report import Report

__all__ = [
    "DOCSTRING_STYLES",
    "OPTIONAL_DEFAULTS",
    "PANELS",
    "PANEL_DECLARATIONS",
    "TOOLBAR",
    "ExplorerState",
    "Panel",
    "toolbar_options",
    "toolbar_traits",
]

DOCSTRING_STYLES: tuple[str, ...] = ("auto", *_STYLES)  # "auto": detect from the text

Area = Literal["views", "below"]


@dataclass(frozen=True)
class Panel:
    """One view of the explorer, declared once: the front end makes its slot from this.

    Attributes:
        key: the view's name (``data-panel`` and class ``tl-slot-<key>`` in the page).
        area: ``"views"`` -- one of the views that sit side by side -- or ``"below"``, a
            full-width row under them.
        render: how the view is made from a report; ``None`` for the views
            :func:`~toollens.render.html.render_panels` renders together, and for views
            filled elsewhere (the Frameworks view, built on a worker thread).
    """

    key: str
    area: Area = "views"
    render: Callable[[Report], str] | None = None


#: The explorer's views, in page order. Adding a view is adding one entry here (with its
#: ``render``); its HTML travels in the same synced base/patch state as every other view.
PANEL_DECLARATIONS: tuple[Panel, ...] = (
    Panel("signature"),
    Panel("metadata"),
    Panel("strict"),
    Panel("output"),
    Panel("findings", "below"),
)
FRAMEWORKS_PANEL = Panel("frameworks", "below")
PANELS = tuple(panel.key for panel in PANEL_DECLARATIONS)

#: Each toolbar trait, and how the change list names a change of it ("what triggered this").
TOOLBAR = {
    "strict": "strict {}",
    "provider": "provider: {}",
    "docstring_style": "docstring: {}",
    "optional_defaults": "optional defaults: {}",
    "name_override": "name override",
    "description_override": "description override",
}


class ExplorerState(BaseWidget):
    """The explorer's synced traits: the editor's text, the toolbar, one trait per panel."""

    view_kind = traitlets.Unicode("explorer").tag(sync=True)
    css = traitlets.Unicode().tag(sync=True)
    # Not echoed back to the page on every keystroke (ipywidgets 8 echoes each front-end
    # change by default): for a 240-parameter tool that is ~30 KB per key.
    source = traitlets.Unicode().tag(sync=True, echo_update=False)
    read_only = traitlets.Bool(False).tag(sync=True)
    strict = traitlets.Bool(True).tag(sync=True)
    provider = traitlets.Unicode(DEFAULT_PROVIDER).tag(sync=True)
    providers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    docstring_style = traitlets.Enum(DOCSTRING_STYLES, "auto").tag(sync=True)
    docstring_styles = traitlets.List(traitlets.Unicode(), list(DOCSTRING_STYLES)).tag(sync=True)
    optional_defaults = traitlets.Enum(OPTIONAL_DEFAULTS, "keep").tag(sync=True)
    optional_defaults_choices = traitlets.List(
        traitlets.Unicode(), [str(choice) for choice in OPTIONAL_DEFAULTS]
    ).tag(sync=True)
    name_override = traitlets.Unicode("").tag(sync=True)
    description_override = traitlets.Unicode("").tag(sync=True)
    can_apply = traitlets.Bool(False).tag(sync=True)
    # The strict diff's layout: only the one shown is rendered and sent.
    side_by_side = traitlets.Bool(False).tag(sync=True)
    # Filled from PANEL_DECLARATIONS when the explorer is made (see __init__).
    panel_order = traitlets.List(traitlets.Unicode()).tag(sync=True)
    panel_areas = traitlets.Dict().tag(sync=True)
    # Each view's HTML as last sent whole, and the ops that turn it into the HTML now (see
    # panel_patch): an edit of a big tool sends a few lines, not every view again.
    panel_base = traitlets.Dict().tag(sync=True)
    panel_patch = traitlets.Dict().tag(sync=True)
    frameworks_pair = traitlets.List(traitlets.Unicode()).tag(sync=True)
    client = traitlets.Unicode("").tag(sync=True)  # the Clients view's choice (clients_panel)
    changes = traitlets.Unicode("").tag(sync=True)
    # What the change list compares with: the schema as opened, or as last applied.
    changes_since = traitlets.Enum(("opened", "applied"), "opened").tag(sync=True)
    banner = traitlets.Unicode("").tag(sync=True)
    error_mark = traitlets.Dict().tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)
    stale = traitlets.Bool(False).tag(sync=True)
    # The Try-it view (jupyter/try_view.py): folded until opened, and idle while folded.
    try_available = traitlets.Bool(True).tag(sync=True)
    try_open = traitlets.Bool(False).tag(sync=True)
    try_arguments = traitlets.Unicode("").tag(sync=True, echo_update=False)
    try_html = traitlets.Unicode("").tag(sync=True)
    try_marks = traitlets.List(traitlets.Dict()).tag(sync=True)
    try_can_call = traitlets.Bool(False).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        self.declarations = PANEL_DECLARATIONS  # read when made: a view added is picked up
        super().__init__(
            panel_order=[p.key for p in self.declarations],
            panel_areas={p.key: p.area for p in self.declarations},
            **kwargs,
        )
        self._sync = PanelSync()

    @property
    def panels(self) -> dict[str, str]:
        """Each view's current HTML, by panel key (see :data:`PANELS`)."""
        return {key: self._sync.current.get(key, "") for key in self.panel_order}

    def publish(self, fresh: dict[str, str]) -> Published:
        """Sync the views in ``fresh`` that changed (as patches when they are small)."""
        published = self._sync.publish(fresh)
        with self.hold_sync():
            if published.bases is not None:
                self.panel_base = published.bases
            if published.updated:
                self.panel_patch = published.patches
        return published


def toolbar_traits(options: ReportOptions) -> dict[str, object]:
    """The toolbar's trait values that show ``options``."""
    style = options.docstring_style
    return {
        "strict": options.strict,
        "provider": options.provider,
        "providers": list(
            PROVIDER_IDS if options.provider in PROVIDER_IDS else (*PROVIDER_IDS, options.provider)
        ),
        "docstring_style": "auto" if style is None else str(getattr(style, "value", style)),
        "optional_defaults": options.optional_defaults or "keep",
        "name_override": options.name or "",
        "description_override": options.description or "",
    }


def toolbar_options(state: ExplorerState, base: ReportOptions) -> ReportOptions:
    """``base`` with what the toolbar currently says (the rest, e.g. output_type, kept)."""
    style, optional = str(state.docstring_style), str(state.optional_defaults)
    return dataclasses.replace(
        base,
        strict=bool(state.strict),
        # An unknown name round-trips as given: the report's provider view says so.
        provider=cast("ProviderId", str(state.provider)),
        docstring_style=None if style == "auto" else cast("DocstringStyleName", style),
        name=state.name_override or None,
        description=state.description_override or None,
        optional_defaults=None if optional == "keep" else cast("OptionalDefaults", optional),
    )


def trigger_text(name: str, value: object) -> str:
    """How the change list names a toolbar change: ``strict off``, ``provider: gemini``."""
    if name == "strict":
        return TOOLBAR[name].format("on" if value else "off")
    return TOOLBAR[name].format(value)
