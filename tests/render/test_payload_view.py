"""The provider view of a tool payload shows the payload's own fields and their findings."""

from __future__ import annotations

from typing import Any

import pytest

from toollens.core.report import report
from toollens.render import render_html, render_view

SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
PAYLOAD: dict[str, Any] = {
    "name": "weather",
    "description": "Weather for a city.",
    "input_schema": SCHEMA,
    "input_examples": [{"city": 3}],
    "defer_loading": True,
}
RULES = ("anthropic.input-example-invalid", "anthropic.deferred")


def test_for_its_own_provider_the_payload_shown_carries_its_fields() -> None:
    rep = report(PAYLOAD, provider="anthropic")
    assert rep.provider_payload is not None
    assert rep.provider_payload["input_examples"] == [{"city": 3}]
    assert rep.provider_payload["defer_loading"] is True
    text = render_view(rep, "provider")
    html = render_html(rep)
    for rule in RULES:
        assert rule in text
        assert rule in html
    assert "Payload as written" not in html  # nothing apart: they are the provider's own


@pytest.mark.parametrize("provider", ["openai-chat", "gemini"])
def test_for_another_provider_the_view_says_what_the_payloads_provider_says(
    provider: Any,
) -> None:
    rep = report(PAYLOAD, provider=provider)
    assert rep.provider_payload is not None
    assert "input_examples" not in str(rep.provider_payload)
    assert not any(f.rule in RULES for f in rep.provider_findings)
    text = render_view(rep, "provider")
    html = render_html(rep)
    assert "defer_loading, input_examples" in text
    assert "Payload as written, for <code>anthropic</code>" in html
    for rule in RULES:
        assert rule in text
        assert rule in html


def test_a_bare_schema_has_no_payload_part() -> None:
    rep = report(SCHEMA, name="weather")
    assert rep.given is None
    assert "Payload as written" not in render_html(rep)
