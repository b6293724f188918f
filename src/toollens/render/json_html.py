"""JSON -> highlighted HTML rows, emitted directly and cached per subtree.

The rows are exactly what pygments's ``JsonLexer`` and ``HtmlFormatter(nowrap=True,
classprefix="tl-tok-")`` make of ``json.dumps(value, indent=2, ensure_ascii=False)``, one
``<span class="tl-line">`` per line, but built while printing instead of lexing the text
again: a key is ``tl-tok-nt``, a string ``tl-tok-s2``, a number ``tl-tok-mi``/``tl-tok-mf``,
``true``/``false``/``null`` ``tl-tok-kc``, punctuation ``tl-tok-p`` (a run such as ``},``
in one span) and indentation ``tl-tok-w``. The one value pygments lexes oddly, a float that
JSON cannot express (``NaN``, ``Infinity``), is left to pygments, for that line alone.

A live edit changes one property of a schema with hundreds, so every container of some size
is a *block*: its rows and where its nodes start, cached under the compact JSON of the
container (plus its indent, key and trailing comma). Blocks nest by reference, so an edit
re-emits the changed property and re-assembles its ancestors; the rest comes from the
cache, which is a least-recently-used map with a budget in bytes.
"""

from __future__ import annotations

import functools
import html
import json
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from toollens.core.memo import edit_cache, register
from toollens.core.schema.pointer import escape_token
from toollens.core.schema.toolkit import encode_compact
from toollens.render.markup import safe_repr

__all__ = [
    "ROW_CLOSE",
    "ROW_OPEN",
    "TOKEN_CLASS_PREFIX",
    "Rows",
    "clear_cache",
    "dump_scalar",
    "json_rows",
    "key_text",
    "row_without_comma",
]

#: Class prefix of every highlighted token (pygments' classprefix), styled in css.py.
TOKEN_CLASS_PREFIX = "tl-tok-"
ROW_OPEN = '<span class="tl-line">'
ROW_CLOSE = "</span>"

# A container whose compact JSON is shorter than this is emitted inline in its parent's
# block: caching it would cost more than printing it again.
MIN_BLOCK_CHARS = 64
# A bigger container is rebuilt every time from its (cached) children: an edit changes it
# anyway, and caching it would hold a second copy of the whole document.
MAX_CACHED_CHARS = 8 * 1024
# What the cache may hold, counted generously (characters plus per-object overhead).
CACHE_BUDGET = 12 * 1024 * 1024


def _tok(cls: str, text: str) -> str:
    return f'<span class="{TOKEN_CLASS_PREFIX}{cls}">{text}</span>'


_COMMA = _tok("p", ",")
_KEY_SEP = _tok("p", ":") + _tok("w", " ")
_CONSTANTS = {"true": _tok("kc", "true"), "false": _tok("kc", "false"), "null": _tok("kc", "null")}
_NUMBER_START = frozenset("-0123456789")
_NUMBER_CHARS = frozenset("-0123456789.eE+")
_FLOAT_CHARS = frozenset(".eE+")
_OPEN = {"{": _tok("p", "{"), "[": _tok("p", "[")}


def _encode(value: Any) -> str:
    return encode_compact(value, allow_nan=True)  # NaN blocks are keyed (and shown) too


@functools.lru_cache(maxsize=64)
def _pad(depth: int) -> tuple[str, str]:
    """(highlighted, plain) indentation of one line."""
    text = "  " * depth
    return (_tok("w", text) if text else ""), text


def _esc(text: str) -> str:
    # pygments escapes token text for element content only (&, <, >), not quotes.
    return html.escape(text, quote=False)


def dump_scalar(value: object, ensure_ascii: bool = False) -> str:
    """A scalar's JSON text; a value JSON cannot hold shows as the string of its repr."""
    try:
        if not ensure_ascii:  # the prebuilt encoder: one call per scalar of every document
            return encode_compact(value, allow_nan=True)
        return json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError):  # not JSON: show its repr as a string, never crash a view
        return json.dumps(safe_repr(value), ensure_ascii=ensure_ascii)


def key_text(key: object) -> str:
    """An object key as JSON shows it."""
    # json.dumps turns non-string keys into strings the same way; other keys (tuples,
    # objects) cannot be JSON at all, so show their repr rather than fail the view.
    if isinstance(key, str):
        return key
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)
    return safe_repr(key)


