"""Spans of a tool's values in its source, found with ``ast`` when first asked for.

One :class:`SourceLocator` serves one ``function_schema`` call. Making it costs nothing: the
source is read (``inspect.getsource``) and parsed on the first ``locate``, once, so building
schemas stays as fast as without spans. Spans refer to the text ``inspect.getsource``
returns (see :class:`~toollens.core.spans.SourceSpan`); a callable without source text
(builtins, ``functools.partial``, callable objects, lambdas) gets no spans.
"""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from toollens.core.docstrings import DocstringStyle, ParsedDocstring
from toollens.core.spans.docstrings import DocLine, description_span, parameter_entries
from toollens.core.spans.span import PendingSpan, SourceSpan, SpanOf, split_lines
from toollens.core.spans.trees import parsed_module

__all__ = ["SourceLocator"]

_QUOTE = re.compile(r"[rRuU]?(\"\"\"|'''|\"|')")


@dataclass(frozen=True)
class _Parsed:
    """The parsed ``def`` of a tool: its lines, node, arguments and docstring lines."""

    lines: list[str]
    delta: int  # lines the parser saw before the source (an indented method is wrapped)
    node: ast.FunctionDef | ast.AsyncFunctionDef
    arguments: dict[str, tuple[ast.arg, ast.expr | None]]  # name -> (arg, default)
    docstring: list[DocLine] | None

    def span(self, node: ast.AST) -> SourceSpan:
        start_line = node.lineno - self.delta  # type: ignore[attr-defined]
        end_line = (node.end_lineno or node.lineno) - self.delta  # type: ignore[attr-defined]
        end_offset = node.end_col_offset  # type: ignore[attr-defined]
        return SourceSpan(
            start_line,
            _char_column(self.lines[start_line - 1], node.col_offset),  # type: ignore[attr-defined]
            end_line,
            _char_column(self.lines[end_line - 1], end_offset),
        )


def _char_column(line: str, byte_offset: int) -> int:
    """``ast`` counts UTF-8 bytes; editors and ``str`` count characters."""
    if line.isascii():  # most source lines: one byte per character
        return byte_offset
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))


class SourceLocator:
    """Finds where a tool's name, docstring entries, annotations and defaults are written."""

    def __init__(self, func: Any, doc: ParsedDocstring) -> None:
        self._func = func
        self._doc = doc
        self._entries: dict[DocstringStyle, dict[str, SourceSpan]] = {}
        self._metadata_nodes: dict[str, list[ast.expr]] = {}  # parameter -> Annotated parts

    def pending(
        self,
        of: SpanOf,
        parameter: str | None = None,
        index: int | None = None,
        count: int | None = None,
    ) -> PendingSpan:
        """A span to locate on first read (see ``Candidate.span``)."""
        return PendingSpan(self, of, parameter, index, count)

    def locate(
        self, of: SpanOf, parameter: str | None, index: int | None, count: int | None
    ) -> SourceSpan | None:
        parsed = self._parsed
        if parsed is None:
            return None
        return _LOCATE[of](self, parsed, parameter, index, count)

    @functools.cached_property
    def _parsed(self) -> _Parsed | None:
        found = _module_lines(self._func)
        if found is not None:  # a tree parsed already, or a quick read of the def
            parsed = _from_shared_tree(*found) or _parse(_quick_source(*found) or "")
            if parsed is not None:
                return parsed
        try:
            text = inspect.getsource(self._func)
        except Exception:  # builtins, partials, objects, REPL code: inspect raises several
            return None
        return _parse(text)

    def _name(self, parsed: _Parsed, *_: Any) -> SourceSpan | None:
        node = parsed.node
        line = parsed.lines[node.lineno - parsed.delta - 1]
        found = re.compile(rf"\bdef\s+({re.escape(node.name)})\b").search(line)
        if found is None:
            return None
        return SourceSpan(
            node.lineno - parsed.delta, found.start(1), node.lineno - parsed.delta, found.end(1)
        )

    def _summary(self, parsed: _Parsed, *_: Any) -> SourceSpan | None:
        if parsed.docstring is None or not self._doc.description:
            return None
        return description_span(parsed.docstring, self._doc.description)

    def _doc_param(self, parsed: _Parsed, parameter: str | None, *_: Any) -> SourceSpan | None:
        guess = self._doc.guess
        if parsed.docstring is None or parameter is None or guess is None:
            return None
        entries = self._entries.get(guess.style)
        if entries is None:
            entries = self._entries[guess.style] = parameter_entries(parsed.docstring, guess.style)
        return entries.get(parameter)

    def _annotation(self, parsed: _Parsed, parameter: str | None, *_: Any) -> SourceSpan | None:
        arg, _default = parsed.arguments.get(parameter or "", (None, None))
        if arg is None:
            return None
        return parsed.span(arg.annotation if arg.annotation is not None else arg)

    def _default(self, parsed: _Parsed, parameter: str | None, *_: Any) -> SourceSpan | None:
        _arg, default = parsed.arguments.get(parameter or "", (None, None))
        return None if default is None else parsed.span(default)

    def _metadata(
        self, parsed: _Parsed, parameter: str | None, index: int | None, count: int | None
    ) -> SourceSpan | None:
        arg, _default = parsed.arguments.get(parameter or "", (None, None))
        if arg is None or arg.annotation is None or index is None:
            return None
        parts = self._metadata_nodes.get(arg.arg)
        if parts is None:
            parts = self._metadata_nodes[arg.arg] = _annotated_metadata(arg.annotation)
        # Metadata that came through an alias is not written here: the counts then differ.
        if len(parts) != count:
            return None
        return parsed.span(parts[index])


