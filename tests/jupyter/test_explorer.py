"""The explorer widget, headless: live edits, debounce, error banner, read-only targets, Apply."""

from __future__ import annotations

import functools
import itertools
import re
import sys
import textwrap
import types
from collections.abc import Callable
from typing import Any

import pytest

from toollens.core.errors import SchemaConstructionError, ToolLensError
from toollens.jupyter.explorer import FOLDED_LINES, PANELS, Explorer
from toollens.jupyter.live import register_source

TOOL = '''
from typing import Annotated

def get_weather(city: Annotated[str, "City name"], days: int = 1) -> str:
    """Get the weather for a city.

    Args:
        city: The city to forecast.
        days: How many days.
    """
    return city
'''

MODEL = '''
from pydantic import BaseModel, Field

class Booking(BaseModel):
    """A booking request."""

    room: str = Field(description="Room name")
    people: int = 2
'''

_modules = itertools.count()


def make_module(source: str, *, in_sys_modules: bool = False) -> types.ModuleType:
    """A module built from source, with a linecache entry so ``inspect.getsource`` works."""
    name = f"tl_explorer_case_{next(_modules)}"
    filename = f"<{name}>"
    text = textwrap.dedent(source)
    register_source(filename, text)
    module = types.ModuleType(name)
    if in_sys_modules:
        module.__file__ = filename
        sys.modules[name] = module
    exec(compile(text, filename, "exec"), module.__dict__)
    return module


class FakeScheduler:
    """Records debounced renders; tests decide when (and whether) they run."""

    def __init__(self) -> None:
        self.pending: list[tuple[float, Callable[[], None]]] = []
        self.cancelled = 0

    def __call__(self, delay: float, callback: Callable[[], None]) -> Callable[[], None]:
        entry = (delay, callback)
        self.pending.append(entry)

        def cancel() -> None:
            if entry in self.pending:
                self.pending.remove(entry)
                self.cancelled += 1

        return cancel

    def run(self) -> None:
        for _delay, callback in list(self.pending):
            callback()


def panel_html(explorer: Explorer) -> dict[str, str]:
    return {key: str(html) for key, html in explorer.panels.items()}


def visible(html: str) -> bool:
    """The front end shows the banner and the note only when they have text."""
    return bool(html)


@pytest.fixture
def weather() -> types.ModuleType:
    return make_module(TOOL)


