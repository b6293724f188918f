"""The request a library really sends: its HTTP transport replaced by one that records.

A framework consumer runs the library through its public entry point (an agent run, a
``generate_content`` call, the documented tool runner) against two stand-ins, and nothing
leaves the machine:

- the **MCP server**: a :class:`mcp.ClientSession` whose ``send_request`` answers
  ``tools/list`` from the listing, page by page (``nextCursor`` as the server sent it), so the
  SDK's own ``list_tools`` (its validation and x-mcp-header filter) runs, and the library
  reads as many pages as it reads against a real server; the cursors it asks are recorded;
- the **model API**: the SDK's ``httpx`` client over a ``MockTransport`` that keeps each
  request body and answers 400, which every SDK raises without retrying.

What the body holds is ``sent``. A library that fails before sending leaves no body: the
exception is the verdict of the whole request.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toollens.consumers.model import ToolList
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from mcp_types import Tool

    from mcp import ClientSession

__all__ = [
    "Recorded",
    "Replay",
    "declarations",
    "kept_pages",
    "named_tools",
    "record",
    "recording_client",
    "replay_session",
    "run_recorded",
]

_ANSWER = {
    "error": {
        "code": 400,
        "type": "invalid_request_error",
        "status": "INVALID_ARGUMENT",
        "message": "recorded by toollens; nothing was sent",
    }
}


# Any: an httpx or an httpx2 AsyncClient, two unrelated classes (the SDK chooses which).
def recording_client(bodies: list[JsonObject], module: str = "httpx") -> Any:
    """An async HTTP client of ``module`` (``httpx``, or ``httpx2`` for the SDKs built on
    it) whose transport appends each request's JSON body to ``bodies`` and answers 400."""
    http: Any
    if module == "httpx2":  # the SDKs built on httpx2 refuse an httpx client, and back
        import httpx2

        http = httpx2
    else:
        import httpx

        http = httpx

    def handler(request: Any) -> Any:
        content = request.content
        bodies.append(json.loads(content) if content else {})
        return http.Response(400, json=_ANSWER)

    return http.AsyncClient(transport=http.MockTransport(handler))


@dataclass
class Recorded:
    """What one run sent: the first request body, or the exception raised before any."""

    body: JsonObject | None
    error: Exception | None = None


async def record(run: Awaitable[object], bodies: list[JsonObject]) -> Recorded:
    """Await ``run`` (which sends through a :func:`recording_client` on ``bodies``): the
    first body recorded, else the library's own exception (it failed before sending)."""
    try:
        await run
    except Exception as exc:  # the 400 answer, or the library's failure before it
        if not bodies:
            return Recorded(None, exc)
    return Recorded(bodies[0] if bodies else None)


def kept_pages(listing: ToolList, kept: Sequence[Tool]) -> list[list[Tool]]:
    """The ``tools/list`` pages as the server sent them, with only the tools in ``kept``."""
    by_name = {t.name: t for t in kept}
    pages: list[list[Tool]] = []
    start = 0
    for size in listing.page_sizes or (len(listing.tools),):
        names = listing.names[start : start + size]
        pages.append([by_name[n] for n in names if n in by_name])
        start += size
    return pages or [[]]


@dataclass
class Replay:
    """The pages a replayed server serves and the cursors a library asked for."""

    pages: list[list[Tool]]
    asked: list[str | None] = field(default_factory=list)

    @property
    def pages_read(self) -> int:
        return len(self.asked)

    def page(self, cursor: str | None) -> JsonObject:
        self.asked.append(cursor)
        index = int(cursor) if cursor is not None else 0
        tools = [t.model_dump(mode="json", by_alias=True, exclude_none=True)
                 for t in self.pages[index]]  # fmt: skip
        more = index + 1 < len(self.pages)
        return {"tools": tools, **({"nextCursor": str(index + 1)} if more else {})}


def replay_session(replay: Replay) -> ClientSession:
    """A ``mcp.ClientSession`` answering ``tools/list`` from ``replay`` (nothing else)."""
    from mcp import ClientSession

    class _ReplaySession(ClientSession):
        async def send_request(self, request: Any, result_type: Any, *a: Any, **k: Any) -> Any:
            params = getattr(request, "params", None)
            if getattr(request, "method", "tools/list") != "tools/list":
                raise NotImplementedError("toollens only lists tools")
            page = replay.page(getattr(params, "cursor", None))
            return result_type.model_validate(page, by_name=False)

    # The session's dispatcher keeps the streams and never uses them: send_request answers
    # here (memory streams would be copied with the session, and warn unclosed).
    unused: Any = _Unused()
    return _ReplaySession(unused, unused)


class _Unused:
    """The streams of a replayed session: nothing is read or written through them."""


def run_recorded(make: Callable[[list[JsonObject]], Awaitable[object]]) -> Recorded:
    """Run ``make(bodies)`` to completion (also inside a running loop) and what it sent."""
    # lazy: toollens.frameworks (~13 ms); `import toollens.consumers` does not load it
    from toollens.frameworks._spec import run_coroutine

    bodies: list[JsonObject] = []

    async def go() -> Recorded:
        return await record(make(bodies), bodies)

    return run_coroutine(go())


def named_tools(body: JsonObject) -> dict[str, JsonObject]:
    """An Anthropic or OpenAI body's ``tools``, by name."""
    tools = body.get("tools")
    return {
        str(t["name"]): t
        for t in (tools if isinstance(tools, list) else [])
        if isinstance(t, dict) and "name" in t
    }


def declarations(body: JsonObject) -> dict[str, JsonObject]:
    """A Gemini body's function declarations, by name (either spelling of the key)."""
    out: dict[str, JsonObject] = {}
    tools = body.get("tools")
    for item in tools if isinstance(tools, list) else []:
        found = item.get("functionDeclarations") or item.get("function_declarations") or []
        out.update((str(d["name"]), d) for d in found if isinstance(d, dict) and "name" in d)
    return out