def _scalar_html(text: str) -> str | None:
    """The highlighted token for a scalar's JSON text; ``None`` when pygments must decide."""
    first = text[:1]
    if first == '"':
        return _tok("s2", _esc(text))
    constant = _CONSTANTS.get(text)
    if constant is not None:
        return constant
    if first in _NUMBER_START:
        chars = set(text)
        if chars <= _NUMBER_CHARS:
            return _tok("mf" if chars & _FLOAT_CHARS else "mi", text)
    return None


def _pygments_line(text: str) -> str:
    # Only NaN and +-Infinity get here; the lexer keeps no state across pretty-printed
    # lines (strings never span two), so lexing the line alone gives what lexing the
    # whole document would.
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import JsonLexer

    out: str = highlight(
        text, JsonLexer(), HtmlFormatter(nowrap=True, classprefix=TOKEN_CLASS_PREFIX)
    )
    return out.split("\n", 1)[0]


class _Block:
    """The rows of one container: ``segments`` are row lists and child blocks, in order.

    ``lines`` maps the pointers (relative to the container) of nodes printed in this block's
    own rows to their line; ``children`` maps a child block's pointer token to its first
    line and the block.
    """

    __slots__ = ("charge", "children", "lines", "nlines", "segments")

    def __init__(self) -> None:
        self.segments: list[list[str] | _Block] = []
        self.lines: dict[str, int] = {"": 0}
        self.children: dict[str, tuple[int, _Block]] = {}
        self.nlines = 0
        self.charge = 0

    def flatten(self, out: list[str]) -> None:
        for segment in self.segments:
            if isinstance(segment, list):
                out.extend(segment)
            else:
                segment.flatten(out)

    def line_of(self, pointer: str, exact: bool = False) -> int | None:
        """The line showing ``pointer``, or (unless ``exact``) its nearest shown ancestor's."""
        if pointer and not pointer.startswith("/"):
            return None
        block, offset = self, 0
        while True:
            line = block.lines.get(pointer)
            if line is not None:
                return offset + line
            token, sep, rest = pointer[1:].partition("/")
            entry = block.children.get(token)
            if entry is None:
                break
            offset += entry[0]
            block, pointer = entry[1], ("/" + rest if sep else "")
        if exact:
            return None
        while pointer:
            pointer = pointer.rsplit("/", 1)[0]
            line = block.lines.get(pointer)
            if line is not None:
                return offset + line
        return offset


class _Cache:
    """Blocks by key within a budget in bytes, in two generations (``toollens.core.memo``):
    a generation keeps the blocks the last one used, and the ones nobody used since go, so an
    hour of typing does not fill the budget with subtrees typed once."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self._entries: OrderedDict[tuple[Any, ...], _Block] = OrderedDict()  # this render's
        self._previous: OrderedDict[tuple[Any, ...], _Block] = OrderedDict()
        self._lock = threading.Lock()
        register(self)

    def get(self, key: tuple[Any, ...]) -> _Block | None:
        with self._lock:
            block = self._entries.get(key)
            if block is not None:
                self._entries.move_to_end(key)
            elif key in self._previous:
                block = self._entries[key] = self._previous.pop(key)
            return block

    def put(self, key: tuple[Any, ...], block: _Block) -> None:
        charge = _charge(key, block)
        if charge > self.budget // 4:
            return
        with self._lock:
            if key in self._entries or key in self._previous:
                return
            self._entries[key] = block
            self.used += charge
            while self.used > self.budget and (self._previous or self._entries):
                old_key, old = (self._previous or self._entries).popitem(last=False)
                self.used -= _charge(old_key, old)

    def rotate(self) -> None:
        """A generation starts: drop what the last two left unused."""
        with self._lock:
            self.used -= sum(_charge(k, b) for k, b in self._previous.items())
            self._previous, self._entries = self._entries, OrderedDict()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._previous.clear()
            self.used = 0

    def __len__(self) -> int:
        return len(self._entries) + len(self._previous)


def _charge(key: tuple[Any, ...], block: _Block) -> int:
    return block.charge + len(key[-1]) + 200


_CACHE = _Cache(CACHE_BUDGET)


def clear_cache() -> None:
    """Forget every cached block (tests; memory is bounded by ``CACHE_BUDGET`` anyway)."""
    _CACHE.clear()


# A container with more entries than this within five levels is taken to be too big to
# cache without encoding it first. A guess, and a safe one: a wrong guess only costs time.
BIG_ENTRIES = 256
# A container with at least this many entries: its children are probably small.
MANY_CHILDREN = 16


def _looks_big(node: Any) -> bool:
    count = len(node)
    frontier = [node]
    for _ in range(4):
        if count > BIG_ENTRIES:
            return True
        below = []
        for item in frontier:
            for value in item.values() if isinstance(item, Mapping) else item:
                if value and isinstance(value, (dict, list)):
                    count += len(value)
                    if count > BIG_ENTRIES:
                        return True
                    below.append(value)
        frontier = below
    return count > BIG_ENTRIES


@edit_cache(8192)
def _key_parts(name: str) -> tuple[str, str]:
    """A key's pointer token and its highlighted ``"name": `` prefix."""
    key_html = _tok("nt", _esc(json.dumps(name, ensure_ascii=False))) + _KEY_SEP
    return escape_token(name), key_html