def test_initial_render_fills_every_view(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    assert "tl-explorer" in explorer._dom_classes
    assert explorer.editor.value.startswith("def get_weather(")
    assert set(explorer.panels) == {"signature", "strict", "output", "metadata", "findings"}
    for key, html in explorer.panels.items():
        assert f"tl-panel-{key}" in html
    assert "The city to forecast." in explorer.panels["metadata"]
    assert not visible(explorer.banner)
    assert explorer.last_render_stats.ok
    assert not explorer.read_only
    # Plain strings, not Markup: marimo does not send a str subclass as a string.
    synced = [explorer.panel_base[key] for key in PANELS]
    synced += [explorer.changes, explorer.note, explorer.banner]
    assert {type(value) for value in synced} == {str}


def test_layout_four_views_side_by_side_then_findings(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    # The front end places the panels in this order: the four views side by side (a grid
    # that stacks in a narrow column), the findings on a row of their own below them.
    assert explorer.panel_order == ["signature", "metadata", "strict", "output", "findings"]
    assert list(explorer.panel_order) == list(PANELS)
    assert explorer.panel_areas["findings"] == "below"
    assert {explorer.panel_areas[key] for key in PANELS[:4]} == {"views"}
    assert ".tl-xp .tl-toolbar" in explorer.css  # WIDGET_STYLE from render.css
    assert ".tl-root .tl-full" in explorer.css
    assert explorer._esm.startswith("/* toollens explorer front end; sources sha256: ")


def test_docstring_edit_updates_only_the_panels_it_changes(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, debounce=0.15, scheduler=scheduler)
    before = panel_html(explorer)
    explorer.editor.value = explorer.editor.value.replace(
        "The city to forecast.", "Town & <b>country</b> to forecast."
    )
    assert panel_html(explorer) == before  # debounced: nothing yet
    assert len(scheduler.pending) == 1
    assert scheduler.pending[0][0] == 0.15
    explorer.flush()
    assert not scheduler.pending
    after = panel_html(explorer)
    escaped = "Town &amp; &lt;b&gt;country&lt;/b&gt; to forecast."
    assert escaped in after["metadata"]
    assert escaped in after["strict"]
    assert "<b>country</b>" not in after["metadata"]
    stats = explorer.last_render_stats
    assert stats.ok
    assert {"metadata", "strict"} <= set(stats.panels_updated)
    assert "output" not in stats.panels_updated
    assert after["output"] == before["output"]
    # Patches against what the front end holds: less than the two views sent whole.
    assert 0 < stats.bytes_sent < len(after["metadata"]) + len(after["strict"])
    assert "description" in explorer.changes


def test_an_edit_renders_at_once_when_the_kernel_is_idle(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, scheduler=scheduler)  # the default: coalescing
    explorer.editor.value = explorer.editor.value.replace("The city to", "Which city to")
    assert not scheduler.pending  # nothing waits: the views already show the edit
    assert "Which city to" in explorer.panels["strict"]
    assert explorer.last_render_stats.ok


def test_edits_are_debounced_into_one_render(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, debounce=0.1, scheduler=scheduler)
    original = explorer.editor.value
    for word in ("A", "B", "C"):
        explorer.editor.value = original.replace("The city to forecast", f"{word} city")
    assert len(scheduler.pending) == 1
    assert scheduler.cancelled == 2
    scheduler.run()
    assert "C city" in explorer.panels["strict"]


def test_flush_without_pending_render_is_a_no_op(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, scheduler=FakeScheduler())
    stats = explorer.last_render_stats
    explorer.flush()
    assert explorer.last_render_stats is stats


def test_syntax_error_keeps_text_and_last_good_views_marked_stale(
    weather: types.ModuleType,
) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    good = panel_html(explorer)
    broken = explorer.editor.value.replace("days: int = 1) -> str:", "days: int = 1) -> str")
    explorer.editor.value = broken
    assert explorer.editor.value == broken  # never reset
    assert visible(explorer.banner)
    assert explorer.error_mark
    assert "Line 1, column 73" in explorer.banner
    assert "SyntaxError: expected &#x27;:&#x27;" in explorer.banner
    assert "Traceback" not in explorer.banner
    assert explorer.stale
    assert panel_html(explorer) == good
    assert explorer.error is not None
    assert explorer.error.line == 1
    assert not explorer.can_apply
    assert not explorer.last_render_stats.ok

    explorer.editor.value = broken.replace("-> str\n", "-> str:\n", 1)
    assert not visible(explorer.banner)
    assert not explorer.error_mark
    assert not explorer.stale
    assert explorer.error is None
    assert explorer.can_apply


def test_exception_while_defining_shows_its_line_escaped(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value += "\nraise ValueError('<script>x</script>')\n"
    assert visible(explorer.banner)
    assert "Line 10:" in explorer.banner
    assert "ValueError: &lt;script&gt;" in explorer.banner
    assert "<script>" not in explorer.banner


def test_schema_construction_error_is_a_banner_not_a_traceback(
    weather: types.ModuleType,
) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("days: int = 1", "days: 'Nowhere' = 1")
    assert visible(explorer.banner)
    assert "Nowhere" in explorer.banner
    assert explorer.stale
    explorer.editor.value = explorer.editor.value.replace("'Nowhere'", "int")
    assert not visible(explorer.banner)
    assert "days" in explorer.panels["signature"]


def test_strict_refusal_of_kwargs_shows_inside_the_strict_view(
    weather: types.ModuleType,
) -> None:
    # Issue 13: the source is fine, so no banner; the refusal is a finding of the strict view.
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("days: int = 1", "**extra: int")
    assert not visible(explorer.banner)
    assert "No views yet" not in explorer.banner
    assert "extra" in explorer.panels["signature"]
    assert "extra" in explorer.panels["metadata"]
    assert "cannot be expressed in a strict schema" in explorer.panels["strict"]
    assert "plain text" in explorer.panels["output"]
    explorer.strict = False  # non-strict accepts **kwargs
    assert "cannot be expressed" not in explorer.panels["strict"]


def test_toolbar_changes_render_immediately(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, scheduler=scheduler)
    strict_before = explorer.panels["strict"]
    explorer.strict = False
    assert not scheduler.pending
    assert explorer.report.options.strict is False
    assert explorer.panels["strict"] != strict_before
    explorer.name_override = "weather_now"
    assert explorer.report.title == "weather_now"
    explorer.description_override = "Override <desc>"
    assert explorer.report.function.description == "Override <desc>"
    explorer.provider = "anthropic"
    assert explorer.report.provider == "anthropic"
    explorer.docstring_style = "numpy"
    assert explorer.report.options.docstring_style == "numpy"


def test_toolbar_change_uses_the_pending_edit(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, debounce=0.1, scheduler=scheduler)
    explorer.editor.value = explorer.editor.value.replace("The city to", "Fetch city to")
    explorer.strict = False
    assert not scheduler.pending  # the toolbar render replaced the pending one
    assert "Fetch city to" in explorer.panels["strict"]


def test_renamed_function_shows_a_note(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("def get_weather", "def get_forecast")
    assert visible(explorer.note)
    assert "get_forecast" in explorer.note
    assert explorer.report.title == "get_forecast"


def _plain(city: str, units: str = "c") -> str:
    return city


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(len, id="builtin"),
        pytest.param(functools.partial(_plain, units="f"), id="partial"),
        pytest.param(eval("lambda city: city"), id="lambda-without-source"),
    ],
)
def test_targets_without_source_open_read_only(target: Any) -> None:
    explorer = Explorer(target, debounce=0)
    assert explorer.read_only
    assert not explorer.can_apply
    assert visible(explorer.note)
    assert "read-only" in explorer.note
    assert explorer.report is not None
    assert explorer.apply() is False


def test_output_type_is_read_only() -> None:
    explorer = Explorer(list[int], debounce=0)
    assert explorer.read_only
    assert explorer.report.target_kind == "output-type"
    assert explorer.panels["output"]


def test_unsupported_object_raises_a_toollens_error() -> None:
    with pytest.raises(ToolLensError):
        Explorer(42)


def offset_of(text: str, line: int, column: int) -> int:
    """The index in ``text`` of a 1-based line and column."""
    lines = text.splitlines(keepends=True)
    return sum(len(before) for before in lines[: line - 1]) + column - 1


def test_json_schema_target_reparses_live() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    explorer = Explorer(schema, debounce=0)
    assert explorer.editor.value.startswith('{\n  "type": "object"')
    assert not explorer.read_only
    assert not explorer.can_apply
    edited = explorer.editor.value.replace('"city"', '"town"')
    explorer.editor.value = edited
    assert "town" in explorer.panels["strict"]
    assert schema["properties"] == {"city": {"type": "string"}}  # caller's dict untouched

    broken = edited.replace('"string"', '"string",')
    explorer.editor.value = broken
    assert visible(explorer.banner)
    assert "invalid JSON" in explorer.banner
    # Interpreters blame either the trailing comma (3.13) or the brace after it (3.10-3.12):
    # what matters is that the banner's line and column hold one of them.
    where = re.search(r"Line (\d+), column (\d+)", explorer.banner)
    assert where is not None
    line, column = int(where[1]), int(where[2])
    comma = broken.index('"string",') + len('"string"')
    brace = broken.index("}", comma)
    assert broken[comma + 1 : brace].isspace()
    assert offset_of(broken, line, column) in (comma, brace)
    explorer.editor.value = "[1, 2]"
    assert "must be an object" in explorer.banner
    explorer.editor.value = edited
    assert not visible(explorer.banner)


@pytest.mark.parametrize("in_sys_modules", [True, False], ids=["module file", "notebook cell"])
def test_pydantic_model_source_is_editable(in_sys_modules: bool) -> None:
    module = make_module(MODEL, in_sys_modules=in_sys_modules)
    # a notebook's __main__ is in sys.modules; a bare module object needs its namespace given
    namespace = None if in_sys_modules else module.__dict__
    explorer = Explorer(module.Booking, debounce=0, namespace=namespace)
    assert explorer.editor.value.startswith("class Booking(BaseModel):")
    assert not explorer.read_only
    explorer.editor.value = explorer.editor.value.replace("Room name", "Meeting room")
    assert not visible(explorer.banner)
    assert "Meeting room" in explorer.panels["strict"]


def test_apply_writes_to_the_namespace_only_on_click(weather: types.ModuleType) -> None:
    original = weather.get_weather
    explorer = Explorer(original, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("Get the weather", "Applied weather")
    assert weather.get_weather is original  # editing alone writes nothing
    explorer._on_message(explorer, {"type": "apply"}, [])  # the button
    assert weather.get_weather is not original
    assert weather.get_weather.__doc__.startswith("Applied weather")
    assert "Applied" in explorer.note


def test_apply_into_an_explicit_namespace(weather: types.ModuleType) -> None:
    namespace: dict[str, Any] = dict(weather.__dict__)
    explorer = Explorer(weather.get_weather, debounce=0, namespace=namespace)
    explorer.editor.value = explorer.editor.value.replace("Get the weather", "Elsewhere")
    assert explorer.apply()
    assert namespace["get_weather"].__doc__.startswith("Elsewhere")
    assert weather.get_weather.__doc__.startswith("Get the weather")


def test_future_annotations_module_edits_keep_working() -> None:
    module = make_module("from __future__ import annotations\n" + TOOL)
    explorer = Explorer(module.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("days: int", "days: 'int'")
    assert not visible(explorer.banner), explorer.banner


def test_bundled_example_explores() -> None:
    from toollens.examples import EXAMPLES

    explorer = Explorer(EXAMPLES["get_weather"], debounce=0)
    assert "How many days to forecast" in explorer.panels["metadata"]
    explorer.editor.value = explorer.editor.value.replace("The temperature unit", "Unit")
    assert not visible(explorer.banner), explorer.banner
    assert "Unit of the answer" in explorer.panels["metadata"]


def test_mime_bundle_has_widget_view_and_html_fallback(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    bundle, _metadata = explorer._repr_mimebundle_()  # anywidget: (data, metadata)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "text/plain" in bundle
    assert "<style>" in bundle["text/html"]
    assert "The city to forecast." in bundle["text/html"]


def test_html_fallback_keeps_the_last_good_views(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("Get the weather", "Fresh weather")
    explorer.editor.value = "def get_weather(:\n"
    assert "Fresh weather" in explorer._repr_mimebundle_()[0]["text/html"]


def test_close_cancels_a_pending_render(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, debounce=0.1, scheduler=scheduler)
    explorer.editor.value += "\n"
    explorer.close()
    assert not scheduler.pending


def test_a_rendering_failure_is_a_banner(
    weather: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toollens.render.html as render_html

    explorer = Explorer(weather.get_weather, debounce=0)

    def broken(_report: Any, **_options: Any) -> dict[str, str]:
        raise RuntimeError("<boom>")

    monkeypatch.setattr(render_html, "render_panels", broken)
    explorer.editor.value += "\n"
    assert visible(explorer.banner)
    assert "rendering the views failed" in explorer.banner
    assert "&lt;boom&gt;" in explorer.banner
    assert explorer.stale


def test_a_dict_that_cannot_be_json_is_our_error() -> None:
    loop: dict[str, Any] = {"type": "object"}
    loop["properties"] = {"me": loop}
    with pytest.raises(SchemaConstructionError, match="contains itself") as info:
        Explorer(loop, debounce=0)
    assert info.value.pointer == "/properties/me"


def test_an_edit_that_leaves_the_schema_alone_is_not_diffed(
    weather: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    import toollens.core.diff as diff_module

    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("How many days.", "How many days?")
    assert "description" in explorer.changes

    def refuses(*_args: Any) -> Any:
        raise AssertionError("diffed an unchanged schema")

    monkeypatch.setattr(diff_module, "diff", refuses)
    explorer.editor.value += "\n    # a comment changes no schema\n"
    assert explorer.last_render_stats.ok
    assert 'Last edit: </span><span class="tl-muted">no schema change' in explorer.changes
    assert "description" in explorer.changes  # still changed since the explorer opened


def test_long_folded_documents_are_cut_live_and_whole_in_the_static_view() -> None:
    params = ", ".join(f"p{i}: int = {i}" for i in range(150))
    module = make_module(f'def wide({params}) -> None:\n    """Many knobs."""\n')
    explorer = Explorer(module.wide, debounce=0)
    payload = explorer.panels["findings"].split("<details>")[-1]
    assert f"The first {FOLDED_LINES} of" in payload
    assert payload.count('class="tl-line"') == FOLDED_LINES
    inline = explorer.panels["strict"]  # the layout shown: the other one is not sent
    assert "The first" not in inline  # the inline diff shows every line
    explorer.side_by_side = True
    side_by_side = explorer.panels["strict"]
    raw = side_by_side.split("Before strict conversion")[-1]
    assert f"The first {FOLDED_LINES} of" in raw
    static = explorer._repr_mimebundle_()[0]["text/html"]
    assert "The first" not in static
    assert '"p149"' in static


def test_repr_is_stable_for_saved_outputs(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    assert repr(explorer) == "<toollens Explorer of get_weather>"
    bundle, _metadata = explorer._repr_mimebundle_()
    assert bundle["text/plain"] == "<toollens Explorer of get_weather>"


def test_every_panel_is_in_the_synced_base_and_patch_state(weather: types.ModuleType) -> None:
    from toollens.jupyter.panel_patch import apply_ops

    explorer = Explorer(weather.get_weather, debounce=0)
    assert {"panel_base", "panel_patch"} <= set(explorer.keys)  # synced to the front end
    explorer.editor.value = explorer.editor.value.replace("How many days.", "How many days?")
    for key in PANELS:
        ops = explorer.panel_patch.get(key, [])
        assert apply_ops(explorer.panel_base[key], ops) == explorer.panels[key]


def test_a_live_edit_computes_each_view_once_and_a_toggle_runs_no_source(
    weather: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    import collections

    import toollens.core.function_schema as function_schema_module
    import toollens.core.lint as lint_module
    import toollens.core.providers as providers_module
    import toollens.core.providers.api as providers_api
    import toollens.jupyter.edit_session as session_module
    import toollens.render.html as html_module

    explorer = Explorer(weather.get_weather, debounce=0)
    calls: collections.Counter[str] = collections.Counter()

    def counted(module: Any, name: str) -> None:
        real = getattr(module, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    counted(function_schema_module, "function_schema")
    # Built by the report and, inside the provider checks, by the api module itself: one
    # counter for both names, so a payload built twice per report shows as 2.
    counted(providers_module, "provider_payload")
    counted(providers_api, "provider_payload")
    counted(providers_module, "check_provider")
    counted(lint_module, "lint")
    counted(html_module, "render_panels")
    counted(session_module, "define_from_source")
    views = ["function_schema", "provider_payload", "check_provider", "lint", "render_panels"]

    explorer.editor.value = explorer.editor.value.replace("The city to forecast.", "The town.")
    assert explorer.last_render_stats.ok
    assert {name: calls[name] for name in [*views, "define_from_source"]} == dict.fromkeys(
        [*views, "define_from_source"], 1
    )

    for toggle in ({"strict": False}, {"provider": "anthropic"}):
        calls.clear()
        for trait, value in toggle.items():
            setattr(explorer, trait, value)
        assert explorer.last_render_stats.ok
        assert calls["define_from_source"] == 0, toggle  # the source did not change
        assert {name: calls[name] for name in views} == dict.fromkeys(views, 1), toggle


# ------------------------------------------------------------------ one options object


def test_the_explorer_takes_report_options_and_changes_to_them(
    weather: types.ModuleType,
) -> None:
    from toollens.core.report import ReportOptions

    opened = ReportOptions(provider="gemini", docstring_style="google", context_types=(bytes,))
    widget = Explorer(weather.get_weather, opened, strict=False, debounce=0)
    assert widget.options() == ReportOptions(
        strict=False, provider="gemini", docstring_style="google", context_types=(bytes,)
    )
    assert widget.report.options == widget.options()
    widget.optional_defaults = "nullable"
    widget.name_override = "weather"
    assert widget.options().optional_defaults == "nullable"
    assert widget.report.options.name == "weather"
    assert widget.report.options.context_types == (bytes,)  # not on the toolbar: kept
    with pytest.raises(TypeError):
        Explorer(weather.get_weather, no_such_option=1)


@pytest.mark.parametrize("strict", [True, False])
@pytest.mark.parametrize("provider", ["openai-chat", "anthropic", "my-gateway"])
@pytest.mark.parametrize("style", [None, "numpy"])
@pytest.mark.parametrize("optional", [None, "nullable"])
def test_the_toolbar_shows_options_and_gives_them_back(
    strict: bool, provider: str, style: Any, optional: Any
) -> None:
    from toollens.core.report import ReportOptions
    from toollens.jupyter.explorer_state import ExplorerState, toolbar_options, toolbar_traits

    options = ReportOptions(
        strict=strict,
        provider=provider,
        docstring_style=style,
        optional_defaults=optional,
        name="n" if strict else None,
    )
    state = ExplorerState(**toolbar_traits(options))
    assert toolbar_options(state, ReportOptions()) == options
    assert provider in state.providers


def test_only_the_strict_layout_shown_is_sent(weather: types.ModuleType) -> None:
    widget = Explorer(weather.get_weather, debounce=0)
    inline = widget.panels["strict"]
    assert 'class="tl-inline-view"' in inline
    assert 'class="tl-sbs-view"' not in inline
    other = {key: html for key, html in widget.panels.items() if key != "strict"}
    widget.side_by_side = True
    assert 'class="tl-sbs-view"' in widget.panels["strict"]
    assert 'class="tl-inline-view"' not in widget.panels["strict"]
    assert "Before strict conversion" in widget.panels["strict"]
    assert {key: html for key, html in widget.panels.items() if key != "strict"} == other
    widget.editor.value = widget.editor.value.replace("The city to forecast.", "The town.")
    assert 'class="tl-sbs-view"' in widget.panels["strict"]  # edits keep the chosen layout
    assert "The town." in widget.panels["strict"]
    widget.side_by_side = False
    assert widget.panels["strict"].count('class="tl-inline-view"') == 1


def test_a_click_asks_the_kernel_where_a_value_is_written(
    weather: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    # The views carry keys, located only when clicked: typing never waits for spans.
    keys = re.findall(r'data-span="([^"]*)"', "".join(panel_html(explorer).values()))
    assert keys
    assert not any(re.fullmatch(r"\d+:\d+-\d+:\d+", key) for key in keys)
    sent: list[Any] = []
    monkeypatch.setattr(explorer, "send", sent.append)
    lines = explorer.editor.value.splitlines()
    for key in ("s/properties/city", "s/properties/days/default"):
        explorer._on_message(explorer, {"type": "span", "key": key}, [])
        reply = sent.pop()
        assert reply["type"] == "span"
        assert reply["key"] == key
        start, end = (tuple(map(int, end.split(":"))) for end in reply["span"].split("-"))
        written = lines[start[0] - 1][start[1] : end[1]]
        assert written == ("city: The city to forecast." if key.endswith("city") else "1")
    explorer._on_message(explorer, {"type": "span", "key": "p9.9"}, [])
    assert sent.pop() == {"type": "span", "key": "p9.9", "span": None}
    explorer._on_message(explorer, {"type": "span"}, [])
    assert sent.pop()["span"] is None
