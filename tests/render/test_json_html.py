"""Highlighted JSON: the direct emitter equals pygments, its cache changes nothing and stays
bounded, pointer marks land on their lines, and long folded documents are cut with a note.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import JsonLexer

from toollens.render import highlight as highlight_module
from toollens.render import json_html
from toollens.render.highlight import LineMark, highlight_json, line_for, pretty_json
from toollens.render.markup import Markup, tag

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def pygments_highlight(value: Any, marks: dict[str, LineMark] | None = None) -> str:
    """What highlight_json produced when it ran pygments over pretty_json's text."""
    text, line_of = pretty_json(value)
    out = highlight(text, JsonLexer(), HtmlFormatter(nowrap=True, classprefix="tl-tok-"))
    # pygments < 2.21 also escaped quotes in token text; the markup is otherwise the same.
    out = out.replace("&quot;", '"').replace("&#39;", "'")
    lines = out.split("\n")[: text.count("\n") + 1]
    by_line: dict[int, tuple[list[str], list[str]]] = {}
    for pointer, mark in (marks or {}).items():
        line = line_for(pointer, line_of)
        if line is None:
            continue
        classes, reasons = by_line.setdefault(line, ([], []))
        if mark.css_class not in classes:
            classes.append(mark.css_class)
        reasons.extend(r for r in mark.reasons if r not in reasons)
    rows = []
    for index, body in enumerate(lines):
        classes, reasons = by_line.get(index, ([], []))
        rows.append(
            tag(
                "span",
                Markup(body),
                class_=" ".join(["tl-line", *classes]),
                title="\n".join(reasons) or None,
            )
        )
    return str(tag("pre", tag("code", Markup("\n".join(rows))), class_="tl-code"))


TEXT = st.text(alphabet=st.sampled_from(list("ab~/<&>\"'\\\n\t\x00é\u2028 :{}[],1")), max_size=8)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    TEXT,
)
KEYS = st.one_of(TEXT, st.sampled_from([1, 2.5, True, None]))


def _distinct_in_json(obj: dict[Any, Any]) -> bool:
    """No two keys write the same JSON key (``"1"`` and ``1`` both write ``"1"``): such a
    dict has no JSON pointer per key, so neither rendering has a right line to mark."""
    return len(json.loads(json.dumps(dict.fromkeys(obj, 0)))) == len(obj)


JSON = st.recursive(
    SCALARS,
    lambda children: st.one_of(
        st.lists(children, max_size=6),
        st.dictionaries(KEYS, children, max_size=6).filter(_distinct_in_json),
    ),
    max_leaves=40,
)


@SETTINGS
@given(value=JSON, data=st.data())
def test_emitter_matches_pygments(value: Any, data: st.DataObject) -> None:
    _, line_of = pretty_json(value)
    pointers = sorted(line_of)
    # Pointers shown, and removed keys below them (marked on their nearest shown ancestor).
    chosen = data.draw(
        st.lists(st.tuples(st.sampled_from(pointers), st.sampled_from(["", "/gone"])), max_size=3)
    )
    marks = {p + tail: LineMark("tl-changed", (f"why {p}{tail}",)) for p, tail in chosen}
    marks["/no/such/key"] = LineMark("tl-gone", ("removed",))
    expected = pygments_highlight(value, marks)
    assert highlight_json(value, marks=marks) == expected
    assert highlight_json(value, marks=marks) == expected  # again, from the cache


def test_a_cached_subtree_is_the_same_wherever_it_appears() -> None:
    part = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(9)}}
    first = {"a": part, "b": [part, copy.deepcopy(part)], "c": {"d": part}}
    assert highlight_json(first) == pygments_highlight(first)
    moved = {"z": {"y": copy.deepcopy(part)}, "a": part}  # same subtree, other depth and key
    assert highlight_json(moved) == pygments_highlight(moved)


def test_not_json_values_show_their_repr_and_are_not_cached() -> None:
    class Odd:
        def __repr__(self) -> str:
            return "<odd & 'quoted'>"

    value = {"x": [Odd(), {1, 2}] * 20, "y": {"k": Odd()}}
    assert highlight_json(value) == pygments_highlight(value)


def test_marks_missing_pointers_on_their_nearest_ancestor_in_cached_blocks() -> None:
    schema = {
        "properties": {f"p{i}": {"type": "string", "description": "x" * 40} for i in range(5)}
    }
    marks = {"/properties/p3/default": LineMark("tl-changed", ("dropped",))}
    for _ in range(2):  # built, then from the cache
        out = highlight_json(schema, marks=marks)
        assert out == pygments_highlight(schema, marks)
        assert out.count("tl-changed") == 1


def test_cache_stays_within_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    budget = 200_000
    monkeypatch.setattr(json_html, "_CACHE", json_html._Cache(budget))
    for i in range(300):
        doc = {"properties": {f"p{i}-{j}": {"description": "d" * 80} for j in range(20)}}
        highlight_json(doc)
        assert json_html._CACHE.used <= budget
    assert len(json_html._CACHE) > 0


def test_max_lines_cuts_a_long_document_with_a_note() -> None:
    doc = {f"k{i}": i for i in range(50)}
    full = highlight_json(doc)
    cut = highlight_json(doc, max_lines=10)
    assert cut.count('class="tl-line"') == 10
    assert "The first 10 of 52 lines" in cut
    assert full.count('class="tl-line"') == 52
    assert highlight_json(doc, max_lines=52) == full  # short enough: nothing is cut


def test_very_long_documents_stay_uncoloured() -> None:
    doc = {"properties": {f"p{i}": i for i in range(4100)}}
    out = highlight_json(doc, marks={"/properties/p7": LineMark("tl-changed", ("x",))})
    assert "tl-tok-" not in out
    assert out.count("tl-changed") == 1
    assert json.dumps(doc, indent=2).split("\n")[9] in out.replace("&quot;", '"')


def test_a_long_document_groups_each_property_and_definition(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    prop = {"type": "string", "description": "A field long enough to be its own block."}
    doc = {
        "$defs": {f"D{i}": {"type": "object", "properties": {"a": prop}} for i in range(20)},
        "properties": {f"p{i}": dict(prop, title=f"P{i}") for i in range(200)},
        "type": "object",
    }
    marks = {"/properties/p7/title": LineMark("tl-changed", ("x",))}
    out = highlight_json(doc, marks=marks)
    assert out.count('<span class="tl-group">') == 220
    # each group holds one property's lines, from its key's line to its closing brace
    assert '<span class="tl-group"><span class="tl-line"><span class="tl-tok-w">    </span>' in out
    rows = out.split("\n")
    opens = [i for i, row in enumerate(rows) if row.startswith('<span class="tl-group">')]
    assert len(opens) == 220
    assert '"p7"' in rows[opens[27]]
    assert rows[opens[28] - 1].endswith("</span></span>")
    assert out.count("tl-changed") == 1
    # row for row what it is without groups, but for a group's opening and closing tag
    monkeypatch.setattr(highlight_module, "GROUP_MIN_LINES", 10**9)
    plain = highlight_json(doc, marks=marks).split("\n")
    assert len(plain) == len(rows) == json.dumps(doc, indent=2).count("\n") + 1
    for row, was in zip(rows, plain, strict=True):
        row = row.removeprefix('<span class="tl-group">')
        assert row in (was, was + "</span>"), (row, was)


def test_a_short_document_has_no_groups() -> None:
    doc = {"properties": {f"p{i}": {"type": "string", "title": f"P{i}"} for i in range(50)}}
    assert "tl-group" not in highlight_json(doc)
