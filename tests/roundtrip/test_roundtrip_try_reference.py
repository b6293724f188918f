"""``try_call`` against the OpenAI Agents SDK: the same arguments, the same outcome.

For each (function, arguments) pair the SDK's own ``function_tool`` is invoked (non-strict,
so that ``**kwargs`` can be built; strictness changes the schema, not the validating model)
and compared
with toollens: accepted or rejected, the SDK's error text (tool-data logging on, so the text is
complete), the ``(args, kwargs)`` the function receives, and the text the model reads next
(the default failure function's sentence, ``str(value)`` for a returned value).
"""

from __future__ import annotations

import asyncio
import functools
import json
from enum import Enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import AfterValidator, BaseModel, Field

from toollens.roundtrip import CallStatus, reply, try_call

agents = pytest.importorskip("agents")
agents_tool = pytest.importorskip("agents.tool")
agents_items = pytest.importorskip("agents.items")
agents_exceptions = pytest.importorskip("agents.exceptions")
tool_context = pytest.importorskip("agents.tool_context")
agents_debug = pytest.importorskip("agents._debug")
pytestmark = pytest.mark.reference

CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = []


def recorded(func: Any) -> Any:
    """``func`` with every call's ``(args, kwargs)`` kept in ``CALLS``; the signature is kept."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        CALLS.append((args, kwargs))
        return func(*args, **kwargs)

    return wrapper


class Unit(str, Enum):
    C = "c"
    F = "f"


class Point(BaseModel):
    x: int
    y: int = 0


def _even(value: int) -> int:
    if value % 2:
        raise ValueError("must be even")
    return value


@recorded
def get_weather(city: str, days: Annotated[int, Field(ge=1, le=7)] = 3, unit: Unit = Unit.C) -> str:
    """Forecast for a city.

    Args:
        city: the city name.
        days: how many days.
        unit: degrees unit.
    """
    return f"{city}: {days} days in {unit.value}"


@recorded
def shapes(a: int, /, b: str, *rest: int, flag: bool = False, **extra: float) -> dict[str, Any]:
    """Every parameter kind."""
    return {"a": a, "b": b, "rest": list(rest), "flag": flag, "extra": extra}


@recorded
def nested(point: Point, tags: list[str], mode: Literal["fast", "slow"] = "fast") -> Point:
    """A model and a list."""
    return Point(x=point.x + len(tags), y=point.y)


@recorded
def validated(count: Annotated[int, AfterValidator(_even)], note: str | None = None) -> int:
    """A custom validator."""
    return count // 2


@recorded
def fails(n: int) -> int:
    """Raises for zero."""
    return 10 // n


CASES = [
    (get_weather, '{"city": "Oslo", "days": 3, "unit": "c"}'),
    (get_weather, '{"city": "Oslo"}'),
    (get_weather, '{"city": "Oslo", "days": 9}'),
    (get_weather, '{"city": "Oslo", "days": "4"}'),  # lax: a numeric string is an int
    (get_weather, '{"city": "Oslo", "unit": "kelvin"}'),
    (get_weather, '{"days": 2}'),
    (get_weather, '{"city": 5}'),
    (get_weather, '{"city": "Oslo", "extra": 1}'),  # extra keys are ignored
    (get_weather, ""),
    (get_weather, "{bad json"),
    (get_weather, "[1, 2]"),
    (get_weather, '"Oslo"'),
    (get_weather, "null"),
    (shapes, '{"a": 1, "b": "x", "rest": [2, 3], "flag": true, "extra": {"k": 1.5}}'),
    (shapes, '{"a": 1, "b": "x"}'),
    (shapes, '{"a": 1, "b": "x", "rest": ["no"]}'),
    (shapes, '{"a": 1, "b": "x", "extra": {"k": "no"}}'),
    (nested, '{"point": {"x": 1}, "tags": ["a", "b"]}'),
    (nested, '{"point": {"x": 1, "y": 2}, "tags": [], "mode": "slow"}'),
    (nested, '{"point": {}, "tags": []}'),
    (nested, '{"point": {"x": 1}, "tags": [1]}'),
    (nested, '{"point": {"x": 1}, "tags": [], "mode": "medium"}'),
    (validated, '{"count": 4}'),
    (validated, '{"count": 3}'),
    (validated, '{"count": 4, "note": null}'),
    (fails, '{"n": 2}'),
    (fails, '{"n": 0}'),
]
IDS = [f"{func.__name__}-{i}" for i, (func, _) in enumerate(CASES)]


def _context(name: str, arguments: str) -> Any:
    return tool_context.ToolContext(
        context=None, tool_name=name, tool_call_id="call-1", tool_arguments=arguments
    )


def _sdk_outcome(func: Any, arguments: str) -> tuple[str, Any, list[Any]]:
    """(``"ok"``/``"rejected"``/``"raised"``, value or error text, calls) from the SDK."""
    tool = agents.function_tool(func, failure_error_function=None, strict_mode=False)
    CALLS.clear()
    try:
        value = asyncio.run(tool.on_invoke_tool(_context(tool.name, arguments), arguments))
    except agents_exceptions.ModelBehaviorError as exc:
        return "rejected", str(exc), list(CALLS)
    except Exception as exc:  # the tool's own exception, passed through
        return "raised", type(exc), list(CALLS)
    return "ok", value, list(CALLS)


def _sdk_model_text(func: Any, arguments: str) -> str:
    """What the model reads with the SDK's defaults: the failure function, then the output item."""
    tool = agents.function_tool(func, strict_mode=False)
    output = asyncio.run(tool.on_invoke_tool(_context(tool.name, arguments), arguments))
    call = agents_items.ResponseFunctionToolCall(
        arguments=arguments, call_id="call-1", name=tool.name, type="function_call"
    )
    item = agents_items.ItemHelpers.tool_call_output_item(call, output)
    return str(item["output"])


