"""The records of ``toollens fix``: an edit a finding's remedy makes, safe or unsafe, and what
fixing one file did."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

from toollens.core.schema.types import JsonValue

__all__ = ["Edit", "FileFix", "JsonOp", "PyOp", "Safety"]


class Safety(str, enum.Enum):
    """Whether an edit keeps the calls the function accepts and the values the schema accepts."""

    SAFE = "safe"  # both unchanged: applied by default
    UNSAFE = "unsafe"  # one of them changes (a name, a narrower schema): only with --unsafe


@dataclass(frozen=True)
class JsonOp:
    """One change to a tool object in a JSON file.

    Attributes:
        path: the tokens from the tool's parameters schema to the object changed; ``None``:
            the tool object itself (its name).
        set: keys given this value (a key already there keeps its place).
        remove: keys removed.
        note: text appended to the object's ``description`` (a keyword the provider does
            not take, said in words instead), or ``None``.
        lift: the key of the tool object whose fields move up into it, beside ``type``
            (a Chat Completions ``function`` laid out for Responses), or ``None``.
    """

    path: tuple[str, ...] | None
    set: tuple[tuple[str, JsonValue], ...] = ()
    remove: tuple[str, ...] = ()
    note: str | None = None
    lift: str | None = None


PyOpKind = Literal[
    "remove-doc-entry", "remove-field-description", "annotate", "make-optional", "forbid-extra"
]


@dataclass(frozen=True)
class PyOp:
    """One change to a Python tool's source, made with libcst.

    Attributes:
        kind: what is changed: a docstring entry or an ``Annotated`` ``Field`` description
            removed, an annotation added or made Optional (``X | None``), a model closed.
        function: the function (or, for ``forbid-extra``, the class) it is made in.
        parameter: the parameter concerned (the docstring entry's name; the one annotated).
        annotation: the annotation written, for ``annotate``.
    """

    kind: PyOpKind
    function: str
    parameter: str | None = None
    annotation: str | None = None


@dataclass(frozen=True)
class Edit:
    """A finding's mechanical remedy, as data.

    Attributes:
        rule: the rule of the finding it fixes.
        tool: the tool's name as served.
        pointer: where in the tool's schema the finding is (``None``: the tool).
        safety: safe or unsafe (see :class:`Safety`).
        summary: what the edit does, one clause.
        op: the change itself.
    """

    rule: str
    tool: str
    pointer: str | None
    safety: Safety
    summary: str
    op: JsonOp | PyOp

    def to_json(self) -> dict[str, str | None]:
        return {
            "rule": self.rule,
            "tool": self.tool,
            "pointer": self.pointer,
            "safety": self.safety.value,
            "summary": self.summary,
        }


@dataclass(frozen=True)
class FileFix:
    """What fixing one file did.

    Attributes:
        path: the file.
        before: its text before.
        after: its text with the applied edits.
        applied: the edits made.
        skipped: the fixable edits left out (unsafe without ``--unsafe``, or not selected).
    """

    path: str
    before: str
    after: str
    applied: tuple[Edit, ...] = ()
    skipped: tuple[Edit, ...] = field(default=())

    @property
    def changed(self) -> bool:
        return self.before != self.after
