"""``check --format github``'s token-budget and description-limit findings, as annotations.

Each finding about one tool points at that tool (its ``def``, its JSON file, the line
declaring its MCP server); a finding about the tools together (``--max-total-tokens``) at
what the command line named, or the project's ``[tool.toollens]`` table.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toollens.project.github import Annotation, Level
from toollens.project.places import (
    NOWHERE,
    Place,
    entry_place,
    mcp_place,
    object_place,
    source_place,
)
from toollens.project.tools import relative_path
from toollens.targets import is_mcp_target
from toollens.tokens.tooldefs import DeferredMarks
from toollens.toolsets import Toolset

if TYPE_CHECKING:
    from toollens.core.records import Finding

__all__ = ["budget_annotations", "target_places"]

_LEVELS: dict[str, Level] = {"error": "error", "warning": "warning", "info": "notice"}


def budget_annotations(
    found: Sequence[tuple[Finding, int | None]],
    named: Sequence[tuple[object, str]],
    given: bool,
) -> str:
    """One annotation line per finding.

    Args:
        found: each finding with the index of its tool among the counted definitions
            (``None``: about the tools together).
        named: the objects counted (tools or toolsets), each with the text naming it.
        given: whether the command line named them (else they are the project's list).
    """
    places = [place for obj, text in named for place in target_places(obj, text)]
    whole = source_place(named[0][1]) if given and named else source_place("project")
    lines = []
    for finding, index in found:
        place = places[index] if index is not None and index < len(places) else NOWHERE
        place = place or whole
        note = Annotation(
            level=_LEVELS[finding.severity.value],
            title=f"toollens: {finding.rule}",
            message=f"{finding.message} Fix: {finding.fix}",
            file=place.file,
            line=place.line,
        )
        lines.append(f"{note}\n")
    return "".join(lines)


def target_places(obj: object, text: str) -> list[Place]:
    """Where each tool counted from ``obj`` is defined, in the order they are counted
    (a toolset's readable entries; one tool otherwise)."""
    if isinstance(obj, DeferredMarks):
        obj = obj.toolset
    if isinstance(obj, Toolset):
        whole = source_place(text)
        return [entry_place(entry, whole) for entry in obj.tools if entry.ok]
    found = object_place(obj)
    if not found and is_mcp_target(text):  # a project's MCP tool, counted as a ToolDef
        found = mcp_place(text)
    elif not found and Path(text).is_file():  # a JSON file target
        found = Place(relative_path(Path(text)), None, Path(text))
    return [found]
