"""The explorer's Tokens view, headless: opt-in, live while typing, follows the provider."""

from __future__ import annotations

import itertools
import re
import textwrap
import types

import pytest

pytest.importorskip("tiktoken")

from toollens.jupyter.explorer import Explorer
from toollens.jupyter.live import register_source
from toollens.jupyter.tokens_view import add_tokens_view
from toollens.tokens import tokens

TOOL = '''
def get_weather(city: str, days: int = 1) -> str:
    """Get the weather for a city.

    Args:
        city: The city to forecast.
        days: How many days ahead.
    """
    return ""
'''
_names = itertools.count()


def make_module(source: str) -> types.ModuleType:
    name = f"tl_tokens_view_{next(_names)}"
    filename = f"<{name}>"
    text = textwrap.dedent(source)
    register_source(filename, text)
    module = types.ModuleType(name)
    exec(compile(text, filename, "exec"), module.__dict__)
    return module


def total(explorer: Explorer) -> int:
    found = re.search(r'data-total="(\d+)"', explorer.panels.get("tokens", ""))
    assert found, explorer.panels.get("tokens", "")
    return int(found.group(1))


def test_off_by_default() -> None:
    explorer = Explorer(make_module(TOOL).get_weather, debounce=0)
    assert "tokens" not in explorer.panel_order
    assert explorer.panels.get("tokens", "") == ""


def test_the_view_shows_the_count_of_the_tool() -> None:
    module = make_module(TOOL)
    explorer = add_tokens_view(Explorer(module.get_weather, debounce=0))
    assert explorer.panel_order[-1] == "tokens"
    assert total(explorer) == tokens(explorer.report, "gpt-4o").total
    assert "gpt-4o (rendered)" in explorer.panels.get("tokens", "")
    assert "city (description)" in explorer.panels.get("tokens", "")


def test_a_longer_description_costs_tokens_while_typing() -> None:
    explorer = add_tokens_view(Explorer(make_module(TOOL).get_weather, debounce=0))
    before = total(explorer)
    explorer.editor.value = explorer.editor.value.replace(
        "The city to forecast.", "The city to forecast, with its country and region."
    )
    assert explorer.last_render_stats.ok
    assert "tokens" in explorer.last_render_stats.panels_updated
    assert total(explorer) > before


def test_the_model_follows_the_toolbar_provider() -> None:
    explorer = add_tokens_view(Explorer(make_module(TOOL).get_weather, debounce=0))
    explorer.provider = "anthropic"
    assert "claude-sonnet-4-5 (estimate)" in explorer.panels.get("tokens", "")
    assert "496 tokens of tool-use system prompt" in explorer.panels.get("tokens", "")


def test_a_model_can_be_named() -> None:
    explorer = add_tokens_view(Explorer(make_module(TOOL).get_weather, debounce=0), "gpt-4")
    assert "gpt-4 (rendered)" in explorer.panels.get("tokens", "")
    assert "cl100k_base" in explorer.panels.get("tokens", "")
