"""Two JSON documents as a line diff: inline (one column, + and - lines) or side by side.

Used by the Strict view (the raw schema against the strict one, each rewrite tagged with its
rule id in a gutter) and by the schema diff. Lines are compared without their trailing
comma, so adding a key after another does not show that neighbour as removed and re-added.
"""

from __future__ import annotations

import difflib
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from toollens.core.memo import edit_cache
from toollens.render.highlight import HIGHLIGHT_MAX_LINES, pretty_json
from toollens.render.json_html import ROW_CLOSE, ROW_OPEN, Rows, json_rows, row_without_comma
from toollens.render.markup import Markup, h, note, tag

__all__ = [
    "GutterTag",
    "Side",
    "diff_sides",
    "inline_diff",
    "line_count",
    "side_by_side",
    "too_long",
]

# Past this many lines a diff costs more than it tells while typing: the views fall back to
# the plain document with its changed lines marked.
DIFF_MAX_LINES = HIGHLIGHT_MAX_LINES


@dataclass(frozen=True)
class GutterTag:
    """A label in the gutter of one line (a strict rule id) and what hovering it explains."""

    label: str
    title: str


@dataclass
class Side:
    """One document of a diff: its highlighted rows, where each pointer shows, and the tags
    and source spans on its lines."""

    value: Any
    tags: dict[int, list[GutterTag]] = field(default_factory=dict)
    spans: dict[int, str] = field(default_factory=dict)  # line -> source span it came from
    _doc: Rows = field(init=False)

    def __post_init__(self) -> None:
        self._doc = json_rows(self.value)  # cached per subtree: an edit re-emits one property

    @property
    def doc(self) -> Rows:
        """The document's highlighted rows (``json_rows``), for a view that shows it plainly."""
        return self._doc

    @property
    def nlines(self) -> int:
        return len(self._doc.rows)

    def line(self, pointer: str, *, exact: bool = True) -> int | None:
        """The line showing ``pointer``; with ``exact=False`` its nearest shown ancestor's."""
        return self._doc.line_of(pointer, exact)

    @functools.cached_property
    def _rows(self) -> list[str]:
        if self.nlines > HIGHLIGHT_MAX_LINES:  # too long to colour: escaped text
            lines = pretty_json(self.value)[0].split("\n")
            return [f"{ROW_OPEN}{h(line)}{ROW_CLOSE}" for line in lines]
        return self._doc.rows

    def rows(self) -> list[str]:
        """Each line's ``tl-line`` row: highlighted HTML (escaped text when the document is
        very long). The rows of an unchanged part are the same strings on every edit."""
        return self._rows

    @functools.cached_property
    def keys(self) -> tuple[str, ...]:
        """What a line diff compares: each row without its trailing comma."""
        return tuple(map(_row_key, self._doc.rows))

    def link(self, spans: Mapping[str, str]) -> None:
        """Give the lines of these pointers the source span each came from."""
        for pointer, span in spans.items():
            line = self.line(pointer)
            if line is not None and span:
                self.spans[line] = span

    def tag_at(self, line: int, label: str, title: str) -> None:
        shown = self.tags.setdefault(line, [])
        if all(t.label != label for t in shown):
            shown.append(GutterTag(label, title))


_OPEN_LEN, _CLOSE_AT = len(ROW_OPEN), -len(ROW_CLOSE)
# Most rows of a schema are the same from one edit to the next.
_row_key = edit_cache(8192)(row_without_comma)


def diff_sides(before: object, after: object) -> tuple[Side | None, Side]:
    """Both sides of a diff of two documents, or ``(None, after)`` when it would show more
    lines than a diff is worth while typing."""
    shown = Side(after)
    # A big document: count the other's lines before highlighting them.
    if shown.nlines * 2 > DIFF_MAX_LINES and too_long(before, shown):
        return None, shown
    other = Side(before)
    if shown.nlines + other.nlines > DIFF_MAX_LINES:
        return None, shown
    return other, shown


def too_long(before: object, after: Side) -> bool:
    """Whether diffing ``before`` (a document, not yet highlighted) against ``after`` would
    show more lines than a diff is worth while typing."""
    room = DIFF_MAX_LINES - after.nlines  # counting ``before`` past this settles it
    return after.nlines + line_count(before, room) > DIFF_MAX_LINES


def line_count(value: object, stop: int) -> int:
    """The lines ``json.dumps(value, indent=2)`` prints (as ``Side`` shows them), counted
    without printing; counting stops soon after ``stop``."""
    count = 0
    stack = [value]
    while stack and count <= stop:
        node = stack.pop()
        if isinstance(node, Mapping) and node:
            count += 2
            stack.extend(node.values())
        elif isinstance(node, (list, tuple)) and node:
            count += 2
            stack.extend(node)
        else:
            count += 1
    return count