def _block(node: Any, depth: int, key_html: str, comma: bool, guess: bool) -> _Block | None:
    """A cached or new block for a non-empty container; ``None``: too small, inline it.

    ``guess``: check whether the node looks too big to cache before encoding it (the
    document and its wrappers); not worth it for one of many siblings.
    """
    if guess and _looks_big(node):
        return _build(node, depth, key_html, comma)
    try:
        text = _encode(node)
    except (TypeError, ValueError, RecursionError):  # not JSON data: build, never cache
        return _build(node, depth, key_html, comma)
    if len(text) < MIN_BLOCK_CHARS:
        return None
    if len(text) > MAX_CACHED_CHARS:  # the document or most of it: rarely the same twice
        return _build(node, depth, key_html, comma)
    key = (depth, key_html, comma, text)
    found = _CACHE.get(key)
    if found is not None:
        return found
    built = _build(node, depth, key_html, comma, small=True)
    _CACHE.put(key, built)
    return built


def _build(node: Any, depth: int, key_html: str, comma: bool, *, small: bool = False) -> _Block:
    """The rows of ``node``; ``small``: its JSON is known to be short (it was encoded), so
    its children need no size guess before they are encoded."""
    block = _Block()
    pad = _pad(depth)[0]
    is_map = isinstance(node, Mapping)
    rows = [f"{ROW_OPEN}{pad}{key_html}{_OPEN['{' if is_map else '[']}{ROW_CLOSE}"]
    own = len(rows[0])
    own_rows = 2  # the opening and closing lines
    n = 1
    items = list(node.items()) if is_map else list(enumerate(node))
    last = len(items) - 1
    lines, children = block.lines, block.children
    containers = (Mapping, list, tuple)
    guess = not small and len(items) < MANY_CHILDREN
    for index, (key, child) in enumerate(items):
        if is_map:
            token, child_key = _key_parts(key if type(key) is str else key_text(key))
        else:
            token, child_key = str(key), ""
        pointer = "/" + token
        seen = token in children or pointer in lines
        if child and isinstance(child, containers):
            sub = _block(child, depth + 1, child_key, index < last, guess)
            if sub is not None:
                if rows:
                    block.segments.append(rows)
                    rows = []
                block.segments.append(sub)
                if not seen:
                    children[token] = (n, sub)
                block.charge += sub.charge
                n += sub.nlines
                continue
        start = len(rows)
        where = {} if seen else lines  # a duplicate key (1 and "1"): the first one is shown
        n = _emit(child, depth + 1, child_key, index < last, pointer, rows, where, n)
        own += sum(len(r) for r in rows[start:])
        own_rows += len(rows) - start
    close = "}" if is_map else "]"
    rows.append(f"{ROW_OPEN}{pad}{_tok('p', close + (',' if comma else ''))}{ROW_CLOSE}")
    block.segments.append(rows)
    block.nlines = n + 1
    own += len(rows[-1])
    # Generous: characters, ~100 bytes per row object and per pointer entry.
    block.charge += own + 100 * own_rows + 120 * len(lines) + 200
    return block


