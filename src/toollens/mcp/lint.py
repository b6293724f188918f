"""The lint rules that read only a schema, applied to a tool a server sent.

toollens' lint rules read a ``FunctionSchema``; most need the Python function (its docstring,
annotations and defaults), which a server in another process or language does not give us.
The ones below look only at the tool's name, description, parameter descriptions and schema,
so they are run as they are, on a small view of the MCP tool with the same attribute names.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast

from toollens.core.lint import LINT_RULES_BY_ID, LintRuleId
from toollens.core.records import Finding
from toollens.core.schema.types import JsonSchema
from toollens.mcp.records import McpTool

__all__ = ["SCHEMA_RULES", "definition_lint", "schema_lint"]

SCHEMA_RULES = (
    LintRuleId.MISSING_TOOL_DESCRIPTION,
    LintRuleId.VAGUE_TOOL_DESCRIPTION,
    LintRuleId.MISSING_PARAMETER_DESCRIPTION,
    LintRuleId.VAGUE_PARAMETER_DESCRIPTION,
    LintRuleId.OPEN_NESTED_OBJECT,
)
"""Rules that need nothing but the tool as sent (the others read Python source)."""

# Where the rule's own fix speaks of docstrings and Annotated, say it for a server in any language.
_FIXES = {
    LintRuleId.MISSING_TOOL_DESCRIPTION: "give the tool a description saying what it does "
    "and when to use it",
    LintRuleId.MISSING_PARAMETER_DESCRIPTION: "add a description to the property in the "
    "tool's inputSchema",
    LintRuleId.OPEN_NESTED_OBJECT: "set additionalProperties: false on the object in the "
    "tool's inputSchema, or use strict mode",
}


@dataclass(frozen=True)
class _Parameter:
    name: str
    schema_name: str
    description: str | None


@dataclass(frozen=True)
class _SchemaTool:
    """The attributes the rules above read from a FunctionSchema, taken from an MCP tool."""

    name: str
    description: str | None
    json_schema: dict[str, Any]
    strict: bool
    schema_parameters: tuple[_Parameter, ...]


def schema_lint(tool: McpTool, *, strict: bool) -> tuple[Finding, ...]:
    """The schema-only lint findings of ``tool`` (``strict``: judged as OpenAI strict mode)."""
    return definition_lint(tool.name, tool.description, tool.input_schema, strict=strict)


def definition_lint(
    name: str, description: str | None, input_schema: JsonSchema, *, strict: bool
) -> tuple[Finding, ...]:
    """The schema-only lint findings of any tool known by its definition (a server's, a
    payload's, a JSON Schema shown in the explorer)."""
    properties = input_schema.get("properties")
    params = []
    if isinstance(properties, dict):
        for key, sub in properties.items():
            text = sub.get("description") if isinstance(sub, dict) else None
            params.append(_Parameter(key, key, text if isinstance(text, str) else None))
    view = _SchemaTool(name, description, input_schema, strict, tuple(params))
    return tuple(_iter_findings(view))


def _iter_findings(view: _SchemaTool) -> Iterator[Finding]:
    for rule_id in SCHEMA_RULES:
        rule = LINT_RULES_BY_ID[rule_id]
        for hit in rule.check(cast(Any, view)):  # duck-typed: see the module docstring
            yield Finding(
                rule=rule.id,
                severity=rule.severity,
                pointer=hit.pointer,
                message=rule.message.format(**hit.fields),
                fix=_FIXES.get(rule_id, rule.fix).format(**hit.fields),
                parameter=hit.parameter,
            )
