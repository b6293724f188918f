"""Provider tool payloads and provider compatibility checks, from one normalized schema.

Every adapter takes the schema and the strictness decision of a
:class:`~toollens.core.function_schema.FunctionSchema` (``fs.json_schema``, ``fs.strict``) and
never recomputes them. OpenAI and Anthropic receive that schema unchanged; Gemini receives
its deterministic translation into the OpenAPI 3.0 subset of its classic ``parameters``
field, with every rewrite recorded as a :class:`~toollens.core.records.Change`.

A non-strict tool stays non-strict everywhere: OpenAI payloads carry ``"strict": false``
explicitly, Anthropic payloads leave the flag out (its default), Gemini has no flag.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from toollens.core.errors import SchemaConstructionError
from toollens.core.function_schema import FunctionSchema
from toollens.core.provider_rules import (
    ANTHROPIC_STRICT,
    GEMINI_DECLARATIONS,
    OPENAI_STRICT,
    RULES_BY_ID,
    Hit,
    make_finding,
    run_rules,
)
from toollens.core.records import Change, Finding, join_pointer
from toollens.core.schema_walk import copy_json, iter_children, resolve_local, show, split_pointer

# --------------------------------------------------------------------------------------------
# Gemini translation

_GEMINI_DROPPED = ("$schema", "title", "default", "additionalProperties")
_MAX_TRANSLATE_DEPTH = 150  # stays far below Python's recursion limit
_MAX_TRANSLATE_NODES = 50_000  # shared definitions inlined many times can explode


class _GeminiTranslator:
    """Rewrites a JSON schema into Gemini's classic ``parameters`` subset."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.root = schema
        self.changes: list[Change] = []
        self.findings: list[Finding] = []
        self.kept_defs: dict[str, str] = {}  # pointer of a recursive target -> its ref
        self.nodes = 0
        self.stopped = False

    def change(self, pointer: str, rule: str, before: Any, after: Any, reason: str) -> None:
        self.changes.append(Change(pointer, rule, before, after, reason))

    def finding(self, rule_id: str, pointer: str | None, **fields: Any) -> None:
        finding = make_finding(RULES_BY_ID[rule_id], Hit(pointer, fields), _property_of)
        if finding not in self.findings:
            self.findings.append(finding)

    def run(self) -> dict[str, Any]:
        out = self.node(self.root, "", (), 0)
        if not isinstance(out, dict):  # pragma: no cover - the root is a dict by contract
            return {}
        # Recursive definitions stay as definitions so the kept refs still resolve.
        done: set[str] = set()
        while set(self.kept_defs) - done:
            pointer = min(set(self.kept_defs) - done)
            done.add(pointer)
            tokens = split_pointer(pointer)
            if len(tokens) != 2 or tokens[0] not in ("$defs", "definitions"):
                continue  # a ref into the middle of a definition: reported, left dangling
            _, target = resolve_local(self.root, "#" + pointer)
            out.setdefault(tokens[0], {})[tokens[1]] = self.node(target, pointer, (pointer,), 1)
        return out

    # One node: structural rewrites first (refs, null unions), then keyword by keyword.
    def node(self, value: Any, pointer: str, stack: tuple[str, ...], depth: int) -> Any:
        if not isinstance(value, dict):
            return copy_json(value) if depth < _MAX_TRANSLATE_DEPTH else None
        self.nodes += 1
        if depth >= _MAX_TRANSLATE_DEPTH or self.nodes > _MAX_TRANSLATE_NODES:
            why = (
                f"nesting deeper than {_MAX_TRANSLATE_DEPTH} levels"
                if depth >= _MAX_TRANSLATE_DEPTH
                else f"more than {_MAX_TRANSLATE_NODES} nodes after inlining"
            )
            self.finding("gemini.translation-limit", pointer, why=why)
            return {}
        node, stack = self.normalize(dict(value), pointer, stack)
        if "$ref" in node:  # a recursive reference: kept, reported
            return {k: copy_json(v) for k, v in node.items()}
        out: dict[str, Any] = {}
        for key, item in node.items():
            if key in _GEMINI_DROPPED or (key in ("$defs", "definitions") and not pointer):
                self.change(
                    join_pointer(pointer, key),
                    "gemini.drop-keyword",
                    item,
                    None,
                    f"Gemini's Schema has no '{key}' field",
                )
            elif key == "const":
                out["enum"] = [copy_json(item)]
                self.change(
                    join_pointer(pointer, "enum"),
                    "gemini.const-to-enum",
                    {"const": item},
                    {"enum": [item]},
                    "Gemini has no 'const'; a one-value enum means the same",
                )
            elif key == "oneOf" and isinstance(item, list):
                out["anyOf"] = self.children(item, join_pointer(pointer, "anyOf"), stack, depth)
                self.change(
                    join_pointer(pointer, "anyOf"),
                    "gemini.oneof-to-anyof",
                    "oneOf",
                    "anyOf",
                    "Gemini has no 'oneOf'; anyOf accepts the same values when branches do "
                    "not overlap",
                )
            elif key == "type" and isinstance(item, list):
                self.type_list(out, item, pointer)
            elif key in ("properties", "patternProperties") and isinstance(item, dict):
                out[key] = {
                    name: self.node(sub, join_pointer(pointer, key, name), stack, depth + 1)
                    for name, sub in item.items()
                }
            elif key in ("anyOf", "allOf", "prefixItems", "items") and isinstance(item, list):
                out[key] = self.children(item, join_pointer(pointer, key), stack, depth)
            elif key in ("items", "not", "contains", "propertyNames") and isinstance(item, dict):
                out[key] = self.node(item, join_pointer(pointer, key), stack, depth + 1)
            elif key == "nullable" and "nullable" in out:
                continue
            else:
                out[key] = copy_json(item)
        return out

    def children(
        self, items: list[Any], pointer: str, stack: tuple[str, ...], depth: int
    ) -> list[Any]:
        return [
            self.node(sub, join_pointer(pointer, index), stack, depth + 1)
            for index, sub in enumerate(items)
        ]

    def normalize(
        self, node: dict[str, Any], pointer: str, stack: tuple[str, ...]
    ) -> tuple[dict[str, Any], tuple[str, ...]]:
        """Inline refs, collapse null unions and one-branch allOf until nothing changes."""
        for _ in range(64):  # each pass removes one ref or one union level
            if "$ref" in node:
                ref = node["$ref"]
                target, resolved = resolve_local(self.root, ref)
                if target is None or not isinstance(resolved, dict):
                    return node, stack  # the unresolved-ref rule reports it
                if target in stack or target == "":
                    if target:
                        self.kept_defs.setdefault(target, ref)
                    self.finding(
                        "gemini.recursive-schema",
                        pointer,
                        ref=show(ref),
                        target=target or "the root",
                    )
                    return node, stack
                siblings = {k: v for k, v in node.items() if k != "$ref"}
                self.change(
                    pointer,
                    "gemini.inline-ref",
                    ref,
                    None,
                    "Gemini's parameters cannot refer to definitions; the definition is "
                    "inlined" + (" and its siblings kept over it" if siblings else ""),
                )
                node = {**resolved, **siblings}
                stack = (*stack, target)
                continue
            collapsed = self.collapse_null(node, pointer) or self.flatten_all_of(node, pointer)
            if collapsed is None:
                return node, stack
            node = collapsed
        return node, stack

    def collapse_null(self, node: dict[str, Any], pointer: str) -> dict[str, Any] | None:
        branches = node.get("anyOf")
        if not isinstance(branches, list):
            return None
        rest = [b for b in branches if not _is_null_schema(b)]
        if len(rest) == len(branches) or not rest:
            return None
        others = {k: v for k, v in node.items() if k != "anyOf"}
        if len(rest) == 1 and isinstance(rest[0], dict):
            merged = {**rest[0], **others, "nullable": True}
        else:
            merged = {"anyOf": rest, **others, "nullable": True}
        self.change(
            pointer,
            "gemini.null-union-to-nullable",
            {"anyOf": branches},
            {k: merged[k] for k in merged if k not in others or k == "nullable"},
            "Gemini has no null type; nullable: true says the same",
        )
        return merged

    def flatten_all_of(self, node: dict[str, Any], pointer: str) -> dict[str, Any] | None:
        branches = node.get("allOf")
        if not (
            isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict)
        ):
            return None
        others = {k: v for k, v in node.items() if k != "allOf"}
        self.change(
            pointer,
            "gemini.flatten-all-of",
            {"allOf": branches},
            branches[0],
            "Gemini has no allOf; a single branch is merged into its parent",
        )
        return {**branches[0], **others}

    def type_list(self, out: dict[str, Any], types: list[Any], pointer: str) -> None:
        rest = [t for t in types if t != "null"]
        nullable = len(rest) != len(types)
        after: dict[str, Any]
        if len(rest) == 1:
            after = {"type": rest[0]}
        elif rest:
            after = {"anyOf": [{"type": t} for t in rest]}
        else:
            after = {"type": "null"}  # nothing to translate to; the type rule reports it
        if nullable and rest:
            after["nullable"] = True
        out.update(after)
        self.change(
            join_pointer(pointer, "type"),
            "gemini.type-list",
            types,
            after,
            "Gemini wants one type per node; null becomes nullable: true",
        )


