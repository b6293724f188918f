"""The schema-diff widget, headless: panels, toggles, errors shown in the widget."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel

from toollens.jupyter.diff_widget import DiffWidget


def old_tool(city: str, unit: str = "c") -> str:
    """Weather.

    Args:
        city: The city.
        unit: Unit.
    """
    return city


def new_tool(city: str, days: int, unit: str = "c") -> str:
    """Weather.

    Args:
        city: The <b>town</b>.
        days: Days ahead.
        unit: Unit.
    """
    return city


def kwargs_tool(city: str, **extra: Annotated[int, "extra"]) -> str:
    """Takes keywords; strict mode cannot express it."""
    return city


class Model(BaseModel):
    name: str


def test_side_by_side_with_changes_grouped_by_severity() -> None:
    widget = DiffWidget(old_tool, new_tool)
    assert "tl-diff" in widget._dom_classes
    assert widget.error is None
    assert widget.diff is not None
    assert widget.diff.breaking
    body = widget.html
    assert "Before" in body
    assert "After" in body
    assert "breaking" in body
    assert "tl-add" in body  # changed lines highlighted on the new side
    assert "days" in body
    assert "The &lt;b&gt;town&lt;/b&gt;." in body
    assert "<b>town</b>" not in body
    assert widget.banner == ""


def test_raw_strict_toggle_rerenders() -> None:
    widget = DiffWidget(old_tool, new_tool)
    strict_body = widget.html
    assert '"additionalProperties"' in strict_body
    widget.strict = False
    assert widget.html != strict_body
    assert '"additionalProperties"' not in widget.html


def test_provider_toggle_for_callables() -> None:
    widget = DiffWidget(old_tool, new_tool, provider="anthropic")
    assert len(widget.providers) > 1  # the provider menu is offered
    assert widget.provider == "anthropic"
    assert "input_schema" in widget.html
    widget.provider = "schema"
    assert "input_schema" not in widget.html


def test_provider_toggle_hidden_for_schemas() -> None:
    a: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "string"}}}
    b: dict[str, Any] = {"type": "object", "properties": {"x": {"type": "integer"}}}
    widget = DiffWidget(a, b)
    assert widget.providers == ["schema"]  # no provider menu
    assert widget.diff is not None
    assert widget.diff.breaking
    assert a["properties"]["x"] == {"type": "string"}  # caller's dicts untouched


def test_model_against_schema() -> None:
    widget = DiffWidget(Model, {"type": "object", "properties": {"name": {"type": "string"}}})
    assert widget.error is None
    assert widget.providers == ["schema"]  # no provider menu


def test_unbuildable_side_is_shown_not_raised() -> None:
    widget = DiffWidget(old_tool, kwargs_tool)
    assert widget.error is not None
    assert "extra" in widget.error
    assert widget.banner != ""
    assert "Traceback" not in widget.banner
    widget.strict = False  # the raw schemas compare fine
    assert widget.error is None
    assert widget.banner == ""


def test_mime_bundle_has_static_html() -> None:
    widget = DiffWidget(old_tool, new_tool)
    bundle, _metadata = widget._repr_mimebundle_()  # anywidget returns (data, metadata)
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "<style>" in bundle["text/html"]
    assert "Before" in bundle["text/html"]
