"""The schema-diff widget: two schemas side by side, changed lines marked, changes by severity.

Thin like the explorer: :func:`toollens.core.report.report` gives each side's schema,
:func:`toollens.core.diff.diff` compares them and
:func:`toollens.render.html.render_diff_html` draws the result.
"""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as widgets

from toollens.jupyter.explorer import PROVIDERS

_SCHEMA_ONLY = "schema"


class DiffWidget(widgets.VBox):  # type: ignore[misc]
    """Compare two tools (callables, models or JSON Schemas) and show what changed.

    Args:
        a: the old side.
        b: the new side.
        strict: compare the strict schemas (``True``) or the schemas before strict conversion.
        provider: compare what this provider receives (payloads) instead of bare schemas;
            offered only when both sides are callables.
        **options: other :func:`toollens.core.report.report` options for both sides.
    """

    def __init__(
        self, a: Any, b: Any, *, strict: bool = True, provider: str | None = None, **options: Any
    ) -> None:
        super().__init__()
        self.add_class("tl-diff")
        self.add_class("tl-root")  # the render stylesheet is scoped under .tl-root
        self._a, self._b = a, b
        self._options = options
        self.diff: Any = None
        self.error: str | None = None
        self._html = ""
        self.mode_toggle = widgets.ToggleButtons(
            options=(("strict", True), ("raw", False)), value=strict, description="schema"
        )
        self.mode_toggle.style.button_width = "70px"
        both_callable = callable(a) and callable(b) and not (_is_type(a) or _is_type(b))
        choices = (_SCHEMA_ONLY, *PROVIDERS)
        self.provider_select = widgets.Dropdown(
            options=choices if provider in choices or provider is None else (*choices, provider),
            value=provider or _SCHEMA_ONLY,
            description="provider",
            layout=widgets.Layout(width="auto", display=None if both_callable else "none"),
        )
        self.banner = widgets.HTML(layout=widgets.Layout(display="none"))
        self.banner.add_class("tl-banner")
        self.body = widgets.HTML(layout=widgets.Layout(width="100%"))
        self.body.add_class("tl-diff-body")
        toolbar = widgets.HBox([self.mode_toggle, self.provider_select])
        toolbar.add_class("tl-toolbar")
        self.children = [
            widgets.HTML(f"<style>{_css()}</style>", layout=widgets.Layout(display="none")),
            toolbar,
            self.banner,
            self.body,
        ]
        for control in (self.mode_toggle, self.provider_select):
            control.observe(lambda _change: self.render(), names="value")
        self.render()

    def _side(self, target: Any) -> Any:
        from toollens.core.errors import ToolLensError
        from toollens.core.report import report

        strict = bool(self.mode_toggle.value)
        provider = self.provider_select.value
        rep = report(
            target,
            strict=strict,
            provider=provider if provider != _SCHEMA_ONLY else "openai-chat",
            **self._options,
        )
        if provider != _SCHEMA_ONLY and rep.provider_payload is not None:
            return rep.provider_payload
        schema = rep.schema if strict else rep.raw_schema
        if schema is None:
            why = rep.view_errors.get("strict") or f"{rep.title!r} has no parameters schema"
            raise ToolLensError(why)
        return schema

    def render(self) -> None:
        """Recompute both sides and the diff with the current toggles."""
        from toollens.core.diff import diff
        from toollens.render.html import render_diff_html

        try:
            old, new = self._side(self._a), self._side(self._b)
            self.diff = diff(old, new)
            self._html = str(render_diff_html(self.diff, old, new))
        except Exception as exc:  # any failure is shown in the widget, never as a traceback
            self.error = f"{type(exc).__name__}: {exc}"
            self.banner.value = (
                f'<div class="tl-error-box">Cannot compare: {html.escape(self.error)}</div>'
            )
            self.banner.layout.display = None
            self.body.add_class("tl-stale")
            return
        self.error = None
        self.banner.layout.display = "none"
        self.body.remove_class("tl-stale")
        if self.body.value != self._html:
            self.body.value = self._html

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        if bundle is not None and self._html:
            bundle["text/html"] = self._html  # render_diff_html carries its stylesheet
        return bundle


def _is_type(value: Any) -> bool:
    return isinstance(value, type) or hasattr(value, "__origin__")


def _css() -> str:
    from toollens.render.css import STYLE

    return STYLE
