"""The explorer's change list: against a baseline the author chose, the last edit apart."""

from __future__ import annotations

import html
import re
import types

import pytest

from support.source_modules import module_from_source
from toollens.core.edit_changes import EditChanges
from toollens.core.report import report
from toollens.jupyter.explorer import Explorer
from toollens.render.change_list import render_change_list

TOOL = '''
from typing import Annotated
from pydantic import Field

def plan_trip(
    city: str,
    days: Annotated[int, Field(ge=1, le=7)] = 1,
) -> str:
    """Plan a trip.

    Args:
        city: The city to visit.
        days: How many days.
    """
    return city
'''


@pytest.fixture
def trip() -> types.ModuleType:
    return module_from_source(TOOL, "tl_change_list_case")


def _text(fragment: str) -> str:
    """The change list as a reader sees it: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def _typed(explorer: Explorer, old: str, *steps: str) -> None:
    """Replace ``old`` in the editor by each of ``steps`` in turn, one render per step."""
    current = old
    for step in steps:
        explorer.editor.value = explorer.editor.value.replace(current, step, 1)
        current = step


def trip_text(explorer: Explorer) -> str:
    """The editor's text without a half-typed ``budget`` line (each step retypes it)."""
    return re.sub(r"    budget: int = 0,?", "", explorer.editor.value)


def _since_part(fragment: str) -> str:
    return fragment.split('<div class="tl-last">')[0]


def _last_part(fragment: str) -> str:
    return fragment.split('<div class="tl-last">')[1]


def test_select_7_type_1_then_4_lists_7_to_14_against_the_opened_schema(
    trip: types.ModuleType,
) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    _typed(explorer, "le=7", "le=1", "le=14")
    since = _text(_since_part(explorer.changes))
    assert "1 change" in since
    assert "7" in since
    assert "14" in since
    assert "from 1 " not in since  # the intermediate tightening to 1 is not what changed
    last = _text(_last_part(explorer.changes))
    assert "Last edit:" in last
    assert "from 1 to 14" in last


def test_a_new_parameter_line_ending_in_a_comma_still_shows_the_new_parameter(
    trip: types.ModuleType,
) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    anchor = "= 1,\n"
    for typed in ("    budget: int = 0", "    budget: int = 0,"):  # the last key: the comma
        explorer.editor.value = trip_text(explorer).replace(anchor, anchor + typed, 1)
    text = _text(explorer.changes)
    assert "/properties/budget" in text
    assert "did not change the schema" not in text
    assert "no schema change" in _text(_last_part(explorer.changes))  # the comma itself


def test_did_not_change_appears_only_when_the_schema_equals_the_baseline(
    trip: types.ModuleType,
) -> None:
    explorer = Explorer(trip.plan_trip, debounce=0)
    assert explorer.changes.count('data-empty="1"') == 1  # nothing yet: the list collapses
    _typed(explorer, "How many days.", "How many nights.")
    assert "did not change the schema" not in explorer.changes
    assert 'data-empty="1"' not in explorer.changes
    _typed(explorer, "How many nights.", "How many days.")  # back where it started
    assert "did not change the schema" in _text(explorer.changes)


def test_the_applied_baseline_starts_at_the_last_apply(trip: types.ModuleType) -> None:
    namespace = dict(vars(trip))
    explorer = Explorer(trip.plan_trip, debounce=0, namespace=namespace)
    _typed(explorer, "le=7", "le=9")
    assert explorer.apply()
    _typed(explorer, "The city to visit.", "The town to visit.")
    explorer.changes_since = "applied"
    since = _text(_since_part(explorer.changes))
    assert "since last applied" in since
    assert "1 change" in since
    assert "/properties/city" in since
    explorer.changes_since = "opened"
    since = _text(_since_part(explorer.changes))
    assert "2 changes" in since
    assert "/properties/days" in since


def test_core_steps_are_the_same_without_a_widget(trip: types.ModuleType) -> None:
    edits = EditChanges()
    first = edits.step(report(trip.plan_trip))
    assert first.since_baseline is not None
    assert not first.since_baseline.changes
    assert first.last is None
    assert render_change_list(first).count('data-empty="1"') == 1
    same = edits.step(report(trip.plan_trip))
    assert same.since_baseline is not None
    assert not same.since_baseline.changes
