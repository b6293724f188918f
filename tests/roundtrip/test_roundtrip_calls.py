"""``try_call`` beyond the SDK comparison: running, timeouts, context, output JSON, errors."""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from typing import Any

import pytest

from toollens import TargetError
from toollens.roundtrip import CallStatus, try_call


async def raises_its_own_timeout(x: int) -> int:
    """An async tool whose own TimeoutError is an exception, not a hang."""
    raise asyncio.TimeoutError("upstream timed out")


async def sleepy(x: int) -> int:
    """Sleeps past any test timeout; cancelled at the timeout."""
    await asyncio.sleep(30)
    return x


def returns_awaitable(x: int) -> Any:
    """A sync function returning a coroutine: awaited like the SDK awaits a result."""

    async def later() -> int:
        return x * 2

    return later()


@dataclass
class Shop:
    owner: str


def with_context(ctx: Shop, item: str) -> str:
    """The first parameter is the run context."""
    return f"{ctx.owner} sells {item}"


def wrong_return(x: int) -> int:
    """Declares int, returns text."""
    return "not a number"  # type: ignore[return-value]


def test_a_tools_own_timeout_error_is_raised_not_timed_out() -> None:
    result = try_call(raises_its_own_timeout, {"x": 1}, timeout=5)
    assert result.status is CallStatus.RAISED
    assert isinstance(result.exception, asyncio.TimeoutError)  # distinct from TimeoutError on 3.10


def test_an_async_tool_is_cancelled_at_the_timeout() -> None:
    result = try_call(sleepy, {"x": 1}, timeout=0.05)
    assert result.status is CallStatus.TIMED_OUT
    assert result.model_text == "Tool 'sleepy' timed out after 0.05 seconds."


def test_an_awaitable_result_is_awaited() -> None:
    assert try_call(returns_awaitable, {"x": 2}).value == 4


def test_it_works_inside_a_running_event_loop() -> None:
    """A notebook cell runs inside an event loop; the call gets one of its own."""

    async def cell() -> Any:
        return try_call(returns_awaitable, {"x": 3})

    assert asyncio.run(cell()).value == 6


def test_the_context_goes_first() -> None:
    from toollens.core.function_schema import function_schema

    fs = function_schema(with_context, context_types=(Shop,))
    result = try_call(fs, {"item": "mugs"}, context=Shop("Ada"))
    assert result.value == "Ada sells mugs"
    assert result.call_text.startswith("with_context(ctx=Shop(owner='Ada'), item='mugs')")


def test_a_value_that_does_not_fit_the_return_type() -> None:
    result = try_call(wrong_return, {"x": 1})
    assert result.status is CallStatus.RETURNED
    assert result.model_text == "not a number"  # the SDK's default path sends str(value)
    assert result.output_json is None
    assert result.output_error is not None
    assert result.output_error.startswith("the value does not fit int")


def test_dry_run_builds_the_call_and_runs_nothing() -> None:
    ran = threading.Event()

    def side_effect(x: int) -> None:
        ran.set()

    result = try_call(side_effect, {"x": 1}, dry_run=True)
    assert result.status is CallStatus.NOT_RUN
    assert result.call_text == "side_effect(x=1)"
    assert not ran.is_set()


@pytest.mark.parametrize(
    ("target", "arguments", "match"),
    [
        (42, {}, "not callable"),
        (wrong_return, {"x": object()}, "not JSON"),
    ],
)
def test_bad_input_is_a_target_error(target: Any, arguments: Any, match: str) -> None:
    with pytest.raises(TargetError, match=match):
        try_call(target, arguments)
