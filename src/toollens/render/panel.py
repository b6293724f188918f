"""The frame every view panel of the static report shares: a titled section, a table.

``panel`` wraps a view's body in its ``<section>`` with the heading (cached: the same on
most renders); ``table`` is a scrolling table with a cached header row. The panels
themselves are built in ``html`` and ``metadata_html``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from toollens.render.markup import Child, Markup, collect, start_tag, tag

__all__ = ["panel", "panel_parts", "table", "table_head"]


def panel(key: str, title: str, body: Child, *, subtitle: str | None = None) -> Markup:
    opening, heading = panel_parts(key, title, subtitle)
    out: list[str] = [opening, heading]
    collect([body], out)
    out.append("</section>")
    return Markup("".join(out))


@functools.lru_cache(maxsize=256)
def panel_parts(key: str, title: str, subtitle: str | None) -> tuple[Markup, Markup]:
    """A panel's opening tag and its heading (the same on most renders)."""
    heading = tag(
        "div",
        title,
        tag("span", subtitle, class_="tl-muted") if subtitle else None,
        class_="tl-panel-title",
    )
    classes = f"tl-panel tl-panel-{key}" + (" tl-full" if key in _FULL_WIDTH else "")
    return start_tag("section", class_=classes, data_view=key), heading


# Panels that take a whole row of the grid: the metadata table needs the width.
_FULL_WIDTH = frozenset({"metadata", "findings", "clients"})


def table(columns: Sequence[str], rows: Sequence[Markup], classes: str) -> Markup:
    return tag(
        "div",
        tag("table", table_head(tuple(columns)), tag("tbody", rows), class_=classes),
        class_="tl-scroll",
    )


@functools.lru_cache(maxsize=64)
def table_head(columns: tuple[str, ...]) -> Markup:
    return tag("thead", tag("tr", [tag("th", c) for c in columns]))
