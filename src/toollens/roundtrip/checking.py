"""Check arguments without calling: every problem at its JSON pointer, and the Python call.

The explorer's Try-it view re-checks on every keystroke in its JSON editor and on every
edit of the function, so this never runs the function. Two judges speak, each marked with
its source: the OpenAI Agents SDK's validation (the function's pydantic model; what the
model is told when it fails) and the schema the model sees for the chosen provider (a
strict model cannot produce what that schema forbids).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from toollens.core.errors import ModelBehaviorError
from toollens.core.record_json import record_json
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.types import JsonSchema
from toollens.core.validation import pointer_from_loc, validation_message
from toollens.roundtrip.calling import decode_arguments
from toollens.roundtrip.generate import schema_validator

if TYPE_CHECKING:
    from toollens.roundtrip.calling import PreparedTool
    from toollens.roundtrip.records import CallResult

__all__ = ["MAX_MARKS", "ArgumentCheck", "ArgumentMark", "check_arguments"]

MAX_MARKS = 50  # problems listed per check: a wrong paste into a 240-parameter tool has many

MarkSource = Literal["json", "sdk", "schema"]


@dataclass(frozen=True)
class ArgumentMark:
    """One problem in the arguments.

    Attributes:
        pointer: the JSON pointer of the value (``""`` for the whole object), or ``None``
            when the text is not JSON (then ``line`` and ``column`` say where).
        message: one line: what is wrong.
        source: ``"json"`` (the text does not parse), ``"sdk"`` (the SDK rejects it: the
            model is told), or ``"schema"`` (the schema the model sees does not admit it).
        line: 1-based line in the text (``"json"`` marks).
        column: 1-based column in the text (``"json"`` marks).
    """

    pointer: str | None
    message: str
    source: MarkSource
    line: int | None = None
    column: int | None = None

    def to_json(self) -> dict[str, str | int | None]:
        return record_json(self, "pointer", "message", "source", "line", "column")


@dataclass(frozen=True)
class ArgumentCheck:
    """What the arguments would do, short of calling the function.

    Attributes:
        arguments: the JSON text checked.
        marks: every problem found (at most :data:`MAX_MARKS`), SDK rejections first.
        dry_run: the SDK's path without the call (the Python call, or the rejection with the
            text the model is told); ``None`` when there is no function (a plain schema).
    """

    arguments: str
    marks: tuple[ArgumentMark, ...]
    dry_run: CallResult | None = None

    @property
    def accepted(self) -> bool:
        """Nothing stops the call: the text parses and the SDK's validation accepts it."""
        return not any(mark.source in ("json", "sdk") for mark in self.marks)


def check_arguments(
    text: str, tool: PreparedTool | None, schema: JsonSchema | None
) -> ArgumentCheck:
    """Check ``text`` against ``tool``'s validation and the model-facing ``schema``.

    Args:
        text: the JSON arguments as the model would send them.
        tool: the function with its schema (``None`` for a plain JSON Schema).
        schema: the parameters schema the model sees (draft 2020-12), or ``None``.
    """
    try:
        data = decode_arguments(tool.fs.name if tool is not None else "tool", text)
    except ModelBehaviorError as exc:  # the SDK's own decoding: the same verdict as a call
        return ArgumentCheck(text, (_not_json(exc.__cause__),), None)
    marks: list[ArgumentMark] = []
    dry_run = None
    if tool is not None:
        dry_run = tool.call(text, timeout=None, dry_run=True)
        marks.extend(_sdk_marks(dry_run, data))
    if schema is not None:
        marks.extend(_schema_marks(schema, data))
    return ArgumentCheck(text, tuple(marks[:MAX_MARKS]), dry_run)


def _not_json(exc: BaseException | None) -> ArgumentMark:
    if isinstance(exc, json.JSONDecodeError):
        return ArgumentMark(None, f"not JSON: {exc.msg}", "json", exc.lineno, exc.colno)
    return ArgumentMark(None, "not JSON: nested too deeply", "json", 1, 1)


def _sdk_marks(result: CallResult, data: object) -> list[ArgumentMark]:
    """Every pydantic error behind a rejection, at its pointer (the SDK reports the lot)."""
    import pydantic

    if result.error is None:
        return []
    cause = result.error.__cause__
    if not isinstance(cause, pydantic.ValidationError):  # not an object, a **kwargs clash
        return [ArgumentMark(result.error.pointer or "", result.error.message, "sdk")]
    return [
        ArgumentMark(
            pointer_from_loc(error["loc"], data, missing=error["type"] == "missing"),
            validation_message(error),
            "sdk",
        )
        for error in cause.errors()
    ]


def _schema_marks(schema: JsonSchema, data: object) -> list[ArgumentMark]:
    errors = sorted(schema_validator(schema).iter_errors(data), key=lambda e: list(e.path))
    return [
        ArgumentMark(join_pointer("", *error.absolute_path), _schema_message(error), "schema")
        for error in errors[:MAX_MARKS]
    ]


def _schema_message(error: object) -> str:
    """jsonschema's message, shortened: it quotes whole objects for a missing property."""
    text = str(getattr(error, "message", error))
    return text if len(text) <= 200 else text[:197] + "..."
