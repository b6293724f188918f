"""Cross-tool rules: problems no single tool has, only a set of tools given together.

Rules are data, like the provider rules (:mod:`toollens.core.providers.rules`): each
:class:`ToolsetRule` has a stable id (``toolset.<name>``), a severity, a message template,
a fix, the source it comes from, and a small check yielding :class:`ToolsetHit` records
that name the tools concerned. :func:`iter_toolset_findings` turns hits into
:class:`ToolsetFinding` records (a :class:`~toollens.core.records.Finding` plus the tools).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from toollens.core.providers.gemini import GENAI_VALIDATED
from toollens.core.providers.payload_fields import PAYLOAD_RULE_PROVIDERS
from toollens.core.providers.requests import (
    ANTHROPIC_MAX_OPTIONAL,
    ANTHROPIC_MAX_STRICT_TOOLS,
    ANTHROPIC_MAX_UNIONS,
    ANTHROPIC_REQUEST_LIMITS,
    OPENAI_MAX_TOOLS,
    OPENAI_TOOL_COUNT,
    anthropic_strict_budget,
    over_budget,
)
from toollens.core.records import SEVERITY_ORDER, Citation, Finding, Origin, Severity
from toollens.core.schema.pointer import UnresolvedRef, ref_name, resolve_local
from toollens.toolsets.entries import Tool
from toollens.toolsets.similarity import similar_pairs

__all__ = [
    "RULE_PROVIDERS",
    "TOOLSET_RULES",
    "ToolsetFinding",
    "ToolsetHit",
    "ToolsetRule",
    "concerns_provider",
    "finding_providers",
    "iter_toolset_findings",
    "mcp_spec_findings",
    "speaks_for_providers",
]

# -- sources -----------------------------------------------------------------------------

UNIQUE_NAMES = Citation(
    "pydantic-ai 2.68 CombinedToolset and OpenAI Agents 0.24 MCPUtil refuse two tools of one "
    "name (the model calls tools by name)",
    "https://ai.pydantic.dev/toolsets/",
    "2026-11-29",
    evidence="code",
)
AGENTS_SANITISE = Citation(
    "OpenAI Agents 0.24 util._transforms.transform_string_function_style (handoff and "
    "agent-as-tool names)",
    "https://openai.github.io/openai-agents-python/handoffs/",
    "2026-11-29",
    evidence="code",
)
SELECTION = Citation(
    "OpenAI function-calling guide, best practices: make tools obviously distinct",
    "https://platform.openai.com/docs/guides/function-calling#best-practices-for-defining-functions",
    "2026-11-29",
)


@dataclass(frozen=True)
class ToolsetHit:
    """One place a cross-tool rule matched: the tools concerned and the template's values."""

    tools: tuple[str, ...]
    fields: Mapping[str, Any] = field(default_factory=dict)
    parameter: str | None = None


@dataclass(frozen=True)
class ToolsetFinding:
    """A cross-tool finding and the names of the tools it concerns, in toolset order."""

    finding: Finding
    tools: tuple[str, ...]


def grouped_findings(items: Sequence[ToolsetFinding]) -> list[ToolsetFinding]:
    """``items`` most severe first, the same finding on several tools once (a server's 13
    tools that each declare draft-07 are one finding naming them), its tools in order: how
    every rendering lists a toolset's cross-tool findings (the data keeps one per tool)."""
    groups: dict[tuple[object, ...], tuple[Finding, list[str]]] = {}
    for item in sorted(items, key=lambda i: SEVERITY_ORDER.index(Severity(i.finding.severity))):
        f = item.finding
        key = (f.rule, f.severity, f.pointer, f.message, f.fix)
        tools = groups.setdefault(key, (f, []))[1]
        tools.extend(t for t in item.tools if t not in tools)
    return [ToolsetFinding(finding, tuple(tools)) for finding, tools in groups.values()]


