"""The explorer's Frameworks view, headless: built off the keystroke path, live, pickable.

Uses the two frameworks the test extra installs on every supported Python (the OpenAI
Agents SDK and the MCP SDK); each test skips when they are absent.
"""

from __future__ import annotations

import pytest
from test_explorer import FakeScheduler, make_module

from toollens.frameworks import installed
from toollens.jupyter.explorer import PANELS, Explorer
from toollens.render.frameworks import frameworks_panel_html

PAIR = ("openai-agents", "mcp")
if set(installed(PAIR)) != set(PAIR):
    pytest.skip("needs openai-agents and mcp installed", allow_module_level=True)

TOOL = '''
def book_room(room: str, people: int = 2) -> str:
    """Book a meeting room.

    Args:
        room: The room's name.
        people: How many people will attend.
    """
    return room
'''
WAIT_S = 600  # a hang guard: the first comparison imports the frameworks (seconds when idle)


def frameworks_html(explorer: Explorer) -> str:
    return explorer.panels.get("frameworks", "")


def test_frameworks_view_is_off_by_default() -> None:
    explorer = Explorer(make_module(TOOL).book_room)
    assert frameworks_html(explorer) == ""
    assert "frameworks" not in explorer.panel_order
    assert explorer.wait_frameworks(0)


def test_frameworks_view_shows_each_framework_and_a_picker() -> None:
    explorer = Explorer(make_module(TOOL).book_room, frameworks=list(PAIR))
    assert explorer.panel_order == [*PANELS, "frameworks"]
    assert explorer.wait_frameworks(WAIT_S)
    html = frameworks_html(explorer)
    assert 'data-view="frameworks"' in html
    for key in PAIR:
        assert f'data-framework="{key}"' in html
        assert f'<option value="{key}"' in html
    assert 'data-tl-pair="a"' in html
    assert 'data-tl-pair="b"' in html
    assert 'data-parameter="people"' in html


def test_frameworks_view_follows_edits_and_the_picked_pair() -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(
        make_module(TOOL).book_room, frameworks=list(PAIR), debounce=0.1, scheduler=scheduler
    )
    assert explorer.wait_frameworks(WAIT_S)
    explorer.editor.value = explorer.editor.value.replace(
        "people: int = 2", "people: int = 2, floor: int = 1"
    )
    assert 'data-parameter="floor"' not in frameworks_html(explorer)  # debounced: not yet
    scheduler.run()
    assert explorer.wait_frameworks(WAIT_S)
    assert 'data-parameter="floor"' in frameworks_html(explorer)

    explorer.frameworks_pair = list(PAIR)  # what the front end's picker sets
    view = explorer._frameworks
    assert view is not None
    assert view.comparison is not None
    assert f'data-pair="{PAIR[0]} {PAIR[1]}"' in frameworks_html(explorer)
    assert frameworks_panel_html(view.comparison, PAIR, picker=True) in frameworks_html(explorer)


def test_static_copy_carries_the_comparison() -> None:
    explorer = Explorer(make_module(TOOL).book_room, frameworks=list(PAIR))
    assert explorer.wait_frameworks(WAIT_S)
    data, _meta = explorer._repr_mimebundle_()
    assert 'data-toollens="frameworks"' in data["text/html"]


def test_a_json_schema_target_never_asks_the_frameworks() -> None:
    explorer = Explorer({"type": "object", "properties": {}}, frameworks=list(PAIR))
    assert explorer.wait_frameworks(1)
    view = explorer._frameworks
    assert view is not None
    assert view.comparison is None
