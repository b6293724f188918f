"""Semantic diff of two tool schemas: what changed, where, and whether it breaks callers.

``diff(a, b)`` accepts, on either side, a JSON Schema dict, a provider tool payload
(OpenAI chat or responses, Anthropic, Gemini), a :class:`FunctionSchema` or a callable.
Payloads are unwrapped to their parameter schema; the tool's name, description and
``strict`` flag are compared as well when both sides carry them, as changes with pointer
``""`` and keyword ``"tool.name"``, ``"tool.description"`` or ``"tool.strict"``.

Pointers are RFC 6901 pointers into the parameter schema (not the payload): into the new
schema for added, changed and moved things, into the old one for removed things. A change
inside a ``$ref``-erenced definition points into ``$defs``. ``$ref`` is compared by what it
resolves to, so renaming a definition is not a change, and unreferenced definitions are
ignored; keywords beside a ``$ref`` apply too (draft 2019-09 and later), and a one-branch
``allOf`` wrapper equals its branch. Nothing is ever fetched: a remote ``$ref`` is an error.

A plain schema facing an ``anyOf``/``oneOf`` is compared as a one-branch union (a type list
as one branch per type), so ``str`` -> ``str | None`` reads as "a new alternative", not as
"type removed, anyOf added". Branches pair by equality first, then by likeness (type,
title, definition name, shared properties); ``prefixItems`` pair by position. A property
that disappears while a property with the same schema and requiredness appears is
reported once, as ``moved``. The ``false`` schema appearing or disappearing is keyword
``"schema"``.

Severity rules, from the point of view of callers (and a model) working from the old
schema:

=================  =====================================================================
breaking           property removed or renamed; property became required; new required
                   property; type narrowed or changed; enum value removed; const changed;
                   a restriction added (type, enum, bound, pattern, format, multipleOf,
                   uniqueItems, additionalProperties false, an anyOf/oneOf where there was
                   none); a bound tightened; pattern or format changed; an anyOf/oneOf
                   alternative removed; an allOf subschema added; tool name or ``strict``
                   changed; any change to a keyword toollens does not analyse
compatible         new optional property; property no longer required; type widened; enum
                   value added; a restriction removed or loosened; an alternative added;
                   an allOf subschema removed; additionalProperties opened; default added,
                   removed or changed (no call becomes invalid, but calls that omit the
                   argument may behave differently)
description-only   title, description, examples, ``$comment``, deprecated, readOnly,
                   writeOnly, ``x-`` extensions; the tool description
=================  =====================================================================
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toollens.core.diff.changes import SEVERITY_LABELS, ChangeKind, DiffSeverity, SchemaChange
from toollens.core.diff.nodes import NEW, OLD, SIDE_NAMES, canon
from toollens.core.diff.rules import TABLE
from toollens.core.diff.walk import Walk
from toollens.core.errors import SchemaConstructionError
from toollens.core.providers import unwrap_payload
from toollens.core.schema.pointer import join_pointer, split_pointer
from toollens.core.schema.toolkit import (
    DIFF_NESTING_LIMIT,
    NotPlainJSON,
    PlainProblem,
    plain_json,
    preview_json,
)
from toollens.core.schema.types import JsonObject, JsonSchema, SchemaInput, ToolFunction

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema
    from toollens.core.report import ReportOptions

__all__ = [
    "ChangeKind",
    "DiffSeverity",
    "LoadedSchema",
    "SchemaChange",
    "SchemaDiff",
    "diff",
    "diff_loaded",
    "diff_sequence",
    "iter_changes",
]


@dataclass(frozen=True)
class SchemaDiff:
    """Every change between two tool schemas, in a deterministic order.

    Attributes:
        changes: tool-level changes first, then by pointer, keyword and kind.
    """

    changes: tuple[SchemaChange, ...] = ()

    @property
    def breaking(self) -> bool:
        """Whether any change may break existing callers."""
        return any(c.severity is DiffSeverity.BREAKING for c in self.changes)

    @property
    def severity(self) -> DiffSeverity | None:
        """The worst severity, or ``None`` when nothing changed."""
        return min((c.severity for c in self.changes), key=lambda s: s.rank, default=None)

    def by_severity(self) -> dict[DiffSeverity, tuple[SchemaChange, ...]]:
        """Changes grouped by severity, worst first; every severity is a key."""
        return {
            severity: tuple(c for c in self.changes if c.severity is severity)
            for severity in sorted(DiffSeverity, key=lambda s: s.rank)
        }

    def __bool__(self) -> bool:
        return bool(self.changes)

    def __len__(self) -> int:
        return len(self.changes)

    def __iter__(self) -> Iterator[SchemaChange]:
        return iter(self.changes)

    @property
    def headline(self) -> str:
        """E.g. ``"2 breaking, 1 description-only change"``; ``"no changes"`` when empty."""
        counts = [
            f"{len(group)} {severity.value}"
            for severity, group in self.by_severity().items()
            if group
        ]
        if not counts:
            return "no changes"
        return ", ".join(counts) + (" change" if len(self.changes) == 1 else " changes")

    def __str__(self) -> str:
        width = max((len(c.where) for c in self.changes), default=0)
        lines = [self.headline]
        for group in self.by_severity().values():
            lines.extend(
                f"{SEVERITY_LABELS[c.severity]:<13}{c.where:<{width}}  {c.keyword}: {c.message}"
                for c in group
            )
        return "\n".join(lines)

    def to_json(self) -> JsonObject:
        """JSON-ready form; the same input always gives the same output."""
        return {
            "summary": self.headline,
            "breaking": self.breaking,
            "severity": None if self.severity is None else self.severity.value,
            "counts": {s.value: len(g) for s, g in self.by_severity().items()},
            "changes": [c.to_json() for c in self.changes],
        }

    to_dict = to_json  # the former name, kept for callers


def diff(a: SchemaInput, b: SchemaInput, options: ReportOptions | None = None) -> SchemaDiff:
    """Compare an old tool schema ``a`` with a new one ``b``.

    Args:
        a: the old schema: a JSON Schema dict, a provider tool payload, a FunctionSchema
            (anything with a ``json_schema`` dict and ``name``/``description``/``strict``)
            or a callable (built with ``function_schema(func)``).
        b: the new schema, in any of the same forms.
        options: how a callable side becomes a schema (``ReportOptions.schema_options``);
            the defaults of :func:`function_schema` when omitted.

    Returns:
        The changes, each with a JSON pointer, kind, keyword, severity and message.

    Raises:
        SchemaConstructionError: an input is not a schema, a ``$ref`` is remote, missing or
            loops, or the schema nests deeper than ``DIFF_NESTING_LIMIT`` levels.
    """
    return SchemaDiff(tuple(iter_changes(a, b, options)))


def iter_changes(
    a: SchemaInput, b: SchemaInput, options: ReportOptions | None = None
) -> Iterator[SchemaChange]:
    """Yield the changes from ``a`` to ``b`` in the order :class:`SchemaDiff` keeps them.

    Errors are raised when iteration starts.
    """
    yield from _changes(_load(a, OLD, options), _load(b, NEW, options), checked=False)


def diff_sequence(
    previous: SchemaInput | LoadedSchema, value: SchemaInput
) -> tuple[SchemaDiff, LoadedSchema]:
    """``diff(previous, value)`` for a sequence of edits.

    A ``previous`` that is the ``LoadedSchema`` this returned on the last call (the new side
    of that diff) is neither copied nor checked again.

    Returns:
        The changes, and ``value`` as loaded: the ``previous`` of the next call.
    """
    changes, _, new = diff_loaded(previous, value)
    return changes, new


def diff_loaded(
    old: SchemaInput | LoadedSchema, new: SchemaInput | LoadedSchema
) -> tuple[SchemaDiff, LoadedSchema, LoadedSchema]:
    """``diff(old, new)`` where either side may be a ``LoadedSchema`` an earlier diff
    returned: that side is neither copied nor checked again (it was, when it was loaded).

    Returns:
        The changes, and both sides as loaded, for the next diffs against either.
    """
    old_checked, new_checked = isinstance(old, LoadedSchema), isinstance(new, LoadedSchema)
    loaded_old = old if isinstance(old, LoadedSchema) else _load(old, OLD)
    loaded_new = new if isinstance(new, LoadedSchema) else _load(new, NEW)
    found = _changes(loaded_old, loaded_new, checked=old_checked, new_checked=new_checked)
    return SchemaDiff(tuple(found)), loaded_old, loaded_new


def _changes(
    old: LoadedSchema, new: LoadedSchema, *, checked: bool, new_checked: bool = False
) -> list[SchemaChange]:
    walk = Walk(old.schema, new.schema, TABLE, old_checked=checked, new_checked=new_checked)
    changes = [*_tool_changes(old, new), *walk.compare(walk.root(OLD), walk.root(NEW))]
    unique = {_identity(c): c for c in changes}  # a definition used twice reports once
    return sorted(unique.values(), key=_order)


def _identity(change: SchemaChange) -> tuple[object, ...]:
    return (
        change.pointer,
        change.kind,
        change.keyword,
        change.severity,
        change.message,
        canon(change.before),
        canon(change.after),
    )


def _pointer_order(pointer: str) -> tuple[tuple[int, int, str], ...]:
    return tuple(
        (0, int(t), "") if t.isascii() and t.isdigit() else (1, 0, t)
        for t in split_pointer(pointer)
    )


_KIND_ORDER = {kind: i for i, kind in enumerate(ChangeKind)}


def _order(change: SchemaChange) -> tuple[object, ...]:
    return (
        not change.is_tool_level,
        _pointer_order(change.pointer),
        change.keyword,
        _KIND_ORDER[change.kind],
        change.message,
        repr(canon(change.before)),
        repr(canon(change.after)),
    )


# -- inputs ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoadedSchema:
    """One side of a diff as read: a plain copy of the schema, and the tool's own fields."""

    schema: JsonSchema
    is_tool: bool = False
    name: str | None = None
    description: str | None = None
    strict: bool | None = None


