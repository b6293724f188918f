"""Run a sync or async function with a timeout, on a worker thread of its own.

The OpenAI Agents SDK runs a sync tool with ``asyncio.to_thread`` and awaits an async one;
both run here on a daemon thread so that a call made from a notebook (whose event loop is
already running) works the same, and a hung call never blocks the interpreter's exit. A
sync function that hangs cannot be stopped: its thread is left behind, which is why
``fuzz`` stops calling a function after its first timeout.
"""

from __future__ import annotations

import asyncio
import enum
import inspect
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


class RunStatus(str, enum.Enum):
    RETURNED = "returned"
    RAISED = "raised"
    TIMED_OUT = "timed-out"


@dataclass(frozen=True)
class RunOutcome:
    status: RunStatus
    value: Any = None
    exception: BaseException | None = None


def run_call(
    func: Callable[..., object],
    args: Sequence[object],
    kwargs: Mapping[str, object],
    *,
    timeout: float | None,
) -> RunOutcome:
    """Call ``func(*args, **kwargs)``, awaiting its result when it is awaitable."""
    box: dict[str, Any] = {}

    def work() -> None:
        try:
            value = func(*args, **kwargs)
            if inspect.isawaitable(value):
                value = asyncio.run(_awaited(value, timeout))
            box["value"] = value
        except BaseException as exc:
            box["exception"] = exc

    worker = threading.Thread(target=work, name="toollens-call", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        return RunOutcome(RunStatus.TIMED_OUT, exception=_timeout_error(timeout))
    if "exception" in box:
        exc = box["exception"]
        if isinstance(exc, _CallTimedOut):  # an async call, cancelled at the timeout
            return RunOutcome(RunStatus.TIMED_OUT, exception=_timeout_error(timeout))
        return RunOutcome(RunStatus.RAISED, exception=exc)
    return RunOutcome(RunStatus.RETURNED, value=box.get("value"))


class _CallTimedOut(Exception):
    """Our own timeout, told apart from a ``TimeoutError`` the function raises itself."""


async def _awaited(awaitable: Awaitable[Any], timeout: float | None) -> Any:
    task = asyncio.ensure_future(awaitable)
    done, _ = await asyncio.wait({task}, timeout=timeout)
    if not done:
        task.cancel()
        raise _CallTimedOut
    return task.result()


def _timeout_error(timeout: float | None) -> TimeoutError:
    return TimeoutError(f"the call did not finish within {timeout:g} seconds")
