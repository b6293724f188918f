"""The machinery of provider rules: records, shared checks, and running a rule set.

Each provider module (``openai``, ``anthropic``, ``gemini``, ``gemini_openapi``) holds its
own rule table built from these parts. Rules are data: each :class:`ProviderRule` has a
stable id, a severity, a scope (always, or only when the tool is strict), a message
template, a fix and the source it comes from (with its date), plus a small check function
that yields :class:`Hit` records. :func:`run_rules` turns hits into findings.

Every walk here is iterative and bounded, so a hostile or absurdly deep schema yields
findings, never ``RecursionError``.
"""

from __future__ import annotations

import enum
import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from toollens.core.providers.walk import (
    SchemaNode,
    is_array_node,
    is_object_node,
    iter_schema_nodes,
    resolve_local,
    show,
)
from toollens.core.records import Citation, Finding, Origin, Severity
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonMapping

# --------------------------------------------------------------------------------------------
# Sources


# A published draft that does not change: its two rules (a subschema is an object, a $ref
# resolves) were checked against it again at the last review.
JSON_SCHEMA_CORE = Citation(
    "JSON Schema 2020-12 core",
    "https://json-schema.org/draft/2020-12/json-schema-core",
    "2022-06-16",
    rechecked="2026-12-02",
)

RULES_REVIEWED = "2026-12-04"
"""When every rule table was last reviewed against its sources (ISO date). A rule whose
source was read (or re-checked) more than :data:`MAX_SOURCE_AGE_DAYS` before this date is
stale: the tests fail until it is read again, or marked ``rechecked``."""
MAX_SOURCE_AGE_DAYS = 365

# --------------------------------------------------------------------------------------------
# Context and hits


@dataclass(frozen=True)
class Hit:
    """One place a rule matched, with the values its templates need."""

    pointer: str | None
    fields: JsonMapping = field(default_factory=dict)


class RuleContext:
    """What the checks of one run share: the schema, its nodes, the tool name, strictness."""

    def __init__(self, schema: object, *, strict: bool, name: str | None) -> None:
        self.schema = schema
        self.strict = strict
        self.name = name
        self.nodes = tuple(iter_schema_nodes(schema))
        self.by_pointer = {n.pointer: n for n in self.nodes}
        # Every rule walks the object nodes: picked out once, not once per rule.
        self._dicts = tuple(n for n in self.nodes if isinstance(n.value, dict))

    def dicts(self) -> Iterator[SchemaNode]:
        return iter(self._dicts)

    @functools.cached_property
    def ref_edges(self) -> tuple[tuple[str, str, str], ...]:
        """``(ref site pointer, from container, to container)`` for each resolvable local ref."""
        edges = []
        for node in self.dicts():
            ref = node.value.get("$ref")
            if ref is None:
                continue
            target, _ = resolve_local(self.schema, ref)
            if target is None:
                continue
            hit = self.by_pointer.get(target)
            to = hit.container if hit is not None else target
            edges.append((node.pointer, node.container, to))
        return tuple(edges)

    @functools.cached_property
    def cyclic_refs(self) -> tuple[tuple[str, str], ...]:
        """``(ref site pointer, target container)`` for every ref that closes a cycle."""
        graph: dict[str, set[str]] = {}
        for _, src, dst in self.ref_edges:
            graph.setdefault(src, set()).add(dst)

        @functools.cache
        def reachable(start: str) -> frozenset[str]:
            seen: set[str] = set()
            todo = [start]
            while todo:
                current = todo.pop()
                for nxt in graph.get(current, ()):
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            return frozenset(seen)

        out = []
        for site, src, dst in self.ref_edges:
            if src == dst or src in reachable(dst):
                out.append((site, dst))
        return tuple(out)


Check = Callable[[RuleContext], Iterator[Hit]]


class Scope(str, enum.Enum):
    """When a rule applies."""

    ALWAYS = "always"
    STRICT = "strict"  # only when the tool is sent in strict mode


