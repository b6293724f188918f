"""A toolset as one self-contained HTML page (``toollens report --html``), compact at any size.

The page holds its stylesheet, the table model as JSON, the table script (the widget's own
table code, bundled by ``frontend/build.mjs`` into ``static/toolset_page.js``) and each tool's
views, rendered here once as they are everywhere else (:mod:`toollens.render.html`), but
stored deflated: the views of neighbouring tools are packed into chunks (so what tools share,
their markup and the structures they repeat, is stored once per chunk), and a chunk is
inflated in the browser (``DecompressionStream``) when one of its tools opens. Nothing is
fetched: the page is one offline file. Its first rows are written out as HTML too (what the
script then draws the same way), so the table paints with the first bytes, as a page with
every tool inlined did.
"""

from __future__ import annotations

import base64
import json
import pathlib
import zlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from toollens.core.report import View
from toollens.core.schema.types import JsonValue
from toollens.render.clients_html import clients_panel_html
from toollens.render.clients_view import tools_clients
from toollens.render.css import STYLE
from toollens.render.html import render_header, render_panels
from toollens.render.markup import Markup, tag
from toollens.render.toolset_html import (
    TOOLSET_STYLE,
    across_html,
    assessed,
    assessment_table,
    rows_html,
    shared_html,
    totals_html,
)
from toollens.render.toolset_table import LEVELS, PAGE_ROWS

if TYPE_CHECKING:
    from toollens.assess import Assessment
    from toollens.consumers import ConsumerReport
    from toollens.render.clients_view import ToolClients
    from toollens.render.toolset_table import ToolsetTable
    from toollens.toolsets import Tool, Toolset

__all__ = ["CHUNK_BYTES", "PAGE_BUNDLE", "render_toolset_page", "tool_views_html"]

PAGE_BUNDLE = pathlib.Path(__file__).with_name("static") / "toolset_page.js"

# Views of neighbouring tools go into one chunk until it holds about this much HTML: enough
# for deflate to find what tools repeat, small enough to inflate in a few milliseconds.
CHUNK_BYTES = 256 * 1024
# The findings across tools are shown as they are up to this much HTML, else folded away and
# stored deflated too (a thousand similar tools can have thousands of similar pairs).
ACROSS_INLINE_BYTES = 64 * 1024


def tool_views_html(index: int, entry: Tool, clients: ToolClients | None = None) -> str:
    """What opens for one tool: its heading, header and views (with ``clients``, the
    Clients view of a tool of an MCP tool list), or why it has none."""
    heading = tag(
        "h2", f"{index + 1}. {entry.name}", tag("span", f"  {entry.origin}", class_="tl-muted")
    )
    if entry.report is None:
        why = entry.error or f"{entry.origin.role}: listed, not checked (no schema)"
        body: list[Markup] = [tag("p", why, class_="tl-note")]
    else:
        panels = render_panels(entry.report)
        keys = (View.SIGNATURE, View.STRICT, View.OUTPUT, View.METADATA, View.FINDINGS)
        shown = [Markup(panels[k]) for k in keys if k in panels]
        if clients is not None:
            shown.append(Markup(clients_panel_html(clients)))
        grid = tag("div", *shown, class_="tl-grid")
        body = [render_header(entry.report), grid]
    return str(tag("section", heading, *body, class_="tl-ts-tool", id=f"tl-tool-{index}"))


