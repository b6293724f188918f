"""A CallResult and a FuzzReport display in a notebook: text and escaped HTML, one render path."""

from __future__ import annotations

import roundtrip_tools as tools

from toollens.roundtrip import fuzz, try_call
from toollens.roundtrip.formatting import format_call, format_fuzz


def evil(text: str) -> str:
    """Echoes what it is given."""
    return text


def test_a_call_displays_as_text_and_escaped_html() -> None:
    result = try_call(evil, {"text": "<script>alert(1)</script>"})
    bundle = result._repr_mimebundle_()
    assert bundle["text/plain"] == format_call(result)
    html = bundle["text/html"]
    assert 'class="tl-root"' in html
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "model reads" in html


def test_a_rejection_shows_the_pointer() -> None:
    html = try_call(tools.pairs, {"count": 3})._repr_mimebundle_()["text/html"]
    assert "rejected" in html
    assert "at /count" in html


def test_a_fuzz_report_displays_its_findings() -> None:
    report = fuzz(tools.price, n=10)
    bundle = report._repr_mimebundle_(include=["text/plain", "text/html"])
    assert bundle["text/plain"] == format_fuzz(report)
    assert "&quot;large&quot;" in bundle["text/html"] or '"large"' in bundle["text/html"]
    assert "raises" in bundle["text/html"]
