"""Turn one call into a finding, or nothing: what counts as a failure, and when two are one.

Two failures are the same when they have the same key: an exception's type and the line that
raised it; a validation error's pointer (array indices as ``*``) and pydantic's error type; a
schema violation's pointer and JSON-Schema keyword.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toollens.core.schema.pointer import join_pointer, split_pointer
from toollens.core.schema.toolkit import preview_json, shorten
from toollens.core.schema.types import JsonObject
from toollens.roundtrip.records import CallResult, CallStatus, FindingKind

if TYPE_CHECKING:
    from jsonschema import ValidationError


@dataclass(frozen=True)
class Observation:
    """A failure seen on one call, before shrinking."""

    kind: FindingKind
    key: str
    message: str
    pointer: str | None
    result: CallResult


def on_valid(arguments: JsonObject, result: CallResult) -> Observation | None:
    """A call with arguments the schema admits: a raise, a timeout or a rejection is a finding."""
    if result.status is CallStatus.RAISED:
        return _raised(result)
    if result.status is CallStatus.TIMED_OUT:
        message = f"{result.call_text} did not return: {result.exception}"
        return Observation(FindingKind.TIMEOUT, "timeout", message, None, result)
    if result.status is CallStatus.REJECTED:
        return _disagreement(arguments, result)
    return None


def on_invalid(
    arguments: JsonObject, schema_error: ValidationError, result: CallResult
) -> Observation | None:
    """A call with arguments the schema forbids: the function accepting them is a finding."""
    if result.status not in (CallStatus.RETURNED, CallStatus.NOT_RUN):
        return None
    pointer = join_pointer("", *schema_error.absolute_path)
    keyword = str(schema_error.validator)
    what = "the function's validation accepts it"
    if result.status is CallStatus.RETURNED:
        what = "the function accepts it and returns"
    then = f" ({shorten(schema_error.message, 100)}), but {what}"
    return _argument_finding(
        FindingKind.ACCEPTS_INVALID, keyword, arguments, pointer, result, "forbids", then
    )


def _raised(result: CallResult) -> Observation:
    if result.mcp_response is not None:
        return _mcp_error(result, result.mcp_response)
    exc = result.exception
    assert exc is not None
    frames = traceback.extract_tb(exc.__traceback__)
    where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else "?"
    kind = type(exc).__qualname__
    key = f"{FindingKind.RAISES.value}:{kind}:{where}"
    message = f"{result.call_text} raised {kind}: {shorten(str(exc), 120)}"
    return Observation(FindingKind.RAISES, key, message, None, result)


# The values an error text quotes vary with the arguments; the failure is the same.
_VARYING = re.compile(r"'[^']*'|\"[^\"]*\"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def _mcp_error(result: CallResult, response: JsonObject) -> Observation:
    """An MCP server's ``isError`` result or JSON-RPC error: the same when its text, with the
    quoted values and numbers masked, is the same."""
    error = response.get("error")
    if isinstance(error, dict):
        text = str(error.get("message", ""))
        what = f"a JSON-RPC error {error.get('code')}"
    else:
        content = response.get("content")
        parts = content if isinstance(content, list) else []
        text = " ".join(str(p.get("text", "")) for p in parts if isinstance(p, dict))
        what = "an isError result"
    first = (text.strip().splitlines() or [""])[0]
    key = f"{FindingKind.RAISES.value}:{what}:{_VARYING.sub('#', first)[:120]}"
    message = f"{result.call_text} got {what}: {shorten(first, 120)}"
    return Observation(FindingKind.RAISES, key, message, None, result)


def _disagreement(arguments: dict[str, Any], result: CallResult) -> Observation:
    error = result.error
    assert error is not None
    pointer = error.pointer or ""
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    rule = errors()[0]["type"] if callable(errors) else (error.rule or "rejected")
    then = f", but the function's validation rejects it: {shorten(error.message, 160)}"
    return _argument_finding(
        FindingKind.DISAGREEMENT, rule, arguments, pointer, result, "admits", then
    )


def _argument_finding(
    kind: FindingKind,
    rule: str,
    arguments: Any,
    pointer: str,
    result: CallResult,
    schema_says: str,
    then: str,
) -> Observation:
    """What the schema says of the argument at ``pointer`` and what the function did (``then``);
    one finding per kind, pointer (any index) and rule."""
    message = f"the schema {schema_says} {_value_at(arguments, pointer)} at {pointer or '/'}{then}"
    key = f"{kind.value}:{_generic(pointer)}:{rule}"
    return Observation(kind, key, message, pointer, result)


def _generic(pointer: str) -> str:
    """``/items/3/name`` -> ``/items/*/name``: the same failure at another index is the same."""
    tokens = ["*" if token.isdigit() else token for token in split_pointer(pointer)]
    return join_pointer("", *tokens)


def _value_at(arguments: Any, pointer: str) -> str:
    node = arguments
    for token in split_pointer(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return "the arguments"
    return preview_json(node)
