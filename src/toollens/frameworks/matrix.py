"""The per-parameter matrix: what each framework says about each parameter, side by side.

For every parameter (rows) and every framework (columns) a :class:`Cell` records where the
sent description came from (matched against toollens' candidates for that parameter),
whether the parameter is required, its type, the default sent and, for an object, whether
it is closed. A row lists the attributes on which the frameworks that sent the parameter
disagree; a parameter some frameworks drop disagrees on ``present``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from operator import attrgetter, itemgetter
from typing import Any, TypeVar

from toollens.core.providers.walk import is_object_node
from toollens.core.schema.pointer import UnresolvedRef, resolve_local
from toollens.core.schema.types import JsonMapping, JsonObject, ToolFunction

__all__ = [
    "ATTRIBUTES",
    "TOOL_ROW",
    "Cell",
    "Column",
    "DescriptionSources",
    "Matrix",
    "MatrixRow",
    "build_matrix",
    "by_key",
]

#: The row about the tool itself (its description, whether the root object is closed).
TOOL_ROW = "(tool)"
#: The cell attributes compared across frameworks, in display order.
ATTRIBUTES = ("present", "description", "required", "type", "default", "closed")
#: Description sources beyond toollens' own candidate sources.
NO_DESCRIPTION, OTHER_TEXT, WHOLE_DOCSTRING = "none", "other", "whole docstring"
_MAX_REF_HOPS = 32

#: Parameter schema name (or :data:`TOOL_ROW`) -> every ``(source, text)`` toollens knows
#: for its description.
DescriptionSources = Callable[[str], Iterable[tuple[str, str]]]

_T = TypeVar("_T")


def by_key(items: Iterable[_T], key_of: Callable[[_T], str], key: str) -> _T:
    """The first of ``items`` whose ``key_of(item)`` is ``key``; ``KeyError(key)`` when none is."""
    for item in items:
        if key_of(item) == key:
            return item
    raise KeyError(key)


@dataclass(frozen=True)
class Column:
    """One schema to tabulate: a framework's, or toollens' reference."""

    key: str
    description: str | None
    parameters: JsonMapping


@dataclass(frozen=True)
class Cell:
    """What one framework sends for one parameter.

    Attributes:
        present: whether the parameter is in the framework's schema at all.
        description: where the sent description came from: a toollens source value
            (``"docstring"``, ``"annotated-str"``, ``"field-default"``, ...),
            ``"whole docstring"``, ``"other"`` (text toollens has no source for) or ``"none"``.
        description_text: the description as sent.
        required: whether the schema lists it as required.
        type: a short type label, e.g. ``"string | null"`` or ``"array[integer]"``.
        default: the ``default`` sent (``None`` when ``default_sent`` is false).
        default_sent: whether a ``default`` keyword is sent.
        closed: for an object, whether ``additionalProperties`` is false; else ``None``.
    """

    present: bool
    description: str | None = None
    description_text: str | None = None
    required: bool | None = None
    type: str | None = None
    default: Any = None
    default_sent: bool = False
    closed: bool | None = None

    def value(self, attribute: str) -> object:
        """The value compared for ``attribute`` (one of :data:`ATTRIBUTES`)."""
        if attribute == "default":
            return (self.default_sent, _hashable(self.default))
        return getattr(self, attribute)


@dataclass(frozen=True)
class MatrixRow:
    """One parameter across frameworks."""

    parameter: str
    cells: tuple[tuple[str, Cell], ...]
    disagreements: tuple[str, ...]

    def cell(self, key: str) -> Cell:
        """The cell of one column; ``KeyError`` for an unknown column."""
        _, cell = by_key(self.cells, itemgetter(0), key)
        return cell


@dataclass(frozen=True)
class Matrix:
    """Rows of parameters, columns of frameworks; the tool itself is the first row."""

    columns: tuple[str, ...]
    rows: tuple[MatrixRow, ...]

    def row(self, parameter: str) -> MatrixRow:
        """The row of one parameter (schema name), or of :data:`TOOL_ROW`."""
        return by_key(self.rows, attrgetter("parameter"), parameter)

    @property
    def disagreements(self) -> tuple[tuple[str, str], ...]:
        """Every (parameter, attribute) on which the frameworks disagree."""
        return tuple((r.parameter, a) for r in self.rows for a in r.disagreements)

    def to_json(self) -> JsonObject:
        """JSON-ready form."""
        return {
            "columns": list(self.columns),
            "rows": [
                {
                    "parameter": row.parameter,
                    "disagreements": list(row.disagreements),
                    "cells": {key: _cell_dict(cell) for key, cell in row.cells},
                }
                for row in self.rows
            ],
        }

    to_dict = to_json  # the former name, kept for callers


def _cell_dict(cell: Cell) -> JsonObject:
    return {f.name: getattr(cell, f.name) for f in fields(cell)}


def _hashable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _hashable(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


def build_matrix(
    columns: Sequence[Column],
    description_sources: DescriptionSources,
    func: ToolFunction | None,
) -> Matrix:
    """Tabulate ``columns``.

    Args:
        columns: the schemas, in display order.
        description_sources: parameter schema name (or :data:`TOOL_ROW`) -> every
            ``(source, text)`` toollens knows for its description.
        func: the function, to recognise a description that is its whole docstring.
    """
    names = _parameter_names(columns)
    whole = _whole_docstring(func)
    rows = [_tool_row(columns, description_sources, whole)]
    for name in names:
        sources = tuple(description_sources(name))
        cells = tuple((c.key, _parameter_cell(c.parameters, name, sources)) for c in columns)
        rows.append(MatrixRow(name, cells, _disagreements(cells)))
    return Matrix(tuple(c.key for c in columns), tuple(rows))


def _parameter_names(columns: Sequence[Column]) -> list[str]:
    names: dict[str, None] = {}
    for column in columns:
        properties = _root(column.parameters).get("properties")
        if isinstance(properties, Mapping):
            names.update(dict.fromkeys(str(k) for k in properties))
    return list(names)


def _root(schema: JsonMapping) -> JsonMapping:
    return _resolve(schema, schema)


def _resolve(node: Any, root: JsonMapping) -> JsonMapping:
    """Follow local ``$ref`` chains; what cannot be resolved reads as an empty schema."""
    for _ in range(_MAX_REF_HOPS):
        if not isinstance(node, Mapping):
            return {}
        if "$ref" not in node:
            return node
        try:
            _, target = resolve_local(root, node["$ref"])
        except UnresolvedRef:
            return {}
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **siblings} if isinstance(target, Mapping) else target
    return {}


def _normal(text: Any) -> str | None:
    return " ".join(text.split()) if isinstance(text, str) and text.strip() else None


def _whole_docstring(func: ToolFunction | None) -> str | None:
    if func is None:
        return None
    try:
        return _normal(inspect.getdoc(func))
    except Exception:  # an object whose __doc__ raises has no docstring to match
        return None


def _description_source(
    text: Any, sources: Iterable[tuple[str, str]], whole: str | None = None
) -> str:
    sent = _normal(text)
    if sent is None:
        return NO_DESCRIPTION
    for source, candidate in sources:
        if _normal(candidate) == sent:
            return source
    if whole is not None and sent == whole:
        return WHOLE_DOCSTRING
    return OTHER_TEXT


def _tool_row(
    columns: Sequence[Column],
    description_sources: DescriptionSources,
    whole: str | None,
) -> MatrixRow:
    sources = tuple(description_sources(TOOL_ROW))
    cells = tuple(
        (
            c.key,
            Cell(
                present=True,
                description=_description_source(c.description, sources, whole),
                description_text=c.description,
                type=type_label(_root(c.parameters), c.parameters),
                closed=_closed(_root(c.parameters), c.parameters),
            ),
        )
        for c in columns
    )
    return MatrixRow(TOOL_ROW, cells, _disagreements(cells))


def _parameter_cell(schema: JsonMapping, name: str, sources: tuple[tuple[str, str], ...]) -> Cell:
    root = _root(schema)
    properties = root.get("properties")
    if not isinstance(properties, Mapping) or name not in properties:
        return Cell(present=False)
    node = properties[name]
    resolved = _resolve(node, schema)
    default_node = node if isinstance(node, Mapping) and "default" in node else resolved
    required = root.get("required")
    return Cell(
        present=True,
        description=_description_source(resolved.get("description"), sources),
        description_text=resolved.get("description"),
        required=isinstance(required, list) and name in required,
        type=type_label(resolved, schema),
        default=default_node.get("default"),
        default_sent="default" in default_node,
        closed=_closed(resolved, schema),
    )


def _closed(node: JsonMapping, root: JsonMapping) -> bool | None:
    """Whether an object (or the object branch of a union) forbids extra properties."""
    if is_object_node(node):
        return node.get("additionalProperties") is False
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list):
            for branch in branches:
                resolved = _resolve(branch, root)
                if is_object_node(resolved):
                    return resolved.get("additionalProperties") is False
    return None


def type_label(node: JsonMapping, root: JsonMapping, depth: int = 0) -> str:
    """A short, framework-neutral label: ``string | null``, ``array[integer]``, ``string enum``."""
    if depth > 8:
        return "…"
    for key in ("anyOf", "oneOf"):
        branches = node.get(key)
        if isinstance(branches, list) and branches:
            labels = [type_label(_resolve(b, root), root, depth + 1) for b in branches]
            return " | ".join(dict.fromkeys(labels))
    all_of = node.get("allOf")
    if isinstance(all_of, list) and len(all_of) == 1:
        return type_label(_resolve(all_of[0], root), root, depth + 1)
    label = _plain_type(node, root, depth)
    if node.get("nullable") is True and "null" not in label:
        label += " | null"
    return label


def _plain_type(node: JsonMapping, root: JsonMapping, depth: int) -> str:
    kind = node.get("type")
    kinds = [str(k).lower() for k in kind] if isinstance(kind, list) else []
    if isinstance(kind, str):
        kinds = [kind.lower()]
    if "const" in node:
        return "const"
    if "enum" in node:
        return " | ".join(kinds) + " enum" if kinds else "enum"
    if kinds == ["array"]:
        items = node.get("items")
        inner = type_label(_resolve(items, root), root, depth + 1) if items else "any"
        return f"array[{inner}]"
    return " | ".join(kinds) if kinds else "any"


def _disagreements(cells: tuple[tuple[str, Cell], ...]) -> tuple[str, ...]:
    present = [cell for _, cell in cells if cell.present]
    found = []
    for attribute in ATTRIBUTES:
        pool = [cell for _, cell in cells] if attribute == "present" else present
        if len({cell.value(attribute) for cell in pool}) > 1:
            found.append(attribute)
    return tuple(found)