_HINT = "pass a JSON Schema dict, a provider tool payload, a FunctionSchema or a callable"


def _load(value: SchemaInput, side: int, options: ReportOptions | None = None) -> LoadedSchema:
    label = SIDE_NAMES[side]
    if isinstance(value, Mapping):
        return _unwrap(_json_copy(value, label), label)
    try:
        json_schema = getattr(value, "json_schema", None)
    except Exception:  # a property that raises is just "not a FunctionSchema"
        json_schema = None
    if isinstance(json_schema, Mapping):
        schema = _json_copy(json_schema, label)
        if not isinstance(schema, dict):
            raise SchemaConstructionError(f"the {label}'s json_schema is not an object", hint=_HINT)
        return LoadedSchema(
            schema,
            is_tool=True,
            name=_optional(getattr(value, "name", None), str),
            description=_optional(getattr(value, "description", None), str) or None,
            strict=_optional(getattr(value, "strict", None), bool),
        )
    if callable(value):
        return _load(_function_schema(value, label, options), side)
    raise SchemaConstructionError(
        f"the {label} is a {type(value).__name__}, which is not a schema", hint=_HINT
    )


def _optional(value: Any, kind: type) -> Any:
    return value if isinstance(value, kind) else None


def _function_schema(
    func: ToolFunction, label: str, options: ReportOptions | None
) -> FunctionSchema:
    try:
        # lazy: pulls in pydantic and docstring_parser (~100 ms); only a callable side needs it
        from toollens.core.function_schema import function_schema
    except ImportError as exc:
        raise SchemaConstructionError(
            f"the {label} is a callable, but the function-schema engine is unavailable",
            hint="pass a JSON Schema or a FunctionSchema instead",
        ) from exc
    try:
        if options is None:
            return function_schema(func)
        return function_schema(func, **options.schema_options())
    except SchemaConstructionError:
        raise
    except Exception as exc:  # the engine's contract is SchemaConstructionError; keep ours
        raise SchemaConstructionError(
            f"the {label} callable {getattr(func, '__name__', func)!r} cannot become a tool: "
            f"{type(exc).__name__}: {exc}",
            hint="fix the callable, or pass its JSON Schema instead",
        ) from exc


