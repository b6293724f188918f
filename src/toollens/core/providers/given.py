"""A tool payload as the user wrote it: read once, the same way for one tool and for a list.

``toollens check tool.json`` (one tool) and ``toollens check tools.json`` (the same tool in
a ``tools`` list) must say the same about it. Both read the payload here:
:func:`given_payload` finds its provider by its shape, its name, description and schema,
the strictness it says it is sent with, the fields it carries beside the schema
(``input_examples``, ``defer_loading``, ``allowed_callers``...) and what its provider does
with those fields (:func:`toollens.core.providers.payload_fields.check_payload`).

A report of such a payload (:func:`toollens.core.report.report`) keeps the
:class:`GivenPayload`; when the report is for the payload's own provider, the payload's
findings are provider findings of the tool, and the payload shown carries its own fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.core.choices import ProviderId
from toollens.core.errors import ToolLensError
from toollens.core.providers.api import check_provider, unwrap_payload
from toollens.core.providers.base import UnwrappedTool
from toollens.core.providers.payload_fields import check_layout, check_payload
from toollens.core.records import Finding
from toollens.core.schema.types import JsonObject, JsonSchema
from toollens.core.schema_fixes import for_schema_only
from toollens.core.strict import explain_strict

if TYPE_CHECKING:
    from toollens.core.options import ReportOptions

__all__ = ["GivenPayload", "given_payload", "is_mcp_tool_object", "named_by"]

# The fields a provider payload builder writes itself (name, description, schema, strict,
# the tool's type): every other field of the payload as written travels with it.
_BUILT = frozenset({"name", "description", "strict", "type", "function"})


@dataclass(frozen=True)
class GivenPayload:
    """One provider tool payload as written.

    Attributes:
        provider: the provider whose payload shape it has.
        payload: the payload exactly as written.
        name: its ``name`` when that is a string.
        description: its ``description`` when that is a string.
        schema: its parameters schema (a tool without one takes no arguments).
        strict: the ``strict`` it gives (``None``: not given).
        sent_strict: whether the provider sends it strict: ``strict`` when given, else the
            provider's default (Responses: strict when the schema can be; the others:
            non-strict, Gemini having no flag at all).
        own_fields: the fields beside name, description, schema and strictness
            (``input_examples``, ``defer_loading``, ...), as written.
        findings: what the provider does with those fields, pointers into ``payload``.
    """

    provider: ProviderId
    payload: JsonObject
    name: str | None
    description: str | None
    schema: JsonSchema
    strict: bool | None
    sent_strict: bool
    own_fields: JsonObject
    findings: tuple[Finding, ...] = ()

    @property
    def as_written(self) -> bool:
        """Whether its own provider receives the schema exactly as written: always, except a
        Responses function without ``strict`` that the API itself makes strict (then the
        schema it uses is the strict conversion, see ``openai.responses-strict-default``)."""
        api_converts = self.provider == "openai-responses" and self.strict is None
        return not (api_converts and self.sent_strict)

    def judged_as_written(self, provider: str) -> bool:
        """Whether a report for ``provider`` judges the schema as written, not toollens'
        strict conversion of it (which is then only shown, as a suggestion)."""
        return provider == self.provider and self.as_written

    def judge(self, schema: JsonSchema, name: str) -> tuple[Finding, ...]:
        """Its own provider's findings on ``schema`` (this payload's, normalised) judged as
        written: at the strictness the payload is sent with, untranslated, each finding
        with the schema's own fix; then the findings on its fields."""
        found = check_provider(schema, self.provider, name=name, strict=self.sent_strict)
        return (*for_schema_only(tuple(found)), *self.findings)

    def findings_for(self, provider: str) -> tuple[Finding, ...]:
        """The payload's findings when judged for ``provider``: its own provider's (the
        fields are that provider's; another provider is sent toollens' own payload), and,
        for another provider, what that provider says of this payload's layout (a Chat
        Completions tool sent to the Responses API)."""
        if provider == self.provider:
            return self.findings

        found = unwrap_payload(self.payload)
        return () if found is None else check_layout(found, provider)

    def report_options(self, options: ReportOptions) -> ReportOptions:
        """``options`` for a report of this payload: it names the tool and describes it (an
        option given by name wins), and is judged as strict as its provider sends it,
        whatever the strictness asked for Python tools."""
        return dataclasses.replace(
            options,
            name=options.name or self.name,
            description=options.description or self.description,
            strict=self.sent_strict,
        )

    def with_own_fields(self, built: JsonObject | None, provider: str) -> JsonObject | None:
        """The payload toollens built for ``provider``, with the fields this payload carries
        beside its schema when it is that provider's payload (what the request sends)."""
        if built is None or provider != self.provider or not self.own_fields:
            return built
        inner = built.get("function")
        if isinstance(inner, dict):  # Chat Completions: the fields sit in "function"
            return {**built, "function": {**inner, **self.own_fields}}
        return {**built, **self.own_fields}


def given_payload(data: object) -> GivenPayload | None:
    """The provider payload ``data`` is, read and judged; ``None`` when it is no provider's
    tool payload (a bare JSON Schema) or its schema is not an object."""
    if not isinstance(data, Mapping):
        return None
    found = unwrap_payload(data)
    if found is None or not isinstance(found.schema, Mapping):
        return None
    tool = found.tool
    name, description, strict = tool.get("name"), tool.get("description"), tool.get("strict")
    own = {k: v for k, v in tool.items() if k not in _BUILT and k != found.schema_key}
    given = strict if isinstance(strict, bool) else None
    return GivenPayload(
        provider=found.provider,
        payload=dict(data),
        name=name if isinstance(name, str) else None,
        description=description if isinstance(description, str) else None,
        schema=dict(found.schema),
        strict=given,
        sent_strict=given if given is not None else _default_strict(found),
        own_fields=own,
        findings=check_payload(found),
    )


def _default_strict(found: UnwrappedTool) -> bool:
    # Evidence: docs (OpenAI function-calling guide, 2026-04-01 change; payload_fields'
    # openai.responses-strict-default): a Responses function without strict is sent strict
    # when its schema can be. Anthropic and Chat Completions default to non-strict.
    if found.provider != "openai-responses":
        return False

    try:
        explain_strict(dict(found.schema) if isinstance(found.schema, Mapping) else {})
    except ToolLensError:
        return False
    return True


def is_mcp_tool_object(data: object) -> bool:
    """An MCP tool object (``{"name", "inputSchema", ...}``): read as the payload path reads
    one (``toollens.mcp.records.is_mcp_tool``, which core cannot import)."""
    return (
        isinstance(data, Mapping)
        and isinstance(data.get("name"), str)
        and isinstance(data.get("inputSchema"), Mapping)
    )


def named_by(tool: Mapping[str, object], options: ReportOptions) -> ReportOptions:
    """``options`` naming and describing the tool as it does (an option given wins)."""
    name, description = tool.get("name"), tool.get("description")
    return dataclasses.replace(
        options,
        name=options.name or (name if isinstance(name, str) else None),
        description=options.description or (description if isinstance(description, str) else None),
    )