def _is_null_schema(branch: Any) -> bool:
    return isinstance(branch, dict) and branch.get("type") == "null" and "$ref" not in branch


def _property_of(pointer: str | None) -> str | None:
    if not pointer:
        return None
    tokens = split_pointer(pointer, 2)
    return tokens[1] if len(tokens) >= 2 and tokens[0] == "properties" else None


# --------------------------------------------------------------------------------------------
# Provider table


@dataclass(frozen=True)
class Translation:
    """A schema as one provider receives it."""

    schema: dict[str, Any]
    changes: tuple[Change, ...] = ()
    findings: tuple[Finding, ...] = ()


def _unchanged(schema: dict[str, Any], strict: bool) -> Translation:
    return Translation(copy_json(schema))


def _gemini(schema: dict[str, Any], strict: bool) -> Translation:
    translator = _GeminiTranslator(schema)
    out = translator.run()
    return Translation(out, tuple(translator.changes), tuple(translator.findings))


def _openai_chat(name: str, description: str | None, schema: Any, strict: bool) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description or "",
            "parameters": schema,
            "strict": strict,
        },
    }


def _openai_responses(
    name: str, description: str | None, schema: Any, strict: bool
) -> dict[str, Any]:
    # Same keys in the same order as the reference's Responses converter; the reference's
    # function tools carry "" when there is no description.
    return {
        "name": name,
        "parameters": schema,
        "strict": strict,
        "type": "function",
        "description": description or "",
    }


