"""Where in a tool's source a value came from: line/column spans, computed on first read.

A :class:`SourceSpan` points into the text ``inspect.getsource(func)`` returns for the tool's
callable -- the text the explorer's editor shows. Spans are located lazily: a candidate holds
a :class:`PendingSpan` until someone reads ``candidate.span``, so building a schema never
reads or parses source code (see ``toollens.core.spans.locator``).
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from typing import Any, Protocol

__all__ = ["PendingSpan", "SourceSpan", "SpanOf", "may_locate"]


@dataclass(frozen=True)
class SourceSpan:
    """A range of the tool's source text, as ``inspect.getsource(func)`` returns it.

    Lines are 1-based and columns 0-based, like ``ast``, but columns count characters
    (``str`` indices into the line), not UTF-8 bytes, so an editor can use them directly.
    The end is exclusive: the span covers ``lines[start_line - 1][start_column:]`` through
    ``lines[end_line - 1][:end_column]``. The text is the undedented source: for a method
    the columns include the class body's indentation, and a view that dedents the source
    must subtract the margin it removed.

    Attributes:
        start_line: first line of the span (1-based).
        start_column: first character of the span on ``start_line`` (0-based).
        end_line: last line of the span (1-based).
        end_column: one past the last character on ``end_line`` (0-based, exclusive).
    """

    start_line: int
    start_column: int
    end_line: int
    end_column: int

    @functools.cached_property
    def label(self) -> str:
        """``"l1:c1-l2:c2"``: how views name the span (the explorer's editor reads it)."""
        return f"{self.start_line}:{self.start_column}-{self.end_line}:{self.end_column}"

    def text(self, source: str) -> str:
        """The part of ``source`` this span covers (``source`` as ``inspect.getsource``)."""
        lines = split_lines(source)
        if self.start_line == self.end_line:
            return lines[self.start_line - 1][self.start_column : self.end_column]
        first = lines[self.start_line - 1][self.start_column :]
        middle = lines[self.start_line : self.end_line - 1]
        last = lines[self.end_line - 1][: self.end_column]
        return "\n".join([first, *middle, last])


def split_lines(source: str) -> list[str]:
    """Lines as the parser counts them (``\\n``, ``\\r\\n`` or ``\\r``; not ``str.splitlines``,
    which also breaks at form feeds and other separators the tokenizer does not count)."""
    return source.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class SpanOf(enum.Enum):
    """What part of the source a candidate's value was written in."""

    NAME = "name"  # the function's name on its ``def`` line
    SUMMARY = "summary"  # the docstring's description (summary and body)
    DOC_PARAM = "doc-param"  # a parameter's entry in the docstring
    ANNOTATION = "annotation"  # a parameter's annotation (or its name when unannotated)
    DEFAULT = "default"  # the expression after a parameter's ``=``
    METADATA = "metadata"  # one element of a parameter's ``Annotated[...]``


class Locator(Protocol):
    def locate(
        self, of: SpanOf, parameter: str | None, index: int | None, count: int | None
    ) -> SourceSpan | None:
        """The span of ``of`` for ``parameter``; ``index`` and ``count``: a position in the
        ``Annotated`` metadata and how many elements it has at run time."""


@dataclass(frozen=True)
class PendingSpan:
    """A span not located yet: the locator of the tool and what to look for."""

    locator: Locator
    of: SpanOf
    parameter: str | None = None
    index: int | None = None
    count: int | None = None

    def resolve(self) -> SourceSpan | None:
        return self.locator.locate(self.of, self.parameter, self.index, self.count)


class LazySpan:
    """A dataclass field holding a :class:`SourceSpan`, located from a ``PendingSpan``
    on first read and kept; ``None`` is the field's default."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> SourceSpan | None:
        if obj is None:
            return None  # the field's default
        value = obj.__dict__.get(self.name)
        if type(value) is PendingSpan:
            value = value.resolve()
            obj.__dict__[self.name] = value
        return value  # type: ignore[no-any-return]

    def __set__(self, obj: Any, value: SourceSpan | PendingSpan | None) -> None:
        obj.__dict__[self.name] = value


def may_locate(obj: object, name: str = "span") -> bool:
    """Whether ``obj``'s :class:`LazySpan` field ``name`` holds a span or one still to
    locate, told without locating it (a pending span can still turn out to be ``None``)."""
    return vars(obj).get(name) is not None
