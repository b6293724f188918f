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


def add_items(finding: Finding, subject: JsonSubject) -> Edit | None:
    """An array without ``items`` gets ``items: {}``: it accepts what it accepted."""
    tokens = _at(finding, "items")
    node = None if tokens is None else _node(subject, tokens)
    if not isinstance(node, Mapping) or "items" in node or node.get("type") != "array":
        return None
    op = JsonOp(tokens, set=(("items", {}),))
    return _edit(finding, subject, Safety.SAFE, "add items: {} to the array", op)


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


def rename(finding: Finding, subject: JsonSubject) -> Edit | None:
    """A name the provider or client refuses, renamed: callers of the old name break."""
    new = accepted_name(subject.name, [n for n in subject.names if n != subject.name])
    if new == subject.name:
        return None
    op = JsonOp(None, set=(("name", new),))
    return _edit(finding, subject, Safety.UNSAFE, f"rename the tool to {new!r}", op)


JSON_REMEDIES: dict[str, Remedy] = {
    "openai.array-items-missing": add_items,
    "vscode-copilot.array-without-items": add_items,
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
    "gemini.name-invalid": rename,
}
"""Rule id -> the remedy of its findings on a JSON tool."""


def json_edit(finding: Finding, subject: JsonSubject) -> Edit | None:
    """The edit that removes ``finding`` from a JSON tool, or ``None`` (no remedy)."""
    remedy = JSON_REMEDIES.get(finding.rule)
    return None if remedy is None else remedy(finding, subject)
