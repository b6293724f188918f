"""A TokenCount displays as text and as escaped HTML with a bar per tool and part."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("tiktoken")

from toollens.tokens import tokens

TOOL = {
    "type": "function",
    "function": {
        "name": "find",
        "description": "Find <b>things</b> & more",
        "parameters": {
            "type": "object",
            "properties": {"q<x>": {"type": "string", "description": "what"}},
        },
    },
}


def test_mimebundle_has_text_and_escaped_html() -> None:
    counted = tokens(TOOL, "gpt-4o")
    bundle = counted._repr_mimebundle_()
    assert bundle["text/plain"].startswith(f"{counted.total} tokens for gpt-4o (")
    html = bundle["text/html"]
    assert "q&lt;x&gt; (description)" in html
    assert "<b>things" not in html
    assert f'data-total="{counted.total}"' in html
    bars = [int(n) for n in re.findall(r'data-tokens="(\d+)"', html)]
    parts = sum(len(t.parts) for t in counted.tools)
    assert len(bars) == 1 + len(counted.tools) + parts
    assert sum(bars[1:2]) + bars[0] == counted.total  # overhead + the one tool


def test_bar_widths_scale_with_the_largest_row() -> None:
    html = str(tokens(TOOL, "gpt-4o")._repr_mimebundle_()["text/html"])
    widths = [float(w) for w in re.findall(r"width: ([\d.]+)%", html)]
    assert max(widths) == 100.0
    assert all(0 <= w <= 100 for w in widths)


def test_a_part_bar_is_never_longer_than_its_tool_bar() -> None:
    # one scale for every bar (issue 41: a part's bar was drawn on its own tool's scale)
    counted = tokens(TOOL, "gpt-4o")
    lines = str(counted._repr_mimebundle_()["text/plain"]).splitlines()
    tool_line = next(line for line in lines if line.startswith("  find "))
    part_lines = [line for line in lines if line.startswith("    ")]
    assert part_lines
    assert all(line.count("█") <= tool_line.count("█") for line in part_lines)
    largest = max(counted.overhead, *(t.tokens for t in counted.tools))
    for part, line in zip(counted.tools[0].parts, part_lines, strict=True):
        assert line.count("█") == round(30 * part.tokens / largest)