def _anthropic(name: str, description: str | None, schema: Any, strict: bool) -> dict[str, Any]:
    tool: dict[str, Any] = {"name": name}
    if description:  # the API wants a string or no key at all
        tool["description"] = description
    tool["input_schema"] = schema
    if strict:
        tool["strict"] = True
    return tool


def _gemini_declaration(
    name: str, description: str | None, schema: Any, strict: bool
) -> dict[str, Any]:
    declaration: dict[str, Any] = {"name": name}
    if description:
        declaration["description"] = description
    declaration["parameters"] = schema
    return declaration


@dataclass(frozen=True)
class ProviderSpec:
    """How one provider receives a tool.

    Attributes:
        name: the provider name used in the API (``"openai-chat"``...).
        families: the rule families checked for it (``"schema"`` plus the provider's own).
        translate: the normalized schema -> the schema the provider receives.
        build: ``(name, description, schema, strict)`` -> the tool payload.
        docs: the provider's function-calling documentation.
    """

    name: str
    families: tuple[str, ...]
    translate: Callable[[dict[str, Any], bool], Translation]
    build: Callable[[str, str | None, Any, bool], dict[str, Any]]
    docs: str


def _table(*specs: ProviderSpec) -> dict[str, ProviderSpec]:
    table: dict[str, ProviderSpec] = {}
    for spec in specs:
        if spec.name in table:
            raise ValueError(f"duplicate provider {spec.name!r}")
        known = {rule.family for rule in RULES_BY_ID.values()}
        if not set(spec.families) <= known:
            raise ValueError(f"provider {spec.name!r} names an unknown rule family")
        table[spec.name] = spec
    return table


