"""Judge a server's tools with toollens' own engine, each schema exactly as the server sent it.

A tool's ``inputSchema`` goes through :func:`toollens.core.report.report` like a JSON Schema
target, named and described as the server named and described it: strict conversion, every
provider's payload, findings and verdict. The schema-only lint rules are added
(:mod:`toollens.mcp.lint`). The ``outputSchema`` is not something a model is sent; it is shown
and locked as written.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toollens.core.choices import provider_id
from toollens.core.schema.types import JsonObject, JsonSchema
from toollens.mcp.lint import schema_lint
from toollens.mcp.records import McpTool

if TYPE_CHECKING:
    from toollens.core.report import Report, ReportOptions

__all__ = ["declared_output", "output_entry", "tool_report", "tool_reports"]


def tool_report(tool: McpTool, options: ReportOptions) -> Report:
    """Every view of one tool's ``inputSchema`` for ``options.provider``.

    Raises:
        SchemaConstructionError: the ``inputSchema`` is not a JSON Schema at all.
    """
    from toollens.core.report import report

    named = dataclasses.replace(
        options,
        name=options.name or tool.name,
        description=options.description or tool.description,
    )
    rep = report(tool.input_schema, named)
    return dataclasses.replace(rep, lint=schema_lint(tool, strict=options.strict))


def tool_reports(
    tool: McpTool, options: ReportOptions, providers: Sequence[str]
) -> tuple[Report, ...]:
    """One report per provider, in the order given."""
    return tuple(
        tool_report(tool, dataclasses.replace(options, provider=provider_id(p))) for p in providers
    )


def output_entry(tool: McpTool) -> JsonObject | None:
    """The lock's ``output`` for a tool: its ``outputSchema`` as sent, or ``None``."""
    if tool.output_schema is None:
        return None
    return declared_output(tool.name, tool.output_schema)


def declared_output(name: str, schema: JsonSchema) -> JsonObject:
    """The lock's ``output`` for an output schema a tool declares itself (an MCP
    ``outputSchema``): recorded as sent, never converted."""
    title = schema.get("title")
    return {
        "kind": "direct",
        "name": title if isinstance(title, str) else f"{name} output",
        "schema": schema,
        "strict": False,
    }
