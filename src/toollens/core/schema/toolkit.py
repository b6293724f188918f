"""JSON-Schema plumbing shared by every part of the core: one copy of each piece.

- which keywords hold subschemas (``SCHEMA_MAP_KEYWORDS``, ``SCHEMA_LIST_KEYWORDS``,
  ``SCHEMA_VALUE_KEYWORDS``, ``DEFINITION_KEYWORDS``);
- ``preview_json`` / ``shorten``: the short text of a value shown inside a message;
- ``copy_json``: a deep copy of JSON data; ``plain_json``: a copy that also checks the data
  is JSON and says where it is not;
- ``compact_json``: the compact JSON text that compares and keys documents;
- the nesting limits, each named for what it bounds.

JSON pointers and ``$ref`` resolution live beside this module, in ``pointer``.
"""

from __future__ import annotations

import copy
import enum
import json
import math
from collections.abc import Mapping
from typing import Any, Final, TypeVar, cast

from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonValue

__all__ = [
    "CACHE_KEY_DEPTH",
    "DATA_NESTING_LIMIT",
    "DEFINITION_KEYWORDS",
    "DIFF_NESTING_LIMIT",
    "FINDING_PREVIEW",
    "MESSAGE_PREVIEW",
    "PLAIN_COPY_DEPTH",
    "PROVIDER_CHECK_DEPTH",
    "SCHEMA_CHECK_DEPTH",
    "SCHEMA_LIST_KEYWORDS",
    "SCHEMA_MAP_KEYWORDS",
    "SCHEMA_VALUE_KEYWORDS",
    "STRICT_NESTING_LIMIT",
    "STRICT_NODE_BUDGET",
    "TRANSLATION_NESTING_LIMIT",
    "NotPlainJSON",
    "PlainProblem",
    "compact_json",
    "copy_json",
    "encode_compact",
    "nests_deeper",
    "plain_json",
    "preview_json",
    "shorten",
]

# -- where subschemas sit

SCHEMA_MAP_KEYWORDS: Final = (
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
)
"""Keywords whose value maps names to subschemas."""

SCHEMA_LIST_KEYWORDS: Final = ("prefixItems", "allOf", "anyOf", "oneOf", "items")
"""Keywords whose value is a list of subschemas (``items`` in its draft-07 tuple form)."""

SCHEMA_VALUE_KEYWORDS: Final = (
    "items",
    "additionalProperties",
    "unevaluatedProperties",
    "propertyNames",
    "contains",
    "not",
    "if",
    "then",
    "else",
    "additionalItems",
    "unevaluatedItems",
)
"""Keywords whose value is one subschema."""

DEFINITION_KEYWORDS: Final = ("$defs", "definitions")
"""Keywords that hold reusable definitions for ``$ref``."""

# -- nesting limits: each bounds a different thing, so each has its own name

STRICT_NESTING_LIMIT: Final = 100
"""Deepest container nesting strict conversion accepts (dicts and lists, the root is 1)."""

STRICT_NODE_BUDGET: Final = 100_000
"""Most schema nodes one strict conversion may visit; only a ``$ref`` fan-out gets near it."""

DIFF_NESTING_LIMIT: Final = 200
"""Deepest nesting the diff accepts: JSON containers when loading, schema levels walking."""

DATA_NESTING_LIMIT: Final = 256
"""Deepest container nesting a raw JSON Schema given to ``report`` may have.

Deep enough for any schema strict mode or a provider accepts (100 levels of subschemas,
two containers each, plus defaults), shallow enough that copying and the renderers, which
recurse once per level, stay far from the interpreter's recursion limit.
"""

SCHEMA_CHECK_DEPTH: Final = 200
"""Deepest subschema level the structural check of a raw JSON Schema descends to."""

PROVIDER_CHECK_DEPTH: Final = 512
"""Deepest subschema the provider checks visit (no provider accepts such nesting)."""