PROVIDERS: dict[str, ProviderSpec] = _table(
    ProviderSpec("openai-chat", ("schema", "openai"), _unchanged, _openai_chat, OPENAI_STRICT),
    ProviderSpec(
        "openai-responses", ("schema", "openai"), _unchanged, _openai_responses, OPENAI_STRICT
    ),
    ProviderSpec("anthropic", ("schema", "anthropic"), _unchanged, _anthropic, ANTHROPIC_STRICT),
    ProviderSpec("gemini", ("schema", "gemini"), _gemini, _gemini_declaration, GEMINI_DECLARATIONS),
)


def provider_spec(provider: str) -> ProviderSpec:
    """The table entry for ``provider``; an unknown name lists the valid ones."""
    try:
        return PROVIDERS[provider]
    except (KeyError, TypeError):
        names = ", ".join(repr(n) for n in PROVIDERS)
        raise SchemaConstructionError(
            f"unknown provider {provider!r}", hint=f"use one of {names}"
        ) from None


# --------------------------------------------------------------------------------------------
# Public API


@dataclass(frozen=True)
class ProviderPayload:
    """One tool as one provider receives it.

    Attributes:
        provider: the provider name.
        payload: the tool dict sent in the request.
        schema: the parameters schema inside ``payload``.
        strict: the strictness decision carried (unchanged from the FunctionSchema).
        changes: rewrites made for this provider (Gemini only; empty otherwise).
        findings: problems found while translating (e.g. recursion Gemini cannot inline).
    """

    provider: str
    payload: dict[str, Any]
    schema: dict[str, Any]
    strict: bool
    changes: tuple[Change, ...] = field(default=())
    findings: tuple[Finding, ...] = field(default=())


def translate_for(
    provider: str, schema: dict[str, Any], strict: bool
) -> tuple[dict[str, Any], list[Change]]:
    """The schema ``provider`` receives for ``schema``, and every rewrite made on the way.

    Never mutates ``schema``; the result is a fresh dict.
    """
    spec = provider_spec(provider)
    translation = spec.translate(_require_dict(schema), strict)
    return translation.schema, list(translation.changes)


def provider_payload(
    target: FunctionSchema | dict[str, Any],
    provider: str,
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool | None = None,
) -> ProviderPayload:
    """Build ``provider``'s tool payload for a FunctionSchema or a plain JSON schema.

    Args:
        target: a FunctionSchema (its name, description, schema and strictness are used)
            or a parameters JSON schema.
        provider: one of :data:`PROVIDERS`.
        name: the tool name; required for a plain schema, overrides ``fs.name`` otherwise.
        description: the tool description for a plain schema (overrides ``fs.description``).
        strict: strictness for a plain schema (default ``True``); for a FunctionSchema it
            must agree with ``fs.strict`` or be left out, because strictness is decided once.
    """
    spec = provider_spec(provider)
    tool_name, tool_description, schema, is_strict = _unpack(target, name, description, strict)
    translation = spec.translate(schema, is_strict)
    payload = spec.build(tool_name, tool_description, translation.schema, is_strict)
    return ProviderPayload(
        provider=spec.name,
        payload=payload,
        schema=translation.schema,
        strict=is_strict,
        changes=translation.changes,
        findings=translation.findings,
    )


