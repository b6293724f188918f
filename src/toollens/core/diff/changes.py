"""What the diff reports: one ``SchemaChange`` per difference, its kind and severity."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from toollens.core.schema.types import JsonObject


class DiffSeverity(str, enum.Enum):
    """How much a schema change matters to the tool's callers and to the model."""

    BREAKING = "breaking"  # a call that used to be valid may be rejected, or callers must change
    COMPATIBLE = "compatible"  # every call that used to be valid still is
    DESCRIPTION_ONLY = "description-only"  # what the model reads changed, validation did not

    @property
    def rank(self) -> int:
        """0 for the worst severity; used to sort and to find the worst."""
        return _SEVERITY_ORDER.index(self)


_SEVERITY_ORDER = (DiffSeverity.BREAKING, DiffSeverity.COMPATIBLE, DiffSeverity.DESCRIPTION_ONLY)


class ChangeKind(str, enum.Enum):
    """What happened to the thing a change is about."""

    ADDED = "added"  # present only in the new schema; the pointer is into the new schema
    REMOVED = "removed"  # present only in the old schema; the pointer is into the old schema
    CHANGED = "changed"  # present in both with different values; pointer into the new schema
    MOVED = "moved"  # the same schema under a new name; before/after are the two pointers


@dataclass(frozen=True)
class SchemaChange:
    """One difference between two tool schemas.

    Attributes:
        pointer: RFC 6901 pointer of the schema node the change is about: into the new
            schema for added, changed and moved things, into the old one for removed things.
            Tool-level changes (``keyword`` starting with ``"tool."``) use ``""``.
        kind: added, removed, changed or moved.
        keyword: the JSON Schema keyword concerned (``"type"``, ``"required"``, ``"enum"``,
            ``"properties"`` for whole properties, ``"anyOf"`` for whole branches, ...) or
            ``"tool.name"`` / ``"tool.description"`` / ``"tool.strict"``.
        before: the old value (``None`` when added); JSON data.
        after: the new value (``None`` when removed); JSON data.
        severity: breaking, compatible or description-only.
        message: one readable clause, with the values shown.
    """

    pointer: str
    kind: ChangeKind
    keyword: str
    before: Any
    after: Any
    severity: DiffSeverity
    message: str

    @property
    def is_tool_level(self) -> bool:
        """Whether the change is about the tool (name, description, strict), not a schema node."""
        return self.keyword.startswith("tool.")

    @property
    def where(self) -> str:
        """The pointer as shown to a person: ``(tool)`` for tool-level changes, ``/`` for root."""
        return "(tool)" if self.is_tool_level else (self.pointer or "/")

    def to_json(self) -> JsonObject:
        """JSON-ready form; keys in a fixed order."""
        return {
            "pointer": self.pointer,
            "kind": self.kind.value,
            "keyword": self.keyword,
            "severity": self.severity.value,
            "message": self.message,
            "before": self.before,
            "after": self.after,
        }

    to_dict = to_json  # the former name, kept for callers

    def __str__(self) -> str:
        return f"{SEVERITY_LABELS[self.severity]:<13}{self.where}  {self.keyword}: {self.message}"


SEVERITY_LABELS = {
    DiffSeverity.BREAKING: "BREAKING",
    DiffSeverity.COMPATIBLE: "COMPATIBLE",
    DiffSeverity.DESCRIPTION_ONLY: "DESCRIPTION",
}