TRANSLATION_NESTING_LIMIT: Final = 150
"""Deepest subschema a translation to another schema dialect (Gemini's OpenAPI subset)
rewrites; far below the interpreter's recursion limit."""

PLAIN_COPY_DEPTH: Final = 100
"""How deep ``plain_json`` copies pydantic's schema before leaving it to the JSON round trip
(which then raises for a Python-level cycle, as ``json.dumps`` does)."""

CACHE_KEY_DEPTH: Final = 100
"""How deep a cache key built from a schema looks; deeper subtrees are kept whole."""

# -- previews

MESSAGE_PREVIEW: Final = 60
"""Characters of a value shown inside an error message or a change's reason."""

FINDING_PREVIEW: Final = 80
"""Characters of a value shown inside a lint or provider finding."""


def shorten(text: str, limit: int = MESSAGE_PREVIEW) -> str:
    """``text``, cut to ``limit`` characters with ``...`` when longer."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quote_prose(text: str, limit: int = MESSAGE_PREVIEW) -> str:
    """Words (a description) quoted for a message: whitespace collapsed, cut at a word with
    ``...`` inside the quotes, delimited by ``"`` or, when the words hold one, by ``'``
    (no JSON escapes for a reader to undo)."""
    flat = " ".join(text.split())
    if len(flat) > limit:
        cut = flat[: limit - 3]
        space = cut.rfind(" ")
        flat = (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:.") + "..."
    mark = "'" if '"' in flat and "'" not in flat else '"'
    return f"{mark}{flat}{mark}"


def preview_json(value: object, limit: int = MESSAGE_PREVIEW) -> str:
    """Short JSON text of a value for a message (``repr`` where JSON cannot say it)."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except (TypeError, ValueError, RecursionError):  # anything at all may sit in a schema
        try:
            text = repr(value)
        except RecursionError:  # nested past Python's limit: describe, don't print
            text = f"<{type(value).__name__} nested too deeply to show>"
    return shorten(text, limit)


# -- compact text


def _compact_encoder(*, allow_nan: bool) -> Any:
    # The C encoder made once: json.dumps builds an encoder on every call, which costs more
    # than encoding a small property. No cycle check (markers None): a cycle overflows the
    # C recursion guard and raises RecursionError like any other value that cannot be text.
    make = getattr(json.encoder, "c_make_encoder", None)
    basestring = getattr(json.encoder, "c_encode_basestring", None)
    if make is None or basestring is None:  # an interpreter without the C accelerator
        encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=allow_nan)
        return encoder.encode
    c_encode = make(None, None, basestring, None, ":", ",", False, False, allow_nan)
    return lambda value: "".join(c_encode(value, 0))


_ENCODERS: Final = {
    False: _compact_encoder(allow_nan=False),
    True: _compact_encoder(allow_nan=True),
}


def encode_compact(value: object, *, allow_nan: bool = False) -> str:
    """``json.dumps(value, ensure_ascii=False, separators=(",", ":"))``, with a prebuilt
    encoder: documents are compared and keyed by this text on every edit.

    Raises:
        TypeError, ValueError, RecursionError: what ``json.dumps`` raises for the value.
    """
    return str(_ENCODERS[allow_nan](value))


def compact_json(value: object) -> str | None:
    """``encode_compact(value)``, or ``None`` when the value is not JSON (NaN included)."""
    try:
        return encode_compact(value)
    except (TypeError, ValueError, RecursionError):
        return None


# -- copies

_T = TypeVar("_T")

_ATOMS: Final = (str, int, float, bool, type(None))


_CONTAINERS: Final = (dict, list, tuple)


