"""`toollens check --provider all` and the provider verdict on the command line."""

from __future__ import annotations

import io
import json
from pathlib import Path

from toollens.cli import main
from toollens.core.providers import PROVIDERS

CLOSED = {
    "type": "function",
    "function": {
        "name": "lookup",
        "description": "Look a place up.",
        "parameters": {
            "type": "object",
            "properties": {"q": {"type": "string"}, "n": {"type": ["integer", "null"]}},
            "required": ["q", "n"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}


def _run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    assert err.getvalue() == ""
    return code, out.getvalue()


def _payload(tmp_path: Path, data: dict[str, object]) -> str:
    path = tmp_path / "payload.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def test_check_all_providers_at_once(tmp_path: Path) -> None:
    code, out = _run("check", _payload(tmp_path, CLOSED), "--provider", "all", "--format", "json")
    # Judged as written: the Chat Completions layout is refused by the Responses API; every
    # other provider is sent toollens' payload of the tool, and accepts it.
    assert code == 1
    result = json.loads(out)
    assert list(result["providers"]) == list(PROVIDERS)
    assert list(result["verdicts"]) == list(PROVIDERS)
    refused = [p for p, v in result["verdicts"].items() if not v["accepted"]]
    assert refused == ["openai-responses"]
    layout = result["verdicts"]["openai-responses"]["judgements"][0]["detail"]
    assert layout.startswith("[openai.responses-chat-layout]")
    grammar = result["verdicts"]["openai-chat"]["judgements"][1]
    assert (grammar["origin"], grammar["outcome"], grammar["detail"]) == (
        "llguidance",
        "accepted",
        "compiles",
    )
    documented = result["verdicts"]["gemini"]["judgements"][0]
    assert documented["sources"][0]["date"]


def test_gemini_payload_is_not_flagged_for_what_it_carries(tmp_path: Path) -> None:
    # Issue 14: `show` printed a Gemini payload, then `check` flagged a keyword it dropped.
    target = _payload(tmp_path, CLOSED)
    for provider in ("gemini", "gemini-openapi"):
        code, out = _run("check", target, "--provider", provider)
        assert code == 0, out
        assert f"verdict: {provider} (" in out
        assert "accepts this tool" in out


def test_an_unknown_format_is_an_error_for_openai(tmp_path: Path) -> None:
    data = json.loads(json.dumps(CLOSED))
    data["function"]["parameters"]["properties"]["q"]["format"] = "uri"
    code, out = _run("check", _payload(tmp_path, data), "--provider", "openai-chat")
    assert code == 1
    assert "error[openai.format-unsupported] at /properties/q/format" in out
    assert "verdict: openai-chat (OpenAI Chat Completions) rejects this tool" in out