# Messages for values a JSON Schema cannot hold, by problem: message template and hint.
_NOT_PLAIN: dict[PlainProblem, tuple[str, str]] = {
    PlainProblem.TOO_DEEP: (
        f"the {{label}} nests deeper than {DIFF_NESTING_LIMIT} levels (or contains itself)",
        "flatten the schema; deeper nesting is not a usable tool schema",
    ),
    PlainProblem.KEY_NOT_STRING: (
        "the {label} has a non-string key {value!r}",
        "JSON object keys are strings",
    ),
    PlainProblem.NOT_FINITE: (
        "the {label} holds {value!r}, which JSON cannot express",
        "use a finite number",
    ),
    PlainProblem.NOT_JSON: (
        "the {label} holds a {kind}, which is not JSON data",
        "use dicts, lists, strings, numbers, booleans and None",
    ),
}


def _json_copy(value: Any, label: str) -> Any:
    """A plain-JSON deep copy (so caller dicts are never touched), checking as it goes."""
    try:
        return plain_json(value, DIFF_NESTING_LIMIT)
    except NotPlainJSON as exc:
        message, hint = _NOT_PLAIN[exc.problem]
        text = message.format(label=label, value=exc.value, kind=type(exc.value).__name__)
        raise SchemaConstructionError(text, pointer=exc.pointer, hint=hint) from exc


