"""Fixes for a tool that is only a schema: a JSON Schema, an MCP server's tool.

A rule's own fix may name a Python option (``optional_defaults='nullable'``); the author of a
schema-only tool has no such option, only the schema to edit. This table says the same fix
in the schema's terms, by rule id; a finding of such a tool takes it in place of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from toollens.core.records import Finding

__all__ = ["SCHEMA_ONLY_FIXES", "for_schema_only"]

_NULLABLE = (
    'drop the default, or make the property nullable (add "null" to its type) and say in '
    "its description that null means the default"
)

SCHEMA_ONLY_FIXES: Mapping[str, str] = MappingProxyType(
    {
        "openai.default": _NULLABLE,
        "lint.default-not-applied": _NULLABLE,
    }
)
"""Rule id -> the fix a schema-only tool's author can apply."""


def for_schema_only(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """``findings`` with each fix said in the schema's terms where the rule's names Python."""
    return tuple(
        dataclasses.replace(f, fix=SCHEMA_ONLY_FIXES[f.rule]) if f.rule in SCHEMA_ONLY_FIXES else f
        for f in findings
    )