def some_names(names: Sequence[str], shown: int = 8) -> str:
    """``names`` joined; of a longer list the first ``shown`` and how many more."""
    if len(names) <= shown:
        return ", ".join(names)
    return f"{', '.join(names[:shown])} and {len(names) - shown} more"


Check = Callable[[Sequence[Tool]], Iterator[ToolsetHit]]


@dataclass(frozen=True)
class ToolsetRule:
    """One cross-tool rule (fields as :class:`~toollens.core.providers.rules.ProviderRule`);
    ``providers``: the providers whose limit it is (a table cell per provider shows it
    there), none for a rule about every request. ``strict_only``: it counts only the tools
    sent strict, so it concerns no path on which they reach its providers non-strict."""

    id: str
    severity: Severity
    summary: str
    message: str
    fix: str
    cite: Citation
    check: Check
    providers: tuple[str, ...] = ()
    strict_only: bool = False


# -- checks ------------------------------------------------------------------------------


def duplicate_names(entries: Sequence[Tool]) -> Iterator[ToolsetHit]:
    by_name: dict[str, list[Tool]] = {}
    for entry in entries:
        by_name.setdefault(entry.name, []).append(entry)
    for name, group in by_name.items():
        if len(group) > 1:
            where = ", ".join(str(e.origin) for e in group)
            yield ToolsetHit((name,), {"name": name, "count": len(group), "where": where})


def agents_sanitised(name: str) -> str | None:
    """The name the OpenAI Agents SDK turns ``name`` into; ``None`` when it is not installed."""
    try:
        from agents.util._transforms import transform_string_function_style
    except ImportError:
        return None
    # The SDK logs a warning for each name it changes; toollens reports it as a finding.
    quiet = logging.getLogger("openai.agents")
    before = quiet.disabled
    quiet.disabled = True
    try:
        return str(transform_string_function_style(name, warn_on_whitespace=False))
    finally:
        quiet.disabled = before


# Names the SDK leaves as they are (lower-case letters, digits, '_'); when every name is one,
# no two distinct names can collide and the SDK (seconds to import) is not needed.
_SANITISED = re.compile(r"[a-z0-9_]*")


def sanitised_collisions(entries: Sequence[Tool]) -> Iterator[ToolsetHit]:
    names = list(dict.fromkeys(e.name for e in entries))  # exact duplicates are another rule
    if all(_SANITISED.fullmatch(name) for name in names):
        return
    groups: dict[str, list[str]] = {}
    for name in names:
        cleaned = agents_sanitised(name)
        if cleaned is None:
            return
        groups.setdefault(cleaned, []).append(name)
    for cleaned, names in groups.items():
        if len(names) > 1:
            shown = ", ".join(repr(n) for n in names)
            yield ToolsetHit(tuple(names), {"names": shown, "sanitised": cleaned})


def too_many(limit: int) -> Check:
    def check(entries: Sequence[Tool]) -> Iterator[ToolsetHit]:
        if len(entries) > limit:
            yield ToolsetHit((), {"count": len(entries), "limit": limit})

    return check


def _strict_tools(entries: Sequence[Tool]) -> list[tuple[str, object, bool]]:
    """``(name, schema sent, strict)`` of each entry that says how it is sent."""
    out: list[tuple[str, object, bool]] = []
    for entry in entries:
        if entry.strict is None:
            continue  # strictness unknown: not counted
        schema = entry.sent_schema if entry.sent_schema is not None else entry.parameters_schema
        out.append((entry.name, schema, entry.strict))
    return out


def _shown(tools: Sequence[str]) -> str:
    return some_names([repr(t) for t in tools], 5)


