"""Test-only helpers for the binding property (issue 27).

``arguments(schema)`` is a small hypothesis strategy of JSON objects valid for a tool's JSON
schema (the keywords pydantic emits for the corpus); ``received(func, args, kwargs)`` calls a
callable and returns what its innermost code received, read from the frame when that code is
entered (so functions that do not record anything themselves can be checked too).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import string
import sys
import types
from typing import Any

from hypothesis import strategies as st

_TEXT = st.text(alphabet=string.ascii_letters + string.digits + " _-", max_size=8)
_FORMATS = {
    "date-time": st.just("2024-05-01T12:30:00Z"),
    "date": st.just("2024-05-01"),
    "time": st.just("12:30:00"),
    "uuid": st.uuids().map(str),
    "email": st.just("someone@example.com"),
    "uri": st.just("https://example.com/a"),
    "duration": st.just("PT1H"),
}
_SCALARS = st.none() | st.booleans() | st.integers(-50, 50) | _TEXT


def arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """JSON objects valid for ``schema`` (a tool's parameters schema)."""
    return _value(schema, schema, depth=0)  # type: ignore[return-value]


def _value(node: Any, root: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    if depth > 6:
        return st.nothing()  # a recursive model: the optional branches end the recursion
    if not isinstance(node, dict) or not node:
        return _SCALARS
    if "$ref" in node:
        target: Any = root
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        siblings = {k: v for k, v in node.items() if k != "$ref"}
        return _value({**target, **siblings}, root, depth + 1)
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return st.one_of([_value(option, root, depth + 1) for option in node[key]])
    if "allOf" in node and len(node["allOf"]) == 1:
        return _value(node["allOf"][0], root, depth)
    kind = node.get("type")
    if isinstance(kind, list):
        return st.one_of([_value({**node, "type": k}, root, depth) for k in kind])
    return _typed(kind, node, root, depth)


def _typed(kind: Any, node: dict[str, Any], root: dict[str, Any], depth: int) -> Any:
    if kind == "integer":
        integers = st.integers(_bound(node, "minimum", -50), _bound(node, "maximum", 50))
        step = node.get("multipleOf")
        return integers.map(lambda n: n - n % step) if isinstance(step, int) else integers
    if kind == "number":
        low, high = _bound(node, "minimum", -50), _bound(node, "maximum", 50)
        return st.floats(low, high, allow_nan=False, exclude_min="exclusiveMinimum" in node)
    if kind == "string":
        if "format" in node:
            return _FORMATS.get(node["format"], st.nothing())
        low, high = node.get("minLength", 0), node.get("maxLength", 8)
        if "pattern" in node:
            pattern = st.from_regex(node["pattern"], fullmatch=True)
            return pattern.filter(lambda text: low <= len(text) <= max(low, high))
        return st.text(alphabet=string.ascii_letters, min_size=low, max_size=max(low, high))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return _array(node, root, depth)
    if kind == "object" or "properties" in node:
        return _object(node, root, depth)
    return _SCALARS


def _bound(node: dict[str, Any], key: str, fallback: int) -> int:
    value = node.get(key, node.get("exclusive" + key.capitalize()))
    if value is None:
        return fallback
    step = 1 if key == "minimum" else -1
    return int(value) + (step if f"exclusive{key.capitalize()}" in node else 0)


def _array(node: dict[str, Any], root: dict[str, Any], depth: int) -> Any:
    if "prefixItems" in node:
        return st.tuples(*[_value(i, root, depth + 1) for i in node["prefixItems"]]).map(list)
    items = _value(node.get("items", {}), root, depth + 1)
    low = node.get("minItems", 0)
    high = min(node.get("maxItems", 3), 3 if depth < 3 else low)
    unique = node.get("uniqueItems", False)
    unique_by = _key if unique else None
    return st.lists(items, min_size=low, max_size=max(low, high), unique_by=unique_by)


def _key(value: Any) -> str:
    return repr(value)


def _object(node: dict[str, Any], root: dict[str, Any], depth: int) -> Any:
    properties = node.get("properties", {})
    required = set(node.get("required", ()))
    fixed = {k: _value(v, root, depth + 1) for k, v in properties.items() if k in required}
    optional = {k: _value(v, root, depth + 1) for k, v in properties.items() if k not in required}
    base = st.fixed_dictionaries(fixed, optional=optional)
    extra = node.get("additionalProperties")
    if not isinstance(extra, dict) or depth > 2:
        return base
    keys = st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=5).filter(
        lambda k: k not in properties
    )
    more = st.dictionaries(keys, _value(extra, root, depth + 1), max_size=2)
    return st.tuples(base, more).map(lambda pair: {**pair[1], **pair[0]})


# ------------------------------------------------------------------ what the code received


def innermost_code(func: Any, depth: int = 0) -> types.CodeType:
    """The code object the call finally runs (through partials, wrappers, descriptors)."""
    assert depth < 30, f"no innermost code found for {func!r}"
    if isinstance(func, functools.partial):
        return innermost_code(func.func, depth + 1)
    if isinstance(func, (types.MethodType, staticmethod, classmethod)):
        return innermost_code(func.__func__, depth + 1)
    if isinstance(func, types.FunctionType):
        inner = inspect.unwrap(func)
        return inner.__code__ if inner is func else innermost_code(inner, depth + 1)
    if inspect.isclass(func):
        return innermost_code(func.__init__, depth + 1)
    wrapped = inspect.getattr_static(func, "__wrapped__", None)
    if wrapped is not None:
        return innermost_code(wrapped, depth + 1)
    owner = next(k for k in type(func).__mro__ if "__call__" in vars(k))
    return innermost_code(vars(owner)["__call__"], depth + 1)


def received(func: Any, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any] | None:
    """Call ``func(*args, **kwargs)``; the arguments its innermost code was entered with.

    ``None`` when that code was never entered (the call did not bind on the way). Whatever
    the body does after entry (even raise) does not matter here.
    """
    target = innermost_code(func)
    seen: dict[str, Any] = {}

    def hook(frame: types.FrameType, event: str, arg: Any) -> None:
        if event == "call" and not seen and frame.f_code is target:
            seen.update(frame.f_locals)
            seen["<entered>"] = True

    previous = sys.getprofile()
    sys.setprofile(hook)
    try:
        result = func(*args, **kwargs)
        if inspect.iscoroutine(result):
            asyncio.run(result)
    except Exception:  # only the entry matters, not what the body does
        pass
    finally:
        sys.setprofile(previous)
    return seen if seen else None


def delivered(got: dict[str, Any], func: Any, name: str, value: Any) -> bool:
    """Whether parameter ``name`` got ``value`` (itself), by name or through ``*args``/``**kwargs``.

    A wrapper taking ``*args, **kwargs`` passes the value on without its name: it is found
    by identity among the forwarded values.
    """
    if name in got:
        return got[name] is value
    code = innermost_code(func)
    rest = code.co_varnames[code.co_argcount + code.co_kwonlyargcount :]
    forwarded: list[Any] = []
    if code.co_flags & inspect.CO_VARARGS:
        forwarded.extend(got.get(rest[0], ()))
        rest = rest[1:]
    if code.co_flags & inspect.CO_VARKEYWORDS and rest:
        by_name = got.get(rest[0], {})
        if name in by_name:
            return by_name[name] is value
    return any(item is value for item in forwarded)
