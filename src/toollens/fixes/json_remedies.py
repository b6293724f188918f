"""The mechanical remedies for a tool known by its JSON definition: one row per rule.

Each remedy reads the finding and the schema as written and returns the :class:`Edit` that
removes the finding, or ``None`` when the node is not what the remedy expects (the finding
then stays, for the author). No remedy writes words the author has to choose: a keyword a
provider does not take is said in the description in the keyword's own terms.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toollens.core.records import Finding
from toollens.core.schema.pointer import resolve_tokens, split_pointer
from toollens.core.schema.types import JsonValue
from toollens.fixes.model import Edit, JsonOp, Safety

__all__ = ["JSON_REMEDIES", "JsonSubject", "json_edit"]


@dataclass(frozen=True)
class JsonSubject:
    """The tool a finding is about: its name, its schema, and the names of its neighbours."""

    name: str
    schema: Mapping[str, Any]
    names: Sequence[str] = ()


Remedy = Callable[[Finding, JsonSubject], Edit | None]


def _node(subject: JsonSubject, tokens: Sequence[str]) -> Any:
    try:
        return resolve_tokens(subject.schema, tokens)
    except (KeyError, IndexError, TypeError, ValueError):  # the pointer left the schema
        return None


def _at(finding: Finding, keyword: str | None = None) -> tuple[str, ...] | None:
    """The tokens of the object the finding concerns (its ``keyword`` child stripped)."""
    if finding.pointer is None:
        return None
    tokens = tuple(split_pointer(finding.pointer))
    if keyword is not None and tokens[-1:] == (keyword,):
        return tokens[:-1]
    return tokens


def _edit(finding: Finding, subject: JsonSubject, safety: Safety, summary: str, op: JsonOp) -> Edit:
    return Edit(finding.rule, subject.name, finding.pointer, safety, summary, op)


def _lacking(
    finding: Finding, subject: JsonSubject, keyword: str, kind: str
) -> tuple[str, ...] | None:
    """The tokens of the ``kind`` node without ``keyword`` the finding points at: the node
    itself (an array nested in ``items``), or the one holding the pointer's last keyword.
    A node's ``type`` may be ``kind`` or a list holding it."""
    for tokens in (_at(finding), _at(finding, keyword)):
        node = None if tokens is None else _node(subject, tokens)
        if not isinstance(node, Mapping) or keyword in node:
            continue
        declared = node.get("type")
        if declared == kind or (isinstance(declared, list) and kind in declared):
            return tokens
    return None


def add_items(finding: Finding, subject: JsonSubject) -> Edit | None:
    """An array without ``items`` gets ``items: {}``: it accepts what it accepted (in a type
    list too: ``items`` applies to arrays only)."""
    tokens = _lacking(finding, subject, "items", "array")
    if tokens is None:
        return None
    op = JsonOp(tokens, set=(("items", {}),))
    return _edit(finding, subject, Safety.SAFE, "add items: {} to the array", op)


def add_properties(finding: Finding, subject: JsonSubject) -> Edit | None:
    """An object without ``properties`` gets ``properties: {}``: it accepts what it
    accepted (no property was declared, and none is refused)."""
    tokens = _lacking(finding, subject, "properties", "object")
    if tokens is None:
        return None
    op = JsonOp(tokens, set=(("properties", {}),))
    return _edit(finding, subject, Safety.SAFE, "add properties: {} to the object", op)


def required_list(finding: Finding, subject: JsonSubject) -> Edit | None:
    """``required`` that is no list: ``null`` or ``false`` removed (nothing was required),
    one name made a list of it."""
    tokens = _at(finding, "required")
    node = None if tokens is None else _node(subject, tokens)
    if not isinstance(node, Mapping) or "required" not in node:
        return None
    value = node["required"]
    if value is None or value is False:
        op = JsonOp(tokens, remove=("required",))
        return _edit(finding, subject, Safety.SAFE, "remove required: null", op)
    if isinstance(value, str):
        op = JsonOp(tokens, set=(("required", [value]),))
        return _edit(finding, subject, Safety.SAFE, f"make required [{value!r}]", op)
    return None


def drop_id(finding: Finding, subject: JsonSubject) -> Edit | None:
    """A ``$id`` that is no URI reference removed: safe unless a ``$ref`` outside the
    document (not ``#...``) was resolved against it."""
    tokens = _at(finding, "$id")
    node = None if tokens is None else _node(subject, tokens)
    if not isinstance(node, Mapping) or "$id" not in node:
        return None
    refs = re.findall(r'"\$ref": "([^"]*)"', json.dumps(subject.schema))
    safety = Safety.SAFE if all(r.startswith("#") for r in refs) else Safety.UNSAFE
    return _edit(finding, subject, safety, "remove $id", JsonOp(tokens, remove=("$id",)))


