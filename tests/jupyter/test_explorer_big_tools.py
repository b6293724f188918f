"""A big tool stays live: an edit sends patches, not every view again (bytes, never time)."""

from __future__ import annotations

import itertools
import json
import textwrap
import types
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support.big_tools import big_tool_source
from toollens.jupyter.explorer import PANELS, Explorer
from toollens.jupyter.live import register_source
from toollens.jupyter.panel_patch import PanelPatcher, PanelSync, apply_ops

BUDGET_PER_EDIT = 100_000  # bytes synced per one-character edit of a 240-parameter tool
_modules = itertools.count()


def load(source: str) -> types.ModuleType:
    name = f"tl_big_tool_case_{next(_modules)}"
    text = textwrap.dedent(source)
    register_source(f"<{name}>", text)
    module = types.ModuleType(name)
    exec(compile(text, f"<{name}>", "exec"), module.__dict__)
    return module


def _synced_bytes(explorer: Explorer) -> int:
    return len(json.dumps(explorer.panel_patch).encode())


def test_one_character_edits_of_a_240_parameter_tool_send_under_100_kb() -> None:
    explorer = Explorer(load(big_tool_source(240)).big_tool, debounce=0)
    opened = sum(len(html.encode()) for html in explorer.panels.values())
    assert opened > 10 * BUDGET_PER_EDIT  # what resending every view would cost
    edits = [
        ("The value of slot 7.", "The value of slot 7!"),  # a docstring line
        ("le=130", "le=131"),  # a constraint
        ('description="Field 200."', 'description="Field 2000."'),  # a Field description
        ("= 99,", "= 9,"),  # a default
    ]
    for old, new in edits:
        explorer.editor.value = explorer.editor.value.replace(old, new, 1)
        stats = explorer.last_render_stats
        assert stats.ok
        assert stats.panels_updated  # the views did change
        assert stats.bytes_sent < BUDGET_PER_EDIT, (old, stats.bytes_sent)
        assert _synced_bytes(explorer) <= stats.bytes_sent + len(explorer.changes.encode())
        for key in PANELS:  # the front end's base + patch is exactly the view now
            ops = explorer.panel_patch.get(key, [])
            assert apply_ops(explorer.panel_base[key], ops) == explorer.panels[key]


def test_a_240_parameter_edit_costs_about_what_a_20_parameter_edit_costs() -> None:
    costs = []
    for n in (20, 240):
        explorer = Explorer(load(big_tool_source(n)).big_tool, debounce=0)
        explorer.editor.value = explorer.editor.value.replace("slot 7.", "slot 7!", 1)
        costs.append(explorer.last_render_stats.bytes_sent)
    assert costs[1] < 2 * costs[0] + 2_000


def test_a_toggle_that_rewrites_everything_sends_the_views_whole_once() -> None:
    explorer = Explorer(load(big_tool_source(60)).big_tool, debounce=0)
    explorer.strict = False
    assert explorer.panel_patch == {}
    assert explorer.panel_base == explorer.panels


_pieces = st.sampled_from(["a", "é", "😀", "\n", "</div>", "</li>", "<tr>", "x"])
_texts = st.lists(_pieces, max_size=12).map("".join)


@given(_texts, _texts, _texts)
def test_patches_rebuild_the_new_text_in_utf16_offsets(base: str, middle: str, new: str) -> None:
    patcher = PanelPatcher(budget=10**9)
    patcher.update(base + middle)
    sent, ops = patcher.update(new + middle)
    if sent is None:
        assert apply_ops(base + middle, ops) == new + middle
        for start, end, _text in ops:
            assert 0 <= start <= end <= len((base + middle).encode("utf-16-le")) // 2


def test_a_new_view_is_one_more_key_in_the_same_state() -> None:
    sync = PanelSync()
    first = sync.publish({"a": "<div>1</div>\n<div>2</div>\n", "tokens": "<div>9</div>"})
    assert first.bases == {"a": "<div>1</div>\n<div>2</div>\n", "tokens": "<div>9</div>"}
    second = sync.publish({"tokens": "<div>10</div>"})
    assert second.bases is None
    assert second.updated == ("tokens",)
    assert apply_ops(first.bases["tokens"], second.patches["tokens"]) == "<div>10</div>"


def test_adding_a_view_is_one_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    from toollens.core.report import Report
    from toollens.jupyter import explorer_state
    from toollens.render.markup import tag

    def tokens(rep: Report) -> str:  # what a Tokens view could look like
        text = f"{rep.title}: {len(str(rep.schema))} characters of schema"
        return str(tag("section", text, class_="tl-panel tl-panel-tokens"))

    declared = (*explorer_state.PANEL_DECLARATIONS, explorer_state.Panel("tokens", "views", tokens))
    monkeypatch.setattr(explorer_state, "PANEL_DECLARATIONS", declared)
    explorer = Explorer(load(big_tool_source(3)).big_tool, debounce=0)
    assert explorer.panel_order[-1] == "tokens"
    assert explorer.panel_areas["tokens"] == "views"
    assert "big_tool: " in explorer.panel_base["tokens"]
    explorer.editor.value = explorer.editor.value.replace("slot 1.", "slot one.", 1)
    assert "tokens" in explorer.last_render_stats.panels_updated
    ops = explorer.panel_patch["tokens"]
    assert apply_ops(explorer.panel_base["tokens"], ops) == explorer.panels["tokens"]


_lines = st.sampled_from(
    [
        '<span class="tl-line">"type": "string"</span>\n',
        "<tr><td>p1</td><td>é</td></tr>",
        "<li>😀</li>",
    ]
)


@given(
    st.lists(_lines, min_size=200, max_size=400),
    st.lists(st.tuples(st.integers(0, 399), _texts), min_size=1, max_size=4),
)
def test_long_views_with_edits_far_apart_patch_exactly(lines: list[str], edits: list[Any]) -> None:
    base = "".join(lines)
    new_lines = list(lines)
    for at, text in edits:  # replace a few lines, anywhere
        new_lines[at % len(new_lines)] = text
    new = "".join(new_lines)
    patcher = PanelPatcher(budget=10**9)
    patcher.update(base)
    sent, ops = patcher.update(new)
    assert sent is None
    assert apply_ops(base, ops) == new