def nests_deeper(value: object, room: int) -> bool:
    """Whether ``value`` (a container) nests more than ``room`` containers deep.

    Recursive, which is faster than an explicit stack here; the recursion stops after
    ``room`` levels whatever the input's depth, so with the limits above it never nears the
    interpreter's own.
    """
    if room <= 0:
        return True
    room -= 1
    children = value.values() if isinstance(value, dict) else value
    for child in cast("Any", children):
        if isinstance(child, _CONTAINERS) and nests_deeper(child, room):
            return True
    return False


def copy_json(value: _T) -> _T:
    """A deep copy of JSON data that shares no mutable object with ``value``.

    Several times faster than ``copy.deepcopy`` on dicts, lists and atoms; a dict subclass
    becomes a dict, a tuple stays a tuple, anything else is deep-copied. Recursive: callers
    bound the nesting first (``STRICT_NESTING_LIMIT``, ``DATA_NESTING_LIMIT``).
    """
    return cast("_T", _copy(value))


def _copy(value: Any) -> Any:
    cls = type(value)
    if cls is dict:
        return {key: _copy(item) for key, item in value.items()}
    if cls is list:
        return [_copy(item) for item in value]
    if isinstance(value, _ATOMS):
        return value
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return cls(_copy(item) for item in value)
    return copy.deepcopy(value)  # not JSON; copied anyway so nothing is shared


class PlainProblem(str, enum.Enum):
    """Why a value is not plain JSON data."""

    TOO_DEEP = "too-deep"
    KEY_NOT_STRING = "key-not-string"
    NOT_FINITE = "not-finite"
    NOT_JSON = "not-json"


class NotPlainJSON(ValueError):
    """A value that ``plain_json`` refuses; callers turn it into their own error.

    Attributes:
        problem: what is wrong.
        value: the offending value (the key, for ``KEY_NOT_STRING``).
        pointer: JSON pointer of the container or value concerned.
    """

    def __init__(self, problem: PlainProblem, value: object) -> None:
        super().__init__(problem.value)
        self.problem = problem
        self.value = value
        self._tokens: list[str | int] = []  # innermost first, added while unwinding

    @property
    def pointer(self) -> str:
        return join_pointer("", *reversed(self._tokens))


def plain_json(value: object, max_depth: int) -> JsonValue:
    """A copy of ``value`` as plain JSON data: dicts with str keys, lists, finite numbers.

    A mapping becomes a dict, a tuple a list and a str, int or float subclass its plain
    value: what ``json.loads(json.dumps(value))`` gives, where that succeeds.

    The root is at depth 0; a value deeper than ``max_depth`` is refused.

    Raises:
        NotPlainJSON: nesting past ``max_depth`` (or a cycle), a key that is not
            a string, NaN or an infinity, or an object JSON has no form for.
    """
    plain: JsonValue = _plain(value, max_depth)
    return plain


def _plain(value: Any, room: int) -> Any:
    if room < 0:  # counted for atoms too: the limit is on the depth of any value
        raise NotPlainJSON(PlainProblem.TOO_DEEP, value)
    cls = type(value)
    if cls is str or cls is int or cls is bool or value is None:
        return value
    if cls is dict or isinstance(value, Mapping):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise NotPlainJSON(PlainProblem.KEY_NOT_STRING, key)
            try:
                out[key] = _plain(item, room - 1)
            except NotPlainJSON as exc:
                exc._tokens.append(key)
                raise
        return out
    if cls is list or isinstance(value, list | tuple):
        items = []
        for index, item in enumerate(value):
            try:
                items.append(_plain(item, room - 1))
            except NotPlainJSON as exc:
                exc._tokens.append(index)
                raise
        return items
    if isinstance(value, float) and not math.isfinite(value):
        raise NotPlainJSON(PlainProblem.NOT_FINITE, value)
    # Subclasses (str and int enums, numpy-like floats) become the plain value JSON text
    # would hold; the base class's own method, so an override cannot change it.
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):
        return int.__int__(value)
    if isinstance(value, float):
        return float.__float__(value)
    raise NotPlainJSON(PlainProblem.NOT_JSON, value)
