"""The schema-diff widget: two schemas side by side, changed lines marked, changes by severity.

Thin like the explorer: :func:`toollens.core.report.report` gives each side's schema,
:func:`toollens.core.diff.diff` compares them and
:func:`toollens.render.html.render_diff_html` draws the result; the front end (the same
bundle as the explorer's) only shows that HTML and the two toggles.
"""

from __future__ import annotations

import dataclasses
import html
from typing import Any, cast

import traitlets

from toollens.core.choices import DEFAULT_PROVIDER, PROVIDER_IDS, ProviderId
from toollens.core.diff import diff
from toollens.core.errors import ToolLensError
from toollens.core.report import ReportOptions, report
from toollens.jupyter.widget_base import BaseWidget
from toollens.render.css import STYLE, WIDGET_STYLE
from toollens.render.diff_html import render_diff_html

_SCHEMA_ONLY = "schema"


class DiffWidget(BaseWidget):
    """Compare two tools (callables, models or JSON Schemas) and show what changed.

    Args:
        a: the old side.
        b: the new side.
        strict: compare the strict schemas (``True``) or the schemas before strict conversion;
            ``options.strict`` when not given.
        provider: compare what this provider receives (payloads) instead of bare schemas;
            offered only when both sides are callables.
        options: the :class:`~toollens.core.report.ReportOptions` both sides are built with
            (strict and provider come from the widget's own controls).
        **changes: fields of ``ReportOptions`` to change, e.g. ``docstring_style="numpy"``.
    """

    view_kind = traitlets.Unicode("diff").tag(sync=True)
    css = traitlets.Unicode().tag(sync=True)
    strict = traitlets.Bool(True).tag(sync=True)
    provider = traitlets.Unicode(_SCHEMA_ONLY).tag(sync=True)
    providers = traitlets.List(traitlets.Unicode()).tag(sync=True)
    html = traitlets.Unicode("").tag(sync=True)
    banner = traitlets.Unicode("").tag(sync=True)

    def __init__(
        self,
        a: Any,
        b: Any,
        options: ReportOptions | None = None,
        *,
        strict: bool | None = None,
        provider: str | None = None,
        **changes: Any,
    ) -> None:
        opened = dataclasses.replace(options or ReportOptions(), **changes)
        both_callable = callable(a) and callable(b) and not (_is_type(a) or _is_type(b))
        choices = [_SCHEMA_ONLY, *PROVIDER_IDS]
        if provider is not None and provider not in choices:
            choices.append(provider)
        super().__init__(
            css=_css(),
            strict=opened.strict if strict is None else strict,
            provider=provider or _SCHEMA_ONLY,
            # One choice means no provider menu: payloads compare only for two callables.
            providers=choices if both_callable else [_SCHEMA_ONLY],
        )
        self.add_class("tl-diff")
        self._a, self._b = a, b
        self._options = opened
        self.diff: Any = None
        self.error: str | None = None
        self.observe(lambda _change: self.render(), names=["strict", "provider"])
        self.render()

    def _side(self, target: Any) -> Any:
        strict = bool(self.strict)
        provider = self.provider
        # An unknown name is passed on as given: the report's provider view says so.
        shown = cast("ProviderId", provider) if provider != _SCHEMA_ONLY else DEFAULT_PROVIDER
        rep = report(target, self._options, strict=strict, provider=shown)
        if provider != _SCHEMA_ONLY and rep.provider_payload is not None:
            return rep.provider_payload
        schema = rep.schema if strict else rep.raw_schema
        if schema is None:
            why = rep.view_errors.get("strict") or f"{rep.title!r} has no parameters schema"
            raise ToolLensError(why)
        return schema

    def render(self) -> None:
        """Recompute both sides and the diff with the current toggles."""
        try:
            old, new = self._side(self._a), self._side(self._b)
            self.diff = diff(old, new)
            page = str(render_diff_html(self.diff, old, new))
        except Exception as exc:  # any failure is shown in the widget, never as a traceback
            self.error = f"{type(exc).__name__}: {exc}"
            self.banner = (
                f'<div class="tl-error-box">Cannot compare: {html.escape(self.error)}</div>'
            )
            return
        self.error = None
        with self.hold_sync():
            self.banner = ""
            self.html = page

    def _static_html(self) -> str | None:
        return self.html or None  # render_diff_html carries its stylesheet


def _is_type(value: Any) -> bool:
    return isinstance(value, type) or hasattr(value, "__origin__")


def _css() -> str:
    return STYLE + WIDGET_STYLE