def const_to_enum(finding: Finding, subject: JsonSubject) -> Edit | None:
    """A string ``const`` (which Gemini's Schema lacks) as an ``enum`` of that one value:
    the same value, the only one accepted."""
    tokens = _at(finding, "const")
    node = None if tokens is None else _node(subject, tokens)
    if not isinstance(node, Mapping) or not isinstance(node.get("const"), str) or "enum" in node:
        return None
    op = JsonOp(tokens, set=(("enum", [node["const"]]),), remove=("const",))
    return _edit(finding, subject, Safety.SAFE, "make const an enum of its one value", op)


def type_list_to_nullable(finding: Finding, subject: JsonSubject) -> Edit | None:
    """``type: [X, "null"]`` as Gemini's Schema says it: ``type: X, nullable: true``."""
    tokens = _at(finding, "type")
    node = None if tokens is None else _node(subject, tokens)
    declared = node.get("type") if isinstance(node, Mapping) else None
    if not isinstance(declared, list) or "null" not in declared:
        return None
    others = [t for t in declared if t != "null"]
    if len(others) != 1 or not isinstance(node, Mapping) or "nullable" in node:
        return None
    op = JsonOp(tokens, set=(("type", others[0]), ("nullable", True)))
    return _edit(finding, subject, Safety.SAFE, f"type {others[0]} with nullable: true", op)


# Keywords that only describe: moved into words, no value the schema accepts changes.
_ANNOTATIONS = frozenset(
    {"title", "examples", "$comment", "deprecated", "readOnly", "writeOnly", "default",
     "format", "contentMediaType", "contentEncoding", "$id", "$schema"}
)  # fmt: skip


def unknown_keyword_to_description(finding: Finding, subject: JsonSubject) -> Edit | None:
    """A keyword the provider's schema has no field for, moved into the description's
    words; unsafe when it validated (``uniqueItems``, ``exclusiveMinimum``): the schema then
    accepts values it refused, and the function must check them."""
    tokens = None if finding.pointer is None else tuple(split_pointer(finding.pointer))
    if not tokens:
        return None
    keyword = tokens[-1]
    edit = keyword_to_description(keyword)(finding, subject)
    if edit is None or keyword in _ANNOTATIONS:
        return edit
    return Edit(edit.rule, edit.tool, edit.pointer, Safety.UNSAFE, edit.summary, edit.op)


def any_of_alone(finding: Finding, subject: JsonSubject) -> Edit | None:
    """``anyOf`` beside other keywords, each sibling moved into every branch: ``S and (A or
    B)`` is ``(S and A) or (S and B)``, so the values accepted do not change. A
    ``default`` (which Gemini's Schema does not take either) goes into each branch's
    description in words. Not made when a branch already holds a sibling's keyword with
    another value."""
    tokens = _at(finding, "anyOf")
    node = None if tokens is None else _node(subject, tokens)
    if not isinstance(node, Mapping) or not isinstance(node.get("anyOf"), list):
        return None
    siblings = {k: v for k, v in node.items() if k not in ("anyOf", "default")}
    note = f"default: {json.dumps(node['default'])}" if "default" in node else None
    branches: list[JsonValue] = []
    for branch in node["anyOf"]:
        if not isinstance(branch, Mapping):
            return None
        if any(k in branch and branch[k] != v for k, v in siblings.items()):
            return None
        merged = {**branch, **{k: v for k, v in siblings.items() if k not in branch}}
        if note is not None:
            said = merged.get("description")
            merged["description"] = f"{said} ({note})" if isinstance(said, str) else f"({note})"
        branches.append(merged)
    siblings.update({"default": node["default"]} if note is not None else {})
    if not siblings:
        return None
    op = JsonOp(tokens, set=(("anyOf", branches),), remove=tuple(siblings))
    summary = f"move {', '.join(sorted(siblings))} into each anyOf branch"
    return _edit(finding, subject, Safety.SAFE, summary, op)


def lift_function(finding: Finding, subject: JsonSubject) -> Edit | None:
    """A Chat Completions tool sent to the Responses API: the fields of ``function`` moved
    up beside ``type``, as Responses reads them (the schema and the name do not change)."""
    op = JsonOp(None, lift="function")
    return _edit(finding, subject, Safety.SAFE, "move the fields of function up beside type", op)


def close_object(finding: Finding, subject: JsonSubject) -> Edit | None:
    """An open object gets ``additionalProperties: false``: extra keys are then refused."""
    tokens = _at(finding, "additionalProperties")
    node = None if tokens is None else _node(subject, tokens)
    if not isinstance(node, Mapping) or "additionalProperties" in node:
        return None
    if "properties" not in node and node.get("type") != "object":
        return None
    op = JsonOp(tokens, set=(("additionalProperties", False),))
    return _edit(finding, subject, Safety.UNSAFE, "set additionalProperties: false", op)


