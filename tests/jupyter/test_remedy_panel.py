"""The explorer's Remedies, headless: the fixes listed, a fix made on the editor's text,
and a pasted error mapped to the editor's line (the browser test drives the same)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixes"))

import messy_tools

from toollens.jupyter import Explorer
from toollens.jupyter.remedy_panel import edit_key


def test_fixes_listed_made_and_error_explained() -> None:
    xp = Explorer(messy_tools.find_orders, debounce=0)
    html = xp.remedies.render()
    assert "data-tl-fix" in html
    assert "&#x27;page&#x27;" in html
    page = next(e for e in xp.remedies.edits if e.op.parameter == "page")  # type: ignore[union-attr]
    fixed = xp.remedies.fixed(edit_key(page))
    assert isinstance(fixed["text"], str)
    assert "page:" not in fixed["text"]
    assert xp.remedies.fixed("gone")["text"] is None
    error = (
        "Invalid schema for function 'find_orders': In context=('properties', 'limit'), "
        "schema must have a 'type' key."
    )
    answer = xp.remedies.explained(error)
    lines = str(xp.source).splitlines()
    assert lines[int(answer["line"]) - 1].strip() == "limit=20,"  # type: ignore[call-overload]
    assert "tl-explained" in str(answer["html"])
    assert "openai.untyped-node" in str(answer["html"])
    assert "no provider or client error shape" in str(xp.remedies.explained("oops")["html"])
