"""Ask an MCP server for its tools with the official ``mcp`` SDK client, and always stop it.

A stdio server is a child process toollens owns: the SDK's ``stdio_client`` starts it in its
own process group and, however the conversation ends, closes its stdin, then terminates the
whole group. Every step (``initialize``, each ``tools/list`` page) is bounded by the timeout,
and everything that can go wrong becomes one :class:`~toollens.core.errors.TargetError` line
that says what happened and quotes the server's last stderr line (:mod:`toollens.mcp.failures`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import logging
import os
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from toollens.core.errors import TargetError
from toollens.mcp.failures import Attempt, explain_failure
from toollens.mcp.listing import Page, parse_info, parse_page
from toollens.mcp.records import ServerTools
from toollens.mcp.stdio import owned_stdio
from toollens.mcp.target import McpTarget, parse_mcp_target

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

__all__ = [
    "DEFAULT_TIMEOUT",
    "MAX_PAGES",
    "ConnectOptions",
    "converse",
    "fetch_tools",
    "list_tools",
]

_T = TypeVar("_T")
# What runs on an open session (before initialize): listing the tools, or calling one.
Work = Callable[["ClientSession", McpTarget, Attempt], Awaitable[_T]]

DEFAULT_TIMEOUT = 20.0
"""Seconds each step may take: start-up and ``initialize``, then each ``tools/list`` page."""

MAX_PAGES = 100  # a server whose cursor never ends must not keep toollens forever


@dataclass(frozen=True)
class ConnectOptions:
    """How to reach a server.

    Attributes:
        env: environment variables for a stdio server, over the SDK's safe default set
            (``PATH``, ``HOME``...; the rest of toollens' environment is not passed on).
        timeout: seconds for start-up and ``initialize``, and for each request.
        cwd: the directory a stdio server starts in (the working directory when ``None``).
    """

    env: Mapping[str, str] = field(default_factory=dict)
    timeout: float = DEFAULT_TIMEOUT
    cwd: str | None = None

    def __post_init__(self) -> None:
        if not self.timeout > 0:
            raise TargetError(f"timeout {self.timeout!r} is not a positive number of seconds")


def fetch_tools(target: McpTarget | str, options: ConnectOptions | None = None) -> ServerTools:
    """Start (or connect to) the server, list its tools, and stop it.

    Raises:
        TargetError: the ``mcp`` package is missing, the server cannot start, fails, answers
            too slowly or sends something that is not a tool list; or ``#TOOL`` names no tool.
    """
    spec = parse_mcp_target(target) if isinstance(target, str) else target
    return converse(spec, options or ConnectOptions(), list_tools)


def converse(spec: McpTarget, options: ConnectOptions, work: Work[_T]) -> _T:
    """Start (or connect to) the server, run ``work`` on the open session, and stop it.

    ``work`` initializes the session itself (:func:`list_tools` does). Whatever goes wrong
    becomes one :class:`TargetError` line; the server is stopped however ``work`` ends.
    """
    _require_sdk()
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        attempt = Attempt(spec, options.timeout, errlog)
        try:
            with _quiet_sdk_logs():
                return _run(spec, options, attempt, work)
        except Exception as exc:
            raise explain_failure(exc, attempt) from exc


def _require_sdk() -> None:
    try:
        import mcp.client.session  # noqa: F401
    except ImportError as exc:
        raise TargetError(
            "mcp: targets need the mcp package, which is not installed",
            hint="pip install 'toollens[mcp]'",
        ) from exc


def _run(spec: McpTarget, options: ConnectOptions, attempt: Attempt, work: Work[_T]) -> _T:
    import anyio

    try:
        asyncio.get_running_loop()
    except RuntimeError:  # no loop in this thread: run one here
        return anyio.run(_conversation, spec, options, attempt, work)
    # Called from a running loop (a notebook cell): a loop of our own, in a worker thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(anyio.run, _conversation, spec, options, attempt, work).result()


@contextmanager
def _quiet_sdk_logs() -> Iterator[None]:
    # The SDK logs tracebacks (a line on stdout that is not JSON-RPC, a failed pipe); with no
    # handler configured Python would print them. The failure is reported as one line instead.
    sdk = logging.getLogger("mcp")
    saved = sdk.propagate
    quiet = logging.NullHandler()
    sdk.addHandler(quiet)
    sdk.propagate = False
    try:
        yield
    finally:
        sdk.removeHandler(quiet)
        sdk.propagate = saved


async def _conversation(
    spec: McpTarget, options: ConnectOptions, attempt: Attempt, work: Work[_T]
) -> _T:
    from mcp.client.session import ClientSession

    async with _transport(spec, options, attempt) as (read, write):
        attempt.step = "initialize"
        session = ClientSession(read, write, message_handler=attempt.on_message)
        async with session:
            return await attempt.guarded(work(session, spec, attempt))


async def list_tools(session: ClientSession, spec: McpTarget, attempt: Attempt) -> ServerTools:
    """Initialize the session and read every page of ``tools/list`` (only ``spec.tool``, if set)."""
    import mcp_types as types

    initialized = await attempt.bounded(session.initialize())
    info = parse_info(initialized.model_dump(by_alias=True, mode="json"))
    pages: list[Page] = []
    cursor: str | None = None
    for page in range(1, MAX_PAGES + 1):
        attempt.step = "tools/list" if page == 1 else f"tools/list (page {page})"
        params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
        raw = await attempt.bounded(_raw_request(session, types.ListToolsRequest(params=params)))
        start = sum(len(p.raw) for p in pages)
        pages.append(parse_page(raw, spec.server, page, start, info.protocol_version))
        cursor = pages[-1].cursor
        if cursor is None:
            listed = ServerTools(
                spec.text,
                info,
                tuple(t for p in pages for t in p.tools),
                page,
                unread=tuple(u for p in pages for u in p.unread),
                refusals=tuple(r for p in pages for r in p.refusals),
                raw_tools=tuple(item for p in pages for item in p.raw),
                stdout_noise=tuple(attempt.noise),
                page_sizes=tuple(len(p.raw) for p in pages),
            )
            return _selected(spec, listed)
    raise attempt.fail(f"sent more than {MAX_PAGES} pages of tools (its cursor never ends)")


async def _raw_request(session: ClientSession, request: Any) -> dict[str, Any]:
    """The server's answer to ``request`` as raw JSON, so every schema is judged exactly as
    sent, and a list the SDK's types refuse is still read (:mod:`toollens.mcp.listing` runs
    the SDK's own check on it and keeps the verdict)."""
    from pydantic import TypeAdapter

    dumped = request.model_dump(by_alias=True, mode="json", exclude_none=True)
    # The session's dispatcher sends a request without validating the answer (mcp 2.3).
    send_raw = getattr(getattr(session, "_dispatcher", None), "send_raw_request", None)
    if send_raw is not None:
        answer: dict[str, Any] = await send_raw(dumped["method"], dumped.get("params"), None)
        return answer
    # Another SDK version: its own request, which validates (a refused list fails).
    raw_result = TypeAdapter(dict[str, Any])
    # The SDK takes a TypeAdapter (its annotation only names BaseModel results).
    return await session.send_request(request, raw_result)  # type: ignore[type-var]


def _selected(spec: McpTarget, listed: ServerTools) -> ServerTools:
    if spec.tool is None:
        return listed
    chosen = tuple(t for t in listed.tools if t.name == spec.tool)
    unread = tuple(u for u in listed.unread if u.name == spec.tool)
    if not chosen and not unread:
        import difflib

        names = [t.name for t in listed.tools] + [u.name for u in listed.unread]
        close = difflib.get_close_matches(spec.tool, names, n=3)
        hint = (
            ("did you mean " + " or ".join(map(repr, close)) + "?")
            if close
            else (
                f"it has {len(names)} tools: "
                + ", ".join(names[:10])
                + ("..." if len(names) > 10 else "")
            )
        )
        raise TargetError(f"MCP server {spec.label!r} has no tool {spec.tool!r}", hint=hint)
    return dataclasses.replace(listed, target=spec.text, tools=chosen, unread=unread)


@asynccontextmanager
async def _transport(
    spec: McpTarget, options: ConnectOptions, attempt: Attempt
) -> AsyncIterator[tuple[Any, Any]]:
    if spec.url is not None:
        async with _http_transport(spec.url, options.timeout) as streams:
            yield streams
        return

    cwd = options.cwd or os.getcwd()
    async with owned_stdio(
        spec.command, options.env, cwd, attempt.errlog, attempt.process
    ) as streams:
        yield streams


@asynccontextmanager
async def _http_transport(url: str, timeout: float) -> AsyncIterator[tuple[Any, Any]]:
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    # trust_env=False: no credentials from ~/.netrc and no proxy from the environment reach
    # a server the user did not give them to. Redirects: the SDK follows one only within the
    # endpoint's origin; any other fails the request with the location named.
    client = httpx2.AsyncClient(
        timeout=httpx2.Timeout(timeout), follow_redirects=False, trust_env=False
    )
    async with client, streamable_http_client(url, http_client=client) as streams:
        yield streams