_Locate = Callable[
    [SourceLocator, _Parsed, "str | None", "int | None", "int | None"], "SourceSpan | None"
]
_LOCATE: dict[SpanOf, _Locate] = {
    SpanOf.NAME: SourceLocator._name,
    SpanOf.SUMMARY: SourceLocator._summary,
    SpanOf.DOC_PARAM: SourceLocator._doc_param,
    SpanOf.ANNOTATION: SourceLocator._annotation,
    SpanOf.DEFAULT: SourceLocator._default,
    SpanOf.METADATA: SourceLocator._metadata,
}
if set(_LOCATE) != set(SpanOf):
    raise RuntimeError("every SpanOf needs a way to be located")


def _module_lines(func: Any) -> tuple[list[str], int] | None:
    """The lines of a plain function's module and the index of its first line (decorators
    included), as ``inspect.findsource`` finds them; ``None`` for anything else.

    Read straight from the code object and ``linecache`` (what ``findsource`` does for a
    function, without looking the module up in ``sys.modules`` on every edit).
    """
    try:
        func = inspect.unwrap(func)
    except ValueError:  # a __wrapped__ cycle
        return None
    code = getattr(func, "__code__", None)
    if not inspect.isfunction(func) or code is None:
        return None
    filename = code.co_filename
    linecache.checkcache(filename)
    lines = linecache.getlines(filename, func.__globals__)
    start = code.co_firstlineno - 1
    if not 0 <= start < len(lines):
        return None
    return lines, start


def _from_shared_tree(lines: list[str], start: int) -> _Parsed | None:
    """The def from a tree of this text parsed already (see ``core.spans.trees``)."""
    tree = parsed_module("".join(lines))
    if tree is None:
        return None
    for node in _defs(tree.body):
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        if first == start + 1:
            end = node.end_lineno or node.lineno
            text = "".join(lines[start:end])
            return _parsed_def(split_lines(text), start, node)
    return None