def _unwrap(payload: JsonObject, label: str) -> LoadedSchema:
    """Tell a provider tool payload from a bare JSON Schema and take it apart."""
    tool = unwrap_payload(payload)
    if tool is None:
        return LoadedSchema(payload)
    return _tool(dict(tool.tool), tool.tool_pointer, (tool.schema_key,), label)


def _tool(tool: JsonObject, base: str, schema_keys: tuple[str, ...], label: str) -> LoadedSchema:
    def field(key: str, kind: type) -> Any:
        value = tool.get(key)
        if value is not None and not isinstance(value, kind):
            raise SchemaConstructionError(
                f"the {label}'s tool {key} is {preview_json(value)}, not a {kind.__name__}",
                pointer=join_pointer(base, key),
                hint="fix the tool payload",
            )
        return value

    key = next((k for k in schema_keys if k in tool), schema_keys[0])
    # A function without parameters takes no arguments.
    schema = tool.get(key, {"type": "object", "properties": {}})
    if not isinstance(schema, dict):
        raise SchemaConstructionError(
            f"the {label}'s tool {key} is {preview_json(schema)}, not a JSON Schema object",
            pointer=join_pointer(base, key),
            hint="fix the tool payload",
        )
    return LoadedSchema(
        schema,
        is_tool=True,
        name=field("name", str),
        description=field("description", str) or None,
        strict=field("strict", bool),
    )


def _tool_changes(old: LoadedSchema, new: LoadedSchema) -> Iterator[SchemaChange]:
    """Name, description and strict; only when both sides are tools, not bare schemas."""
    if not (old.is_tool and new.is_tool):
        return
    if old.name != new.name:
        renamed = f"renamed from {preview_json(old.name)} to {preview_json(new.name)}"
        yield _tool_change(
            "tool.name", old.name, new.name, f"{renamed}; callers refer to it by name"
        )
    if old.description != new.description:
        kind = (
            ChangeKind.ADDED
            if old.description is None
            else ChangeKind.REMOVED
            if new.description is None
            else ChangeKind.CHANGED
        )
        yield _tool_change(
            "tool.description",
            old.description,
            new.description,
            kind.value,
            kind=kind,
            severity=DiffSeverity.DESCRIPTION_ONLY,
        )
    if old.strict != new.strict:

        def state(flag: bool | None) -> str:
            return "unset (provider default)" if flag is None else "on" if flag else "off"

        message = f"changed from {state(old.strict)} to {state(new.strict)}"
        yield _tool_change("tool.strict", old.strict, new.strict, message)


def _tool_change(
    keyword: str,
    before: object,
    after: object,
    message: str,
    *,
    kind: ChangeKind = ChangeKind.CHANGED,
    severity: DiffSeverity = DiffSeverity.BREAKING,
) -> SchemaChange:
    """A change to the tool itself (pointer ``""``); by default a breaking change of value."""
    return SchemaChange("", kind, keyword, before, after, severity, message)
