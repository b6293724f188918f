"""Report -> HTML (escaped, styled) and plain text; pure functions over core results."""

from __future__ import annotations

from toollens.render.css import STYLE, style_tag
from toollens.render.html import (
    render_diff_html,
    render_edit_changes,
    render_header,
    render_html,
    render_panels,
)
from toollens.render.text import render_text, render_view, view_data

__all__ = [
    "STYLE",
    "render_diff_html",
    "render_edit_changes",
    "render_header",
    "render_html",
    "render_panels",
    "render_text",
    "render_view",
    "style_tag",
    "view_data",
]