def root_object(finding: Finding, subject: JsonSubject) -> Edit | None:
    """A root schema without ``type`` gets ``type: object``: the arguments are always an
    object, so no call the tool accepts changes."""
    if "type" in subject.schema or not all(
        k in {"properties", "required", "additionalProperties", "description", "$schema"}
        for k in subject.schema
    ):
        return None
    return _edit(
        finding,
        subject,
        Safety.SAFE,
        "add type: object to the root",
        JsonOp((), set=(("type", "object"),)),
    )


_DRAFT_ONLY = ("additionalItems", "dependencies")


def drop_dialect(finding: Finding, subject: JsonSubject) -> Edit | None:
    """``$schema`` of another dialect dropped; safe when no keyword reads differently in
    2020-12 (an ``items`` list, ``additionalItems``, ``dependencies``)."""
    if "$schema" not in subject.schema:
        return None
    text = json.dumps(subject.schema)
    differs = any(f'"{k}"' in text for k in _DRAFT_ONLY) or re.search(r'"items": \[', text)
    safety = Safety.UNSAFE if differs else Safety.SAFE
    return _edit(
        finding,
        subject,
        safety,
        "drop $schema (2020-12 is the default)",
        JsonOp((), remove=("$schema",)),
    )


def keyword_to_description(keyword: str) -> Remedy:
    """A keyword the provider refuses or ignores, moved into the description's words: the
    values the schema accepts do not change (``default`` and ``format`` do not validate)."""

    def remedy(finding: Finding, subject: JsonSubject) -> Edit | None:
        tokens = _at(finding, keyword)
        node = None if tokens is None else _node(subject, tokens)
        if not isinstance(node, Mapping) or keyword not in node:
            return None
        note = f"{keyword}: {json.dumps(node[keyword], ensure_ascii=False)}"
        op = JsonOp(tokens, remove=(keyword,), note=note)
        summary = f"move {keyword} into the description"
        return _edit(finding, subject, Safety.SAFE, summary, op)

    return remedy


_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def accepted_name(name: str, taken: Sequence[str] = ()) -> str:
    """``name`` with each character outside a-z A-Z 0-9 _ - as ``_``, at most 64, unique."""
    base = _NAME_UNSAFE.sub("_", name)[:64] or "tool"
    candidate, n = base, 2
    while candidate in taken and candidate != name:
        suffix = f"_{n}"
        candidate, n = base[: 64 - len(suffix)] + suffix, n + 1
    return candidate


def _renamed(finding: Finding, subject: JsonSubject, new: str) -> Edit | None:
    if new == subject.name:
        return None
    op = JsonOp(None, set=(("name", new),))
    return _edit(finding, subject, Safety.UNSAFE, f"rename the tool to {new!r}", op)


def rename(finding: Finding, subject: JsonSubject) -> Edit | None:
    """A name the provider or client refuses, renamed: callers of the old name break."""
    taken = [n for n in subject.names if n != subject.name]
    return _renamed(finding, subject, accepted_name(subject.name, taken))


def rename_leading_letter(finding: Finding, subject: JsonSubject) -> Edit | None:
    """:func:`rename` for a provider whose names start with a letter or ``_`` (Gemini)."""
    taken = [n for n in subject.names if n != subject.name]
    new = accepted_name(subject.name, taken)
    if not (new[:1].isalpha() or new[:1] == "_"):
        new = accepted_name("_" + new[:63], taken)
    return _renamed(finding, subject, new)


JSON_REMEDIES: dict[str, Remedy] = {
    "openai.array-items-missing": add_items,
    "vscode-copilot.array-without-items": add_items,
    "gemini.array-items-missing": add_items,
    "openai.object-properties-missing": add_properties,
    "openai.required-not-array": required_list,
    "openai.id-not-uri-reference": drop_id,
    "openai.responses-chat-layout": lift_function,
    "gemini.const": const_to_enum,
    "gemini.type-list": type_list_to_nullable,
    "gemini.unknown-keyword": unknown_keyword_to_description,
    "gemini.any-of-siblings": any_of_alone,
    "openai.object-not-closed": close_object,
    "lint.open-nested-object": close_object,
    "mcp.input-schema-not-object": root_object,
    "openai.root-not-object": root_object,
    "anthropic.root-not-object": root_object,
    "gemini.root-not-object": root_object,
    "mcp.schema-dialect": drop_dialect,
    "openai.default": keyword_to_description("default"),
    "gemini.default": keyword_to_description("default"),
    "openai.format-unsupported": keyword_to_description("format"),
    "mcp.name-invalid": rename,
    "mcp.name-over-64": rename,
    "openai.name-invalid": rename,
    "anthropic.name-invalid": rename,
    "gemini.name-invalid": rename_leading_letter,
}
"""Rule id -> the remedy of its findings on a JSON tool."""


def json_edit(finding: Finding, subject: JsonSubject) -> Edit | None:
    """The edit that removes ``finding`` from a JSON tool, or ``None`` (no remedy)."""
    remedy = JSON_REMEDIES.get(finding.rule)
    return None if remedy is None else remedy(finding, subject)
