"""Where a finding or a change is about, as GitHub annotations on the tool's source.

:class:`Locator` finds the file (relative to the repository root) and line of a tool, of
one of its parameters, or of its return annotation; :func:`change_annotations` turns a
diff's changes into annotations at those places. The lock diff
(:mod:`toollens.project.lock_report`) and the command line's ``--format github`` use them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from toollens.core.diff import DiffSeverity, SchemaChange
from toollens.core.schema.pointer import split_pointer
from toollens.project.github import Annotation, Level
from toollens.project.places import NOWHERE, Place, entry_place, object_place, parameter_line_at
from toollens.project.tools import parameter_line, relative_path, return_line, source_location

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema
    from toollens.project.tools import ProjectTool

__all__ = ["CHANGE_LEVELS", "Locator", "change_annotations", "property_of", "tool_locator"]

#: The annotation level of a change, by its severity.
CHANGE_LEVELS: dict[DiffSeverity, Level] = {
    DiffSeverity.BREAKING: "error",
    DiffSeverity.COMPATIBLE: "warning",
    DiffSeverity.DESCRIPTION_ONLY: "notice",
}


class Locator:
    """File (relative to the repository root) and line of a tool, or of one of its parameters.

    Args:
        obj: the tool's Python object (``None`` for a JSON file or a removed tool).
        function: its FunctionSchema, which maps schema names (aliases) back to parameters.
        file: the file to point at when ``obj`` has no source (a JSON file target).
        place: where to point when ``obj`` has no source and is no MCP tool (a tool read
            in another process, a tool of an agent); wins over ``file``.
    """

    def __init__(
        self,
        obj: object,
        function: FunctionSchema | None,
        *,
        file: str | None = None,
        place: Place | None = None,
    ) -> None:
        self.obj = obj
        location = source_location(obj) if obj is not None else None
        found = object_place(obj) if obj is not None and location is None else NOWHERE
        self._fallback = found or place or Place(file)
        self.file = relative_path(location.file) if location else self._fallback.file
        self.line = location.line if location else self._fallback.line
        parameters = function.parameters if function is not None else ()
        self._names = {p.schema_name: p.name for p in parameters}

    def at(self, parameter: str | None) -> tuple[str | None, int | None]:
        """Where ``parameter`` (a schema name) is declared; the tool itself otherwise."""
        if not parameter:
            return self.file, self.line
        python_name = self._names.get(parameter, parameter)
        line = parameter_line(self.obj, python_name) if self.obj is not None else None
        path = self._fallback.path
        if line is None and path is not None and self.line is not None:  # only file and line
            line = parameter_line_at(path, self.line, python_name)
        return self.file, line or self.line

    def for_change(self, change: SchemaChange, output: bool) -> tuple[str | None, int | None]:
        """Where a change is about: the return annotation for an output change."""
        if output:
            line = return_line(self.obj) if self.obj is not None else None
            return self.file, line or self.line
        return self.at(property_of(change.pointer))


def property_of(pointer: str) -> str | None:
    """The top-level property a pointer is about (``/properties/q/type`` -> ``q``)."""
    tokens = split_pointer(pointer, 2)
    return tokens[1] if len(tokens) == 2 and tokens[0] == "properties" else None


def change_annotations(
    name: str, changes: Sequence[SchemaChange], locator: Locator, *, output: bool = False
) -> Iterator[Annotation]:
    """One annotation per change of tool ``name``, at the place it is about."""
    section = " (output)" if output else ""
    for change in changes:
        file, line = locator.for_change(change, output)
        yield Annotation(
            level=CHANGE_LEVELS[change.severity],
            title=f"toollens: {change.severity.value} change to tool {name}{section}",
            message=f"{change.where} {change.keyword}: {change.message}",
            file=file,
            line=line,
        )


def tool_locator(tool: ProjectTool) -> Locator:
    """Where annotations about a locked tool point: a Python tool's ``def`` (and each
    parameter's line), else where its record says it came from
    (:func:`~toollens.project.places.entry_place`: an MCP server's tool where the server is
    declared, a JSON file's tool at that file)."""
    record = tool.tool
    function = tool.reports[0].function if tool.reports else None
    return Locator(record.function, function, place=entry_place(record))
