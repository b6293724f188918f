"""Gemini, classic ``parameters``: the OpenAPI 3.0 subset, for Vertex AI or older clients.

The normalised JSON Schema is translated into the fields of google-genai's ``types.Schema``
(one type per node, ``nullable`` for null, ``enum`` for ``const``, ``anyOf`` for ``oneOf``,
local ``$ref``s inlined, keywords the type has no field for dropped), each rewrite recorded
as a :class:`~toollens.core.records.Change`. The rules judge a schema sent as it is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from toollens.core.providers.base import (
    FlatTool,
    ProviderSpec,
    Translation,
    property_of,
)
from toollens.core.providers.gemini_openapi_rules import (
    CLASSIC_RULES,
    GENAI_DECLARATION_PARAMETERS,
    SCHEMA_FIELDS,
    TRANSLATION_RULES,
)
from toollens.core.providers.rules import Hit, build_rule_table, make_finding
from toollens.core.providers.walk import copy_json, resolve_local, show, split_pointer
from toollens.core.records import Change, Finding, Origin
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.toolkit import TRANSLATION_NESTING_LIMIT
from toollens.core.schema.types import JsonSchema

__all__ = ["CLASSIC_RULES", "GEMINI_OPENAPI", "SCHEMA_FIELDS", "TRANSLATION_RULES", "translate"]

_BY_ID = build_rule_table(CLASSIC_RULES + TRANSLATION_RULES)

# --------------------------------------------------------------------------------------------
# Translation

_MAX_TRANSLATE_NODES = 50_000  # shared definitions inlined many times can explode
_DROPPED_WHY = {
    "$schema": "Gemini's Schema has no '$schema' field",
    "title": "Gemini's Schema has no 'title' field",  # ignored by the API; kept out as before
    "default": "Gemini's Schema has no 'default' field",  # accepted but ignored
    "additionalProperties": "Gemini's Schema has no 'additionalProperties' field",
}


class _At(NamedTuple):
    """Where the translator is: the node's pointer, the refs inlined above it, its depth."""

    pointer: str
    stack: tuple[str, ...]
    depth: int

    def child(self, *tokens: str | int) -> _At:
        return _At(join_pointer(self.pointer, *tokens), self.stack, self.depth + 1)