def anthropic_strict_limit(measure: str, limit: int) -> Check:
    """Anthropic's per-request total of strict tools (``tools``), optional parameters
    (``optional``) or union-typed parameters (``unions``) past ``limit``."""

    def check(entries: Sequence[Tool]) -> Iterator[ToolsetHit]:
        shares = anthropic_strict_budget(_strict_tools(entries))
        amounts = [(s.name, 1 if measure == "tools" else getattr(s, measure)) for s in shares]
        overrun = over_budget(amounts, limit)
        if overrun is not None:
            fields = {"count": overrun.total, "limit": limit, "tools": _shown(overrun.tools)}
            yield ToolsetHit(overrun.tools, fields)

    return check


def gemini_mixed_strictness(entries: Sequence[Tool]) -> Iterator[ToolsetHit]:
    sent = [(e.name, e.strict) for e in entries if e.strict is not None]
    strict = [name for name, flag in sent if flag]
    lax = [name for name, flag in sent if not flag]
    if strict and lax:
        yield ToolsetHit(tuple(lax), {"strict": _shown(strict), "lax": _shown(lax)})


def near_duplicate_descriptions(entries: Sequence[Tool]) -> Iterator[ToolsetHit]:
    described = [(e.name, e.description) for e in entries if e.description]
    texts = [text for _, text in described if text is not None]
    for first, second, ratio in similar_pairs(texts):
        a, b = described[first][0], described[second][0]
        if a != b:
            yield ToolsetHit((a, b), {"a": a, "b": b, "percent": round(ratio * 100)})


def conflicting_parameter_types(entries: Sequence[Tool]) -> Iterator[ToolsetHit]:
    types: dict[str, dict[str, list[str]]] = {}  # parameter -> type -> tools
    for entry in entries:
        for parameter, kind in _parameter_types(entry.parameters_schema):
            types.setdefault(parameter, {}).setdefault(kind, []).append(entry.name)
    for parameter, by_type in types.items():
        if len(by_type) > 1:
            shown = "; ".join(f"{kind} in {', '.join(tools)}" for kind, tools in by_type.items())
            tools = tuple(dict.fromkeys(t for group in by_type.values() for t in group))
            yield ToolsetHit(tools, {"parameter": parameter, "types": shown}, parameter)


def _parameter_types(schema: Mapping[str, Any] | None) -> Iterator[tuple[str, str]]:
    if not isinstance(schema, Mapping):
        return
    properties = schema.get("properties")
    if not isinstance(properties, Mapping):
        return
    for name, sub in properties.items():
        kind = _type_of(sub, schema)
        if kind is not None:
            yield str(name), kind


def _type_of(sub: Any, root: Mapping[str, Any], depth: int = 0) -> str | None:
    """A short type name for a property schema; ``None`` when it says nothing about type."""
    if not isinstance(sub, Mapping) or depth > 8:
        return None
    kind = sub.get("type")
    if isinstance(kind, str):
        return kind
    if isinstance(kind, list):
        return " | ".join(sorted(str(k) for k in kind))
    branches = sub.get("anyOf", sub.get("oneOf"))
    if isinstance(branches, list):
        kinds = [_type_of(b, root, depth + 1) for b in branches]
        if all(k is not None for k in kinds):
            return " | ".join(sorted({k for k in kinds if k is not None}))
        return None
    ref = sub.get("$ref")
    if isinstance(ref, str):
        try:
            _, target = resolve_local(root, ref)
        except UnresolvedRef:
            target = None
        return _type_of(target, root, depth + 1) or ref_name(ref)
    return None


# -- the table ---------------------------------------------------------------------------


def _anthropic_strict(
    rule_id: str, summary: str, said: str, fix: str, measure: str, limit: int
) -> ToolsetRule:
    """One of Anthropic's per-request limits on strict tools; ``said`` is the message up to
    the answer Anthropic gives past the limit."""
    message = f"{said} (400 'Schema is too complex for compilation'); past the limit from {{tools}}"
    check = anthropic_strict_limit(measure, limit)
    return ToolsetRule(
        rule_id, Severity.ERROR, summary, message, fix, ANTHROPIC_REQUEST_LIMITS, check,
        ("anthropic",), strict_only=True,
    )  # fmt: skip


