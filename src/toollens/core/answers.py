"""Reading what a model sends back (an answer, a tool call's arguments), every failure one error.

Everything a model can get wrong on the way back (not UTF-8, empty, not JSON, NaN, numbers
that overflow, nesting too deep, the wrong shape) is raised as ``ModelBehaviorError`` with a
JSON pointer, a stable ``OutputFailure`` id and a hint; JSON and pydantic exceptions never
escape. :class:`~toollens.core.output.OutputSchema` calls these (its module decides which
schema the model gets); :func:`load_arguments` reads a tool call's arguments for
``FunctionSchema.validate_arguments``.
"""

from __future__ import annotations

import enum
import json
import math
import re
from collections.abc import Mapping
from typing import Any, Protocol, cast

import pydantic_core
from pydantic import TypeAdapter, ValidationError

from toollens.core.errors import ModelBehaviorError
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonMapping, JsonObject
from toollens.core.validation import pointer_from_loc


class AnswerShape(Protocol):
    """What validating an answer needs of an output schema (``OutputSchema`` has it); a
    protocol, so this module does not depend on the one that calls it."""

    @property
    def strict(self) -> bool: ...
    @property
    def is_wrapped(self) -> bool: ...
    @property
    def answer_hint(self) -> str: ...


__all__ = [
    "WRAPPER_KEY",
    "OutputFailure",
    "decode_answer",
    "load_arguments",
    "validate_answer",
]

WRAPPER_KEY = "response"
"""The one key of the object a wrapped output type is sent in."""

_ANSWER_PREVIEW = 80  # characters of an offending value shown in a message


class OutputFailure(str, enum.Enum):
    """Stable ids (``ModelBehaviorError.rule``) for the ways a model answer can fail."""

    NOT_UTF8 = "output-not-utf8"
    EMPTY = "output-empty"
    INVALID_JSON = "output-invalid-json"
    TRUNCATED = "output-truncated"
    NON_FINITE = "output-non-finite-number"
    MISSING_WRAPPER = "output-missing-wrapper"
    INVALID_VALUE = "output-invalid-value"


def decode_answer(text: str | bytes) -> str:
    """The answer as text; bytes that are not UTF-8 are the model's mistake."""
    if isinstance(text, (bytes, bytearray)):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ModelBehaviorError(
                f"output is not valid UTF-8: byte {exc.object[exc.start]:#04x} at byte offset "
                f"{exc.start}",
                pointer="",
                rule=OutputFailure.NOT_UTF8.value,
                hint="the answer must be UTF-8 text",
            ) from exc
    if not isinstance(text, str):
        raise TypeError(f"expected str or bytes, got {type(text).__name__}")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise _surrogate_error(exc) from exc
    return text


def _surrogate_error(exc: UnicodeEncodeError) -> ModelBehaviorError:
    return ModelBehaviorError(
        f"output contains an unpaired surrogate {exc.object[exc.start]!r} at char {exc.start}",
        pointer="",
        rule=OutputFailure.NOT_UTF8.value,
        hint="the answer must be UTF-8 text",
    )


# Any: a value of the output type (see OutputSchema.validate_json).
def validate_answer(schema: AnswerShape, adapter: TypeAdapter[Any], text: str) -> Any:
    """The answer ``text`` validated as ``schema`` asks, unwrapped on the wrapped path."""
    if not text.strip():
        raise ModelBehaviorError(
            "output is empty" if not text else "output is only whitespace",
            pointer="",
            rule=OutputFailure.EMPTY.value,
            hint=schema.answer_hint,
        )
    # Parse once on our own, refusing NaN and Infinity (not JSON, and no schema can allow
    # them); the parsed value also maps pydantic's error locations to JSON pointers.
    try:
        data = pydantic_core.from_json(text, allow_inf_nan=False)
    except ValueError as exc:
        raise _json_error(schema, text, str(exc)) from exc
    _reject_non_finite(schema, data)
    try:
        validated = adapter.validate_json(text, strict=True if schema.strict else None)
    except ValidationError as exc:
        raise _validation_error(schema, exc, data) from exc
    except RecursionError as exc:  # deep recursive models: never let this escape
        raise ModelBehaviorError(
            "output is nested too deeply to validate",
            pointer="",
            rule=OutputFailure.INVALID_JSON.value,
            hint=schema.answer_hint,
        ) from exc
    if schema.is_wrapped:
        return validated[WRAPPER_KEY]
    return validated


