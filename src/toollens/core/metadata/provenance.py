"""Provenance records: where a metadata value came from, and the candidates each source offers.

Data only (frozen records and enums); ``toollens.core.metadata.precedence`` decides which candidate
wins and ``toollens.core.metadata.candidates`` builds them.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from toollens.core.spans.span import LazySpan

__all__ = ["MISSING", "Candidate", "Source"]


class Source(str, enum.Enum):
    """Where a metadata value came from."""

    OVERRIDE = "override"
    CALLABLE = "callable"
    DOCSTRING = "docstring"
    ANNOTATED_STR = "annotated-str"
    ANNOTATED_FIELD = "annotated-field"
    ANNOTATED_CONSTRAINT = "annotated-constraint"
    FIELD_DEFAULT = "field-default"
    DEFAULT = "default"
    TYPE = "type"

    @property
    def label(self) -> str:
        return _SOURCE_LABELS[self._value_]


# Keyed by value: a str lookup avoids Enum.__hash__, a Python-level call, on a hot path.
_SOURCE_LABELS = {
    Source.OVERRIDE.value: "explicit override",
    Source.CALLABLE.value: "callable",
    Source.DOCSTRING.value: "docstring",
    Source.ANNOTATED_STR.value: "Annotated string",
    Source.ANNOTATED_FIELD.value: "Annotated Field(...)",
    Source.ANNOTATED_CONSTRAINT.value: "Annotated constraint",
    Source.FIELD_DEFAULT.value: "= Field(...) default",
    Source.DEFAULT.value: "= default",
    Source.TYPE.value: "type",
}


class _Missing(enum.Enum):
    MISSING = "MISSING"

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing.MISSING


@dataclass(frozen=True)
class Candidate:
    """One value offered by one source for one attribute of a parameter or tool.

    Attributes:
        attribute: ``"description"``, ``"default"``, ``"alias"``, ``"name"`` or a constraint
            such as ``"ge"``.
        source: where the value came from.
        value: the value offered.
        won: whether this value is the one the model sees.
        reason: one line saying why it won or lost.
        ignored: the source was turned off (docstring information off), so the value
            never competed; ``reason`` says so in words.
        span: where the value is written in the tool's source (see ``SourceSpan``: the
            text ``inspect.getsource`` returns), or ``None`` when there is no source text
            (builtins, JSON schemas, explicit overrides, a name from an alias). Located on
            first read.
    """

    attribute: str
    source: Source
    value: Any
    won: bool
    reason: str
    ignored: bool = False
    # A descriptor, not a shared default: reads give a SourceSpan or None; a PendingSpan
    # given to __init__ is located on first read.
    span: LazySpan = LazySpan()  # noqa: RUF009
