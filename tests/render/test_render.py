"""Renderers: golden snippets, escaping of user text, pointer highlights, well-formed HTML."""

from __future__ import annotations

import html as html_module
import json
import re
from html.parser import HTMLParser
from typing import Annotated, Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel, Field

from support import goldens
from toollens.core.report import Report, report
from toollens.examples import EXAMPLE_OPTIONS, EXAMPLES
from toollens.render.highlight import LineMark, highlight_json, line_for, pretty_json
from toollens.render.html import (
    PANEL_KEYS,
    render_diff_html,
    render_edit_changes,
    render_header,
    render_html,
    render_panels,
)
from toollens.render.markup import Markup, h, tag
from toollens.render.text import VIEWS, render_text, render_view, view_data

GOLDEN_EXAMPLES = ("get_weather", "book_meeting", "lookup_order")


def example_report(name: str, **options: Any) -> Report:
    return report(EXAMPLES[name], **{**EXAMPLE_OPTIONS.get(name, {}), **options})


def check_text_golden(name: str, actual: str) -> None:
    goldens.check_text(f"render/{name}", actual)


# ------------------------------------------------------------------ well-formed HTML

_VOID = {"br", "hr", "img", "input", "meta", "link", "col", "wbr"}
_ALLOWED_ATTRS = {
    "class",
    "data-trigger",
    "data-span",
    "data-rule",
    "title",
    "data-view",
    "data-toollens",
    "role",
    "open",
    "colspan",
    "href",
    "target",
    "rel",
}


