"""Report -> HTML (escaped, styled) and plain text; pure functions over core results.

Importing this package also registers how a notebook displays a ``Report`` and the other
displayable records (see ``toollens.core.display_hooks``): the display of a record lives
here, not in core. The records other than ``Report`` are registered by name, and every
renderer and re-exported function is imported when first used, so importing a submodule
(the explorer imports ``toollens.render.markup`` and ``.html``) does not import the
frameworks, clients, round-trip and toolset renderers with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from toollens.core.display_hooks import register_renderer
from toollens.render.css import STYLE, style_tag

if TYPE_CHECKING:
    from toollens.core.report import Report
    from toollens.frameworks.compare import Comparison
    from toollens.render.clients_view import ToolClients
    from toollens.roundtrip.records import CallResult, FuzzReport
    from toollens.tokens.result import TokenCount
    from toollens.toolsets import Toolset

# Re-exported names, each from the module that defines it (imported on first use).
_FROM_HTML = frozenset(
    ("render_diff_html", "render_edit_changes", "render_header", "render_html", "render_panels")
)
_FROM_TEXT = frozenset(("render_text", "render_view", "view_data"))


def __getattr__(name: str) -> Any:
    if name in _FROM_HTML:
        # lazy: render.html (~170 ms) loads on first use; `import toollens.render` stays light
        from toollens.render import html

        value = getattr(html, name)
    elif name in _FROM_TEXT:
        # lazy: render.text (~100 ms) loads on first use; `import toollens.render` stays light
        from toollens.render import text

        value = getattr(text, name)
    else:
        raise AttributeError(f"module 'toollens.render' has no attribute {name!r}")
    globals()[name] = value
    return value


_T = TypeVar("_T")


def report_mimebundle(rep: Report) -> dict[str, str]:
    """How a notebook shows a Report: plain text and the static HTML report."""
    # lazy: the report renderers (~170 ms) load when a Report is first displayed
    from toollens.render.html import render_html
    from toollens.render.text import render_text

    return {"text/plain": render_text(rep), "text/html": render_html(rep)}


def comparison_mimebundle(comparison: Comparison) -> dict[str, str]:
    """How a notebook shows a framework Comparison: its text and its HTML panel."""
    # lazy: registered by class name: loads when a Comparison is first displayed
    from toollens.render.frameworks import comparison_html, comparison_text

    return {"text/plain": comparison_text(comparison), "text/html": comparison_html(comparison)}


def tokens_mimebundle(count: TokenCount) -> dict[str, str]:
    """How a notebook shows a token count: a table with a bar per part."""
    # lazy: registered by class name: loads when a TokenCount is first displayed
    from toollens.render.tokens import tokens_html, tokens_text

    return {"text/plain": tokens_text(count), "text/html": str(tokens_html(count))}


def _laid_out(render: Callable[[_T], dict[str, str]]) -> Callable[[_T], dict[str, str]]:
    """``render`` with its HTML's layout copied inline: it reads well where a sanitizer
    strips the stylesheet (an untrusted notebook, GitHub, nbviewer, VS Code)."""

    def laid_out(value: _T) -> dict[str, str]:
        # lazy: render.inline (~3 ms) loads when a record is first displayed
        from toollens.render.inline import inline_layout

        bundle = render(value)
        if "text/html" in bundle:
            bundle = {**bundle, "text/html": inline_layout(bundle["text/html"])}
        return bundle

    return laid_out


def _toolset_mimebundle(toolset: Toolset) -> dict[str, str]:
    # lazy: the toolset page brings assess and the clients (~250 ms); shown on demand
    from toollens.render.toolset_html import toolset_mimebundle

    return toolset_mimebundle(toolset)


def _call_mimebundle(result: CallResult) -> dict[str, str]:
    # lazy: the round-trip views (~130 ms) load when a CallResult is first displayed
    from toollens.render.roundtrip_html import call_mimebundle

    return call_mimebundle(result)


def _fuzz_mimebundle(result: FuzzReport) -> dict[str, str]:
    # lazy: the round-trip views (~130 ms) load when a FuzzReport is first displayed
    from toollens.render.roundtrip_html import fuzz_mimebundle

    return fuzz_mimebundle(result)


def _clients_mimebundle(clients: ToolClients) -> dict[str, str]:
    # lazy: the clients' views (~180 ms) load when ToolClients are first displayed
    from toollens.render.clients_html import clients_mimebundle

    return clients_mimebundle(clients)


# By name: the classes' modules are imported by whoever makes such a record, not here
# (the command line's emitters import this package and never build a Report).
# Every HTML but the toolset's (a page of its own: scripted, not inlined) has its layout
# copied inline.
_RENDERED_BY_NAME: dict[str, Callable[[Any], dict[str, str]]] = {
    "toollens.core.report.Report": _laid_out(report_mimebundle),
    "toollens.frameworks.compare.Comparison": _laid_out(comparison_mimebundle),
    "toollens.toolsets.model.Toolset": _toolset_mimebundle,
    "toollens.roundtrip.records.CallResult": _laid_out(_call_mimebundle),
    "toollens.roundtrip.records.FuzzReport": _laid_out(_fuzz_mimebundle),
    "toollens.tokens.result.TokenCount": _laid_out(tokens_mimebundle),
    "toollens.render.clients_view.ToolClients": _laid_out(_clients_mimebundle),
}
for _name, _render in _RENDERED_BY_NAME.items():
    register_renderer(_name, _render)

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