def _packed(value: object) -> str:
    """``value`` as JSON, deflated (zlib) and base64-encoded: what the page's script inflates."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def _chunks(views: Sequence[str]) -> Iterator[tuple[int, list[str]]]:
    first, chunk, size = 0, list[str](), 0
    for index, html in enumerate(views):
        if chunk and size + len(html) > CHUNK_BYTES:
            yield first, chunk
            first, chunk, size = index, [], 0
        chunk.append(html)
        size += len(html)
    if chunk:
        yield first, chunk


def _tools_clients(ts: Toolset, judged: ConsumerReport | None) -> list[ToolClients | None]:
    """Per tool, its Clients view when the toolset is an MCP tool list (else ``None``)."""
    listing = ts.listing
    if listing is None:
        return [None] * len(ts.tools)

    names = set(listing.names)
    listed = [e.name for e in ts.tools if e.name in names]
    found = iter(tools_clients(listing, listed, judged=judged))
    return [next(found) if e.name in names else None for e in ts.tools]


def _views_blobs(ts: Toolset, judged: ConsumerReport | None) -> list[Markup]:
    clients = _tools_clients(ts, judged)
    views = [
        tool_views_html(i, e, c) for i, (e, c) in enumerate(zip(ts.tools, clients, strict=True))
    ]
    return [
        tag(
            "script",
            Markup(_packed(chunk)),
            type="application/x-toollens-deflate",
            class_="tl-ts-views",
            data_first=first,
            data_count=len(chunk),
        )
        for first, chunk in _chunks(views)
    ]


def _json_script(value: JsonValue) -> Markup:
    # "<" only appears inside JSON strings, where \u003c means the same: no "</script>".
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return tag("script", Markup(text), type="application/json", class_="tl-ts-data")


def _across(ts: Toolset) -> Markup | None:
    html = across_html(ts)
    if html is None or len(html) <= ACROSS_INLINE_BYTES:
        return html
    summary = f"Across tools: {len(ts.cross_findings)} findings (open to list them)"
    blob = tag(
        "script",
        Markup(_packed(str(html))),
        type="application/x-toollens-deflate",
        class_="tl-ts-blob",
    )
    return tag(
        "details",
        tag("summary", summary),
        tag("div", "", class_="tl-ts-across-body"),
        blob,
        class_="tl-ts-across-more tl-ts-across",
    )


def _first_rows(table: ToolsetTable) -> Markup:
    """The table's first page as the script will draw it, so the first paint shows it."""
    shown = table.rows[:PAGE_ROWS]
    where = f"1\u2013{len(shown)} of {len(table.rows)}" if shown else "no tools match"
    bar = tag(
        "div",
        tag("input", type="search", class_="tl-ts-filter", placeholder="filter tools"),
        tag(
            "select",
            *(tag("option", lv.label, value=lv.value) for lv in LEVELS),
            class_="tl-ts-level",
        ),
        tag("button", "\u2039", type="button", class_="tl-ts-prev", disabled=True),
        tag("span", where, class_="tl-muted tl-ts-where"),
        tag(
            "button",
            "\u203a",
            type="button",
            class_="tl-ts-next",
            disabled=len(table.rows) <= PAGE_ROWS,
        ),
        class_="tl-ts-bar",
    )
    return tag(
        "div", shared_html(table), bar, rows_html(table, shown, links=True), class_="tl-ts-host"
    )


def _script() -> Markup:
    text = PAGE_BUNDLE.read_text(encoding="utf-8")
    if "</script" in text.lower():  # the bundle is inlined as is: it must not end its element
        raise ValueError(f"{PAGE_BUNDLE.name} holds '</script'; it cannot be inlined")
    return Markup(f"<script>{text}</script>")


def render_toolset_page(
    subject: Toolset | Assessment, providers: Sequence[str] | None = None
) -> str:
    """One self-contained HTML document of an assessment (or of a toolset as read, judged
    for ``providers``): totals, the table, the findings across tools, and each tool's
    views, built when its row opens."""
    result = assessed(subject, providers)
    ts = result.toolset
    assert ts is not None
    # the clients' verdicts: for the table and each tool's views
    judged = result.clients.report if result.clients is not None else None
    table = assessment_table(result)
    body = tag(
        "div",
        tag("h1", "toollens: ", ts.label),
        totals_html(result),
        _first_rows(table),
        tag(
            "noscript",
            tag(
                "p",
                "Sorting, filtering, the other pages and each tool's views need JavaScript.",
                class_="tl-note",
            ),
        ),
        _json_script(table.to_json()),
        _across(ts),
        tag("div", "", class_="tl-ts-detail", aria_live="polite"),
        _script(),
        *_views_blobs(ts, judged),
        class_="tl-root",
        data_toollens="toolset",
    )
    head = tag(
        "head",
        Markup('<meta charset="utf-8">'),
        tag("title", f"toollens: {ts.label}"),
        Markup(f"<style>{STYLE}{TOOLSET_STYLE}</style>"),
    )
    return "<!DOCTYPE html>\n" + str(tag("html", head, tag("body", body), lang="en")) + "\n"