def _defs(body: list[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every ``def`` among these statements and the statements inside them (no expressions:
    a ``def`` cannot sit inside one)."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.AST):
                yield from _defs(inner)


def _quick_source(lines: list[str], start: int) -> str | None:
    """What ``inspect.getsource`` returns for a plain function, found without tokenizing.

    ``getsource`` runs Python's tokenizer over the whole ``def`` to find where it ends: the
    slowest step of a live edit of a tool with hundreds of parameters. Here the block ends at
    the first line that starts a statement at the ``def``'s indentation or less. A wrong
    guess (that line sits inside a string or brackets) leaves the text unbalanced, so it does
    not parse and :meth:`SourceLocator._parsed` falls back to ``getsource``.
    """
    indent = _indent(lines[start])
    header = start
    while header < len(lines) and lines[header].lstrip().startswith("@"):
        header += 1  # decorators on one line each; anything else takes the slow path
    if header >= len(lines) or not lines[header].lstrip().startswith(("def ", "async ")):
        return None
    end = len(lines)
    for index in range(header + 1, len(lines)):
        stripped = lines[index].strip()
        if not stripped or stripped.startswith("#") or stripped[0] in ")]}":
            continue
        if _indent(lines[index]) <= indent:
            end = index
            break
    while end > header + 1 and not lines[end - 1].strip():
        end -= 1
    return "".join(lines[start:end])


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _parse(text: str) -> _Parsed | None:
    # A method's source is indented: parse it as the body of a block so that every
    # column stays a column of the original text.
    delta = 1 if text[:1].isspace() else 0
    try:
        tree = ast.parse("if 1:\n" + text if delta else text)
    except (SyntaxError, ValueError):
        return None
    body = tree.body[0].body if delta and isinstance(tree.body[0], ast.If) else tree.body
    node = body[0] if body else None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None  # a lambda, or source inspect found for something else
    return _parsed_def(split_lines(text), delta, node)


def _parsed_def(
    lines: list[str], delta: int, node: ast.FunctionDef | ast.AsyncFunctionDef
) -> _Parsed:
    return _Parsed(lines, delta, node, _arguments(node.args), _docstring(lines, node, delta))


def _arguments(args: ast.arguments) -> dict[str, tuple[ast.arg, ast.expr | None]]:
    positional = [*args.posonlyargs, *args.args]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    pairs = [
        *zip(positional, defaults, strict=True),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    out: dict[str, tuple[ast.arg, ast.expr | None]] = {arg.arg: (arg, d) for arg, d in pairs}
    for star in (args.vararg, args.kwarg):
        if star is not None:
            out[star.arg] = (star, None)
    return out


def _annotated_metadata(node: ast.expr) -> list[ast.expr]:
    """The metadata nodes of ``Annotated[T, m1, m2]``, nested ones first (as Python
    flattens them), or ``[]`` when the annotation is not written as ``Annotated``."""
    if not isinstance(node, ast.Subscript):
        return []
    head = node.value
    name = head.attr if isinstance(head, ast.Attribute) else getattr(head, "id", None)
    if name != "Annotated" or not isinstance(node.slice, ast.Tuple) or not node.slice.elts:
        return []
    inner, *metadata = node.slice.elts
    return [*_annotated_metadata(inner), *metadata]


def _docstring(
    lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef, delta: int
) -> list[DocLine] | None:
    """The docstring literal's lines, each cut to the part inside the quotes."""
    first = node.body[0] if node.body else None
    if not (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return None
    literal = first.value
    start_line = literal.lineno - delta
    end_line = (literal.end_lineno or literal.lineno) - delta
    start = _char_column(lines[start_line - 1], literal.col_offset)
    end = _char_column(lines[end_line - 1], literal.end_col_offset or 0)
    opening = _QUOTE.match(lines[start_line - 1], start)
    if opening is None:
        return None
    quote = opening.group(1)
    close = end - len(quote)
    out = []
    for number in range(start_line, end_line + 1):
        line = lines[number - 1]
        low = opening.end() if number == start_line else 0
        high = close if number == end_line else len(line)
        out.append(DocLine(number, low, line[low:high]))
    if any(quote in doc_line.text for doc_line in out):
        return None  # implicitly concatenated literals: the lines are not one docstring
    return out