@dataclass(frozen=True)
class ProviderRule:
    """One rule of one provider's documented schema subset.

    Attributes:
        id: stable id, ``"<family>.<name>"``; the family is ``openai``, ``anthropic``,
            ``gemini``, or ``schema`` for rules every provider shares.
        severity: ``ERROR`` when the request will be rejected, ``WARNING`` when it is
            accepted but likely not meant.
        scope: whether the rule applies always or only to strict tools.
        summary: one line for the rule table in the documentation.
        message: template filled from the hit's fields.
        fix: template for what to do.
        cite: the source the rule comes from, with its date.
        check: yields a :class:`Hit` per violation.
    """

    id: str
    severity: Severity
    scope: Scope
    summary: str
    message: str
    fix: str
    cite: Citation
    check: Check

    @property
    def family(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def source(self) -> str:
        """The address of the rule's source (what a finding links to)."""
        return self.cite.url


# --------------------------------------------------------------------------------------------
# Check functions (small; the rule table below wires them up)


def keywords(*names: str, when: Callable[[object], bool] | None = None) -> Check:
    """A check that hits every node carrying one of ``names`` (optionally filtered by value)."""

    def check(ctx: RuleContext) -> Iterator[Hit]:
        for node in ctx.dicts():
            for key in names:
                if key in node.value and (when is None or when(node.value[key])):
                    yield Hit(
                        join_pointer(node.pointer, key),
                        {"keyword": key, "value": show(node.value[key])},
                    )

    return check


def root_not_object(ctx: RuleContext) -> Iterator[Hit]:
    root = ctx.schema
    if not isinstance(root, dict):
        yield Hit("", {"value": show(root), "kind": type(root).__name__})
    elif root.get("type") != "object":
        yield Hit("", {"value": show(root.get("type")), "kind": "type " + show(root.get("type"))})


def root_any_of(ctx: RuleContext) -> Iterator[Hit]:
    if isinstance(ctx.schema, dict) and "anyOf" in ctx.schema:
        branches = ctx.schema["anyOf"]
        yield Hit("/anyOf", {"count": len(branches) if isinstance(branches, list) else 0})


def object_not_closed(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if is_object_node(node.value) and node.value.get("additionalProperties") is not False:
            value = node.value.get("additionalProperties", "missing")
            yield Hit(node.pointer, {"value": value if value == "missing" else show(value)})


def property_not_required(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        props = node.value.get("properties")
        if not isinstance(props, dict):
            continue
        required = node.value.get("required")
        listed = (
            {r for r in required if isinstance(r, str)} if isinstance(required, list) else set()
        )
        for name in props:
            if name not in listed:
                yield Hit(join_pointer(node.pointer, "properties", name), {"name": name})


def ref_siblings(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if "$ref" in node.value and len(node.value) > 1:
            siblings = [k for k in node.value if k != "$ref"]
            yield Hit(node.pointer, {"ref": show(node.value["$ref"]), "siblings": show(siblings)})


_TYPE_STAND_INS = ("type", "anyOf", "$ref", "enum", "const", "oneOf", "allOf", "not")


def untyped_node(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if node.pointer and not any(k in node.value for k in _TYPE_STAND_INS):
            yield Hit(node.pointer, {"value": show(node.value)})


def array_without_items(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if is_array_node(node.value) and "items" not in node.value:
            yield Hit(node.pointer, {"value": show(node.value)})


def recursive_schema(ctx: RuleContext) -> Iterator[Hit]:
    for site, target in ctx.cyclic_refs:
        yield Hit(site, {"ref": show(ctx.by_pointer[site].value.get("$ref")), "target": target})


def not_a_schema(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.nodes:
        if node.pointer and not isinstance(node.value, dict):
            yield Hit(node.pointer, {"value": show(node.value), "kind": type(node.value).__name__})


def unresolved_ref(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if "$ref" in node.value:
            target, why = resolve_local(ctx.schema, node.value["$ref"])
            if target is None:
                fields = {"ref": show(node.value["$ref"]), "why": why}
                yield Hit(join_pointer(node.pointer, "$ref"), fields)


def format_outside(allowed: frozenset[str]) -> Check:
    def check(ctx: RuleContext) -> Iterator[Hit]:
        for node in ctx.dicts():
            fmt = node.value.get("format")
            if fmt is not None and not (isinstance(fmt, str) and fmt in allowed):
                yield Hit(join_pointer(node.pointer, "format"), {"value": show(fmt)})

    return check


def name_pattern(pattern: str) -> Check:
    compiled = re.compile(pattern)

    def check(ctx: RuleContext) -> Iterator[Hit]:
        if ctx.name is not None and not compiled.fullmatch(ctx.name):
            yield Hit(None, {"value": show(ctx.name), "length": len(ctx.name)})

    return check


def root_property_pattern(pattern: str) -> Check:
    compiled = re.compile(pattern)

    def check(ctx: RuleContext) -> Iterator[Hit]:
        root = ctx.schema
        props = root.get("properties") if isinstance(root, dict) else None
        if isinstance(props, dict):
            for name in props:
                if not compiled.fullmatch(str(name)):
                    yield Hit(join_pointer("", "properties", name), {"value": show(name)})

    return check


def type_list(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        if isinstance(node.value.get("type"), list):
            yield Hit(join_pointer(node.pointer, "type"), {"value": show(node.value["type"])})


def enum_members(pred: Callable[[object], bool]) -> Check:
    def check(ctx: RuleContext) -> Iterator[Hit]:
        for node in ctx.dicts():
            values = node.value.get("enum")
            if isinstance(values, list):
                bad = [v for v in values if pred(v)]
                if bad:
                    yield Hit(join_pointer(node.pointer, "enum"), {"value": show(bad)})

    return check


_LOOKAROUND = re.compile(r"\(\?<?[=!]|\\[1-9]")


def complex_pattern(ctx: RuleContext) -> Iterator[Hit]:
    for node in ctx.dicts():
        pattern = node.value.get("pattern")
        if isinstance(pattern, str) and _LOOKAROUND.search(pattern):
            yield Hit(join_pointer(node.pointer, "pattern"), {"value": show(pattern)})


# --------------------------------------------------------------------------------------------
# Rules every provider shares, and running a rule set

E, W = Severity.ERROR, Severity.WARNING
A, S = Scope.ALWAYS, Scope.STRICT
FAMILIES = ("schema", "openai", "anthropic", "gemini", "mcp")


def rule(
    id: str,
    severity: Severity,
    scope: Scope,
    summary: str,
    message: str,
    fix: str,
    cite: Citation,
    check: Check,
) -> ProviderRule:
    """A rule from one table row (positional, so each table reads as a table)."""
    return ProviderRule(id, severity, scope, summary, message, fix, cite, check)


# fmt: off
SCHEMA_RULES: tuple[ProviderRule, ...] = (
    rule("schema.not-a-schema", E, A, "a subschema position holds something that is not an object",
         "expected a schema object, found {kind} {value}",
         "replace it with a schema object such as {{\"type\": \"string\"}}",
         JSON_SCHEMA_CORE, not_a_schema),
    rule("schema.unresolved-ref", E, A, "a $ref that cannot be resolved inside the schema",
         "$ref {ref} {why}", "point $ref at a definition under #/$defs in the same schema",
         JSON_SCHEMA_CORE, unresolved_ref),
)
# fmt: on


def build_rule_table(rules: tuple[ProviderRule, ...]) -> dict[str, ProviderRule]:
    """Rules by id; a duplicate id or an unknown family fails when the table is built."""
    table: dict[str, ProviderRule] = {}
    for item in rules:
        if item.id in table and table[item.id] is not item:
            raise ValueError(f"duplicate provider rule id {item.id!r}")
        if item.family not in FAMILIES:
            raise ValueError(f"provider rule {item.id!r} has an unknown family")
        table[item.id] = item
    return table


def make_finding(
    rule: ProviderRule,
    hit: Hit,
    parameter_of: Callable[[str | None], str | None],
    origin: Origin = Origin.DOCUMENTED_RULE,
) -> Finding:
    return Finding.from_rule(
        rule,
        hit.pointer,
        hit.fields,
        parameter=parameter_of(hit.pointer),
        cite=rule.cite,
        origin=origin,
    )


def run_rules(
    schema: object,
    rules: tuple[ProviderRule, ...],
    *,
    strict: bool,
    name: str | None,
    parameter_of: Callable[[str | None], str | None],
) -> Iterator[Finding]:
    """Findings of every rule in ``rules`` that applies at this strictness."""
    ctx = RuleContext(schema, strict=strict, name=name)
    for item in rules:
        if (item.scope is Scope.STRICT and not strict) or item.cite.ended is not None:
            continue
        for hit in item.check(ctx):
            yield make_finding(item, hit, parameter_of)
