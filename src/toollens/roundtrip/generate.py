"""Arguments from the schema the model sees: valid ones, edge cases, and invalid ones.

Valid arguments come from one Hypothesis strategy per schema: objects, arrays, unions and
refs composed by :mod:`toollens.roundtrip.strategies`, hypothesis-jsonschema at the leaves
(with the compatibility shim of :mod:`toollens.roundtrip.compat`). Edge cases are added by
hand because a fuzz run is short: every enum member, each bound, ``null`` where the schema
allows it, empty and long strings, each set on the simplest valid object, one at a time. Invalid
arguments are valid ones with one top-level property broken, dropped or added: each such
mutation on the simplest object first, then in turn on objects Hypothesis draws.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TypeVar, cast

from toollens.core.errors import ToolLensError
from toollens.core.schema.pointer import UnresolvedRef, join_pointer, resolve_local
from toollens.core.schema.types import JsonObject, JsonSchema

_T = TypeVar("_T")

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy
    from jsonschema import Draft202012Validator

LONG_STRING = 1000  # characters of the "long string" edge case when no maxLength says otherwise
_MAX_DEPTH = 3  # nested objects walked for edge cases
_WRONG_TYPES: tuple[Any, ...] = ("1", "true", "", 1, 1.5, True, None, [], {})


class GenerationError(ToolLensError):
    """Hypothesis cannot generate arguments from this schema."""


def model_facing(schema: JsonSchema) -> JsonSchema:
    """A JSON Schema for a provider's schema: OpenAPI's ``nullable: true`` becomes a null branch.

    Gemini's classic ``parameters`` field takes an OpenAPI subset; everything else toollens
    sends is JSON Schema already and comes back unchanged (as a copy).
    """
    converted: dict[str, Any] = _from_openapi(copy.deepcopy(schema))
    return converted


def _rewrite_objects(node: Any, rewrite: Callable[[dict[str, Any]], Any]) -> Any:
    """A copy of JSON ``node`` rebuilt bottom-up, every object passed through ``rewrite``."""
    if isinstance(node, list):
        return [_rewrite_objects(item, rewrite) for item in node]
    if not isinstance(node, dict):
        return node
    return rewrite({key: _rewrite_objects(value, rewrite) for key, value in node.items()})


def _from_openapi(node: Any) -> Any:
    return _rewrite_objects(node, _json_schema_object)


def _json_schema_object(out: dict[str, Any]) -> Any:
    out.pop("propertyOrdering", None)  # Gemini's ordering hint, not a constraint
    if out.pop("nullable", False) is True:
        return {"anyOf": [out, {"type": "null"}]}
    return out


def declared_only(schema: JsonSchema) -> JsonSchema:
    """The schema generation draws from: a copy in which an object with ``properties`` and no
    word on other keys takes no others, and ``prefixItems`` is spelled the draft-7 way.

    A model sends the keys a schema declares, pydantic ignores the rest, and drawing arbitrary
    extra keys (with arbitrary JSON under them) costs most of a run's time while finding
    nothing; an explicit ``additionalProperties`` is kept. hypothesis-jsonschema reads drafts
    4 to 7, where a tuple is ``items: [...]`` plus ``additionalItems``; pydantic writes
    draft 2020-12's ``prefixItems`` plus ``items``.
    """
    drawn: JsonSchema = _declared_only(schema)
    return drawn


def _declared_only(schema: Any) -> Any:
    return _rewrite_objects(schema, _declared_object)


def _declared_object(out: dict[str, Any]) -> dict[str, Any]:
    if isinstance(out.get("properties"), dict) and "additionalProperties" not in out:
        out["additionalProperties"] = False
    if isinstance(out.get("prefixItems"), list):
        rest = out.pop("items", None)
        out["items"] = out.pop("prefixItems")
        if rest is not None:
            out["additionalItems"] = rest
    return out


def valid_arguments(schema: JsonSchema) -> SearchStrategy[JsonObject]:
    """Hypothesis's strategy for JSON the schema admits (pass it through ``declared_only``).

    Objects, arrays, unions and refs are composed once (:mod:`toollens.roundtrip.strategies`);
    hypothesis-jsonschema draws the rest, and a schema it cannot use raises here.
    """
    # lazy: the strategy builders (~1 ms); `toollens --help` imports this module, not them
    from toollens.roundtrip.compat import install
    from toollens.roundtrip.strategies import strategy_for

    install()
    try:  # the parameters schema is an object schema: what it draws is a JSON object
        return cast("SearchStrategy[JsonObject]", strategy_for(schema))
    except _unusable() as exc:
        raise _cannot_generate(exc) from exc


def _unusable() -> tuple[type[Exception], ...]:
    """What hypothesis-jsonschema raises for a schema it cannot draw from."""
    from hypothesis.errors import InvalidArgument
    from hypothesis_jsonschema._canonicalise import HypothesisRefResolutionError

    return (InvalidArgument, HypothesisRefResolutionError)


def _cannot_generate(exc: Exception) -> GenerationError:
    return GenerationError(
        f"cannot generate arguments from this schema ({_first_line(exc)})",
        hint="recursive $refs and unknown formats are not supported by the generator",
    )


def simplest(strategy: SearchStrategy[_T]) -> _T:
    """The simplest value of ``strategy``, as Hypothesis shrinks it (deterministic)."""
    from hypothesis import HealthCheck, Phase, Verbosity, find, settings
    from hypothesis.errors import NoSuchExample, Unsatisfiable

    # No explain phase: it re-runs the example to name its parts, costly and unused here.
    quiet = settings(
        database=None,
        deadline=None,
        verbosity=Verbosity.quiet,
        phases=[Phase.generate, Phase.shrink],
        max_examples=50,
        suppress_health_check=list(HealthCheck),
    )
    try:
        return find(strategy, lambda _: True, settings=quiet)
    except _unusable() as exc:  # the library reads the schema on the first draw
        raise _cannot_generate(exc) from exc
    except (NoSuchExample, Unsatisfiable) as exc:
        raise GenerationError(
            "the schema admits no arguments at all", hint="check the parameters' constraints"
        ) from exc


def schema_validator(schema: JsonSchema) -> Draft202012Validator:
    """A draft 2020-12 validator that also checks ``format`` (as OpenAI's strict mode does)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def require_valid(schema: JsonSchema) -> None:
    """Raise :class:`GenerationError` at the first place ``schema`` is not valid JSON Schema
    (draft 2020-12, formats such as ``regex`` included): nothing can be checked against it."""
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    meta = Draft202012Validator(
        Draft202012Validator.META_SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER
    )
    error = best_match(meta.iter_errors(schema))
    if error is None:
        return
    raise GenerationError(
        f"the schema is not valid JSON Schema: {error.message}",
        pointer=join_pointer("", *error.absolute_path),
        hint="fix the schema at that place; arguments cannot be checked against it",
    )


def edge_cases(schema: JsonSchema, base: JsonObject) -> list[JsonObject]:
    """``base`` with one property at a time set to an edge value the schema admits.

    ``schema`` is the model-facing schema (draft 2020-12), not the one generation draws from.
    """
    return list(iter_edge_cases(schema, base))


def iter_edge_cases(schema: JsonSchema, base: JsonObject) -> Iterator[JsonObject]:
    """The edge cases of :func:`edge_cases`, found one at a time."""
    validator = schema_validator(schema)
    seen = {_key(base)}
    for path, subschema in _property_schemas(schema, schema, base, (), 0):
        for value in edge_values(schema, subschema):
            variant = set_at(base, path, value)
            if _key(variant) not in seen and validator.is_valid(variant):
                seen.add(_key(variant))
                yield variant


def edge_values(root: JsonSchema, schema: object) -> Iterator[object]:
    """Boundary values, enum members, null, empty and long strings for one schema."""
    node = resolve(root, schema)
    if not isinstance(node, dict):
        return
    if "enum" in node:
        yield from node["enum"]
    if "const" in node:
        yield node["const"]
    for key in ("anyOf", "oneOf"):
        for branch in node.get(key, ()):
            yield from edge_values(root, branch)
    kinds = node.get("type", [])
    for kind in kinds if isinstance(kinds, list) else [kinds]:
        yield from _typed_edges(kind, node)


def _typed_edges(kind: str, node: dict[str, Any]) -> Iterator[Any]:
    if kind == "null":
        yield None
    elif kind == "boolean":
        yield from (False, True)
    elif kind in ("integer", "number"):
        step = 1 if kind == "integer" else 0.5
        for key, shift in (
            ("minimum", 0),
            ("maximum", 0),
            ("exclusiveMinimum", step),
            ("exclusiveMaximum", -step),
        ):
            if isinstance(node.get(key), (int, float)):
                yield node[key] + shift
        yield from (0, -1, 1) if kind == "integer" else (0, -1.5, 0.5)
    elif kind == "string" and "format" not in node:  # formatted strings: Hypothesis draws them
        low, high = node.get("minLength", 0), node.get("maxLength", LONG_STRING)
        yield from ("", "a" * low, "a" * high, " ")
    elif kind == "array":
        yield []


def _property_schemas(
    root: dict[str, Any], schema: Any, value: Any, path: tuple[str, ...], depth: int
) -> Iterator[tuple[tuple[str, ...], Any]]:
    node = resolve(root, schema)
    if depth > _MAX_DEPTH or not isinstance(node, dict) or not isinstance(value, dict):
        return
    for name, sub in node.get("properties", {}).items():
        if name in value:
            yield (*path, name), sub
            yield from _property_schemas(root, sub, value[name], (*path, name), depth + 1)


Mutation = tuple[str, str, Any]
"""``("set", name, value)`` or ``("drop", name, None)`` on a top-level property."""


def mutations(schema: JsonSchema) -> list[Mutation]:
    """Ways to break valid arguments: one top-level property set to a value its schema
    forbids, a required one dropped, or an unexpected one added to a closed object."""
    return list(_mutations(schema))


def _mutations(schema: dict[str, Any]) -> Iterator[Mutation]:
    """Each property's values that break it, taken round-robin so every property comes early."""
    node = resolve(schema, schema)
    if not isinstance(node, dict):
        return
    per_property: list[list[Mutation]] = []
    for name, sub in node.get("properties", {}).items():
        check = schema_validator(_with_defs(schema, sub))
        broken = [v for v in (*_broken_values(schema, sub), *_WRONG_TYPES) if not check.is_valid(v)]
        per_property.append([("set", name, value) for value in _unique(broken)])
    for round_ in itertools.zip_longest(*per_property):
        yield from (m for m in round_ if m is not None)
    for name in node.get("required", ()):
        yield ("drop", name, None)
    if node.get("additionalProperties") is False:
        yield ("set", "unexpected", 1)


def _with_defs(root: dict[str, Any], schema: Any) -> Any:
    """``schema`` as a document of its own that can still follow the root's local ``$ref``s."""
    if not isinstance(schema, dict):
        return schema
    defs = {key: root[key] for key in ("$defs", "definitions") if key in root}
    return {**defs, **schema}


def _unique(values: list[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for value in values:
        if _key(value) not in seen:
            seen.add(_key(value))
            out.append(value)
    return out


def _broken_values(root: dict[str, Any], schema: Any) -> Iterator[Any]:
    node = resolve(root, schema)
    if not isinstance(node, dict):
        return
    for key, shift in (
        ("minimum", -1),
        ("maximum", 1),
        ("exclusiveMinimum", 0),
        ("exclusiveMaximum", 0),
    ):
        if isinstance(node.get(key), (int, float)):
            yield node[key] + shift
    if isinstance(node.get("maxLength"), int):
        yield "a" * (node["maxLength"] + 1)
    if "pattern" in node:
        yield from ("!", " ")
    if "enum" in node:
        yield "not one of the enum"
    for key in ("anyOf", "oneOf"):
        for branch in node.get(key, ()):
            yield from _broken_values(root, branch)


def mutate(value: JsonObject, mutation: Mutation) -> JsonObject:
    """``value`` (an object) with ``mutation`` applied, as a fresh object."""
    action, name, replacement = mutation
    if not isinstance(value, dict):
        return value
    out = dict(value)
    if action == "drop":
        out.pop(name, None)
    else:
        out[name] = copy.deepcopy(replacement)
    return out


def resolve(root: JsonSchema, schema: object) -> object:
    """``schema`` with its local ``$ref`` followed (siblings of the ref kept), or as given."""
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 20:
        try:
            _, target = resolve_local(root, schema["$ref"])
        except UnresolvedRef:
            return schema
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**target, **siblings} if isinstance(target, dict) else target
        seen += 1
    return schema


def set_at(base: _T, path: tuple[str | int, ...], value: object) -> _T:
    """A deep copy of ``base`` with the value at ``path`` (keys and indexes) replaced."""
    out = copy.deepcopy(base)
    node: Any = out  # each step is a dict or a list, as the path says
    for name in path[:-1]:
        node = node[name]
    node[path[-1]] = copy.deepcopy(value)
    return out


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    first = text[0].split(" in schema=")[0] if text else type(exc).__name__
    return first[:200]
