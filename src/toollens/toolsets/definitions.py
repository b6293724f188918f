"""Tools given by definition: a name, a description and an input JSON Schema.

The shape every non-Python source reduces to (a provider payload, an MCP ``tools/list``
result, a framework's tool record). Keys are read in snake_case or camelCase.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toollens.core.errors import TargetError
from toollens.core.schema.types import JsonMapping
from toollens.mcp.records import title_and_annotations
from toollens.toolsets.entries import OriginKind, Tool, ToolOrigin

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions

__all__ = ["Definition", "definition_entry"]


@dataclass(frozen=True)
class Definition:
    """A tool given by its definition only (what ``Toolset.from_definitions`` takes)."""

    name: str
    description: str | None
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any] | None = None
    title: str | None = None
    annotations: Mapping[str, Any] | None = None


_INPUT_KEYS = ("input_schema", "inputSchema", "parameters")
_OUTPUT_KEYS = ("output_schema", "outputSchema")


def definition_entry(
    item: Definition | JsonMapping,
    index: int,
    *,
    label: str,
    kind: OriginKind | str = "json",
    options: ReportOptions | None = None,
) -> Tool:
    """The entry of one definition; a malformed one is an entry with its error."""

    origin = ToolOrigin(kind=_kind(kind), label=label, index=index)
    if isinstance(item, Definition):
        return Tool.from_definition(
            item.name,
            item.description,
            item.input_schema,
            item.output_schema,
            origin=origin,
            options=options,
            title=item.title,
            annotations=item.annotations,
        )
    if not isinstance(item, Mapping):
        return Tool.failed(f"#{index}", origin, f"tool {index} is not an object")
    name = item.get("name")
    if not isinstance(name, str) or not name:
        return Tool.failed(f"#{index}", origin, f"tool {index} has no string 'name'")
    schema = _first(item, _INPUT_KEYS, {"type": "object", "properties": {}})
    if not isinstance(schema, Mapping):
        return Tool.failed(name, origin, f"the input schema of {name!r} is not an object")
    output = _first(item, _OUTPUT_KEYS, None)
    description = item.get("description")
    title, annotations = title_and_annotations(item)  # an MCP tool object's, when it has them
    return Tool.from_definition(
        name,
        description if isinstance(description, str) else None,
        schema,
        output if isinstance(output, Mapping) else None,
        origin=origin,
        options=options,
        title=title,
        annotations=annotations,
    )


def _first(item: Mapping[str, Any], keys: tuple[str, ...], default: Any) -> Any:
    return next((item[k] for k in keys if k in item), default)


def _kind(kind: str) -> OriginKind:
    from typing import get_args

    known: tuple[str, ...] = get_args(OriginKind)
    if kind not in known:
        raise TargetError(f"origin kind {kind!r} is not one of {', '.join(known)}")
    return kind  # type: ignore[return-value]
