"""Arguments to show an author: a readable example, fresh draws, and edge cases in turn.

The explorer's Try-it view opens with :func:`readable_example`: built from the schema in
one walk (defaults, ``examples``, the first enum member, the smallest value each bound
allows), so it is instant at 240 parameters and reads like something a model would send.
Hypothesis cannot draw a whole object that large in reasonable time, so "another example"
redraws a few properties at a time with it (:class:`ExampleSource`); a property the walk
cannot satisfy (a ``pattern``, say) is drawn by Hypothesis too.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonObject, JsonSchema, JsonValue
from toollens.roundtrip import generate
from toollens.roundtrip.fuzzing import explore

__all__ = ["ExampleSource", "readable_example"]

REDRAWN = 6  # properties "another example" redraws at a time
_MAX_DEPTH = 8  # a recursive $ref stops here (null, an empty array or object)
_FORMAT_SAMPLES = {
    "date": "2026-01-01",
    "date-time": "2026-01-01T00:00:00Z",
    "time": "00:00:00Z",
    "email": "user@example.com",
    "uri": "https://example.com",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "hostname": "example.com",
}


def readable_example(schema: JsonSchema) -> JsonObject:
    """A deterministic, readable JSON object for a parameters schema.

    Every required property, and every property without a default, gets a value: its
    default, its first ``examples`` entry, ``const``, the first enum member, or the
    smallest value its type and bounds allow. The result is not checked here.
    """
    value = _example(schema, schema, 0)
    return value if isinstance(value, dict) else {}


def _example(root: JsonSchema, schema: object, depth: int) -> JsonValue:
    node = generate.resolve(root, schema)
    if not isinstance(node, dict):
        return None
    for key in ("default", "const"):
        if key in node:
            return node[key]  # type: ignore[no-any-return]
    for key in ("examples", "enum"):
        if isinstance(node.get(key), list) and node[key]:
            return node[key][0]  # type: ignore[no-any-return]
    branches = node.get("anyOf") or node.get("oneOf") or node.get("allOf")
    if isinstance(branches, list) and branches:
        usable = [b for b in branches if not _is_null(root, b)] or branches
        return _example(root, usable[0], depth + 1)
    kinds = node.get("type")
    kind = next((k for k in kinds if k != "null"), "null") if isinstance(kinds, list) else kinds
    if kind is None:
        kind = "object" if "properties" in node else "string"
    if depth > _MAX_DEPTH:
        empty: dict[str, JsonValue] = {"object": {}, "array": []}
        return empty.get(str(kind))
    return _typed(root, str(kind), node, depth)


def _typed(root: JsonSchema, kind: str, node: dict[str, Any], depth: int) -> JsonValue:
    if kind == "object":
        return _object(root, node, depth)
    if kind == "array":
        return _array(root, node, depth)
    if kind in ("integer", "number"):
        return _number(node, integer=kind == "integer")
    if kind == "string":
        sample = _FORMAT_SAMPLES.get(str(node.get("format")), "")
        return sample or "a" * int(node.get("minLength", 0))
    return {"boolean": False, "null": None}.get(kind)


def _object(root: JsonSchema, node: dict[str, Any], depth: int) -> JsonObject:
    required = set(node.get("required", ()))
    properties = node.get("properties", {})
    return {
        name: _example(root, sub, depth + 1)
        for name, sub in properties.items()
        if name in required or not (isinstance(sub, dict) and "default" in sub)
    }


def _array(root: JsonSchema, node: dict[str, Any], depth: int) -> list[JsonValue]:
    prefix = node.get("prefixItems")
    if isinstance(prefix, list):
        return [_example(root, item, depth + 1) for item in prefix]
    count = int(node.get("minItems", 0))
    return [_example(root, node.get("items", {}), depth + 1) for _ in range(count)]


def _number(node: dict[str, Any], *, integer: bool) -> int | float:
    step = 1 if integer else 0.5
    low, high = node.get("minimum"), node.get("maximum")
    if isinstance(node.get("exclusiveMinimum"), (int, float)):
        low = node["exclusiveMinimum"] + step
    if isinstance(node.get("exclusiveMaximum"), (int, float)):
        high = node["exclusiveMaximum"] - step
    value: int | float = 0
    if isinstance(low, (int, float)) and value < low:
        value = low
    if isinstance(high, (int, float)) and value > high:
        value = high
    multiple = node.get("multipleOf")
    if isinstance(multiple, (int, float)) and multiple > 0 and value % multiple:
        value = (value // multiple + 1) * multiple
    return int(value) if integer and float(value).is_integer() else value


def _is_null(root: JsonSchema, schema: object) -> bool:
    node = generate.resolve(root, schema)
    return isinstance(node, dict) and node.get("type") == "null"


class ExampleSource:
    """The examples the Try-it view offers for one model-facing schema.

    Args:
        schema: the parameters schema the model sees (draft 2020-12; pass Gemini's OpenAPI
            schema through :func:`~toollens.roundtrip.generate.model_facing` first).
    """

    def __init__(self, schema: JsonSchema) -> None:
        self.schema = schema
        self._validator = generate.schema_validator(schema)
        self._draws = 0
        self._edges: Iterator[JsonObject] | None = None
        self.first = self._repaired(readable_example(schema))

    def another(self) -> JsonObject:
        """The first example with a few properties redrawn by Hypothesis (new each call)."""
        self._draws += 1
        rng = random.Random(self._draws)
        names = list(self._properties())
        chosen = rng.sample(names, min(REDRAWN, len(names)))
        drawn = dict(self.first)
        for name in chosen:
            value = self._value_for(self._properties()[name], seed=rng.randrange(2**32))
            if value is not _NOTHING:
                drawn[name] = value
        return drawn if self._validator.is_valid(drawn) else self.first

    def edge_case(self) -> tuple[str, JsonObject] | None:
        """The next edge case in turn, as ``(what, arguments)``; ``None`` when there is none.

        Cases are found one at a time (a 240-parameter tool has thousands), and start over
        after the last.
        """
        for _ in range(2):
            if self._edges is None:
                self._edges = generate.iter_edge_cases(self.schema, self.first)
            case = next(self._edges, None)
            if case is not None:
                return _what_changed(self.first, case), case
            self._edges = None
        return None

    def _properties(self) -> dict[str, Any]:
        props = self.schema.get("properties")
        return props if isinstance(props, dict) else {}

    def _repaired(self, example: JsonObject) -> JsonObject:
        """``example`` with each value the schema rejects (a ``pattern``, a ``format`` the walk
        has no sample for) replaced by the simplest value Hypothesis finds for its schema."""
        found: dict[str, object] = {}  # the same model's pattern fails in every copy of it
        for _ in range(3):  # a replaced value may uncover one inside it
            errors = [e for e in self._validator.iter_errors(example) if e.absolute_path]
            if not errors:
                break
            for error in errors:
                path = tuple(error.absolute_path)
                key = json.dumps(error.schema, sort_keys=True, default=str)
                if key not in found:
                    found[key] = self._value_for(error.schema, simplest=True)
                value = found[key]
                if value is not _NOTHING:
                    example = generate.set_at(example, path, value)
        return example

    def _value_for(self, schema: object, *, simplest: bool = False, seed: int = 0) -> object:
        """A Hypothesis value for ``schema`` (its refs resolved against this schema's
        ``$defs``): the simplest, or the last of three seeded draws; ``_NOTHING`` when
        Hypothesis cannot draw one."""
        # The value in an object of its own, with the $defs its refs point into.
        wrapper: dict[str, Any] = {"type": "object", "properties": {"v": schema}, "required": ["v"]}
        if "$defs" in self.schema:
            wrapper["$defs"] = self.schema["$defs"]
        got: list[object] = []
        try:
            strategy = generate.valid_arguments(generate.declared_only(wrapper))
            if simplest:
                got.append(generate.simplest(strategy).get("v"))
            else:
                explore(strategy, 3, seed, lambda value: got.append(value.get("v")))
        except Exception:  # Hypothesis gives up on some schemas (too large, unsatisfiable)
            return _NOTHING
        return got[-1] if got else _NOTHING


_NOTHING = object()


def _what_changed(base: JsonObject, case: JsonObject) -> str:
    """Which value an edge case sets, e.g. ``/days = 0``."""
    path: list[str] = []
    a: Any = base
    b: Any = case
    while isinstance(a, dict) and isinstance(b, dict):
        key = next((k for k in b if k not in a or a[k] != b[k]), None)
        if key is None:
            break
        path.append(key)
        a, b = a.get(key), b[key]
    pointer = join_pointer("", *path)
    shown = json.dumps(b, ensure_ascii=False)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return f"{pointer or '/'} = {shown}"