_POSITION = re.compile(r"^(?P<reason>.*?) at line (?P<line>\d+) column (?P<column>\d+)$", re.S)
_NON_JSON_NUMBER = re.compile(r"-?(?:NaN|Infinity)")


def _json_error(schema: AnswerShape, text: str, detail: str) -> ModelBehaviorError:
    match = _POSITION.match(detail)
    reason = match["reason"] if match else detail
    rule = OutputFailure.INVALID_JSON
    hint = schema.answer_hint
    if match is None:
        where = ""
    elif reason.startswith("EOF"):
        rule = OutputFailure.TRUNCATED
        where = f" at the end of the input (char {len(text)})"
        reason = f"the answer stops early ({reason})"
    else:
        line, offset, column = _char_position(text, int(match["line"]), int(match["column"]))
        if reason == "recursion limit exceeded":
            reason = "it is nested more deeply than the parser allows"
        where = f" at line {line}, column {column} (char {offset})"
        literal = _NON_JSON_NUMBER.match(text, max(offset - 1, 0)) or _NON_JSON_NUMBER.match(
            text, offset
        )
        if literal:
            reason = f"{literal.group()} is not a JSON number"
            hint = f"send finite numbers only; {hint}"
    if text.lstrip().startswith("```"):
        hint = f"answer with bare JSON, without Markdown code fences; {hint}"
    return ModelBehaviorError(
        f"output is not valid JSON: {reason}{where}", pointer="", rule=rule.value, hint=hint
    )


def _char_position(text: str, line: int, byte_column: int) -> tuple[int, int, int]:
    """Turn the parser's 1-based line and byte column into (line, 0-based char offset, column)."""
    lines = text.split("\n")
    line = min(max(line, 1), len(lines))
    start = sum(len(before) + 1 for before in lines[: line - 1])
    prefix = lines[line - 1].encode("utf-8")[: max(byte_column - 1, 0)]
    chars = len(prefix.decode("utf-8", errors="ignore"))
    return line, start + chars, chars + 1


def _reject_non_finite(schema: AnswerShape, data: Any) -> None:
    # Literals such as 1e400 parse to infinity; an answer the schema cannot describe is wrong.
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        node, where = stack.pop()
        if isinstance(node, float) and not math.isfinite(node):
            raise ModelBehaviorError(
                f"number overflows a 64-bit float, got {'-' if node < 0 else ''}1e309 or more",
                pointer=join_pointer("", *where),
                rule=OutputFailure.NON_FINITE.value,
                hint=f"send finite numbers only; {schema.answer_hint}",
            )
        if isinstance(node, dict):
            stack.extend((value, (*where, key)) for key, value in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((value, (*where, i)) for i, value in reversed(list(enumerate(node))))


_EXPECTED = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "float_parsing": "a number",
    "string_type": "a string",
    "bool_type": "a boolean",
    "bool_parsing": "a boolean",
    "none_required": "null",
    "list_type": "an array",
    "tuple_type": "an array",
    "set_type": "an array",
    "frozen_set_type": "an array",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "dataclass_type": "an object",
    "dataclass_exact_type": "an object",
}


def _expected(error: Any) -> str | None:
    """'an integer' for a type error, "'ok' or 'done'" for a Literal; None for other kinds."""
    kind = error["type"]
    if kind in _EXPECTED:
        return _EXPECTED[kind]
    if kind in {"literal_error", "enum"}:
        return f"one of {error['ctx']['expected']}"
    return None


