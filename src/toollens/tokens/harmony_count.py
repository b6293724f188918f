"""gpt-oss counts rendered by OpenAI's own openai-harmony library (not re-implemented).

What is counted: the tokens a request grows by when the tools are added, as a developer
message of their own, to a conversation of harmony's default system message and one user
message (harmony also adds a line to the system message when functions are present; it is
counted). Per tool: the tokens of its definition inside the developer message.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toollens.tokens import encodings
from toollens.tokens.errors import TOKENS_EXTRA, TokenizerUnavailableError
from toollens.tokens.result import PartTokens, TokenCount, ToolTokens
from toollens.tokens.tooldefs import ToolDef

if TYPE_CHECKING:
    from openai_harmony import HarmonyEncoding

NOTES = (
    "tokens the tools add to a gpt-oss conversation (default system message + one user "
    "message) when sent in a developer message of their own, rendered by openai-harmony",
)
_O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
_O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "toollens" / "tiktoken"


@contextlib.contextmanager
def _encodings_base() -> Iterator[None]:
    """Point openai-harmony at a local o200k_base file for the length of one load."""
    if os.environ.get(encodings.ENCODINGS_BASE_VARIABLE):
        yield
        return
    data = encodings.rank_file("o200k_base", _O200K_URL, _O200K_SHA256)
    directory = _cache_dir()
    target = directory / "o200k_base.tiktoken"
    if not target.is_file() or target.stat().st_size != len(data):
        directory.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    os.environ[encodings.ENCODINGS_BASE_VARIABLE] = str(directory)
    try:
        yield
    finally:
        os.environ.pop(encodings.ENCODINGS_BASE_VARIABLE, None)


_LOADED: list[HarmonyEncoding] = []


def harmony_encoding() -> HarmonyEncoding:
    """openai-harmony's gpt-oss encoding, loaded once from local data."""
    if _LOADED:
        return _LOADED[0]
    try:
        import openai_harmony as h
    except ImportError:
        raise TokenizerUnavailableError(
            "openai-harmony is not installed", hint=f"install the tokens extra: {TOKENS_EXTRA}"
        ) from None
    with _encodings_base():
        try:
            loaded = h.load_harmony_encoding(h.HarmonyEncodingName.HARMONY_GPT_OSS)
        except Exception as exc:  # harmony's Rust error types are not public
            raise TokenizerUnavailableError(
                "openai-harmony could not load its o200k_base data locally",
                hint=f"set {encodings.ENCODINGS_BASE_VARIABLE} to a directory holding "
                "o200k_base.tiktoken",
            ) from exc
    _LOADED.append(loaded)
    return loaded


def _conversation(tools: Sequence[ToolDef], users: Sequence[str] = ("hi",)) -> list[int]:
    import openai_harmony as h

    messages = [h.Message.from_role_and_content(h.Role.SYSTEM, h.SystemContent.new())]
    if tools:
        described = [
            h.ToolDescription.new(t.name, t.description or "", parameters=dict(t.parameters))
            for t in tools
        ]
        developer = h.DeveloperContent.new().with_function_tools(described)
        messages.append(h.Message.from_role_and_content(h.Role.DEVELOPER, developer))
    messages.extend(h.Message.from_role_and_content(h.Role.USER, u) for u in users)
    conversation = h.Conversation.from_messages(messages)
    tokens: list[int] = harmony_encoding().render_conversation_for_completion(
        conversation, h.Role.ASSISTANT
    )
    return tokens


def _tool_spans(tokens: list[int], tools: Sequence[ToolDef]) -> list[int]:
    """Tokens per tool: from its comment or ``type NAME =`` line to the next tool's."""
    enc = harmony_encoding()
    texts = [enc.decode_utf8([t]) if _decodable(enc, t) else "" for t in tokens]
    starts, pos = [], 0
    for text in texts:
        starts.append(pos)
        pos += len(text)
    full = "".join(texts)
    marks, cursor = [], full.find("namespace functions {")
    for tool in tools:
        at = full.find(f"type {tool.name} = ", cursor)
        head = "".join(f"// {line}\n" for line in (tool.description or "").splitlines())
        begin = at - len(head) if head and full[at - len(head) : at] == head else at
        marks.append(begin)
        cursor = at + 1
    marks.append(full.find("} // namespace functions", cursor))
    return [sum(1 for s in starts if lo <= s < hi) for lo, hi in itertools.pairwise(marks)]


def _decodable(enc: HarmonyEncoding, token: int) -> bool:
    try:
        enc.decode_utf8([token])
    except Exception:  # a token that is part of a multi-byte character: counted, no text
        return False
    return True


def count_harmony(
    model: str, tools: Sequence[ToolDef], messages: Sequence[str] | None = None
) -> TokenCount:
    """The count of ``tools`` for a gpt-oss model, by openai-harmony's rendering; with
    ``messages`` the whole conversation's ``messages`` share too."""
    with_tools = _conversation(tools)
    total = len(with_tools) - len(_conversation(()))
    spans = _tool_spans(with_tools, tools)
    results = tuple(
        ToolTokens(t.name, n, (PartTokens("", "definition", n),), t.deferred)
        for t, n in zip(tools, spans, strict=False)
    )
    overhead = total - sum(spans)
    used = None
    if messages is not None:
        # the default system message, the users' messages and the reply's start
        used = len(_conversation((), tuple(messages)))
    return TokenCount(
        model, "exact", total, overhead, results, "o200k_harmony", NOTES, messages=used
    )