class _Checker(HTMLParser):
    """Balance check plus a record of every tag and attribute the browser would see."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.errors: list[str] = []

    def handle_starttag(self, name: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(name)
        self.attrs.extend(attrs)
        if name not in _VOID:
            self.stack.append(name)

    def handle_endtag(self, name: str) -> None:
        if not self.stack or self.stack[-1] != name:
            self.errors.append(f"</{name}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def parse(html_text: str) -> _Checker:
    checker = _Checker()
    checker.feed(html_text)
    checker.close()
    assert not checker.errors, checker.errors[:5]
    assert not checker.stack, f"unclosed: {checker.stack}"
    return checker


def all_html(rep: Report) -> list[str]:
    return [render_html(rep), *render_panels(rep).values(), str(render_header(rep))]


# ----------------------------------------------------------------------------- golden


@pytest.mark.parametrize("name", GOLDEN_EXAMPLES)
def test_text_golden(name: str) -> None:
    check_text_golden(f"{name}.txt", render_text(example_report(name)))


@pytest.mark.parametrize("name", GOLDEN_EXAMPLES)
def test_panels_golden(name: str) -> None:
    rep = example_report(name)
    panels = render_panels(rep)
    text = (
        str(render_header(rep))
        + "\n"
        + "\n".join(f"<!-- {key} -->\n{panels[key]}" for key in PANEL_KEYS)
        + "\n"
    )
    check_text_golden(f"{name}.panels.html", text)


def test_render_is_deterministic() -> None:
    assert render_html(example_report("book_meeting")) == render_html(
        example_report("book_meeting")
    )
    assert render_text(example_report("get_weather")) == render_text(example_report("get_weather"))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_examples_html_parses(name: str) -> None:
    rep = example_report(name)
    for fragment in all_html(rep):
        parse(fragment)
    page = render_html(rep)
    assert set(render_panels(rep)) == set(PANEL_KEYS)
    assert page.startswith('<div class="tl-root"')
    assert "<style>" in page
    for key in PANEL_KEYS:
        assert f'data-view="{key}"' in page


@pytest.mark.parametrize(
    "target",
    [list[int], Literal["a", "b"], None, {"type": "object", "properties": {"a": {}}}],
    ids=["list", "literal", "none", "schema"],
)
def test_other_targets_parse(target: Any) -> None:
    rep = report(target)
    for fragment in all_html(rep):
        parse(fragment)
    assert render_text(rep).endswith("\n")


# --------------------------------------------------------------------------- escaping

NASTY = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '" onmouseover="x',
    "javascript:alert(1)",
)
SCRIPT, IMG, QUOTE, JS = NASTY


class Nasty(BaseModel):
    """<script>alert(1)</script> model docs"""

    kind: Literal["<img src=x onerror=alert(1)>"] = Field(description='" onmouseover="x')


def nasty_tool(
    a: Annotated[str, "<img src=x onerror=alert(1)>"] = '" onmouseover="x',
    b: Literal["<script>alert(1)</script>", '" onmouseover="x'] = "<script>alert(1)</script>",
    c: Annotated[int, Field(description="javascript:alert(1) <img src=x onerror=alert(1)>")] = 1,
    d: Nasty | None = None,
) -> Literal["<img src=x onerror=alert(1)>", "javascript:alert(1)"]:
    """<script>alert(1)</script> does " onmouseover="x things.

    Args:
        a: <script>alert(1)</script>
        b: " onmouseover="x
    """
    return "javascript:alert(1)"


NASTY_SCHEMA = {
    "title": SCRIPT,
    "description": IMG,
    "type": "object",
    "properties": {
        SCRIPT: {"type": "string", "enum": list(NASTY), "description": QUOTE},
        IMG: {"type": "object", "additionalProperties": {"type": "string"}},  # strict fails
    },
}


def assert_escaped(fragment: str) -> None:
    checker = parse(fragment)
    lowered = fragment.lower()
    assert "<script" not in lowered
    assert "<img" not in lowered
    assert "script" not in checker.tags
    assert "img" not in checker.tags
    names = {name for name, _ in checker.attrs}
    assert names <= _ALLOWED_ATTRS, names - _ALLOWED_ATTRS
    for name, value in checker.attrs:
        if name == "href":
            assert value is not None
            assert value.startswith(("https://", "http://")), value
    # every quote inside an attribute value is escaped, so none breaks out
    for match in re.finditer(r'="([^"]*)"', fragment):
        assert "<" not in match.group(1)
        assert ">" not in match.group(1)


@pytest.mark.parametrize(
    ("target", "options"),
    [
        (nasty_tool, {}),
        (nasty_tool, {"name": IMG, "description": SCRIPT + QUOTE}),
        (nasty_tool, {"strict": False}),
        (Nasty, {}),
        (NASTY_SCHEMA, {}),
        (NASTY_SCHEMA, {"strict": False}),
        (Literal["<script>alert(1)</script>", '" onmouseover="x'], {}),
    ],
    ids=["tool", "tool-overrides", "tool-lax", "model", "schema", "schema-lax", "literal"],
)
def test_user_text_is_escaped(target: Any, options: dict[str, Any]) -> None:
    rep = report(target, **options)
    outputs = all_html(rep)
    for fragment in outputs:
        assert_escaped(fragment)
    page = outputs[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown, not dropped


def test_view_error_text_is_escaped() -> None:
    rep = report(NASTY_SCHEMA)
    assert "strict" in rep.view_errors
    assert IMG in rep.view_errors["strict"]
    html = render_panels(rep)["strict"]
    assert_escaped(html)
    assert "tl-error-box" in html


def test_diff_html_is_escaped() -> None:
    diff_mod = pytest.importorskip("toollens.core.diff")
    old = {"type": "object", "properties": {SCRIPT: {"type": "string", "description": QUOTE}}}
    new = {
        "type": "object",
        "properties": {IMG: {"type": "integer", "enum": [JS]}},
        "required": [IMG],
    }
    result = diff_mod.diff(old, new)
    assert result.changes
    for fragment in (render_diff_html(result, old, new), render_edit_changes(result)):
        assert_escaped(fragment)


def test_markup_builder_escapes() -> None:
    built = tag("span", SCRIPT, title=QUOTE, class_="tl-x")
    assert built == (
        '<span title="&quot; onmouseover=&quot;x" class="tl-x">'
        "&lt;script&gt;alert(1)&lt;/script&gt;</span>"
    )
    assert tag("b", Markup("<i>ok</i>")) == "<b><i>ok</i></b>"
    assert h(h("<")) == "&lt;"  # escaping is idempotent on Markup


# ------------------------------------------------------------------ pointer highlight

CLOSES_NESTED = {
    "type": "object",
    "properties": {
        "filters": {"type": "object", "properties": {"tag": {"type": "string"}}},
        "query": {"type": "string"},
    },
}


def _lines(fragment: str) -> list[tuple[str, str, str]]:
    """(classes, title, text) of every ``tl-line`` span."""
    out = []
    pattern = r'<span class="(tl-line[^"]*)"(?: title="([^"]*)")?>(.*?)</span>(?=\n|</code>)'
    for match in re.finditer(pattern, fragment, flags=re.S):
        text = re.sub(r"<[^>]+>", "", match.group(3))
        out.append((match.group(1), match.group(2) or "", text))
    return out


_DIFF_LINE = re.compile(r'<span class="tl-line tl-dl tl-(\w+)"(?: data-rule="([^"]*)")?>')
_GUTTER = re.compile(r'<span class="tl-gut">(?:<span[^>]*>[^<]*</span>)*</span>')


def _diff_lines(fragment: str) -> list[tuple[str, str, str]]:
    """(kind, rule ids in the gutter, text) of every line of a line diff."""
    pieces = _DIFF_LINE.split(fragment)[1:]
    out = []
    for kind, rules, body in zip(pieces[0::3], pieces[1::3], pieces[2::3], strict=True):
        text = re.sub(r"<[^>]+>", "", _GUTTER.sub("", body, count=1))
        out.append((kind, rules or "", html_module.unescape(text)[1:]))  # [0] is the sign
    return out


def test_strict_changes_show_where_they_happen() -> None:
    rep = report(CLOSES_NESTED)
    assert "/properties/filters" in {c.pointer for c in rep.strict_changes}
    inline = render_panels(rep)["strict"].split('class="tl-sbs-view"')[0]
    lines = _diff_lines(inline)
    added = [(rules, text) for kind, rules, text in lines if kind == "add"]
    closes = [text for rules, text in added if "close-object" in rules.split()]
    # the root and "filters" are closed: each added line says so in its gutter
    assert len(closes) == 2
    assert all('"additionalProperties": false' in text for text in closes)
    # every property became required: the added entries are green, the keyword is tagged
    required = [text.strip() for kind, _, text in lines if kind == "add"]
    assert '"query"' in required
    assert any("require-all-properties" in rules for _, rules, _ in lines)
    query = next(line for line in lines if '"query": {' in line[2])
    assert query[0] == "ctx"
    assert query[1] == ""
    # nothing is removed: strict conversion only adds here
    assert not [line for line in lines if line[0] == "del"]


def test_strict_diff_hover_gives_reason_and_rule_doc() -> None:
    rep = report(CLOSES_NESTED)
    strict = render_panels(rep)["strict"]
    titles = re.findall(r'<span class="tl-gtag" title="([^"]*)">close-object</span>', strict)
    assert titles
    title = html_module.unescape(titles[0])
    assert title.startswith("close-object: closed the object")
    assert "The rule: " in title


def test_strict_diff_side_by_side_marks_both_columns() -> None:
    rep = report({"type": "object", "properties": {"a": {"type": "string", "default": None}}})
    sbs = render_panels(rep)["strict"].split('class="tl-sbs-view"')[1]
    assert "Before strict conversion" in sbs
    assert "After: what the model receives" in sbs
    before, after = sbs.split("After: what the model receives")
    removed = [line for line in _diff_lines(before) if line[0] == "del"]
    assert any(
        '"default": null' in text and "drop-none-default" in rules for _, rules, text in removed
    )
    assert any(kind == "add" for kind, _, _ in _diff_lines(after))


def test_pretty_json_matches_json_dumps_and_maps_pointers() -> None:
    for name in EXAMPLES:
        rep = example_report(name)
        for value in (rep.schema, rep.raw_schema, rep.provider_payload):
            text, line_of = pretty_json(value)
            assert text == json.dumps(value, indent=2, ensure_ascii=False)
            lines = text.split("\n")
            for pointer, index in line_of.items():
                if pointer:
                    key = pointer.rsplit("/", 1)[1].replace("~1", "/").replace("~0", "~")
                    assert f'"{key}"' in lines[index] or not key.isidentifier() or key.isdigit()
    text, line_of = pretty_json({"a": [], "b": {}, "c": [1, {"d": None}]})
    assert text == json.dumps({"a": [], "b": {}, "c": [1, {"d": None}]}, indent=2)
    assert line_of["/c/1/d"] == text.split("\n").index('      "d": null')


def test_missing_pointer_marks_nearest_ancestor() -> None:
    _, line_of = pretty_json({"properties": {"a": {"type": "string"}}})
    assert line_for("/properties/a/default", line_of) == line_of["/properties/a"]
    marked = highlight_json(
        {"properties": {"a": {"type": "string"}}},
        marks={"/properties/a/default": LineMark("tl-changed", ("dropped default",))},
    )
    assert marked.count("tl-changed") == 1
    assert 'title="dropped default"' in marked


# ------------------------------------------------------------------------- panels


_CANDIDATE = re.compile(r'<div class="tl-cand tl-(won|lost)" title="([^"]*)"[^>]*>(.*?)</div>')


def _candidates(html: str) -> list[tuple[str, str, str]]:
    """Each metadata candidate cell: won/lost, its text (tags dropped), its hover reason."""
    out = []
    for state, title, inner in _CANDIDATE.findall(html):
        text = " ".join(html_module.unescape(re.sub(r"<[^>]+>", " ", inner)).split())
        out.append((state, text, html_module.unescape(title)))
    return out


def test_metadata_panel_marks_winners_and_losers() -> None:
    html = render_panels(example_report("lookup_order"))["metadata"]
    doc_wins = (
        "the docstring wins over the Annotated Field(...) (precedence: docstring > "
        "Annotated string > = Field default > Annotated Field)"
    )
    assert _candidates(html) == [
        ("won", "callable 'lookup_order' \u2713", "inferred from the callable"),
        ("won", "docstring Look up the status of one of the current customer's orders. \u2713",
         "inferred from the docstring"),
        ("won", "The order number printed on the receipt, e.g. ORD-004211. docstring", doc_wins),
        ("lost", "Annotated Field(...) Order number", "overridden by the docstring"),
        ("won", "pattern='^ORD-\\\\d{6}$' Annotated Field(...)", "set by the Annotated Field(...)"),
        ("won", "Also list the items in the order. docstring",
         "the only source that sets it is the docstring"),
        ("won", "False = default", "the only source that sets it is the = default"),
    ]  # fmt: skip
    assert html.count('class="tl-lost"') == 1  # the loser in the "why" list as well
    assert "injected, not in schema" in html
    assert 'title="overridden by the docstring"' in html  # loser's reason on hover
    assert "Why each value won" in html  # and in the details line
    assert "overridden by the docstring" in html.split("Why each value won")[1]


def test_signature_panel_shows_kinds_and_context() -> None:
    def shapes(a: int, /, b: str = "x", *rest: int, c: bool, **extra: str) -> None:
        """Shapes."""

    html = render_panels(report(shapes, strict=False))["signature"]
    for label in ("positional-only", "positional-or-keyword", "*args", "keyword-only", "**kwargs"):
        assert label in html
    assert "def shapes(a: int, /, b: str = &#x27;x&#x27;, *rest: int, c: bool" in html
    ctx_html = render_panels(example_report("lookup_order"))["signature"]
    assert "run context: injected, not in schema" in ctx_html


def test_signature_panel_kind_is_a_short_badge_with_the_full_name_on_hover() -> None:
    html = render_panels(example_report("get_weather"))["signature"]
    assert '<td title="positional-or-keyword"><span class="tl-badge tl-kind">pos/kw</span>' in html


@pytest.mark.parametrize(
    ("name", "columns"),
    [
        # one column per attribute, each once; constraints only when some parameter has them
        ("book_meeting", ["parameter", "type", "description", "default"]),
        ("get_weather", ["parameter", "type", "description", "default", "constraints"]),
    ],
)
def test_metadata_table_has_one_column_per_attribute(name: str, columns: list[str]) -> None:
    html = render_panels(example_report(name))["metadata"]
    head = html.split("<thead>")[1].split("</thead>")[0]
    assert re.findall(r"<th>(.*?)</th>", head) == columns


def test_metadata_cell_shows_the_winner_first_with_its_source() -> None:
    html = render_panels(example_report("get_weather"))["metadata"]
    row = next(r for r in html.split("<tr>") if '<td class="tl-name">city</td>' in r)
    cells = re.findall(r"<td>(.*?)</td>", row, flags=re.S)
    description = cells[1]
    winner = description.split("<details")[0]
    assert 'class="tl-cand tl-won"' in winner
    assert "The city to forecast" in winner
    assert '<span class="tl-srcl">docstring</span>' in winner
    # the losing Annotated string waits behind a fold, struck through
    assert '<details class="tl-others"><summary>1 other source</summary>' in description
    assert "<s>City name</s>" in description.split("<details")[1]
    assert '<td class="tl-empty">required</td>' in row


def test_variadic_parameters_get_no_second_type_column() -> None:
    def shapes(a: int, *rest: int, **extra: str) -> None:
        """Shapes."""

    html = render_panels(report(shapes, strict=False))["metadata"]
    head = html.split("<thead>")[1].split("</thead>")[0]
    assert re.findall(r"<th>(.*?)</th>", head).count("type") == 1
    assert re.findall(r"<th>(.*?)</th>", head).count("default") == 1


def test_why_each_value_won_is_folded() -> None:
    html = render_panels(example_report("get_weather"))["metadata"]
    assert '<details class="tl-details"><summary>Why each value won' in html


def test_span_text_is_what_the_editor_reads() -> None:
    from toollens.core.spans import SourceSpan
    from toollens.render.html import span_text

    span = SourceSpan(start_line=3, start_column=4, end_line=3, end_column=17)
    assert span_text(span) == "3:4-3:17"
    assert span_text(span) == span.label  # made once, read again by the next view
    assert span_text(None) == ""


def test_counts_are_plural() -> None:
    rep = example_report("get_weather")
    # 3 problems: each default lint finding and the provider finding explaining it count once
    assert ">3 warnings<" in render_header(rep)
    assert ">1 info<" in render_header(rep)
    assert "3 warnings, 1 info" in render_panels(rep)["findings"]


def test_static_layout_three_views_then_metadata_and_findings_rows() -> None:
    page = render_html(example_report("get_weather"))
    views = re.findall(r'<section class="tl-panel tl-panel-(\w+)( tl-full)?"', page)
    assert views == [
        ("signature", ""),
        ("strict", ""),
        ("output", ""),
        ("metadata", " tl-full"),
        ("findings", " tl-full"),
    ]


def test_output_panel_paths() -> None:
    assert "plain text" in render_panels(example_report("get_weather"))["output"]
    wrapped = render_panels(example_report("lookup_order"))["output"]
    assert "wrapped" in wrapped
    assert '"response"' in wrapped
    assert "direct" in render_panels(example_report("book_meeting"))["output"]


def test_findings_panel_lists_lint_and_provider() -> None:
    rep = example_report("get_weather")
    html = render_panels(rep)["findings"]
    for finding in rep.findings:
        assert h(finding.message) in html


def test_edit_changes_and_diff() -> None:
    diff_mod = pytest.importorskip("toollens.core.diff")
    old = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    new = {
        "type": "object",
        "properties": {"a": {"type": "integer", "description": "A"}, "b": {"type": "string"}},
        "required": ["a"],
    }
    result = diff_mod.diff(old, new)
    page = render_diff_html(result, old, new)
    parse(page)
    assert "tl-del" in page
    assert "tl-add" in page
    assert page.index("breaking") < page.index("compatible")
    short = render_edit_changes(result)
    parse(short)
    assert short.count("<li>") == len(result.changes)
    empty = render_edit_changes(diff_mod.diff(old, old))
    assert "did not change" in empty


# --------------------------------------------------------------------------- text


@pytest.mark.parametrize("view", ["strict", "raw", "output", "provider"])
def test_json_views_are_json_dumps(view: str) -> None:
    rep = example_report("book_meeting")
    expected = {
        "strict": rep.function.json_schema,
        "raw": rep.function.raw_json_schema,
        "output": rep.output.json_schema,
        "provider": rep.provider_payload,
    }[view]
    assert render_view(rep, view, "json") == json.dumps(expected, indent=2) + "\n"


@pytest.mark.parametrize("view", VIEWS)
def test_every_view_renders_as_text_and_json(view: str) -> None:
    rep = example_report("lookup_order")
    text = render_view(rep, view, "text")
    assert text.endswith("\n")
    assert text.strip()
    data = json.loads(render_view(rep, view, "json"))
    assert data == json.loads(json.dumps(view_data(rep, view)))


def test_view_errors_and_inapplicable_views_raise() -> None:
    from toollens.core.errors import TargetError, ToolLensError

    rep = report(list[int])
    with pytest.raises(TargetError):
        render_view(rep, "signature", "json")
    failed = report(dict[str, int])
    with pytest.raises(ToolLensError, match="cannot be strict"):
        render_view(failed, "output", "json")
    assert "error:" in render_view(failed, "output", "text")
    with pytest.raises(ValueError):
        render_view(rep, "nope", "text")


def test_render_text_has_every_section() -> None:
    text = render_text(example_report("lookup_order"))
    for section in ("Signature", "Metadata", "Strict schema", "Output", "Lint", "Provider"):
        assert f"== {section} " in text
    assert "injected run context, not in schema" in text


def test_schema_lines_carry_the_source_span_of_their_value() -> None:
    from types import SimpleNamespace

    from toollens.core.spans import SourceSpan
    from toollens.render.html import schema_spans
    from toollens.render.line_diff import Side, inline_diff

    def cand(attribute: str, won: bool, line: int) -> Any:
        span = SourceSpan(start_line=line, start_column=8, end_line=line, end_column=20)
        return SimpleNamespace(attribute=attribute, won=won, span=span)

    city = SimpleNamespace(
        is_context=False,
        schema_name="city",
        candidates=[cand("description", True, 6), cand("description", False, 1)],
    )
    days = SimpleNamespace(
        is_context=False,
        schema_name="days",
        candidates=[cand("default", True, 2), cand("ge", True, 2)],
    )
    fake = SimpleNamespace(function=SimpleNamespace(parameters=[city, days]))
    spans = schema_spans(fake)  # type: ignore[arg-type]
    assert spans["/properties/city"] == "6:8-6:20"  # the winner, not the loser on line 1
    assert spans["/properties/city/description"] == "6:8-6:20"
    assert spans["/properties/days"] == "2:8-2:20"  # no description: its default
    assert spans["/properties/days/minimum"] == "2:8-2:20"
    schema = {"properties": {"city": {"description": "x"}, "days": {"minimum": 1}}}
    after = Side(schema)
    after.link(spans)
    shown = inline_diff(Side(schema), after)
    assert shown.count('data-span="6:8-6:20"') == 2
    assert shown.count('data-span="2:8-2:20"') == 2


_START_TAG = re.compile(r"<[a-z0-9]+[^>]*>")
_DATA_SPAN = re.compile(r' data-span="([^"]*)"')


def _tags_and_spans(html: str) -> tuple[list[str], list[str | None]]:
    """Every start tag without its ``data-span``, and the ``data-span`` of each (or None)."""
    tags, spans = [], []
    for start in _START_TAG.findall(html):
        found = _DATA_SPAN.search(start)
        tags.append(_DATA_SPAN.sub("", start))
        spans.append(html_module.unescape(found.group(1)) if found else None)
    return tags, spans


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_span_keys_name_exactly_the_spans_a_static_report_shows(name: str) -> None:
    from toollens.render.html import resolve_span

    rep = example_report(name)
    located = render_panels(rep)
    keyed = render_panels(report(EXAMPLES[name], **EXAMPLE_OPTIONS.get(name, {})), span_keys=True)
    seen = 0
    for view in PANEL_KEYS:
        tags, spans = _tags_and_spans(located[view])
        keyed_tags, keys = _tags_and_spans(keyed[view])
        assert keyed_tags == tags  # the same HTML but for data-span
        for key, span in zip(keys, spans, strict=True):
            assert key is None or not re.fullmatch(r"\d+:\d+-\d+:\d+", key)  # no label
            assert (None if key is None else resolve_span(rep, key)) == span, (view, key)
            seen += span is not None
    assert seen > 0 or name == "search_documents"


def test_span_keys_locate_nothing_while_rendering(monkeypatch: pytest.MonkeyPatch) -> None:
    from toollens.core.spans.locator import SourceLocator
    from toollens.render.html import resolve_span

    rep = example_report("get_weather")
    calls: list[Any] = []
    monkeypatch.setattr(SourceLocator, "locate", lambda self, *a: calls.append(a))
    panels = render_panels(rep, span_keys=True)
    assert 'data-span="p0.' in panels["metadata"]
    assert 'data-span="s/properties/' in panels["strict"]
    assert calls == []
    resolve_span(rep, "p0.0")
    assert len(calls) == 1


@pytest.mark.parametrize("key", ["", "x", "t", "t-1", "t99", "p0", "p0.99", "p99.0", "s/nope", 7])
def test_a_span_key_that_names_nothing_resolves_to_none(key: Any) -> None:
    from toollens.render.html import resolve_span

    assert resolve_span(example_report("get_weather"), key) is None


def test_one_default_problem_shows_its_lint_and_provider_angles_together() -> None:
    rep = example_report("get_weather")
    html = render_panels(rep)["findings"]
    lint_part, provider_part = html.split("<h4>Provider ")
    # one item per problem: the lint rule and the provider rule it explains, both sources
    for pointer in ("/properties/unit", "/properties/days"):
        together = (
            r'lint\.default-not-applied</span> \+ <span class="tl-rule">openai\.default</span> '
            rf"<code>{pointer}</code>(?:(?!<li class=).)*?openai-chat: "
        )
        assert re.search(together, lint_part, flags=re.S), pointer
    assert lint_part.count("openai.default") == 2
    assert "openai.default" not in provider_part
    assert "Shown with the lint findings above" in provider_part
    for finding in rep.findings:  # nothing is dropped
        assert h(finding.message) in html


@pytest.mark.parametrize(
    ("layout", "inline", "side"),
    [("both", True, True), ("inline", True, False), ("side-by-side", False, True)],
)
def test_the_strict_panel_carries_the_layouts_asked_for(
    layout: Any, inline: bool, side: bool
) -> None:
    strict = render_panels(example_report("get_weather"), strict_layout=layout)["strict"]
    assert ('class="tl-inline-view"' in strict) is inline
    assert ('class="tl-sbs-view"' in strict) is side


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=30,
)


@given(_JSON)
@settings(max_examples=200, deadline=None)
def test_line_count_is_the_lines_a_side_shows(value: Any) -> None:
    from toollens.render.line_diff import Side, line_count

    expected = len(json.dumps(value, indent=2).split("\n"))
    assert line_count(value, 10_000) == expected == Side(value).nlines
    assert line_count(value, 3) >= min(expected, 4)  # stops early, never under-counts past stop


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(["{", "}", "a", "b", "c", '"x": 1']), max_size=25),
    st.lists(st.sampled_from(["{", "}", "a", "b", "d", '"x": 1']), max_size=25),
)
def test_line_diff_by_equality_pattern_is_the_line_diff(old: list[str], new: list[str]) -> None:
    import difflib

    from toollens.render.line_diff import _diff_pattern, _equality_pattern

    expected = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    assert list(_diff_pattern(*_equality_pattern(old, new))) == expected


def test_an_edit_made_on_both_sides_reuses_the_last_line_diff() -> None:
    from toollens.render.line_diff import _equality_pattern

    before = _equality_pattern(["{", '"d": "old words"', "}"], ["{", '"d": "old words"', "x", "}"])
    after = _equality_pattern(["{", '"d": "new words"', "}"], ["{", '"d": "new words"', "x", "}"])
    assert before == after


@pytest.mark.parametrize(
    ("after_items", "before_items"),
    [(10, 10), (3990, 4), (3990, 5), (3990, 50), (5000, 1), (1997, 1997), (1997, 1998)],
)
def test_too_long_compares_the_exact_line_counts(after_items: int, before_items: int) -> None:
    from toollens.render.line_diff import DIFF_MAX_LINES, Side, diff_sides, line_count, too_long

    after, before = Side(list(range(after_items))), list(range(before_items))
    exact = after.nlines + line_count(before, 10**9) > DIFF_MAX_LINES
    assert too_long(before, after) is exact
    other, shown = diff_sides(before, list(range(after_items)))
    assert (other is None) is exact
    assert shown.nlines == after.nlines
    assert other is None or other.nlines == line_count(before, 10**9)


def test_a_cited_finding_links_its_source_with_its_evidence_and_date() -> None:
    from toollens.core.records import Citation, Finding, Severity
    from toollens.render.rows import finding_item

    cite = Citation("Anthropic docs", "https://docs.example/tools", "2026-01-02", "docs")
    finding = Finding("anthropic.x", Severity.ERROR, "/a", "bad <b>", "fix it", cite=cite)
    item = finding_item("error", finding.rule, finding.pointer, finding.message, "fix", cite)
    assert 'href="https://docs.example/tools"' in item
    assert 'title="Anthropic docs"' in item
    assert "(docs, read 2026-01-02)" in item
    # a source in words (no address) is not a link; toollens' own rules cite nothing
    words = Citation("threads #1 and #2", "", "", "report")
    assert "<a " not in finding_item("error", "limits.x", None, "long", "cut", words)
    assert "<a " not in finding_item("warning", "lint.x", None, "vague", "say more", None)
