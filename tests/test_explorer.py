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
from toollens.jupyter.explorer import FOLDED_LINES, Explorer
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
    return {key: str(w.value) for key, w in explorer.panels.items()}


def visible(widget: Any) -> bool:
    return widget.layout.display != "none"


@pytest.fixture
def weather() -> types.ModuleType:
    return make_module(TOOL)


def test_initial_render_fills_every_view(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    assert "tl-explorer" in explorer._dom_classes
    assert explorer.editor.value.startswith("def get_weather(")
    for key, widget in explorer.panels.items():
        assert f"tl-panel-{key}" in widget._dom_classes
        assert widget.value, key
    assert "tl-panel-findings" in explorer.findings._dom_classes
    assert "tl-panel-changes" in explorer.changes._dom_classes
    assert "tl-panels" in explorer.panels_box._dom_classes
    assert "The city to forecast." in explorer.panels["metadata"].value
    assert not visible(explorer.banner)
    assert explorer.last_render_stats.ok
    assert not explorer.editor.widget.disabled


def test_layout_three_views_side_by_side_then_metadata_row(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    order = [explorer.panels[k] for k in ("signature", "strict", "output", "metadata")]
    assert list(explorer.panels_box.children) == order
    assert "tl-grid" in explorer.panels_box._dom_classes  # the report's own grid rule
    assert "tl-full" in explorer.panels["metadata"]._dom_classes  # grid-column: 1 / -1
    children = list(explorer.children)
    assert children.index(explorer.panels_box) < children.index(explorer.findings)
    assert children.index(explorer.findings) < children.index(explorer.changes)
    style = children[0].value
    assert ".tl-explorer .tl-toolbar" in style  # WIDGET_STYLE from render.css
    assert ".tl-root .tl-full" in style


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
    assert stats.bytes_sent >= len(after["metadata"]) + len(after["strict"])
    assert "description" in explorer.changes.value


def test_edits_are_debounced_into_one_render(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, scheduler=scheduler)
    original = explorer.editor.value
    for word in ("A", "B", "C"):
        explorer.editor.value = original.replace("The city to forecast", f"{word} city")
    assert len(scheduler.pending) == 1
    assert scheduler.cancelled == 2
    scheduler.run()
    assert "C city" in explorer.panels["strict"].value


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
    assert "tl-banner-error" in explorer.banner._dom_classes
    assert "Line 1, column 73" in explorer.banner.value
    assert "SyntaxError: expected &#x27;:&#x27;" in explorer.banner.value
    assert "Traceback" not in explorer.banner.value
    assert "tl-stale" in explorer.panels_box._dom_classes
    assert panel_html(explorer) == good
    assert explorer.error is not None
    assert explorer.error.line == 1
    assert explorer.apply_button.disabled
    assert not explorer.last_render_stats.ok

    explorer.editor.value = broken.replace("-> str\n", "-> str:\n", 1)
    assert not visible(explorer.banner)
    assert "tl-banner-error" not in explorer.banner._dom_classes
    assert "tl-stale" not in explorer.panels_box._dom_classes
    assert explorer.error is None
    assert not explorer.apply_button.disabled


def test_exception_while_defining_shows_its_line_escaped(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value += "\nraise ValueError('<script>x</script>')\n"
    assert visible(explorer.banner)
    assert "Line 10:" in explorer.banner.value
    assert "ValueError: &lt;script&gt;" in explorer.banner.value
    assert "<script>" not in explorer.banner.value


def test_schema_construction_error_is_a_banner_not_a_traceback(
    weather: types.ModuleType,
) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("days: int = 1", "days: 'Nowhere' = 1")
    assert visible(explorer.banner)
    assert "Nowhere" in explorer.banner.value
    assert "tl-stale" in explorer.panels_box._dom_classes
    explorer.editor.value = explorer.editor.value.replace("'Nowhere'", "int")
    assert not visible(explorer.banner)
    assert "days" in explorer.panels["signature"].value


def test_strict_refusal_of_kwargs_shows_inside_the_strict_view(
    weather: types.ModuleType,
) -> None:
    # Issue 13: the source is fine, so no banner; the refusal is a finding of the strict view.
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("days: int = 1", "**extra: int")
    assert not visible(explorer.banner)
    assert "No views yet" not in explorer.banner.value
    assert "extra" in explorer.panels["signature"].value
    assert "extra" in explorer.panels["metadata"].value
    assert "cannot be expressed in a strict schema" in explorer.panels["strict"].value
    assert "plain text" in explorer.panels["output"].value
    explorer.strict_toggle.value = False  # non-strict accepts **kwargs
    assert "cannot be expressed" not in explorer.panels["strict"].value


def test_toolbar_changes_render_immediately(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, scheduler=scheduler)
    strict_before = explorer.panels["strict"].value
    explorer.strict_toggle.value = False
    assert not scheduler.pending
    assert explorer.report.options.strict is False
    assert explorer.panels["strict"].value != strict_before
    explorer.name_text.value = "weather_now"
    assert explorer.report.title == "weather_now"
    explorer.description_text.value = "Override <desc>"
    assert explorer.report.function.description == "Override <desc>"
    explorer.provider_select.value = "anthropic"
    assert explorer.report.provider == "anthropic"
    explorer.style_select.value = "numpy"
    assert explorer.report.options.docstring_style == "numpy"


def test_toolbar_change_uses_the_pending_edit(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, scheduler=scheduler)
    explorer.editor.value = explorer.editor.value.replace("The city to", "Fetch city to")
    explorer.strict_toggle.value = False
    assert not scheduler.pending  # the toolbar render replaced the pending one
    assert "Fetch city to" in explorer.panels["strict"].value


def test_renamed_function_shows_a_note(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("def get_weather", "def get_forecast")
    assert visible(explorer.note)
    assert "get_forecast" in explorer.note.value
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
    assert explorer.editor.widget.disabled
    assert explorer.apply_button.disabled
    assert visible(explorer.note)
    assert "read-only" in explorer.note.value
    assert explorer.report is not None
    assert explorer.apply() is False


def test_output_type_is_read_only() -> None:
    explorer = Explorer(list[int], debounce=0)
    assert explorer.editor.widget.disabled
    assert explorer.report.target_kind == "output-type"
    assert explorer.panels["output"].value


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
    assert not explorer.editor.widget.disabled
    assert explorer.apply_button.disabled
    edited = explorer.editor.value.replace('"city"', '"town"')
    explorer.editor.value = edited
    assert "town" in explorer.panels["strict"].value
    assert schema["properties"] == {"city": {"type": "string"}}  # caller's dict untouched

    broken = edited.replace('"string"', '"string",')
    explorer.editor.value = broken
    assert visible(explorer.banner)
    assert "invalid JSON" in explorer.banner.value
    # Interpreters blame either the trailing comma (3.13) or the brace after it (3.10-3.12):
    # what matters is that the banner's line and column hold one of them.
    where = re.search(r"Line (\d+), column (\d+)", explorer.banner.value)
    assert where is not None
    line, column = int(where[1]), int(where[2])
    comma = broken.index('"string",') + len('"string"')
    brace = broken.index("}", comma)
    assert broken[comma + 1 : brace].isspace()
    assert offset_of(broken, line, column) in (comma, brace)
    explorer.editor.value = "[1, 2]"
    assert "must be an object" in explorer.banner.value
    explorer.editor.value = edited
    assert not visible(explorer.banner)


@pytest.mark.parametrize("in_sys_modules", [True, False], ids=["module file", "notebook cell"])
def test_pydantic_model_source_is_editable(in_sys_modules: bool) -> None:
    module = make_module(MODEL, in_sys_modules=in_sys_modules)
    # a notebook's __main__ is in sys.modules; a bare module object needs its namespace given
    namespace = None if in_sys_modules else module.__dict__
    explorer = Explorer(module.Booking, debounce=0, namespace=namespace)
    assert explorer.editor.value.startswith("class Booking(BaseModel):")
    assert not explorer.editor.widget.disabled
    explorer.editor.value = explorer.editor.value.replace("Room name", "Meeting room")
    assert not visible(explorer.banner)
    assert "Meeting room" in explorer.panels["strict"].value


def test_apply_writes_to_the_namespace_only_on_click(weather: types.ModuleType) -> None:
    original = weather.get_weather
    explorer = Explorer(original, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("Get the weather", "Applied weather")
    assert weather.get_weather is original  # editing alone writes nothing
    explorer.apply_button.click()
    assert weather.get_weather is not original
    assert weather.get_weather.__doc__.startswith("Applied weather")
    assert "Applied" in explorer.note.value


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
    assert not visible(explorer.banner), explorer.banner.value


def test_bundled_example_explores() -> None:
    from toollens.examples import EXAMPLES

    explorer = Explorer(EXAMPLES["get_weather"], debounce=0)
    assert "How many days to forecast" in explorer.panels["metadata"].value
    explorer.editor.value = explorer.editor.value.replace("The temperature unit", "Unit")
    assert not visible(explorer.banner), explorer.banner.value
    assert "Unit of the answer" in explorer.panels["metadata"].value


def test_mime_bundle_has_widget_view_and_html_fallback(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    bundle = explorer._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "text/plain" in bundle
    assert "<style>" in bundle["text/html"]
    assert "The city to forecast." in bundle["text/html"]


def test_html_fallback_keeps_the_last_good_views(weather: types.ModuleType) -> None:
    explorer = Explorer(weather.get_weather, debounce=0)
    explorer.editor.value = explorer.editor.value.replace("Get the weather", "Fresh weather")
    explorer.editor.value = "def get_weather(:\n"
    assert "Fresh weather" in explorer._repr_mimebundle_()["text/html"]


def test_close_cancels_a_pending_render(weather: types.ModuleType) -> None:
    scheduler = FakeScheduler()
    explorer = Explorer(weather.get_weather, scheduler=scheduler)
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
    assert "rendering the views failed" in explorer.banner.value
    assert "&lt;boom&gt;" in explorer.banner.value
    assert "tl-stale" in explorer.panels_box._dom_classes


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
    assert "description" in explorer.changes.value

    def refuses(*_args: Any) -> Any:
        raise AssertionError("diffed an unchanged schema")

    monkeypatch.setattr(diff_module, "diff", refuses)
    explorer.editor.value += "\n    # a comment changes no schema\n"
    assert explorer.last_render_stats.ok
    assert "did not change the schema" in explorer.changes.value


def test_long_folded_documents_are_cut_live_and_whole_in_the_static_view() -> None:
    params = ", ".join(f"p{i}: int = {i}" for i in range(150))
    module = make_module(f'def wide({params}) -> None:\n    """Many knobs."""\n')
    explorer = Explorer(module.wide, debounce=0)
    payload = explorer.findings.value.split("<details>")[-1]
    assert f"The first {FOLDED_LINES} of" in payload
    assert payload.count('class="tl-line"') == FOLDED_LINES
    raw = explorer.panels["strict"].value.split("Before strict conversion")[-1]
    assert f"The first {FOLDED_LINES} of" in raw
    assert "The first" not in explorer.panels["strict"].value.split("<details>")[0]
    static = explorer._repr_mimebundle_()["text/html"]
    assert "The first" not in static
    assert '"p149"' in static
