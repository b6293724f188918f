"""Judge a server's tools with toollens' own engine, each schema exactly as the server sent it.

A tool's ``inputSchema`` goes through :func:`toollens.core.report.report` like a JSON Schema
target, named and described as the server named and described it: strict conversion, every
provider's payload, findings and verdict. The schema-only lint rules are added
(:mod:`toollens.mcp.lint`). The ``outputSchema`` is not something a model is sent; it is shown
and locked as written.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from toollens.core.report import report
from toollens.core.schema.types import JsonObject, JsonSchema
from toollens.mcp.lint import schema_lint
from toollens.mcp.records import McpTool

if TYPE_CHECKING:
    from toollens.core.report import Report, ReportOptions

__all__ = ["declared_output", "tool_report"]


def tool_report(tool: McpTool, options: ReportOptions) -> Report:
    """Every view of one tool's ``inputSchema`` for ``options.provider``.

    Raises:
        SchemaConstructionError: the ``inputSchema`` is not a JSON Schema at all.
    """
    named = dataclasses.replace(
        options,
        name=options.name or tool.name,
        description=options.description or tool.description,
    )
    rep = report(tool.input_schema, named)
    return dataclasses.replace(rep, lint=schema_lint(tool, strict=options.strict))


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
