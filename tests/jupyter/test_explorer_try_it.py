"""The explorer's Try-it view, headless: folded and idle until opened, a readable example,
live checks at each pointer, a call only on Call, and an example re-checked (not replaced)
when the function changes."""

from __future__ import annotations

import html
import json
import re
import types

import pytest

from support.source_modules import module_from_source
from toollens.jupyter.explorer import Explorer
from toollens.roundtrip.records import CallResult, CallStatus

TOOL = '''
from typing import Annotated, Literal
from pydantic import Field

CALLS = []

def plan_trip(
    city: str,
    days: Annotated[int, Field(ge=1, le=7)] = 1,
    pace: Literal["slow", "fast"] = "slow",
) -> str:
    """Plan a trip.

    Args:
        city: The city to visit.
        days: How many days.
        pace: How fast to travel.
    """
    CALLS.append((city, days, pace))
    if days == 7:
        raise ValueError("a week is too long")
    return f"{days} days in {city}"
'''


@pytest.fixture
def trip() -> types.ModuleType:
    return module_from_source(TOOL, "tl_try_it_case")


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", fragment))


def _press(explorer: Explorer, action: str) -> None:
    """A button of the Try-it view, as the front end sends it."""
    explorer._on_message(explorer, {"type": "try", "action": action}, [])


def _pointers(explorer: Explorer, source: str | None = None) -> set[str]:
    return {
        mark["pointer"] for mark in explorer.try_marks if source is None or mark["source"] == source
    }