def _validation_error(schema: AnswerShape, exc: ValidationError, data: Any) -> ModelBehaviorError:
    errors = exc.errors(include_url=False)
    pointers = [
        pointer_from_loc(error["loc"], data, missing=error["type"] == "missing") for error in errors
    ]
    first, pointer = errors[0], pointers[0]
    rule = OutputFailure.INVALID_VALUE
    # Union members each report at the same place: say "an integer or a string" once.
    same_place = [e for e, p in zip(errors, pointers, strict=True) if p == pointer]
    expected = [_expected(e) for e in same_place]
    used = 1
    if first["type"] == "missing" and isinstance(first["loc"][-1], int):
        message = f"missing array item {first['loc'][-1]}"
    elif first["type"] == "missing":
        message = f"missing required property {str(first['loc'][-1])!r}"
        if schema.is_wrapped and pointer == f"/{WRAPPER_KEY}":
            rule = OutputFailure.MISSING_WRAPPER
    elif first["type"] == "extra_forbidden":
        message = f"unexpected property {str(first['loc'][-1])!r}"
    elif schema.is_wrapped and pointer == "" and first["type"] == "dict_type":
        rule = OutputFailure.MISSING_WRAPPER
        message = f'expected an object with the key "{WRAPPER_KEY}", got {_preview(first["input"])}'
    elif all(expected):
        phrases = list(dict.fromkeys(cast("list[str]", expected)))
        used = len(same_place)
        message = f"expected {' or '.join(phrases)}, got {_preview(first['input'])}"
    else:
        text = str(first["msg"])
        if text.startswith("Input should be "):
            rest = text.removeprefix("Input should be ")
            # "greater than or equal to 0" reads as a value, not as a type
            value = "a value " if rest.startswith(("greater", "less", "finite")) else ""
            text = f"expected {value}{rest}"
        else:
            text = text[:1].lower() + text[1:]
        message = f"{text}, got {_preview(first['input'])}"
    more = len(errors) - used
    if more:
        message += f" (and {more} more problem{'s' if more > 1 else ''})"
    return ModelBehaviorError(message, pointer=pointer, rule=rule.value, hint=schema.answer_hint)


def _preview(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, default=repr)
    except (ValueError, TypeError, RecursionError):  # odd inputs: a repr still helps
        text = repr(value)
    return text if len(text) <= _ANSWER_PREVIEW else text[: _ANSWER_PREVIEW - 3] + "..."


def load_arguments(tool: str, arguments: str | bytes | JsonMapping | None) -> JsonObject:
    """The arguments a model sent for ``tool`` (JSON text or a mapping) as a dict.

    Raises:
        ModelBehaviorError: not UTF-8, not JSON (NaN and overflowing numbers included), or
            not an object.
    """
    if arguments is None:
        return {}
    if isinstance(arguments, Mapping):
        return dict(arguments)
    if isinstance(arguments, (bytes, bytearray)):
        try:
            arguments = bytes(arguments).decode("utf-8")
        except UnicodeDecodeError as exc:
            where = f"({exc.reason} at byte {exc.start})"
            raise _arguments_error(
                tool, f"are not UTF-8 {where}", "send the arguments as UTF-8 JSON text"
            ) from exc
    if not isinstance(arguments, str):
        got = type(arguments).__name__
        raise _arguments_error(tool, f"must be JSON text or a mapping, got {got}")
    if not arguments.strip():
        return {}
    try:
        data = json.loads(arguments, parse_constant=_reject_constant, parse_float=_finite_float)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        # ValueError: NaN/Infinity/overflow (ours) or an integer past Python's digit limit
        where = (
            f" at line {exc.lineno} column {exc.colno}"
            if isinstance(exc, json.JSONDecodeError)
            else f" ({exc})"
            if isinstance(exc, ValueError)
            else " (nested too deeply)"
        )
        hint = "the model must send one JSON object of finite numbers, strings and lists"
        raise _arguments_error(tool, f"are not valid JSON{where}", hint) from exc
    if not isinstance(data, dict):
        got = type(data).__name__
        hint = "wrap the arguments in an object keyed by parameter name"
        raise _arguments_error(tool, f"must be a JSON object, got {got}", hint)
    return data


def _arguments_error(tool: str, problem: str, hint: str | None = None) -> ModelBehaviorError:
    """The error for arguments a model sent for ``tool`` that are not a JSON object."""
    return ModelBehaviorError(f"arguments for tool {tool!r} {problem}", pointer="", hint=hint)


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text} overflows a float")
    return value
