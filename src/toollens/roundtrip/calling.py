"""``try_call``: what one model call does to a function, and what goes back to the model.

The steps are the OpenAI Agents SDK's: the JSON text is parsed (an empty text is ``{}``),
validated by the tool's pydantic model, rebuilt into ``(args, kwargs)`` with
``FunctionSchema.to_call_args``, and the function is called (a sync one on a thread, an
async one awaited). Validation and call rebuilding are toollens's own engine, compared with
the SDK in the tests.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from toollens.core.errors import ModelBehaviorError, TargetError, ToolLensError
from toollens.core.function_schema import FunctionSchema, function_schema
from toollens.core.metadata import MISSING
from toollens.core.schema.toolkit import shorten
from toollens.core.schema.types import JsonObject, JsonValue
from toollens.roundtrip import reply
from toollens.roundtrip.call_text import call_text
from toollens.roundtrip.records import CallResult, CallStatus
from toollens.roundtrip.running import RunStatus, run_call

if TYPE_CHECKING:
    from pydantic import BaseModel

DEFAULT_TIMEOUT = 10.0
"""Seconds ``try_call`` waits for the function before reporting a timeout."""

Arguments = str | bytes | Mapping[str, Any] | None


class PreparedTool:
    """A function with its schema, ready to take many calls (``fuzz`` makes thousands)."""

    def __init__(self, fs: FunctionSchema, func: Callable[..., Any]) -> None:
        self.fs = fs
        self.func = func
        self.output = reply.OutputEncoder(fs)

    @classmethod
    def of(cls, target: object, *, strict: bool = True) -> PreparedTool:
        """A callable, or a ``FunctionSchema`` (its callable is the one called)."""
        if isinstance(target, FunctionSchema):
            return cls(target, target.callable_info.func)
        if not callable(target):
            raise TargetError(
                f"{type(target).__name__} is not callable, so there is nothing to call",
                hint="name a function, a method or a callable object",
            )
        return cls(function_schema(target, strict=strict), target)

    def validate(self, text: str) -> tuple[BaseModel | None, CallResult | None]:
        """The model instance, or the rejection (as a result record) when there is none."""
        name = self.fs.name
        try:
            data = parse_arguments(name, text)
            return self.fs.validate_arguments(data), None
        except ModelBehaviorError as exc:
            return None, self._rejected(text, exc)

    def call(
        self, text: str, *, timeout: float | None, dry_run: bool = False, context: object = None
    ) -> CallResult:
        instance, rejected = self.validate(text)
        if rejected is not None:
            return rejected
        assert instance is not None
        takes_context = self.fs.context_parameter is not None
        try:
            args, kwargs = self.fs.to_call_args(
                instance, context=context if takes_context else MISSING
            )
        except ModelBehaviorError as exc:  # a **kwargs key that repeats a named parameter
            return self._rejected(text, exc)
        shown = call_text(self.fs, args, kwargs, context=takes_context)
        base = CallResult(
            self.fs.name,
            text,
            CallStatus.NOT_RUN,
            call_text=shown,
            args=tuple(args),
            kwargs=dict(kwargs),
        )
        if dry_run:
            return base
        return self._finish(base, run_call(self.func, args, kwargs, timeout=timeout), timeout)

    def _finish(self, base: CallResult, outcome: Any, timeout: float | None) -> CallResult:
        from dataclasses import replace

        if outcome.status is RunStatus.TIMED_OUT:
            assert timeout is not None
            return replace(
                base,
                status=CallStatus.TIMED_OUT,
                exception=outcome.exception,
                model_text=reply.timeout_text(self.fs.name, timeout),
            )
        if outcome.status is RunStatus.RAISED:
            return replace(
                base,
                status=CallStatus.RAISED,
                exception=outcome.exception,
                model_text=reply.DEFAULT_ERROR_TEXT,
            )
        encoded = self.output.encode(outcome.value)
        return replace(
            base,
            status=CallStatus.RETURNED,
            value=outcome.value,
            model_text=reply.returned_text(outcome.value),
            output_json=encoded.text,
            output_error=encoded.error,
        )

    def _rejected(self, text: str, exc: ModelBehaviorError) -> CallResult:
        return CallResult(
            self.fs.name,
            text,
            CallStatus.REJECTED,
            error=exc,
            sdk_error=_sdk_error(self.fs.name, text, exc),
            model_text=reply.DEFAULT_ERROR_TEXT,
        )


def parse_arguments(tool: str, text: str) -> JsonObject:
    """The JSON object the model sent, parsed as the SDK parses it (``""`` is ``{}``)."""
    data = decode_arguments(tool, text)
    if not isinstance(data, dict):
        raise ModelBehaviorError(
            f"arguments for tool {tool!r} must be a JSON object, got {type(data).__name__}",
            pointer="",
            hint="wrap the arguments in an object keyed by parameter name",
            rule="not-an-object",
        )
    return data


def decode_arguments(tool: str, text: str) -> JsonValue:
    """The JSON value of the text, as the SDK decodes it (``""`` is ``{}``); the error's
    cause is the ``JSONDecodeError`` with the line and column."""
    try:
        value: JsonValue = json.loads(text) if text else {}
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        where = (
            f" at line {exc.lineno} column {exc.colno} ({exc.msg})"
            if isinstance(exc, json.JSONDecodeError)
            else ""
        )
        raise ModelBehaviorError(
            f"arguments for tool {tool!r} are not valid JSON{where}",
            pointer="",
            hint="the model must send one JSON object keyed by parameter name",
            rule="not-json",
        ) from exc
    return value


def _sdk_error(tool: str, text: str, exc: ModelBehaviorError) -> str:
    if exc.rule == "not-json":
        return reply.sdk_rejection(tool, text)
    if exc.rule == "not-an-object":
        return reply.sdk_rejection(tool, "expected a JSON object")
    cause = exc.__cause__
    return reply.sdk_rejection(tool, str(cause) if cause is not None else exc.message)


def encode_arguments(arguments: Arguments) -> str:
    """The JSON text a provider would hand the SDK for ``arguments``."""
    if arguments is None:
        return ""
    if isinstance(arguments, str):
        return arguments
    if isinstance(arguments, (bytes, bytearray)):
        return bytes(arguments).decode("utf-8", errors="replace")
    try:
        return json.dumps(dict(arguments), ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise TargetError(
            f"the arguments are not JSON ({exc})", hint="pass JSON text or JSON-like values"
        ) from exc


def try_call(
    target: object,
    arguments: Arguments,
    *,
    timeout: float | None = DEFAULT_TIMEOUT,
    dry_run: bool = False,
    context: object = None,
) -> CallResult:
    """Send ``arguments`` through ``target`` as the OpenAI Agents SDK would for a model call.

    Args:
        target: a function (sync or async), method, callable object or ``FunctionSchema``.
        arguments: the JSON text the model sent, or a mapping (encoded as JSON first).
        timeout: seconds to wait for the function; ``None`` waits for ever.
        dry_run: validate and build the call, without making it.
        context: the run context passed first when the function takes one.

    Returns:
        A :class:`CallResult`: accepted or rejected (with the SDK's error text and the JSON
        pointer), the Python call, the value or exception, and what the model reads next.

    Raises:
        TargetError: ``target`` is not callable, or ``arguments`` is a mapping that is not JSON.
        SchemaConstructionError: ``target`` cannot become a tool.
    """
    # Strictness changes the schema, not the model that validates: take the non-strict
    # build so that a function strict mode refuses (``**kwargs``) can still be tried.
    tool = PreparedTool.of(target, strict=False)
    text = encode_arguments(arguments)
    result = tool.call(text, timeout=timeout, dry_run=dry_run, context=context)
    if result.status is CallStatus.REJECTED:
        return result
    note = strict_note(target, text)
    return result if note is None else dataclasses.replace(result, strict_note=note)


def strict_note(target: object, text: str) -> str | None:
    """What the strict schema says of arguments the SDK's validation accepted, if they break
    it: a model in strict mode never sends them (``None`` when they fit, or when the target
    has no strict schema)."""
    from jsonschema import Draft202012Validator

    try:
        if isinstance(target, FunctionSchema):
            fs = target
        elif callable(target):
            fs = function_schema(target, strict=True)
        else:
            return None
        data = json.loads(text or "{}")
    except (ToolLensError, ValueError):  # no strict schema (e.g. **kwargs): nothing to compare
        return None
    if not fs.strict:
        return None
    errors = sorted(Draft202012Validator(fs.json_schema).iter_errors(data), key=str)
    if not errors:
        return None
    shown = "; ".join(shorten(e.message, 80) for e in errors[:2])
    more = f" (and {len(errors) - 2} more)" if len(errors) > 2 else ""
    return (
        f"a model in strict mode never sends these arguments: the strict schema says {shown}"
        f"{more}; the SDK's validation is laxer than the schema"
    )
