"""Report -> HTML (escaped, styled) and plain text; pure functions over core results.

Importing this package also registers how a notebook displays a ``Report`` (see
``toollens.core.display_hooks``): the display of a report lives here, not in core.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from toollens.core.display_hooks import register_renderer
from toollens.core.report import Report
from toollens.frameworks.compare import Comparison
from toollens.render.clients_html import clients_mimebundle
from toollens.render.clients_view import ToolClients
from toollens.render.css import STYLE, style_tag
from toollens.render.html import (
    render_diff_html,
    render_edit_changes,
    render_header,
    render_html,
    render_panels,
)
from toollens.render.inline import inline_layout
from toollens.render.roundtrip_html import call_mimebundle, fuzz_mimebundle
from toollens.render.text import render_text, render_view, view_data
from toollens.render.toolset_html import toolset_mimebundle
from toollens.roundtrip.records import CallResult, FuzzReport
from toollens.tokens.result import TokenCount
from toollens.toolsets import Toolset

_T = TypeVar("_T")


def report_mimebundle(rep: Report) -> dict[str, str]:
    """How a notebook shows a Report: plain text and the static HTML report."""
    return {"text/plain": render_text(rep), "text/html": render_html(rep)}


def comparison_mimebundle(comparison: Comparison) -> dict[str, str]:
    """How a notebook shows a framework Comparison: its text and its HTML panel."""
    from toollens.render.frameworks import comparison_html, comparison_text

    return {"text/plain": comparison_text(comparison), "text/html": comparison_html(comparison)}


def tokens_mimebundle(count: TokenCount) -> dict[str, str]:
    """How a notebook shows a token count: a table with a bar per part."""
    from toollens.render.tokens import tokens_html, tokens_text

    return {"text/plain": tokens_text(count), "text/html": str(tokens_html(count))}


def _laid_out(render: Callable[[_T], dict[str, str]]) -> Callable[[_T], dict[str, str]]:
    """``render`` with its HTML's layout copied inline: it reads well where a sanitizer
    strips the stylesheet (an untrusted notebook, GitHub, nbviewer, VS Code)."""

    def laid_out(value: _T) -> dict[str, str]:
        bundle = render(value)
        if "text/html" in bundle:
            bundle = {**bundle, "text/html": inline_layout(bundle["text/html"])}
        return bundle

    return laid_out


register_renderer(Report, _laid_out(report_mimebundle))
register_renderer(Comparison, _laid_out(comparison_mimebundle))
register_renderer(Toolset, toolset_mimebundle)  # a page of its own: scripted, not inlined
register_renderer(CallResult, _laid_out(call_mimebundle))
register_renderer(FuzzReport, _laid_out(fuzz_mimebundle))
register_renderer(TokenCount, _laid_out(tokens_mimebundle))
register_renderer(ToolClients, _laid_out(clients_mimebundle))

__all__ = [
    "STYLE",
    "comparison_mimebundle",
    "render_diff_html",
    "render_edit_changes",
    "render_header",
    "render_html",
    "render_panels",
    "render_text",
    "render_view",
    "report_mimebundle",
    "style_tag",
    "view_data",
]
