"""Find a parameter's entry, or the description, inside a docstring's source lines.

The docstring is searched as written in the source (not as ``inspect.getdoc`` cleaned it), so
a span can point at it: an entry is the line naming the parameter in a parameter section
(``city: ...`` in google ``Args:``, ``city : str`` under numpy ``Parameters``, ``:param
city: ...`` in sphinx) and every following line indented deeper. Sections are recognised by
the titles docstring-parser reads parameters from.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from toollens.core.docstrings import DocstringStyle
from toollens.core.spans.span import SourceSpan

__all__ = ["DocLine", "description_span", "parameter_entries"]

_GOOGLE_SECTIONS = "Arguments|Args|Parameters|Params|Attributes"
_NUMPY_SECTIONS = (
    "Parameters|Params|Arguments|Args|Other Parameters|Other Params|Other Arguments|"
    "Other Args|Receives|Receive|Attributes|Attribute"
)
_GOOGLE_HEADER = re.compile(rf"^(?:{_GOOGLE_SECTIONS}):\s*$")
_NUMPY_HEADER = re.compile(rf"^(?:{_NUMPY_SECTIONS})\s*$")
_NUMPY_UNDERLINE = re.compile(r"^\s*-{3,}\s*$")
_SPHINX_FIELDS = "param|parameter|arg|argument|attribute|key|keyword"


class DocLine(NamedTuple):
    """One source line of a docstring literal: its number, and where its text starts."""

    number: int  # 1-based line in the source
    column: int  # character column of ``text`` in that line (after the quotes on line one)
    text: str  # the line's part inside the literal


_PATTERNS = 2048  # per style: the parameter names of the tools being edited


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip())


@functools.lru_cache(maxsize=_PATTERNS)
def _google_entry(name: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*\*{{0,2}}{re.escape(name)}\s*(?:\([^)]*\))?\s*:")


@functools.lru_cache(maxsize=_PATTERNS)
def _numpy_entry(name: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*\*{{0,2}}{re.escape(name)}\s*(?::.*)?$")


@functools.lru_cache(maxsize=_PATTERNS)
def _sphinx_entry(name: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*:(?:{_SPHINX_FIELDS})\s+(?:[^:]*\s)?\*{{0,2}}{re.escape(name)}\s*:")


def _google_candidates(lines: Sequence[DocLine]) -> list[int]:
    """Indices of lines inside google parameter sections (deeper than their header)."""
    out: list[int] = []
    header_indent: int | None = None
    for index, line in enumerate(lines):
        if not line.text.strip():
            continue
        stripped = line.text.strip()
        if _GOOGLE_HEADER.match(stripped):
            header_indent = _indent(line.text)
        elif header_indent is not None and _indent(line.text) > header_indent:
            out.append(index)
        else:
            header_indent = None
    return out


def _numpy_candidates(lines: Sequence[DocLine]) -> list[int]:
    """Indices of lines at entry level in numpy parameter sections (under an underline)."""
    out: list[int] = []
    section_indent: int | None = None
    for index, line in enumerate(lines):
        following = lines[index + 1].text if index + 1 < len(lines) else ""
        if _NUMPY_UNDERLINE.match(following) and line.text.strip():
            param_section = bool(_NUMPY_HEADER.match(line.text.strip()))
            section_indent = _indent(line.text) if param_section else None
        elif section_indent is not None and line.text.strip():
            if _NUMPY_UNDERLINE.match(line.text):
                continue
            if _indent(line.text) == section_indent:
                out.append(index)
            elif _indent(line.text) < section_indent:
                section_indent = None
    return out


# The one name an entry line can document (verified with the style's entry pattern).
_LEADING_NAME = re.compile(r"^\s*\*{0,2}(\w+)")
_SPHINX_NAMES = re.compile(rf"^\s*:(?:{_SPHINX_FIELDS})\s+([^:]*):")


def _leading_name(text: str) -> str | None:
    found = _LEADING_NAME.match(text)
    return found.group(1) if found else None


def _sphinx_name(text: str) -> str | None:
    found = _SPHINX_NAMES.match(text)
    words = found.group(1).split() if found else []
    return words[-1].lstrip("*") if words else None


_EntryPattern = Callable[[str], "re.Pattern[str]"]
_SectionLines = Callable[[Sequence[DocLine]], list[int]]
_NameOf = Callable[[str], "str | None"]
_STYLES: dict[DocstringStyle, tuple[_EntryPattern, _SectionLines, _NameOf]] = {
    DocstringStyle.GOOGLE: (_google_entry, _google_candidates, _leading_name),
    DocstringStyle.NUMPY: (_numpy_entry, _numpy_candidates, _leading_name),
    DocstringStyle.SPHINX: (_sphinx_entry, lambda lines: list(range(len(lines))), _sphinx_name),
}


def parameter_entries(lines: Sequence[DocLine], style: DocstringStyle) -> dict[str, SourceSpan]:
    """Each documented parameter's first entry in ``style``, with its continuation lines.

    One pass over the docstring for every parameter: a tool with hundreds of parameters
    asks for each of them on every edit.
    """
    entry, candidates, name_of = _STYLES[style]
    found: dict[str, SourceSpan] = {}
    for index in candidates(lines):
        text = lines[index].text
        name = name_of(text)
        if name is not None and name not in found and entry(name).match(text):
            found[name] = _block_span(lines, index)
    return found


def _block_span(lines: Sequence[DocLine], first: int) -> SourceSpan:
    """The entry at ``first`` and every following line indented deeper (blank lines kept
    only between such lines)."""
    depth = _indent(lines[first].text)
    last = first
    for index in range(first + 1, len(lines)):
        text = lines[index].text
        if not text.strip():
            continue
        if _indent(text) <= depth:
            break
        last = index
    return _span(lines[first], lines[last])


def _span(first: DocLine, last: DocLine) -> SourceSpan:
    start = first.column + _indent(first.text)
    end = last.column + len(last.text.rstrip())
    return SourceSpan(first.number, start, last.number, end)


def description_span(lines: Sequence[DocLine], description: str) -> SourceSpan | None:
    """The lines holding ``description`` (the summary and body), matched line by line.

    Lines are compared stripped, blank lines skipped; when a later line of the
    description is not found as written (the parser rewrapped it), the span ends at the
    last line that matched. ``None`` when even the first line is not there.
    """
    wanted = [text.strip() for text in description.splitlines() if text.strip()]
    matched: list[DocLine] = []
    position = 0
    for text in wanted:
        while position < len(lines) and not lines[position].text.strip():
            position += 1
        if position >= len(lines) or lines[position].text.strip() != text:
            break
        matched.append(lines[position])
        position += 1
    if not matched:
        return None
    return _span(matched[0], matched[-1])