E, W = Severity.ERROR, Severity.WARNING
_OPENAI, _GEMINI = ("openai-chat", "openai-responses"), ("gemini", "gemini-openapi")

# fmt: off
TOOLSET_RULES: tuple[ToolsetRule, ...] = (
    ToolsetRule("toolset.duplicate-name", E, "two tools share one name",
                "{count} tools are named {name!r} ({where})",
                "rename all but one; the model calls tools by name", UNIQUE_NAMES,
                duplicate_names),
    ToolsetRule("toolset.sanitised-name-collision", E,
                "names that become one after the OpenAI Agents SDK's sanitising",
                "tools {names} all become {sanitised!r} once the OpenAI Agents SDK replaces "
                "characters outside a-z A-Z 0-9 _ and lower-cases them",
                "rename them so they differ in letters, digits or '_'", AGENTS_SANITISE,
                sanitised_collisions),
    ToolsetRule("toolset.openai-too-many-tools", E, "more tools than OpenAI accepts",
                "{count} tools in one request; OpenAI accepts at most {limit}",
                "split the tools across agents, or load them on demand", OPENAI_TOOL_COUNT,
                too_many(OPENAI_MAX_TOOLS), _OPENAI),
    _anthropic_strict("toolset.anthropic-too-many-strict-tools",
                      "more than 20 strict tools in one Anthropic request",
                      "{count} strict tools in one request; Anthropic compiles at most {limit}",
                      "send the tools named non-strict, or split the request",
                      "tools", ANTHROPIC_MAX_STRICT_TOOLS),
    _anthropic_strict("toolset.anthropic-too-many-optional",
                      "more than 24 optional parameters across the strict tools of one request",
                      "the strict tools have {count} optional parameters in all; Anthropic "
                      "allows {limit} per request",
                      "make parameters required, or send the tools named non-strict",
                      "optional", ANTHROPIC_MAX_OPTIONAL),
    _anthropic_strict("toolset.anthropic-too-many-unions",
                      "more than 16 union-typed parameters across the strict tools of one request",
                      "the strict tools have {count} parameters with a union type (anyOf, or a "
                      "type list such as [\"string\", \"null\"]) in all; Anthropic allows "
                      "{limit} per request",
                      "give parameters one type, or send the tools named non-strict",
                      "unions", ANTHROPIC_MAX_UNIONS),
    ToolsetRule("toolset.gemini-validated-mixed", W,
                "strict and non-strict tools in one Gemini request",
                "Gemini's VALIDATED mode (its strict tools) is request-wide: the non-strict "
                "tools {lax} keep the whole request on AUTO, so the schemas of {strict} are "
                "not enforced either", "make every tool strict, or none", GENAI_VALIDATED,
                gemini_mixed_strictness, _GEMINI),
    ToolsetRule("toolset.near-duplicate-description", W,
                "two tools the model cannot tell apart by their descriptions",
                "the descriptions of {a!r} and {b!r} are {percent}% alike; the model picks "
                "between tools by their descriptions",
                "say in each description what sets the tool apart and when to use the other",
                SELECTION, near_duplicate_descriptions),
    ToolsetRule("toolset.parameter-type-conflict", W,
                "one parameter name with different types across tools",
                "parameter {parameter!r} has different types across tools: {types}",
                "use one type for one name, or rename the parameter where it means something else",
                SELECTION, conflicting_parameter_types),
)
# fmt: on


RULE_PROVIDERS: Mapping[str, tuple[str, ...]] = {
    r.id: r.providers for r in TOOLSET_RULES if r.providers
}
"""The providers each provider-specific cross-tool rule speaks for (from the rules)."""


def finding_providers(finding: Finding) -> tuple[str, ...]:
    """The providers a cross-tool finding (or a payload finding) speaks for; ``()`` for one
    about every request."""
    return RULE_PROVIDERS.get(finding.rule) or PAYLOAD_RULE_PROVIDERS.get(finding.rule, ())