class _GeminiTranslator:
    """Rewrites a JSON schema into Gemini's classic ``parameters`` subset."""

    def __init__(self, schema: JsonSchema) -> None:
        self.root = schema
        self.changes: list[Change] = []
        self.findings: list[Finding] = []
        self.kept_defs: dict[str, str] = {}  # pointer of a recursive target -> its ref
        self.nodes = 0

    def change(self, pointer: str, rule: str, before: Any, after: Any, reason: str) -> None:
        self.changes.append(Change(pointer, rule, before, after, reason))

    def finding(self, rule_id: str, pointer: str | None, **fields: Any) -> None:
        found = make_finding(_BY_ID[rule_id], Hit(pointer, fields), property_of, Origin.TRANSLATION)
        if found not in self.findings:
            self.findings.append(found)

    def run(self) -> JsonSchema:
        out = self.node(self.root, _At("", (), 0))
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
            out.setdefault(tokens[0], {})[tokens[1]] = self.node(
                target, _At(pointer, (pointer,), 1)
            )
        return out

    def node(self, value: Any, at: _At) -> Any:
        """One node: structural rewrites first (refs, null unions), then keyword by keyword."""
        if not isinstance(value, dict):
            return copy_json(value) if at.depth < TRANSLATION_NESTING_LIMIT else None
        self.nodes += 1
        if at.depth >= TRANSLATION_NESTING_LIMIT or self.nodes > _MAX_TRANSLATE_NODES:
            why = (
                f"nesting deeper than {TRANSLATION_NESTING_LIMIT} levels"
                if at.depth >= TRANSLATION_NESTING_LIMIT
                else f"more than {_MAX_TRANSLATE_NODES} nodes after inlining"
            )
            self.finding("gemini.translation-limit", at.pointer, why=why)
            return {}
        node, stack = self.normalize(dict(value), at.pointer, at.stack)
        if "$ref" in node:  # a recursive reference: kept, reported
            return {k: copy_json(v) for k, v in node.items()}
        at = at._replace(stack=stack)
        out: JsonSchema = {}
        for key, item in node.items():
            _KEYWORDS.get(key, _GeminiTranslator.keep_or_drop)(self, out, key, item, at)
        return _any_of_alone(out, at.pointer, self.change)

    # --- keyword handlers (the table _KEYWORDS routes each keyword to one of them)

    def keep_or_drop(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if key in SCHEMA_FIELDS:
            out[key] = copy_json(item)
            return
        why = _DROPPED_WHY.get(key) or (
            f"Gemini's Schema has no '{key}' field; check that constraint in the function"
        )
        self.change(join_pointer(at.pointer, key), "gemini.drop-keyword", item, None, why)

    def drop(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        self.change(join_pointer(at.pointer, key), "gemini.drop-keyword", item, None,
                    _DROPPED_WHY[key])  # fmt: skip

    def definitions(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        reason = f"Gemini's Schema has no '{key}' field; its definitions were inlined"
        self.change(join_pointer(at.pointer, key), "gemini.drop-keyword", item, None, reason)

    def const(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        out["enum"] = [copy_json(item)]
        reason = "Gemini has no 'const'; a one-value enum means the same"
        pointer = join_pointer(at.pointer, "enum")
        self.change(pointer, "gemini.const-to-enum", {"const": item}, {"enum": [item]}, reason)

    def one_of(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if not isinstance(item, list):
            return self.keep_or_drop(out, key, item, at)
        out["anyOf"] = self.children(item, at.child("anyOf"))
        self.change(join_pointer(at.pointer, "anyOf"), "gemini.oneof-to-anyof", "oneOf", "anyOf",
                    "Gemini has no 'oneOf'; anyOf accepts the same values when branches do "
                    "not overlap")  # fmt: skip
        return None

    def any_of(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if not isinstance(item, list):
            return self.keep_or_drop(out, key, item, at)
        out[key] = self.children(item, at.child(key))
        return None

    def properties(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if not isinstance(item, dict):
            return self.keep_or_drop(out, key, item, at)
        out[key] = {name: self.node(sub, at.child(key, name)) for name, sub in item.items()}
        return None

    def items(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if isinstance(item, list):
            reason = "Gemini's 'items' is one schema; a list of item schemas cannot be sent"
            self.change(join_pointer(at.pointer, key), "gemini.drop-keyword", item, None, reason)
        elif isinstance(item, dict):
            out[key] = self.node(item, at.child(key))
        else:
            self.keep_or_drop(out, key, item, at)

    def type(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if isinstance(item, list):
            _type_list(out, item, at.pointer, self.change)
        else:
            out[key] = copy_json(item)

    def nullable(self, out: JsonSchema, key: str, item: Any, at: _At) -> None:
        if "nullable" not in out:  # a null union already set it
            out[key] = copy_json(item)

    def children(self, items: list[Any], at: _At) -> list[Any]:
        base = at._replace(depth=at.depth - 1)
        return [self.node(sub, base.child(index)) for index, sub in enumerate(items)]

    # --- structural rewrites

    def normalize(
        self, node: JsonSchema, pointer: str, stack: tuple[str, ...]
    ) -> tuple[JsonSchema, tuple[str, ...]]:
        """Inline refs, collapse null unions and one-branch allOf until nothing changes."""
        for _ in range(64):  # each pass removes one ref or one union level
            if "$ref" in node:
                inlined = self.inline_ref(node, pointer, stack)
                if inlined is None:
                    return node, stack
                node, stack = inlined
                continue
            collapsed = _collapse_null(node, pointer, self.change) or _flatten_all_of(
                node, pointer, self.change
            )
            if collapsed is None:
                return node, stack
            node = collapsed
        return node, stack

    def inline_ref(
        self, node: JsonSchema, pointer: str, stack: tuple[str, ...]
    ) -> tuple[JsonSchema, tuple[str, ...]] | None:
        ref = node["$ref"]
        target, resolved = resolve_local(self.root, ref)
        if target is None or not isinstance(resolved, dict):
            return None  # the unresolved-ref rule reports it
        if target in stack or target == "":
            if target:
                self.kept_defs.setdefault(target, ref)
            self.finding(
                "gemini.recursive-schema", pointer, ref=show(ref), target=target or "the root"
            )
            return None
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        self.change(
            pointer,
            "gemini.inline-ref",
            ref,
            None,
            "Gemini's parameters cannot refer to definitions; the definition is inlined"
            + (" and its siblings kept over it" if siblings else ""),
        )
        return {**resolved, **siblings}, (*stack, target)


_Handler = Callable[[_GeminiTranslator, JsonSchema, str, Any, _At], None]
_KEYWORDS: dict[str, _Handler] = {
    **dict.fromkeys(_DROPPED_WHY, _GeminiTranslator.drop),
    "$defs": _GeminiTranslator.definitions,
    "definitions": _GeminiTranslator.definitions,
    "const": _GeminiTranslator.const,
    "oneOf": _GeminiTranslator.one_of,
    "anyOf": _GeminiTranslator.any_of,
    "properties": _GeminiTranslator.properties,
    "items": _GeminiTranslator.items,
    "type": _GeminiTranslator.type,
    "nullable": _GeminiTranslator.nullable,
}


_Record = Callable[[str, str, Any, Any, str], None]  # records one Change


def _collapse_null(node: JsonSchema, pointer: str, change: _Record) -> JsonSchema | None:
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
    change(
        pointer,
        "gemini.null-union-to-nullable",
        {"anyOf": branches},
        {k: merged[k] for k in merged if k not in others or k == "nullable"},
        "Gemini has no null type; nullable: true says the same",
    )
    return merged


def _flatten_all_of(node: JsonSchema, pointer: str, change: _Record) -> JsonSchema | None:
    branches = node.get("allOf")
    if not (isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], dict)):
        return None
    others = {k: v for k, v in node.items() if k != "allOf"}
    change(
        pointer,
        "gemini.flatten-all-of",
        {"allOf": branches},
        branches[0],
        "Gemini has no allOf; a single branch is merged into its parent",
    )
    return {**branches[0], **others}


def _type_list(out: JsonSchema, types: list[Any], pointer: str, change: _Record) -> None:
    rest = [t for t in types if t != "null"]
    nullable = len(rest) != len(types)
    after: JsonSchema
    if len(rest) == 1:
        after = {"type": rest[0]}
    elif rest:
        after = {"anyOf": [{"type": t} for t in rest]}
    else:
        after = {"type": "null"}
    if nullable and rest:
        after["nullable"] = True
    out.update(after)
    change(
        join_pointer(pointer, "type"),
        "gemini.type-list",
        types,
        after,
        "Gemini wants one type per node; null becomes nullable: true",
    )


def _any_of_alone(out: JsonSchema, pointer: str, change: _Record) -> JsonSchema:
    """``out`` with the keywords beside its ``anyOf`` moved into each branch: Vertex AI
    wants anyOf alone (gemini.any-of-siblings); a branch's own keyword wins."""
    branches = out.get("anyOf")
    if not isinstance(branches, list) or len(out) == 1:
        return out
    siblings = {k: v for k, v in out.items() if k != "anyOf"}
    moved = [{**siblings, **b} if isinstance(b, dict) else b for b in branches]
    change(
        pointer,
        "gemini.any-of-alone",
        out,
        {"anyOf": moved},
        "Vertex AI wants anyOf as the only keyword; its siblings are repeated in each branch",
    )
    return {"anyOf": moved}


def _is_null_schema(branch: Any) -> bool:
    return isinstance(branch, dict) and branch.get("type") == "null" and "$ref" not in branch


def translate(schema: JsonSchema, strict: bool) -> Translation:
    translator = _GeminiTranslator(schema)
    out = translator.run()
    return Translation(out, tuple(translator.changes), tuple(translator.findings))


# --------------------------------------------------------------------------------------------
# The provider

GEMINI_OPENAPI = ProviderSpec(
    name="gemini-openapi",
    label="Gemini, classic parameters (OpenAPI subset)",
    own_rules=CLASSIC_RULES,
    payload=FlatTool(("parameters",)),
    docs=GENAI_DECLARATION_PARAMETERS,
    translate=translate,
)
