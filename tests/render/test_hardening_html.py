"""Hostile text renders as text in every HTML view.

Names, docstrings, parameter descriptions, enum and Literal values, defaults' reprs, alias
names, schema titles and error messages all carry markup and template payloads. Every HTML
toollens produces (static report, panels, diff, edit changes, the mime bundle, the explorer's
panels, note and banner, the diff widget) is parsed with ``html.parser``: no executable
tag, no ``on*`` attribute, no ``javascript:`` URL, and each payload is shown as text.
"""

from __future__ import annotations

import enum
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from support.hostile import ALL_PAYLOADS, XSS_PAYLOADS, audit_html, module_from_source, visible_text
from toollens import diff, report
from toollens.render.html import (
    render_diff_html,
    render_edit_changes,
    render_html,
    render_panels,
)

P = ALL_PAYLOADS


class Hostile(enum.Enum):
    SCRIPT = XSS_PAYLOADS[0]
    IMG = XSS_PAYLOADS[1]
    JS = XSS_PAYLOADS[2]
    SVG = XSS_PAYLOADS[3]
    QUOTE = XSS_PAYLOADS[4]
    TEXTAREA = XSS_PAYLOADS[5]
    TEMPLATE = XSS_PAYLOADS[6]


class ReprPayload:
    """A default whose repr is markup."""

    def __repr__(self) -> str:
        return P


class Inner(BaseModel):
    """<script>alert(1)</script> model docstring."""

    note: str = Field(description=P, title=P)


def hostile_tool(
    plain: str,
    annotated: Annotated[str, P],
    fielded: Annotated[int, Field(description=P, alias="<img src=x onerror=alert(1)>")] = 1,
    choice: Hostile = Hostile.SCRIPT,
    literal: Literal[XSS_PAYLOADS] = XSS_PAYLOADS[0],  # type: ignore[valid-type]
    odd_default: Any = ReprPayload(),  # noqa: B008 - the repr is the point
    inner: Inner | None = None,
) -> dict[str, str]:
    """<script>alert(1)</script> <img src=x onerror=alert(1)> javascript:alert(1)

    "><svg onload=alert(1)> ' onmouseover='x </textarea> {{7*7}}

    Args:
        plain: <script>alert(1)</script> "><svg onload=alert(1)> {{7*7}}
        annotated: overridden by the Annotated string, which carries every payload.
        nowhere: <iframe src=javascript:alert(1)> documents no parameter.
    """
    return {}


hostile_tool.__doc__ = (hostile_tool.__doc__ or "") + f"\n\n    Returns:\n        {P}\n"

HOSTILE_SCHEMA: dict[str, Any] = {
    "title": P,
    "description": P,
    "type": "object",
    "properties": {
        "ref": {"$ref": "https://example.com/<script>alert(1)</script>.json"},
        P: {"type": "string", "description": P, "enum": list(XSS_PAYLOADS), "default": P},
        "open": {"type": "object", "title": P, "additionalProperties": {"type": "string"}},
        "fmt": {"type": "string", "format": P, "pattern": P},
    },
    "required": [P],
    "$defs": {P: {"type": "integer", "description": P}},
}


def _check(markup: str, *, balanced: bool = True, shown: tuple[str, ...] = XSS_PAYLOADS) -> None:
    audit_html(markup, balanced=balanced)
    text = visible_text(markup)
    for payload in shown:
        assert payload in text, f"{payload!r} is not shown as text"


TARGETS = {
    "tool": (hostile_tool, {}),
    "tool-overrides": (hostile_tool, {"name": P, "description": P}),
    "tool-lax-gemini": (hostile_tool, {"strict": False, "provider": "gemini"}),
    "model": (Inner, {"name": P}),
    "output-type": (Literal[XSS_PAYLOADS], {}),  # type: ignore[valid-type]
    "enum-type": (Hostile, {}),
    "schema": (HOSTILE_SCHEMA, {}),
    "schema-anthropic": (HOSTILE_SCHEMA, {"provider": "anthropic", "strict": False}),
}


@pytest.mark.parametrize(("target", "options"), TARGETS.values(), ids=TARGETS.keys())
def test_report_html_shows_payloads_as_text(target: Any, options: dict[str, Any]) -> None:
    rep = report(target, **options)
    _check(render_html(rep))
    for key, fragment in render_panels(rep).items():
        audit_html(fragment), key
    bundle = rep._repr_mimebundle_()
    _check(bundle["text/html"])
    assert "<script>" in bundle["text/plain"] or rep.target_kind != "callable"


def test_view_error_messages_are_escaped() -> None:
    rep = report(HOSTILE_SCHEMA)  # the remote $ref makes the strict view fail
    assert "strict" in rep.view_errors
    assert "<script>" in rep.view_errors["strict"]
    _check(render_html(rep), shown=(XSS_PAYLOADS[0],))