@pytest.fixture(autouse=True)
def _tool_data_logged(monkeypatch: pytest.MonkeyPatch) -> None:
    # The SDK redacts the detail of its error text unless tool-data logging is on.
    monkeypatch.setattr(agents_debug, "DONT_LOG_TOOL_DATA", False)


@pytest.mark.parametrize(("func", "arguments"), CASES, ids=IDS)
def test_outcome_error_text_and_call_match_the_sdk(func: Any, arguments: str) -> None:
    kind, detail, sdk_calls = _sdk_outcome(func, arguments)
    CALLS.clear()
    ours = try_call(func, arguments)
    expected_status = {
        "ok": CallStatus.RETURNED,
        "rejected": CallStatus.REJECTED,
        "raised": CallStatus.RAISED,
    }[kind]
    assert ours.status is expected_status
    if kind == "rejected":
        assert ours.sdk_error == detail
        assert ours.error is not None
        assert ours.error.pointer is not None
    elif kind == "raised":
        assert type(ours.exception) is detail
    else:
        assert ours.value == detail
    assert sdk_calls == CALLS  # the same (args, kwargs), or no call at all


@pytest.mark.parametrize(("func", "arguments"), CASES, ids=IDS)
def test_model_text_matches_the_sdk(func: Any, arguments: str) -> None:
    assert try_call(func, arguments).model_text == _sdk_model_text(func, arguments)


def test_default_texts_are_the_sdks() -> None:
    assert (
        agents_tool.default_tool_error_function(None, RuntimeError("x")) == reply.DEFAULT_ERROR_TEXT
    )
    assert reply.timeout_text("slow", 1.5) == agents_tool.default_tool_timeout_error_message(
        tool_name="slow", timeout_seconds=1.5
    )


@pytest.mark.parametrize(
    ("arguments", "pointer"),
    [
        ('{"city": "Oslo", "days": 9}', "/days"),
        ('{"days": 2}', "/city"),
        ('{"city": "Oslo", "unit": "kelvin"}', "/unit"),
        ("{bad json", ""),
        ("[1]", ""),
    ],
)
def test_rejections_point_at_the_problem(arguments: str, pointer: str) -> None:
    result = try_call(get_weather, arguments)
    assert result.status is CallStatus.REJECTED
    assert result.pointer == pointer


def test_the_call_as_python_text() -> None:
    assert try_call(get_weather, {"city": "Oslo", "days": 3}).call_text == (
        "get_weather(city='Oslo', days=3, unit=<Unit.C: 'c'>)"
    )
    shown = try_call(shapes, {"a": 1, "b": "x", "rest": [2], "extra": {"k": 1.5}}).call_text
    assert shown == "shapes(1, 'x', 2, flag=False, k=1.5)"  # *rest makes b positional


def test_mapping_arguments_are_sent_as_json_text() -> None:
    result = try_call(get_weather, {"city": "Oslo"})
    assert json.loads(result.arguments) == {"city": "Oslo"}
    assert result.status is CallStatus.RETURNED
