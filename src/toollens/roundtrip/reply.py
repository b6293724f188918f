"""What goes back to the model after a call: the text it reads, and the JSON of the value.

The texts follow the OpenAI Agents SDK 0.24 with its defaults (no ``failure_error_function``
or ``timeout_error_function`` of the author's own):

- a returned ``str`` is sent as it is, any other value as ``str(value)``;
- an exception, and arguments that do not parse or validate, become one fixed sentence that
  hides the error from the model (``default_tool_error_function``);
- a timeout (a tool with ``timeout=`` set) becomes ``Tool 'NAME' timed out after S seconds.``

The tests compare each text with the SDK's own functions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toollens.core.errors import ModelBehaviorError, ToolLensError
from toollens.core.output import WRAPPER_KEY, OutputPath
from toollens.core.validation import validation_message

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from toollens.core.function_schema import FunctionSchema

DEFAULT_ERROR_TEXT = "An error occurred while running the tool. Please try again."
"""What the SDK's default ``failure_error_function`` tells the model, whatever went wrong."""

SDK_REJECTION_PREFIX = "Invalid JSON input for tool"
"""How the SDK's ``ModelBehaviorError`` for unusable arguments begins."""


def timeout_text(tool: str, timeout: float) -> str:
    """The SDK's default message to the model when a tool with a timeout runs past it."""
    return f"Tool '{tool}' timed out after {timeout:g} seconds."


def sdk_rejection(tool: str, detail: str) -> str:
    """The SDK's error text for arguments it cannot use (tool-data logging on)."""
    return f"{SDK_REJECTION_PREFIX} {tool}: {detail}"


def returned_text(value: object) -> str:
    """The text the model reads for a returned value (the SDK's default, non-structured path)."""
    return value if isinstance(value, str) else str(value)


@dataclass(frozen=True)
class OutputJson:
    """The value as JSON through the output schema, or why it does not fit."""

    text: str | None = None
    error: str | None = None


class OutputEncoder:
    """Validates returned values against the declared return type and encodes them as JSON.

    The type adapter is made once per tool (on first use), so ``fuzz`` pays for it once.
    """

    def __init__(self, fs: FunctionSchema) -> None:
        self._fs = fs
        self._adapter: TypeAdapter[Any] | None = None

    def encode(self, value: object) -> OutputJson:
        try:
            schema = self._fs.output
        except ToolLensError as exc:  # the return type has no schema: nothing to encode with
            return OutputJson(error=str(exc))
        if schema.path is OutputPath.PLAIN_TEXT:
            return OutputJson()
        from pydantic import TypeAdapter, ValidationError

        if self._adapter is None:
            self._adapter = TypeAdapter(self._fs.output_type)
        try:
            validated = self._adapter.validate_python(value)
        except ValidationError as exc:
            first = exc.errors()[0]
            return OutputJson(
                error=f"the value does not fit {schema.name}: {validation_message(first)}"
            )
        dumped = self._adapter.dump_python(validated, mode="json", by_alias=True)
        shaped = {WRAPPER_KEY: dumped} if schema.path is OutputPath.WRAPPED else dumped
        text = json.dumps(shaped, ensure_ascii=False, separators=(",", ":"))
        try:
            schema.validate_json(text)
        except ModelBehaviorError as exc:
            return OutputJson(text=text, error=f"the JSON does not fit the output schema: {exc}")
        return OutputJson(text=text)
