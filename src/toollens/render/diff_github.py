"""``diff --format github``: a two-target diff's changes as annotations on the NEW side,
where it is declared (a source's tool, a Python function, or the JSON file that holds it),
followed by one plain summary line."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toollens.core.errors import ToolLensError
from toollens.core.function_schema import function_schema
from toollens.project.annotations import Locator, change_annotations
from toollens.project.github import plain_line
from toollens.project.places import entry_place
from toollens.render.check_github import json_file
from toollens.targets import resolve_target

if TYPE_CHECKING:
    from toollens.core.diff import SchemaDiff
    from toollens.core.function_schema import FunctionSchema
    from toollens.toolsets import Tool

__all__ = ["format_diff_github"]


def format_diff_github(result: SchemaDiff, new_target: str, new_tool: Tool | None = None) -> str:
    """Annotations for ``result``'s changes on the NEW side: ``new_tool`` where it is
    declared, when the NEW side is one tool of a source; else ``new_target``'s function (or
    its JSON file)."""
    if new_tool is not None:
        name, locator = new_tool.name, Locator(None, None, place=entry_place(new_tool))
    else:
        name, locator = new_target.rpartition(":")[2] or new_target, _target_locator(new_target)
    lines = [str(a) for a in change_annotations(name, result.changes, locator)]
    return "\n".join([*lines, plain_line(f"{new_target}: {result.headline}")]) + "\n"


def _target_locator(target: str) -> Locator:
    file = json_file(target)
    if file is not None:  # no function to point at: annotate the file
        return Locator(None, None, file=file)
    obj = resolve_target(target)
    return Locator(obj, _function_schema_or_none(obj))


def _function_schema_or_none(obj: object) -> FunctionSchema | None:
    if not callable(obj):
        return None
    try:
        return function_schema(obj, strict=False)
    except (ToolLensError, TypeError):  # only used to map aliases back to parameters
        return None
