"""Token counting with the network closed: local encoding data, harmony, clear errors."""

from __future__ import annotations

import base64
import hashlib
import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("tiktoken")

from toollens.tokens import TokenizerUnavailableError, UnknownModelError, encodings, tokens
from toollens.tokens.openai_render import render, text_of

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_current_weather",
        "description": "Get the current weather in a given location",
        "parameters": {
            "type": "object",
            "properties": {
                "location": {"type": "string", "description": "The city"},
                "unit": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius"},
            },
            "required": ["location"],
        },
    },
}


def test_local_ranks_are_the_published_files() -> None:
    # tiktoken's own expected SHA-256 for each file is checked when loading; a mismatched
    # file from any source is skipped.
    enc = encodings.encoding("o200k_base")
    assert enc.n_vocab > 199_000
    assert enc.encode("hello world") == [24912, 2375]


def test_a_missing_data_source_says_how_to_provide_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(encodings, "SOURCES", ())
    encodings.encoding.cache_clear()
    try:
        with pytest.raises(TokenizerUnavailableError) as info:
            encodings.encoding("cl100k_base")
    finally:
        monkeypatch.undo()
        encodings.encoding.cache_clear()
    text = str(info.value)
    assert "\n" not in text
    assert "TIKTOKEN_ENCODINGS_BASE" in text
    assert "toollens[tokens]" in text


def test_a_file_with_the_wrong_hash_is_never_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "cl100k_base.tiktoken").write_bytes(b"aGk= 0\n")
    monkeypatch.setenv("TIKTOKEN_ENCODINGS_BASE", str(tmp_path))
    url = "https://example.invalid/cl100k_base.tiktoken"
    expected = hashlib.sha256(b"something else").hexdigest()
    monkeypatch.setattr(encodings, "SOURCES", (encodings._from_encodings_base,))
    with pytest.raises(TokenizerUnavailableError):
        encodings.rank_file("cl100k_base", url, expected)


def test_a_directory_named_by_the_variable_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = b"aGk= 0\n"
    (tmp_path / "cl100k_base.tiktoken").write_bytes(data)
    monkeypatch.setenv("TIKTOKEN_ENCODINGS_BASE", str(tmp_path))
    found = encodings.rank_file("cl100k_base", "u", hashlib.sha256(data).hexdigest())
    assert encodings.parse_ranks(found) == {b"hi": 0}


def test_an_unknown_model_is_refused_in_one_line() -> None:
    with pytest.raises(UnknownModelError, match="no token-counting rule for model 'llama-9'"):
        tokens(WEATHER, "llama-9")


def _harmony_added_tokens(tool_payload: dict[str, Any]) -> tuple[int, str]:
    """What openai-harmony itself says the tools add, computed here without toollens' count."""
    h = pytest.importorskip("openai_harmony")
    from toollens.tokens.harmony_count import harmony_encoding

    enc = harmony_encoding()
    f = tool_payload["function"]
    described = [h.ToolDescription.new(f["name"], f["description"], parameters=f["parameters"])]
    system = h.Message.from_role_and_content(h.Role.SYSTEM, h.SystemContent.new())
    user = h.Message.from_role_and_content(h.Role.USER, "hi")
    developer = h.Message.from_role_and_content(
        h.Role.DEVELOPER, h.DeveloperContent.new().with_function_tools(described)
    )

    def render(messages: list[Any]) -> list[int]:
        conv = h.Conversation.from_messages(messages)
        out: list[int] = enc.render_conversation_for_completion(conv, h.Role.ASSISTANT)
        return out

    full = render([system, developer, user])
    return len(full) - len(render([system, user])), enc.decode_utf8(full)


def test_gpt_oss_counts_are_openai_harmonys() -> None:
    expected, _rendered = _harmony_added_tokens(WEATHER)
    counted = tokens(WEATHER, "gpt-oss-20b")
    assert counted.method == "exact"
    assert counted.total == expected
    assert counted.tools[0].tokens > 0
    assert counted.overhead + counted.tools[0].tokens == counted.total


def test_the_chat_rendering_of_a_flat_tool_is_harmonys_text() -> None:
    # openai-harmony is OpenAI's renderer of the same TypeScript-like block: for a flat tool
    # (descriptions, optional marks, enums, a default) toollens writes the same characters.
    _, rendered = _harmony_added_tokens(WEATHER)
    from toollens.tokens import tool_defs

    ours = text_of(render(tool_defs(WEATHER)))
    assert ours in rendered


def test_no_socket_is_opened_while_counting() -> None:
    # The autouse fixture refuses sockets; counting every family must still work.
    before = os.environ.get("TIKTOKEN_ENCODINGS_BASE")
    for model in ("gpt-4", "gpt-4o", "gpt-oss-120b", "claude-sonnet-4-5", "gemini-2.5-pro"):
        assert tokens(WEATHER, model).total > 0
    assert os.environ.get("TIKTOKEN_ENCODINGS_BASE") == before


def test_rank_files_parse_as_tiktoken_parses_them() -> None:
    # tiktoken's own reader (load_tiktoken_bpe) decodes each token with base64.b64decode
    data = b"aGk= 0\n\nIQ== 1\nIGhlbGxv 2\nAA== 3\n"
    expected = {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in data.splitlines() if line)
    }
    assert encodings.parse_ranks(data) == expected == {b"hi": 0, b"!": 1, b" hello": 2, b"\0": 3}
