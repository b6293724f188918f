"""A request a provider refuses for its size is refused by toollens before it is sent.

``check`` fails on a payload list past a per-request limit (OpenAI's 128 tools,
Anthropic's 20 strict tools) without being told the provider (the payload's own), and
never on tools the payload sends non-strict; ``tokens`` says the request would be refused,
and ``tokens --online`` does not send it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from toollens.cli import main
from toollens.core.providers.requests import OPENAI_MAX_TOOLS, request_refusal

CLOSED = {
    "type": "object",
    "properties": {"a": {"type": "string"}},
    "required": ["a"],
    "additionalProperties": False,
}


def anthropic_tools(count: int, **more: Any) -> dict[str, Any]:
    return {
        "tools": [
            {"name": f"tool_{i}", "description": f"Tool {i}.", "input_schema": CLOSED, **more}
            for i in range(count)
        ]
    }


def chat_tools(count: int) -> dict[str, Any]:
    return {
        "tools": [
            {"type": "function", "function": {"name": f"f{i}", "description": f"Function {i}.",
             "parameters": CLOSED}}
            for i in range(count)
        ]
    }  # fmt: skip


def run(tmp_path: Path, data: dict[str, Any], *argv: str) -> tuple[int, str, str]:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(data))
    out, err = io.StringIO(), io.StringIO()
    code = main([argv[0], str(path), *argv[1:]], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def rules(out: str) -> set[str]:
    return {f["rule"] for f in json.loads(out)["findings"]}


@pytest.mark.parametrize(
    ("data", "code", "rule"),
    [
        (chat_tools(OPENAI_MAX_TOOLS), 0, None),
        (chat_tools(OPENAI_MAX_TOOLS + 1), 1, "toolset.openai-too-many-tools"),
        (anthropic_tools(20, strict=True), 0, None),
        (anthropic_tools(21, strict=True), 1, "toolset.anthropic-too-many-strict-tools"),
        # no "strict": Anthropic sends them non-strict, so the strict limits do not apply
        (anthropic_tools(21), 0, None),
    ],
    ids=["chat-128", "chat-129", "anthropic-20-strict", "anthropic-21-strict", "anthropic-21"],
)
def test_check_refuses_a_request_past_its_providers_limit(
    tmp_path: Path, data: dict[str, Any], code: int, rule: str | None
) -> None:
    got, out, err = run(tmp_path, data, "check", "--format", "json")
    assert (got, err) == (code, "")
    found = rules(out)
    assert not {r for r in found if "too-many" in r} - {rule}
    if rule is not None:
        assert rule in found


def test_tokens_says_the_request_is_refused_and_online_does_not_send_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = chat_tools(OPENAI_MAX_TOOLS + 1)
    code, out, _ = run(tmp_path, data, "tokens", "--model", "gpt-4o")
    assert code == 0
    assert "129 tools in one request; OpenAI accepts at most 128" in out

    def never(*args: object, **kw: object) -> None:
        raise AssertionError("an online count was sent")

    monkeypatch.setattr("toollens.tokens.online.count_online", never)
    monkeypatch.setenv("OPENAI_API_KEY", "not-a-key")
    code, _, err = run(tmp_path, data, "tokens", "--model", "gpt-4o", "--online")
    assert code != 0
    assert "not sent: 129 tools in one request" in err


@pytest.mark.parametrize(
    ("vendor", "count", "refused"),
    [("openai", 128, False), ("openai", 129, True), ("anthropic", 500, False)],
)
def test_request_refusal(vendor: str, count: int, refused: bool) -> None:
    reason = request_refusal(vendor, count)
    assert (reason is not None) is refused
    if reason is not None:
        assert "platform.openai.com" in reason
        assert "2026-11-29" in reason