def provider_tool(
    fs: FunctionSchema | dict[str, Any], provider: str, **options: Any
) -> dict[str, Any]:
    """The tool dict ``provider`` receives for ``fs`` (see :func:`provider_payload`)."""
    return provider_payload(fs, provider, **options).payload


def iter_provider_findings(
    target: FunctionSchema | dict[str, Any],
    provider: str,
    *,
    name: str | None = None,
    strict: bool | None = None,
) -> Iterator[Finding]:
    """Yield every rule of ``provider``'s documented subset that the schema breaks.

    A FunctionSchema is checked as the provider receives it: Gemini gets the translated
    schema (translation findings first), the others ``fs.json_schema``. A plain schema is
    checked as given, strict unless ``strict=False``. Never raises on odd schemas.
    """
    spec = provider_spec(provider)
    if isinstance(target, FunctionSchema):
        payload = provider_payload(target, provider, name=name, strict=strict)
        schema, findings, is_strict = payload.schema, payload.findings, payload.strict
        tool_name: str | None = name or target.name
        param_of = _parameter_mapper(target)
    else:
        schema, findings, is_strict = target, (), True if strict is None else strict
        tool_name, param_of = name, _property_of
    findings = tuple(replace(f, parameter=param_of(f.pointer)) for f in findings)
    yield from findings
    reported = {f.rule for f in findings}
    for finding in run_rules(
        schema, spec.families, strict=is_strict, name=tool_name, parameter_of=param_of
    ):
        if finding.rule not in reported:
            yield finding


def check_provider(
    target: FunctionSchema | dict[str, Any],
    provider: str,
    *,
    name: str | None = None,
    strict: bool | None = None,
) -> list[Finding]:
    """Every rule of ``provider``'s documented subset the schema breaks, in document order."""
    return list(iter_provider_findings(target, provider, name=name, strict=strict))


# --------------------------------------------------------------------------------------------
# Helpers


def _require_dict(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        raise SchemaConstructionError(
            f"a parameters schema must be a JSON object, got {type(schema).__name__}",
            pointer="",
            hint="pass a dict such as {'type': 'object', 'properties': {...}}",
        )
    return schema


def _unpack(
    target: FunctionSchema | dict[str, Any],
    name: str | None,
    description: str | None,
    strict: bool | None,
) -> tuple[str, str | None, dict[str, Any], bool]:
    if isinstance(target, FunctionSchema):
        if strict is not None and strict != target.strict:
            raise SchemaConstructionError(
                f"strict={strict!r} disagrees with the FunctionSchema's strict={target.strict!r}",
                hint="strictness is decided once, in function_schema(..., strict=...)",
            )
        return (
            name or target.name,
            description or target.description,
            target.json_schema,
            target.strict,
        )
    if not name:
        raise SchemaConstructionError(
            "a tool built from a plain schema needs a name", hint="pass name='...'"
        )
    return name, description, _require_dict(target), True if strict is None else strict


def _parameter_mapper(fs: FunctionSchema) -> Callable[[str | None], str | None]:
    by_schema_name = {p.schema_name: p.name for p in fs.schema_parameters}

    def parameter_of(pointer: str | None) -> str | None:
        prop = _property_of(pointer)
        return by_schema_name.get(prop, prop) if prop is not None else None

    return parameter_of


__all__ = [
    "PROVIDERS",
    "ProviderPayload",
    "ProviderSpec",
    "Translation",
    "check_provider",
    "iter_children",
    "iter_provider_findings",
    "provider_payload",
    "provider_spec",
    "provider_tool",
    "translate_for",
]
