"""The Toolset view's token column: each tool's cost on the provider's model, with a bar."""

from __future__ import annotations

import re

import pytest

import toollens
from toollens.core.report import ReportOptions
from toollens.render.toolset_html import render_toolset_html, token_model, toolset_row_views

pytest.importorskip("tiktoken")


def short(city: str) -> str:
    """Weather."""
    return city


def wordy(city: str, days: int = 1) -> str:
    """Get the weather forecast for a city, day by day, with the highs and lows and the wind.

    Args:
        city: The city to forecast, spelled as people write it, e.g. "San Francisco, CA".
        days: How many days to forecast, counting today as the first one.
    """
    return city


BROKEN = {"oops": "not a tool"}


def _toolset(provider: str = "openai-chat") -> toollens.Toolset:
    return toollens.toolset([short, wordy, BROKEN], ReportOptions(provider=provider))


def test_each_row_carries_the_tools_own_count_on_the_providers_model() -> None:
    ts = _toolset()
    rows = toolset_row_views(ts)
    assert token_model(ts) == "gpt-4o"
    for row, entry in zip(rows[:2], ts.tools[:2], strict=True):
        assert entry.report is not None
        assert row.tokens == toollens.tokens(entry.report, "gpt-4o").tools[0].tokens
    assert rows[0].tokens is not None
    assert rows[1].tokens is not None
    assert rows[1].tokens > rows[0].tokens  # a longer description costs more
    assert rows[2].tokens is None  # a tool that could not be read has no cost to show


def test_the_model_follows_the_toolsets_provider() -> None:
    ts = _toolset("anthropic")
    assert token_model(ts) == "claude-sonnet-4-5"
    expected = toollens.tokens(ts.tools[0].report, "claude-sonnet-4-5").tools[0].tokens
    assert toolset_row_views(ts)[0].tokens == expected


def test_static_table_has_a_sortable_token_column_with_bars() -> None:
    ts = _toolset()
    rows = toolset_row_views(ts)
    html = render_toolset_html(ts)
    assert '<th scope="col">tokens</th>' in html
    cells = re.findall(r'<td data-key="(-?\d+)" class="tl-ts-tokens">(.*?)</td>', html)
    assert [int(key) for key, _ in cells] == [rows[0].tokens, rows[1].tokens, -1]
    widths = [int(w) for w in re.findall(r'class="tl-ts-cost" style="width: (\d+)px"', html)]
    assert widths == [round(60 * rows[0].tokens / rows[1].tokens), 60]  # the costliest is full
    assert cells[2][1] == "-"


def test_widget_rows_send_the_counts() -> None:
    from toollens.jupyter.toolset_widget import ToolsetView

    view = ToolsetView([short, wordy], ReportOptions())
    tokens = [row["tokens"] for row in view.table.rows]
    assert all(isinstance(n, int) and n > 0 for n in tokens)