def test_diff_html_and_edit_changes_show_payloads_as_text() -> None:
    old = {
        "type": "object",
        "properties": {"a": {"type": "string", "description": "plain"}},
        "required": ["a"],
    }
    changed = report(HOSTILE_SCHEMA, strict=False).raw_schema
    assert changed is not None
    changed = {k: v for k, v in changed.items() if k != "properties"} | {
        "properties": {k: v for k, v in changed["properties"].items() if k != "ref"}
    }
    result = diff(old, changed)
    assert result.changes
    _check(render_diff_html(result, old, changed), shown=(XSS_PAYLOADS[0], XSS_PAYLOADS[6]))
    audit_html(render_edit_changes(result))
    assert "&lt;script&gt;" in render_edit_changes(result)


# --------------------------------------------------------------------------- widgets

TOOL_SOURCE = '''
from typing import Annotated, Literal

def hostile(
    city: Annotated[str, "<script>alert(1)</script> <img src=x onerror=alert(1)>"],
    mode: Literal["javascript:alert(1)", "\\"><svg onload=alert(1)>"] = "javascript:alert(1)",
    note: str = "' onmouseover='x </textarea> {{7*7}}",
) -> str:
    """<script>alert(1)</script> <img src=x onerror=alert(1)> javascript:alert(1)

    Args:
        city: "><svg onload=alert(1)> ' onmouseover='x </textarea> {{7*7}}
    """
    return city
'''


def _widget_html(explorer: Any) -> list[str]:
    parts = [str(html) for html in explorer.panels.values()]  # findings is one of them
    parts += [str(explorer.changes)]
    parts += [str(explorer.note), str(explorer.banner)]
    return [p for p in parts if p]


def test_explorer_panels_banner_and_changes_escape_payloads() -> None:
    from toollens.jupyter.explorer import Explorer

    module = module_from_source(TOOL_SOURCE)
    explorer = Explorer(module.hostile, debounce=0)
    for fragment in _widget_html(explorer):
        audit_html(fragment)
    shown = visible_text("".join(_widget_html(explorer)))
    for payload in XSS_PAYLOADS:
        assert payload in shown, payload

    # an edit whose diff carries the payloads into the "last edit changed" list
    explorer.editor.value = explorer.editor.value.replace("{{7*7}}", "{{7*7}} <script>x</script>")
    assert explorer.error is None
    assert explorer.changes
    for fragment in _widget_html(explorer):
        audit_html(fragment)

    # an exception at definition time carrying every payload lands in the banner
    explorer.editor.value += f"\nraise ValueError({P!r})\n"
    assert explorer.error is not None
    banner = str(explorer.banner)
    _check(banner)
    for fragment in _widget_html(explorer):
        audit_html(fragment)

    # a SyntaxError whose message carries the payloads
    explorer.editor.value = f"raise SyntaxError({P!r})\n"
    _check(str(explorer.banner))

    # a schema error (ToolLensError) naming a hostile parameter in the banner
    explorer.editor.value = "def hostile(x: '<script>alert(1)</script>') -> None:\n    pass\n"
    assert explorer.error is not None
    _check(str(explorer.banner), shown=(XSS_PAYLOADS[0],))


def test_explorer_note_for_read_only_target_escapes_its_repr() -> None:
    from toollens.jupyter.explorer import Explorer

    class Opaque:
        def __call__(self, x: int) -> int:
            return x

        def __repr__(self) -> str:
            return P

    explorer = Explorer(Opaque(), debounce=0)
    for fragment in _widget_html(explorer):
        audit_html(fragment)


def test_explorer_json_mode_escapes_payloads() -> None:
    from toollens.jupyter.explorer import Explorer

    explorer = Explorer(
        {k: v for k, v in HOSTILE_SCHEMA.items() if k != "properties"}
        | {"properties": {P: {"type": "string", "description": P}}},
        debounce=0,
    )
    for fragment in _widget_html(explorer):
        audit_html(fragment)
    assert XSS_PAYLOADS[0] in visible_text("".join(_widget_html(explorer)))
    explorer.editor.value = '{"type": "object", "title": "<script>alert(1)</script>", '
    assert explorer.error is not None
    audit_html(str(explorer.banner))


def test_diff_widget_escapes_payloads() -> None:
    from toollens.jupyter.diff_widget import DiffWidget

    module = module_from_source(TOOL_SOURCE)
    plain = module_from_source(TOOL_SOURCE.replace("{{7*7}}", "plain"))
    widget = DiffWidget(plain.hostile, module.hostile)
    assert widget.error is None
    audit_html(str(widget.html))
    assert "{{7*7}}" in visible_text(str(widget.html))

    broken = DiffWidget(HOSTILE_SCHEMA, {"type": "object"})  # remote $ref: cannot compare
    assert broken.error is not None
    audit_html(str(broken.banner))
    assert "<script>" in visible_text(str(broken.banner))


@pytest.mark.parametrize("payload", XSS_PAYLOADS[:4])
def test_the_audit_catches_unescaped_payloads(payload: str) -> None:
    """The checker above is not vacuous: raw payloads in markup fail it."""
    markup = f'<div><a href="{payload}">x</a>{payload}</div>'
    with pytest.raises(AssertionError, match="dangerous"):
        audit_html(markup, balanced=False)
