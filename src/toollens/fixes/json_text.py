"""A JSON document rewritten where its value changed and nowhere else.

:func:`value_spans` finds where each value of a document is written (a path of keys and
indexes -> its start and end in the text). :func:`rewrite` replaces only the outermost
values that differ between the old and the new document, each written in the style its old
text had: a one-line object stays on one line, a multi-line one gets its entries on lines
indented one unit deeper than its own line, and every unchanged value inside keeps its
text byte for byte.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from json.decoder import scanstring  # type: ignore[attr-defined]
from typing import Any

from toollens.core.schema.types import JsonValue

__all__ = ["rewrite", "value_spans"]

Path = tuple[str | int, ...]
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _skip(text: str, at: int) -> int:
    found = _WS.match(text, at)
    return at if found is None else found.end()


def value_spans(text: str) -> dict[Path, tuple[int, int]]:
    """Where each value of the JSON document ``text`` is written."""
    spans: dict[Path, tuple[int, int]] = {}
    _value(text, _skip(text, 0), (), spans)
    return spans


def _value(text: str, at: int, path: Path, spans: dict[Path, tuple[int, int]]) -> int:
    char = text[at]
    if char == "{":
        end = _object(text, at, path, spans)
    elif char == "[":
        end = _array(text, at, path, spans)
    else:
        _, end = _DECODER.raw_decode(text, at)
    spans[path] = (at, end)
    return end


def _object(text: str, at: int, path: Path, spans: dict[Path, tuple[int, int]]) -> int:
    at = _skip(text, at + 1)
    while text[at] != "}":
        key, at = scanstring(text, at + 1)
        at = _skip(text, _skip(text, at) + 1)  # past the colon
        at = _skip(text, _value(text, at, (*path, key), spans))
        if text[at] == ",":
            at = _skip(text, at + 1)
    return at + 1


def _array(text: str, at: int, path: Path, spans: dict[Path, tuple[int, int]]) -> int:
    at = _skip(text, at + 1)
    index = 0
    while text[at] != "]":
        at = _skip(text, _value(text, at, (*path, index), spans))
        index += 1
        if text[at] == ",":
            at = _skip(text, at + 1)
    return at + 1


def _changed(old: Any, new: Any, path: Path) -> Iterator[Path]:
    """The outermost paths whose value differs (a dict whose keys changed is one path)."""
    if old == new and type(old) is type(new):
        return
    if isinstance(old, dict) and isinstance(new, dict) and list(old) == list(new):
        for key in old:
            yield from _changed(old[key], new[key], (*path, key))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (a, b) in enumerate(zip(old, new, strict=False)):
            yield from _changed(a, b, (*path, index))
    else:
        yield path


def _unit(text: str) -> str:
    found = re.search(r"\n([ \t]+)\S", text)
    return found.group(1) if found else "  "


def _line_indent(text: str, at: int) -> str:
    start = text.rfind("\n", 0, at) + 1
    return text[start : start + len(text[start:]) - len(text[start:].lstrip(" \t"))]


class _Writer:
    def __init__(self, text: str, old: Any) -> None:
        self.text = text
        self.old = old
        self.spans = value_spans(text)
        self.unit = _unit(text)

    def old_at(self, path: Path) -> Any:
        node = self.old
        for step in path:
            node = node[step]
        return node

    def write(self, value: Any, path: Path | None, indent: str) -> str:
        span = self.spans.get(path) if path is not None else None
        if span is not None and path is not None:
            was = self.old_at(path)
            if was == value and type(was) is type(value):
                return self.text[span[0] : span[1]]  # unchanged: its text as written
        one_line = span is not None and "\n" not in self.text[span[0] : span[1]]
        if not isinstance(value, (dict, list)) or not value or one_line:
            return json.dumps(value, ensure_ascii=False)
        inner = indent + self.unit

        def child(key: str | int) -> str | int | None:
            return None if path is None or not self._kept(path, key) else key

        if isinstance(value, dict):
            items = [
                f"{inner}{json.dumps(k, ensure_ascii=False)}: "
                f"{self.write(v, self._sub(path, child(k)), inner)}"
                for k, v in value.items()
            ]
            return "{\n" + ",\n".join(items) + f"\n{indent}}}"
        items = [
            f"{inner}{self.write(v, self._sub(path, child(i)), inner)}" for i, v in enumerate(value)
        ]
        return "[\n" + ",\n".join(items) + f"\n{indent}]"

    def _kept(self, path: Path, key: str | int) -> bool:
        return (*path, key) in self.spans

    @staticmethod
    def _sub(path: Path | None, key: str | int | None) -> Path | None:
        return None if path is None or key is None else (*path, key)


def rewrite(text: str, new: JsonValue) -> str:
    """``text`` (a JSON document) holding ``new``, rewritten only where its value changed."""
    old = json.loads(text)
    writer = _Writer(text, old)
    out = text
    for path in sorted(_changed(old, new, ()), key=lambda p: writer.spans[p][0], reverse=True):
        start, end = writer.spans[path]
        value: Any = new
        for step in path:
            value = value[step]
        out = out[:start] + writer.write(value, path, _line_indent(text, start)) + out[end:]
    return out