STRICT_ONLY_RULES: frozenset[str] = frozenset(r.id for r in TOOLSET_RULES if r.strict_only)
"""The cross-tool rules that count only the tools sent strict (Anthropic's request limits)."""


def off_path(
    finding: Finding, concerned: Sequence[str], judged: Collection[str | None], why: str
) -> Finding:
    """``finding`` as the check shows it: an error that only the ``concerned`` providers
    raise, when none of them is ``judged`` (asked for, or sent to by a chosen client),
    becomes a warning that says ``why``. It does not fail the check, so it is not counted
    as an error either. A warning about those providers only says ``why`` too, so a reader
    of another provider's check knows it is not about theirs."""
    if not concerned or set(judged) & set(concerned) or finding.severity is Severity.INFO:
        return finding
    said = finding.message if finding.message.endswith(".") else finding.message + "."
    if finding.severity is not Severity.ERROR:
        return replace(finding, message=f"{said} {why}.")
    return replace(
        finding, severity=Severity.WARNING, message=f"{said} {why}, so it is a warning here."
    )


def speaks_for_providers(finding: Finding) -> bool:
    """Whether a cross-tool finding is about what some providers accept (not every one)."""
    return bool(finding_providers(finding))


def concerns_provider(finding: Finding, provider: str) -> bool:
    """Whether a cross-tool finding (or a payload finding) is about what ``provider``
    accepts."""
    return provider in finding_providers(finding)


def _check_table(rules: Sequence[ToolsetRule]) -> None:
    seen: set[str] = set()
    for item in rules:
        if item.id in seen or not item.id.startswith("toolset."):
            raise ValueError(f"toolset rule id {item.id!r} is duplicated or not 'toolset.*'")
        seen.add(item.id)


_check_table(TOOLSET_RULES)


def iter_toolset_findings(
    entries: Sequence[Tool], rules: Sequence[ToolsetRule] = TOOLSET_RULES
) -> Iterator[ToolsetFinding]:
    """Every cross-tool finding of ``entries``, rule by rule, in table order.

    Only the entries that were read take part: a tool that could not be read is not sent.
    """
    readable = [entry for entry in entries if entry.ok]
    for item in rules:
        for hit in item.check(readable):
            finding = Finding(
                rule=item.id,
                severity=item.severity,
                pointer=None,
                message=item.message.format(**hit.fields),
                fix=item.fix.format(**hit.fields),
                parameter=hit.parameter,
                cite=item.cite,
                origin=Origin.DOCUMENTED_RULE,
            )
            yield ToolsetFinding(finding, hit.tools)
    # What the MCP specification says of a saved tools/list's tools (judged as one list;
    # a provider payload's own fields are its report's provider findings instead).
    for entry in readable:
        for finding in entry.payload_findings:
            yield ToolsetFinding(finding, (entry.name,))


def mcp_spec_findings(
    entries: Sequence[Tool], protocol_version: str | None = None, *, judge: str | None = None
) -> tuple[ToolsetFinding, ...]:
    """What the MCP specification says about a server's tools (the entries of an ``mcp:``
    target, or a payload list of MCP tools), judged by the revision the server answered
    with (``protocol_version``), or by ``judge`` (``"mcp@2026-07-28"``) when given.

    Tools that could not be read take no part. The hook the MCP toolset reader calls; the
    findings join the toolset's cross-tool findings.
    """
    # lazy: the MCP spec's rules (~4 ms) load for MCP tools only
    from toollens.core.providers.mcp_spec import check_mcp_tools, parse_judge, revision_for

    revision = parse_judge(judge) if judge is not None else revision_for(protocol_version)
    tools = [
        {"name": e.name, "inputSchema": e.parameters_schema, "outputSchema": e.output_schema}
        for e in entries
        if e.ok
    ]
    return tuple(ToolsetFinding(f.finding, f.tools) for f in check_mcp_tools(tools, revision))
