"""Turn whatever went wrong while talking to a server into one line a person can act on.

The SDK's transports run in anyio task groups, so a failure can arrive wrapped in (nested)
exception groups together with cancellations; :func:`explain_failure` unwraps them (without
``except*``, which Python 3.10 lacks), picks the exception that says what happened, and adds
the server's last stderr line, which is usually the real reason a server died.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Iterator
from typing import IO, Any, TypeVar

from toollens.core.errors import TargetError
from toollens.mcp.stdio import NotJsonRpc, ServerProcess
from toollens.mcp.target import McpTarget

__all__ = ["Attempt", "McpFailure", "explain_failure", "last_stderr_line"]

_T = TypeVar("_T")
_STDERR_TAIL = 8192  # bytes of the server's stderr read back for its last line
_QUOTE = 200  # characters of a server's line quoted in a message
_NOISE_KEPT = 20  # stdout lines that are not JSON-RPC kept for the finding
_REDIRECT = re.compile(r"Redirect to (\S+?);? not followed")  # the SDK's streamable-HTTP message


class McpFailure(Exception):
    """What went wrong, as the words after "MCP server 'X'"; raised inside a conversation."""

    def __init__(self, what: str, hint: str | None = None) -> None:
        super().__init__(what)
        self.what = what
        self.hint = hint


class Attempt:
    """One conversation with a server: the step it is at, and what the transport reported."""

    def __init__(self, spec: McpTarget, timeout: float, errlog: IO[str]) -> None:
        self.spec = spec
        self.timeout = timeout
        self.errlog = errlog
        self.step = "start-up"
        self.stream_error: Exception | None = None
        self.noise: list[str] = []  # stdout lines that are not JSON-RPC, skipped
        self.process = ServerProcess()
        self._scope: Any = None

    async def on_message(self, message: object) -> None:
        """The session's message handler. A stdout line that is not JSON-RPC is recorded
        and skipped, as the SDK's client skips it; any other transport error (what the HTTP
        transport cannot read) ends the conversation now instead of at the timeout."""
        if isinstance(message, NotJsonRpc):
            if len(self.noise) < _NOISE_KEPT:
                self.noise.append(_shorten(message.line.strip()))
            return
        if isinstance(message, Exception) and self.stream_error is None:
            self.stream_error = message
            if self._scope is not None:
                self._scope.cancel()

    async def guarded(self, work: Awaitable[_T]) -> _T:
        """Run ``work``; stop it as soon as the transport reports an error."""
        import anyio

        with anyio.CancelScope() as scope:
            self._scope = scope
            return await work
        raise self.fail("sent something that is not a JSON-RPC message")  # explained later

    async def bounded(self, request: Awaitable[_T]) -> _T:
        """Await one step, for at most the timeout."""
        import anyio

        with anyio.move_on_after(self.timeout):
            return await request
        raise McpFailure(
            f"did not answer {self.step} within {self.timeout:g} s",
            hint="give it more time with --timeout, or run the server yourself to see where "
            "it hangs",
        )

    def fail(self, what: str) -> McpFailure:
        return McpFailure(what)


def explain_failure(exc: BaseException, attempt: Attempt) -> TargetError:
    """The one-line error for ``exc`` (maybe an exception group) raised during ``attempt``."""
    spec = attempt.spec
    leaf = _pick(list(_leaves(exc)))
    if isinstance(leaf, TargetError):
        return leaf
    what: str
    hint: str | None
    if attempt.stream_error is not None:
        what, hint = _garbage(attempt.stream_error, attempt.spec.transport)
    elif isinstance(leaf, McpFailure):
        what, hint = leaf.what, leaf.hint
    else:
        what, hint = _describe(leaf, attempt)
    stderr = last_stderr_line(attempt.errlog) if spec.transport == "stdio" else None
    said = f"; its last stderr line: {_quote(stderr)}" if stderr else ""
    if attempt.noise:
        said += f"; it wrote to stdout what is not JSON-RPC: {_quote(attempt.noise[0])}"
        hint = _STDOUT_HINT  # the likeliest reason it never answered
    elif stderr and "No module named" in stderr:
        hint = _interpreter_hint(spec) or hint
    return TargetError(f"MCP server {spec.label!r} {what}{said}", hint=hint)


def _interpreter_hint(spec: McpTarget) -> str | None:
    """When ``python`` on PATH lacks a module the server imports: which one ran, and the
    interpreter toollens runs in (``mcp:python`` means the first on PATH, as in a shell)."""
    import shutil
    import sys

    program = spec.command[0] if spec.command else ""
    if not os.path.basename(program).startswith("python"):
        return None
    found = shutil.which(program) or program
    if os.path.realpath(found) == os.path.realpath(sys.executable):
        return "install the module the server imports in that environment"
    return (
        f"{program!r} is {found}, not the Python toollens runs in ({sys.executable}): "
        "install the server's packages there, activate the environment that has them, or "
        "name that interpreter in the target (mcp:/path/to/python server.py)"
    )


_STDOUT_HINT = (
    "a stdio server must write only MCP messages to stdout; send logs and prints to stderr"
)


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    inner = getattr(exc, "exceptions", None)  # BaseExceptionGroup, on 3.10 via exceptiongroup
    if isinstance(inner, (tuple, list)) and inner:
        for child in inner:
            yield from _leaves(child)
    else:
        yield exc


def _pick(leaves: list[BaseException]) -> BaseException:
    """The exception that explains the failure: ours first, then the SDK's, then anything
    that is not a cancellation (a cancellation is a consequence, never the cause)."""
    for kind in (TargetError, McpFailure, OSError):
        for leaf in leaves:
            if isinstance(leaf, kind):
                return leaf
    causes = [leaf for leaf in leaves if not _is_cancellation(leaf)]
    return (causes or leaves)[0]


def _is_cancellation(exc: BaseException) -> bool:
    # asyncio's CancelledError, or trio's Cancelled (anyio's backends), without importing trio
    return isinstance(exc, (asyncio.CancelledError, GeneratorExit)) or (
        type(exc).__name__ == "Cancelled"
    )


def _garbage(error: Exception, transport: str) -> tuple[str, str | None]:
    from pydantic import ValidationError

    if transport == "http":  # the SDK's HTTP transport reports what it could not read
        return f"sent something the MCP client cannot read ({_one_line(error)})", None
    line = error.errors()[0].get("input") if isinstance(error, ValidationError) else None
    if isinstance(line, bytes):
        line = line.decode("utf-8", errors="replace")
    detail = _quote(str(line)) if line is not None else f"({_one_line(error)})"
    return f"wrote a line to stdout that is not a JSON-RPC message: {detail}", _STDOUT_HINT


def _describe(leaf: BaseException, attempt: Attempt) -> tuple[str, str | None]:
    from pydantic import ValidationError

    step = attempt.step
    if isinstance(leaf, (FileNotFoundError, PermissionError)) and step == "start-up":
        why = "not found" if isinstance(leaf, FileNotFoundError) else "not executable"
        return (
            f"cannot be started: {attempt.spec.command[0]!r} is {why}",
            "check the command; it runs with PATH, HOME and the variables given with --env",
        )
    if isinstance(leaf, ValidationError):
        error = leaf.errors()[0]
        where = "/".join(str(p) for p in error.get("loc", ()))
        return (
            f"answered {step} with something that is not a valid {step} result "
            f"({where or 'the result'}: {error.get('msg', 'invalid')})",
            "fix the server's answer; toollens reads it with the mcp SDK's own types",
        )
    text = _one_line(leaf)
    if type(leaf).__name__ in ("ConnectError", "ConnectTimeout"):  # httpx2's, not imported here
        return (
            f"cannot be reached: {text}",
            "start the server, or check the host, port and path",
        )
    redirect = _REDIRECT.search(str(leaf))
    if redirect is not None:
        return (
            f"redirected to {redirect.group(1)}, which toollens does not follow to another origin",
            "if that server is the one you mean, name its URL",
        )
    if "connection closed" in text.lower():
        code = attempt.process.exit_code
        exited = (
            "closed the connection"
            if attempt.spec.transport == "http"
            else "closed its stdout"
            if code is None
            else f"exited with code {code}"
        )
        return (
            f"{exited} during {step}",
            "run the server's command yourself to see why it stops",
        )
    return f"failed during {step}: {_kind(leaf)}{text}", None


def _kind(leaf: BaseException) -> str:
    from mcp.shared.exceptions import MCPError

    if isinstance(leaf, MCPError):
        return f"error {leaf.code}: "
    return f"{type(leaf).__name__}: "


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return _shorten(text) if text else "(no message)"


def _shorten(text: str) -> str:
    return text if len(text) <= _QUOTE else text[: _QUOTE - 3] + "..."


def _quote(line: str) -> str:
    return repr(_shorten(line))


def last_stderr_line(errlog: IO[str]) -> str | None:
    """The last non-blank line the server wrote to its stderr (read back from the file)."""
    try:
        errlog.flush()
        fd = errlog.fileno()
        size = os.fstat(fd).st_size
        start = max(0, size - _STDERR_TAIL)
        tail = os.pread(fd, size - start, start).decode("utf-8", errors="replace")
    except (OSError, ValueError):  # the file is gone or closed: nothing to quote
        return None
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    return lines[-1] if lines else None