def _opcodes(before: Side, after: Side) -> Sequence[tuple[str, int, int, int, int]]:
    old, new = _equality_pattern(before.keys, after.keys)
    return _diff_pattern(old, new)


def _equality_pattern(
    old: Sequence[str], new: Sequence[str]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each line as the number of its first occurrence across both documents.

    A line diff depends only on which lines are equal, so an edit that changes a line the
    same way in both documents (a description, in the raw and the strict schema) keeps the
    pattern, and the diff of the last edit is reused.
    """
    ids: dict[str, int] = {}
    number = ids.setdefault
    return (
        tuple([number(line, len(ids)) for line in old]),
        tuple([number(line, len(ids)) for line in new]),
    )


# The inline and side-by-side views of one diff, and the next edits, ask for the same.
@functools.lru_cache(maxsize=16)
def _diff_pattern(
    old: tuple[int, ...], new: tuple[int, ...]
) -> Sequence[tuple[str, int, int, int, int]]:
    return difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()


def _row(kind: str, row: str, tags: Sequence[GutterTag], span: str | None = None) -> str:
    return _cached_row(kind, row, tuple(tags), span)


# Rows repeat from one edit to the next (most lines of a schema do not change); keyed by
# the document's row itself, whose hash the string keeps.
@edit_cache(4096)
def _cached_row(kind: str, row: str, tags: tuple[GutterTag, ...], span: str | None) -> str:
    content = row[_OPEN_LEN:_CLOSE_AT]
    sign = {"add": "+", "del": "-"}.get(kind, " ")
    gutter = tag(
        "span",
        *(tag("span", t.label, class_="tl-gtag", title=t.title) for t in tags),
        class_="tl-gut",
    )
    rule = " ".join(t.label for t in tags) or None
    return str(
        tag(
            "span",
            gutter,
            tag("span", sign, class_="tl-sign"),
            tag("span", Markup(content), class_="tl-dc"),
            class_=f"tl-line tl-dl tl-{kind}",
            data_rule=rule,
            data_span=span,
        )
    )


def _block(rows: list[str], css_class: str) -> Markup:
    body = "".join(rows)
    return Markup(f'<pre class="tl-code tl-ldiff {h(css_class)}"><code>{body}</code></pre>')


def inline_diff(before: Side, after: Side) -> Markup:
    """One column: unchanged lines, removed lines (red, -) and added lines (green, +)."""
    old_rows, new_rows = before.rows(), after.rows()
    out: list[str] = []
    for op, i1, i2, j1, j2 in _opcodes(before, after):
        if op == "equal":
            out.extend(
                _row("ctx", new_rows[j], after.tags.get(j, ()), after.spans.get(j))
                for j in range(j1, j2)
            )
            continue
        out.extend(_row("del", old_rows[i], before.tags.get(i, ())) for i in range(i1, i2))
        out.extend(
            _row("add", new_rows[j], after.tags.get(j, ()), after.spans.get(j))
            for j in range(j1, j2)
        )
    return _block(out, "tl-inline")


def side_by_side(
    before: Side,
    after: Side,
    titles: tuple[str, str] = ("Before", "After"),
    max_lines: int | None = None,
) -> Markup:
    """Two columns, removed lines marked on the left and added lines on the right."""
    old_kind = ["ctx"] * before.nlines
    new_kind = ["ctx"] * after.nlines
    for op, i1, i2, j1, j2 in _opcodes(before, after):
        if op != "equal":
            old_kind[i1:i2] = ["del"] * (i2 - i1)
            new_kind[j1:j2] = ["add"] * (j2 - j1)
    columns = []
    for title, side, kinds in ((titles[0], before, old_kind), (titles[1], after, new_kind)):
        pairs = enumerate(zip(kinds, side.rows(), strict=True))
        rows = [
            _row(kind, row, side.tags.get(i, ()), side.spans.get(i)) for i, (kind, row) in pairs
        ]
        cut = max_lines is not None and len(rows) > max_lines
        shown = rows[:max_lines] if cut and max_lines is not None else rows
        body = [tag("h4", title), _block(shown, "tl-column")]
        if cut:
            body.append(
                note(
                    f"The first {len(shown):,} of {len(rows):,} lines, to keep live edits "
                    "quick; display the explorer's .report to see every line."
                )
            )
        columns.append(tag("div", *body, class_="tl-sbs-col"))
    return tag("div", *columns, class_="tl-sbs-cols")