def test_folded_view_does_no_work_per_edit(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("How many days.", "Days.")
    assert explorer.try_available
    assert (explorer.try_arguments, explorer.try_html, explorer.try_marks) == ("", "", [])
    assert "try_html" not in explorer.last_render_stats.panels_updated


def test_opening_fills_a_readable_example_the_sdk_accepts(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    explorer.try_open = True
    example = json.loads(explorer.try_arguments)
    # Strict mode: every parameter is required; each gets its smallest allowed value.
    assert example == {"city": "", "days": 1, "pace": "slow"}
    assert explorer.try_marks == []
    shown = _text(explorer.try_html)
    assert "accepted" in shown
    assert "plan_trip(city='', days=1, pace='slow')" in shown
    assert trip.CALLS == [], "opening the view never calls the function"
    assert explorer.try_can_call


def test_each_problem_is_marked_at_its_pointer_by_each_judge(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0, arguments={"days": 9, "pace": "run"})
    assert explorer.try_open
    assert _pointers(explorer, "sdk") == {"/city", "/days", "/pace"}
    assert _pointers(explorer, "schema") == {"", "/days", "/pace"}  # "" : city is missing
    shown = _text(explorer.try_html)
    assert "rejected" in shown
    assert "The model is told" in shown
    assert "Invalid JSON input for tool plan_trip" in shown  # the SDK's own words
    assert trip.CALLS == []


def test_text_that_does_not_parse_is_marked_at_its_line_and_column(
    trip: types.ModuleType,
) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0, arguments='{\n  "city": \n}')
    [mark] = explorer.try_marks
    assert (mark["source"], mark["pointer"], mark["line"], mark["column"]) == ("json", None, 3, 1)
    assert "not JSON" in _text(explorer.try_html)


def test_call_runs_the_function_once_and_shows_what_the_model_reads(
    trip: types.ModuleType,
) -> None:
    explorer = Explorer(
        trip.plan_trip, debounce=0, arguments={"city": "Oslo", "days": 2, "pace": "fast"}
    )
    assert "Result" not in _text(explorer.try_html), "no result before Call"
    _press(explorer, "call")
    assert trip.CALLS == [("Oslo", 2, "fast")]
    shown = _text(explorer.try_html)
    assert "returned" in shown
    assert "2 days in Oslo" in shown
    explorer.try_arguments = json.dumps({"city": "Oslo", "days": 7, "pace": "fast"})
    assert "from an earlier call" in _text(explorer.try_html), (
        "a result for other arguments is stale"
    )
    assert len(trip.CALLS) == 1, "editing the arguments never calls"
    _press(explorer, "call")
    shown = _text(explorer.try_html)
    assert "raised" in shown
    assert "ValueError: a week is too long" in shown
    assert "An error occurred while running the tool" in shown  # the SDK's default text


def test_rejected_arguments_are_not_called(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0, arguments={"city": "Oslo", "days": 0})
    _press(explorer, "call")
    assert trip.CALLS == []
    assert 'data-status="rejected"' in explorer.try_html


def test_an_edit_rechecks_the_example_and_never_replaces_it(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    explorer.try_open = True
    before = explorer.try_arguments
    _press(explorer, "call")
    explorer.editor.value = explorer.editor.value.replace(
        "    city: str,\n", "    city: str,\n    country: str,\n"
    )
    assert explorer.error is None
    assert explorer.try_arguments == before
    assert _pointers(explorer, "sdk") == {"/country"}
    assert "from an earlier call" in _text(explorer.try_html), "the function changed"
    # Loosening the bound the example sat on clears nothing it did not break.
    explorer.editor.value = explorer.editor.value.replace("    country: str,\n", "")
    assert explorer.try_marks == []


def test_toolbar_provider_changes_what_the_schema_judge_reads(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0, arguments={"city": "Oslo"})
    assert _pointers(explorer, "schema") == {""}  # strict: days and pace are required
    assert "the strict schema openai-chat receives" in _text(explorer.try_html)
    explorer.strict = False
    assert explorer.try_marks == []
    explorer.try_arguments = '{"city": "Oslo", "days": 8}'
    explorer.provider = "gemini"  # Gemini's OpenAPI schema keeps the bound
    assert _pointers(explorer, "schema") == {"/days"}


def test_edge_cases_come_in_turn_and_each_is_named(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    explorer.try_open = True
    seen = []
    for _ in range(4):
        _press(explorer, "edge")
        seen.append(json.loads(explorer.try_arguments))
        assert "Edge case: /" in _text(explorer.try_html)
        assert explorer.try_marks == [], "an edge case is valid by construction"
    assert len({json.dumps(case, sort_keys=True) for case in seen}) == 4
    assert {case["city"] for case in seen} >= {" "}  # a blank string is an edge of `city`


def test_another_example_is_valid_and_new(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    explorer.try_open = True
    first = explorer.try_arguments
    _press(explorer, "example")
    assert explorer.try_arguments != first
    assert [m for m in explorer.try_marks if m["source"] == "sdk"] == []


def test_a_plain_schema_is_checked_but_has_nothing_to_call() -> None:
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string", "minLength": 2}},
        "required": ["q"],
    }
    explorer = Explorer(schema, debounce=0)
    explorer.try_open = True
    assert json.loads(explorer.try_arguments) == {"q": "aa"}
    assert not explorer.try_can_call
    assert "no function to call" in _text(explorer.try_html)
    explorer.try_arguments = '{"q": "a"}'
    assert _pointers(explorer, "schema") == {"/q"}


def test_a_caller_makes_the_call_for_a_tool_without_a_function() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    sent: list[str] = []

    def caller(text: str) -> CallResult:
        sent.append(text)
        return CallResult("search", text, CallStatus.RETURNED, model_text="3 hits")

    explorer = Explorer(schema, debounce=0, caller=caller, arguments={"q": "tea"})
    assert explorer.try_can_call
    assert sent == []
    _press(explorer, "call")
    assert sent == ['{"q": "tea"}']
    assert "3 hits" in _text(explorer.try_html)


def test_an_output_type_has_no_try_it_view() -> None:
    explorer = Explorer(list[int], debounce=0)
    assert explorer.report is not None
    assert explorer.report.target_kind == "output-type"
    assert not explorer.try_available
    explorer.try_open = True
    _press(explorer, "call")
    assert (explorer.try_arguments, explorer.try_html) == ("", "")


def test_opened_on_a_broken_source_fills_from_the_last_good_report(trip: types.ModuleType) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    good = explorer.editor.value
    explorer.editor.value = good.replace("def plan_trip(", "def plan_trip((")
    assert explorer.error is not None
    explorer.try_open = True  # the last good report is there: the example comes from it
    assert json.loads(explorer.try_arguments) == {"city": "", "days": 1, "pace": "slow"}
    explorer.try_arguments = ""  # the author empties it: "" is {} to the SDK, and stays
    explorer.editor.value = good
    assert explorer.try_arguments == ""
    assert _pointers(explorer, "sdk") == {"/city"}


def test_a_schema_the_generator_cannot_use_shows_one_line() -> None:
    schema = {
        "type": "object",
        "properties": {"when": {"type": "string", "pattern": "(unclosed"}},
        "required": ["when"],
    }
    explorer = Explorer(schema, debounce=0)
    explorer.try_open = True  # no traceback: the view says why
    shown = _text(explorer.try_html)
    assert "Try it cannot go on: at /properties/when/pattern:" in shown
    assert "not a 'regex'; fix the schema at that place" in shown
    _press(explorer, "example")  # every button too
    assert "Try it cannot go on" in _text(explorer.try_html)
