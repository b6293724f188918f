"""The ``report --html`` page: compact at 1,000 tools, one offline file, its script current.

Sizes are asserted in bytes (never times): at most 5 MB for 1,000 varied tools, and what
each tool adds at a smaller size, so the bound is seen to hold without the slow run.
"""

from __future__ import annotations

import json

import pytest

import toollens
from support.many_tools import payload
from support.toolset_page import read_page
from toollens.core.report import ReportOptions
from toollens.render.toolset_page import CHUNK_BYTES, PAGE_BUNDLE, render_toolset_page
from toollens.toolsets import Toolset

LIMIT = 5_000_000  # bytes, for 1,000 tools


def _page(count: int) -> tuple[Toolset, str]:
    ts = toollens.toolset(payload(count)["tools"], ReportOptions())
    return ts, render_toolset_page(ts)


def test_page_script_is_built_from_the_current_sources() -> None:
    from toollens.jupyter.widget_base import bundle_hash, sources_hash

    rebuild = "rebuild it: cd src/toollens/jupyter/frontend && npm ci && npm run build"
    assert bundle_hash(PAGE_BUNDLE) == sources_hash(), f"{PAGE_BUNDLE.name} is stale; {rebuild}"
    text = PAGE_BUNDLE.read_text(encoding="utf-8")
    assert "</script" not in text.lower()  # inlined as it is
    assert "import" not in text.split("*/", 1)[1][:20]  # a classic script, not a module


def test_page_holds_the_table_and_every_tools_views() -> None:
    ts, page = _page(30)
    contents = read_page(page)
    assert [row["name"] for row in contents.table["rows"]] == [e.name for e in ts.tools]
    assert len(contents.views) == len(ts)
    for index, views in enumerate(contents.views):
        assert f'id="tl-tool-{index}"' in views
        assert 'data-view="signature"' in views or "tl-note" in views
    # Neighbouring tools share a chunk; no chunk is much over its size.
    assert page.count('class="tl-ts-views"') < len(ts)
    biggest = max(len(json.dumps(v)) for v in contents.views)
    assert page.count("tl-ts-views") >= 1
    assert biggest < CHUNK_BYTES


def test_page_is_one_offline_file() -> None:
    _, page = _page(5)
    assert "<link" not in page
    assert " src=" not in page
    assert "@import" not in page
    assert "fetch(" not in page
    assert "http://" not in page.split("<script>", 1)[1].split("</script>", 1)[0]


def test_each_tool_adds_a_few_kilobytes() -> None:
    # What 1,000 tools cost, seen at 60: the page less its fixed part, per tool.
    _, small = _page(1)
    _, page = _page(60)
    per_tool = (len(page.encode()) - len(small.encode())) / 59
    assert per_tool < (LIMIT - len(small.encode())) / 1000, f"{per_tool:.0f} bytes per tool"


@pytest.mark.slow
def test_a_thousand_tools_fit_in_five_megabytes() -> None:
    ts, page = _page(1000)
    size = len(page.encode("utf-8"))
    assert size <= LIMIT, f"{size / 1e6:.2f} MB"
    assert len(read_page(page).views) == len(ts) == 1000
