"""The stdio transport: toollens starts the server, owns its process group, and ends it.

The SDK's ``stdio_client`` stops the server's process group only when the server itself is
still running; a server that exits and leaves a child behind (a worker, a wrapped ``node``)
would leave an orphan holding the pipe. This transport keeps the server's pid, so it also
ends the conversation as soon as the server exits (with its exit code) and, however the
conversation ends, terminates the whole group with the SDK's own escalation (SIGTERM, then
SIGKILL). The wire format is the SDK's: one JSON-RPC message per line, parsed and written
with its types; a line that is not JSON-RPC (a banner, a log line) is passed on as
:class:`NotJsonRpc` and skipped, as the SDK's client skips it. POSIX only; on Windows the
SDK's ``stdio_client`` (a Job Object) is used.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager, suppress
from typing import IO, Any, TextIO, cast

__all__ = ["NotJsonRpc", "ServerProcess", "owned_stdio"]

_GRACE = 1.0  # seconds a server has to exit by itself once its stdin is closed
_TERM_GRACE = 1.0  # seconds between SIGTERM and SIGKILL to the group
_DRAIN = 0.3  # seconds the reader gets to pass on what an exited server still wrote
_POLL = 0.02


class NotJsonRpc(Exception):
    """A line the server wrote to stdout that is not a JSON-RPC message; handed to the
    session as the SDK's own transport hands its parse errors (and skipped, as it does)."""

    def __init__(self, line: str) -> None:
        super().__init__(line)
        self.line = line


class ServerProcess:
    """What the transport knows about the server process, for the error message."""

    def __init__(self) -> None:
        self.pid: int | None = None
        self.exit_code: int | None = None  # set when the server exited by itself


# Any: the SDK's own stream types (anyio memory streams of its session messages), which
# differ between its versions; ClientSession takes them as they come.
@asynccontextmanager
async def owned_stdio(
    command: tuple[str, ...],
    env: Mapping[str, str],
    cwd: str,
    errlog: IO[str],
    state: ServerProcess,
) -> AsyncIterator[tuple[Any, Any]]:
    """Start ``command`` and yield the (read, write) message streams a ClientSession takes."""
    if sys.platform == "win32":  # pragma: no cover - no process groups: the SDK's Job Object
        async with _sdk_stdio(command, env, cwd, errlog) as streams:
            yield streams
        return
    import anyio
    from mcp.client.stdio import get_default_environment

    process = await anyio.open_process(
        list(command),
        env={**get_default_environment(), **env},
        cwd=cwd,
        stderr=errlog,
        start_new_session=True,  # its own process group: one signal reaches every child
    )
    state.pid = process.pid
    try:
        async with _pipes(process, state) as streams:
            yield streams
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process, state)


@asynccontextmanager
async def _pipes(process: Any, state: ServerProcess) -> AsyncIterator[tuple[Any, Any]]:
    import anyio
    from mcp.shared.message import SessionMessage

    read_send, read_receive = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_send, write_receive = anyio.create_memory_object_stream[SessionMessage](0)

    async def read() -> None:
        async with read_send:
            buffer = b""
            with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, anyio.EndOfStream):
                async for chunk in process.stdout:
                    *lines, buffer = (buffer + chunk).split(b"\n")
                    for line in lines:
                        if line.strip():
                            await read_send.send(_parse(line))

    async def write() -> None:
        async with write_receive:
            with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                async for message in write_receive:
                    text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send(text.encode("utf-8") + b"\n")

    async def watch() -> None:
        # A server that exits while a child keeps its stdout open never sends EOF.
        while process.returncode is None:
            await anyio.sleep(_POLL)
        state.exit_code = process.returncode
        await anyio.sleep(_DRAIN)
        await read_send.aclose()

    async with anyio.create_task_group() as group:
        group.start_soon(read)
        group.start_soon(write)
        group.start_soon(watch)
        try:
            yield read_receive, write_send
        finally:
            group.cancel_scope.cancel()


def _parse(line: bytes) -> Any:
    """One stdout line as the SDK's message; a line that is not JSON-RPC as
    :class:`NotJsonRpc` (the SDK's ``stdio_client`` also passes it on, and its session skips
    it)."""
    import mcp_types as types
    from mcp.shared.message import SessionMessage
    from pydantic import ValidationError

    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValidationError:
        return NotJsonRpc(line.decode("utf-8", errors="replace").rstrip("\r"))


async def _stop(process: Any, state: ServerProcess) -> None:
    """Close stdin, give the server a moment, then terminate its whole group."""
    import anyio
    from mcp.os.posix.utilities import terminate_posix_process_tree

    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.stdin.aclose()
    with anyio.move_on_after(_GRACE):
        while process.returncode is None:
            await anyio.sleep(_POLL)
    if state.exit_code is None:  # exited by itself (crashed, or on its stdin closing)
        state.exit_code = process.returncode
    # Even when the server exited, its children may live on in its group: always signal it.
    await terminate_posix_process_tree(process, _TERM_GRACE)
    with anyio.move_on_after(_TERM_GRACE):
        while process.returncode is None:
            await anyio.sleep(_POLL)
    for stream in (process.stdout, process.stdin):
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await stream.aclose()


@asynccontextmanager
async def _sdk_stdio(
    command: tuple[str, ...], env: Mapping[str, str], cwd: str, errlog: IO[str]
) -> AsyncIterator[tuple[Any, Any]]:  # pragma: no cover - Windows
    from mcp.client.stdio import StdioServerParameters, stdio_client

    params = StdioServerParameters(
        command=command[0], args=list(command[1:]), env=dict(env), cwd=cwd
    )
    async with stdio_client(params, errlog=cast("TextIO", errlog)) as streams:
        yield streams