def _emit(
    node: Any,
    depth: int,
    key_html: str,
    comma: bool,
    pointer: str,
    rows: list[str],
    lines: dict[str, int],
    n: int,
) -> int:
    """Print ``node`` into ``rows`` starting at line ``n``; returns the next line."""
    if pointer not in lines:
        lines[pointer] = n
    pad = _pad(depth)[0]
    suffix = "," if comma else ""
    is_map = isinstance(node, Mapping)
    if is_map or isinstance(node, (list, tuple)):
        if not node:
            empty = "{}" if is_map else "[]"
            rows.append(f"{ROW_OPEN}{pad}{key_html}{_tok('p', empty + suffix)}{ROW_CLOSE}")
            return n + 1
        rows.append(f"{ROW_OPEN}{pad}{key_html}{_OPEN['{' if is_map else '[']}{ROW_CLOSE}")
        n += 1
        items = list(node.items()) if is_map else list(enumerate(node))
        last = len(items) - 1
        for index, (key, child) in enumerate(items):
            if is_map:
                name = key if type(key) is str else key_text(key)
                token, child_key = _key_parts(name)
                child_pointer = pointer + "/" + token
            else:
                child_pointer, child_key = f"{pointer}/{key}", ""
            n = _emit(child, depth + 1, child_key, index < last, child_pointer, rows, lines, n)
        close = ("}" if is_map else "]") + suffix
        rows.append(f"{ROW_OPEN}{pad}{_tok('p', close)}{ROW_CLOSE}")
        return n + 1
    text = dump_scalar(node)
    value = _scalar_html(text)
    if value is None:
        plain_key = ""
        if key_html:  # recover the key's JSON text from its span for the lexer
            plain_key = html.unescape(key_html.split(">", 1)[1].split("<", 1)[0]) + ": "
        line = _pygments_line(f"{_pad(depth)[1]}{plain_key}{text}{suffix}")
        rows.append(f"{ROW_OPEN}{line}{ROW_CLOSE}")
    else:
        rows.append(f"{ROW_OPEN}{pad}{key_html}{value}{_COMMA if comma else ''}{ROW_CLOSE}")
    return n + 1


_COMMA_ROW_END = _COMMA + ROW_CLOSE
_PUNCT_COMMA_ROW_END = ",</span>" + ROW_CLOSE


def row_without_comma(row: str) -> str:
    """A row as it would be without its trailing comma (``"a": 1,`` -> ``"a": 1``), so that a
    line diff does not see a neighbour of an added key as changed."""
    if row.endswith(_COMMA_ROW_END):
        return row[: -len(_COMMA_ROW_END)] + ROW_CLOSE
    if row.endswith(_PUNCT_COMMA_ROW_END):  # "}," "]," "{}," "[]," in one punctuation span
        return row[: -len(_PUNCT_COMMA_ROW_END)] + "</span>" + ROW_CLOSE
    return row


class Rows:
    """The highlighted rows of one document, and where each pointer's node is shown."""

    __slots__ = ("_root", "rows")

    def __init__(self, rows: list[str], root: _Block) -> None:
        self.rows = rows
        self._root = root

    def line_of(self, pointer: str, exact: bool = False) -> int | None:
        """The line of ``pointer``'s node, or (unless ``exact``) of its nearest shown ancestor
        (a removed key)."""
        return self._root.line_of(pointer, exact)

    def groups(self) -> list[tuple[int, int]]:
        """The lines ``[first, end)`` of each container two levels down (a schema's each
        property and definition), in order; containers printed inline are not among them."""
        out = []
        for first, child in self._root.children.values():
            for line, grandchild in child.children.values():
                out.append((first + line, first + line + grandchild.nlines))
        return sorted(out)


def json_rows(value: object) -> Rows:
    """Highlighted ``tl-line`` rows of ``json.dumps(value, indent=2)``, cached per subtree."""
    if value and isinstance(value, (Mapping, list, tuple)):
        root = _block(value, 0, "", False, True) or _build(value, 0, "", False)
    else:
        root = _Block()
        rows: list[str] = []
        root.nlines = _emit(value, 0, "", False, "", rows, root.lines, 0)
        root.segments.append(rows)
    out: list[str] = []
    root.flatten(out)
    return Rows(out, root)
