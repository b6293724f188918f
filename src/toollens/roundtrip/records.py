"""What one model call did to a function, and what a fuzz run found: frozen records."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from toollens.core.display_hooks import Bundle, mimebundle
from toollens.core.errors import ModelBehaviorError


class CallStatus(str, enum.Enum):
    """How one call ended; the command line's exit code follows from it."""

    RETURNED = "returned"  # the function returned a value
    REJECTED = "rejected"  # the arguments did not parse or validate; the function never ran
    RAISED = "raised"  # the function raised an exception
    TIMED_OUT = "timed-out"  # the function did not finish within the timeout
    NOT_RUN = "not-run"  # dry run: the arguments validated and the call was built, not made


@dataclass(frozen=True)
class CallResult:
    """One model call, from the JSON text the model sent to the text it reads next.

    Attributes:
        tool: the tool name the model called.
        arguments: the JSON text the model sent (a mapping is encoded first, as a provider would).
        status: how the call ended.
        error: why the arguments were rejected (with the JSON pointer), else ``None``.
        sdk_error: the OpenAI Agents SDK's own error text for the rejection (with tool-data
            logging on; by default the SDK redacts everything after the tool name).
        call_text: the Python call the arguments became, e.g. ``get_weather(city='Oslo')``.
        args: the positional arguments passed (the run context included when given).
        kwargs: the keyword arguments passed.
        value: what the function returned.
        exception: what the function raised (``TimeoutError`` for a timeout).
        model_text: what the model reads next: the returned value as the SDK sends it by
            default (``str(value)``), or the SDK's default error text.
        output_json: the returned value as JSON through the output schema (``None`` on the
            plain-text path, or when the value does not fit the declared return type).
        output_error: why the value does not fit the declared return type, else ``None``.
        mcp_response: for an MCP tool, what the server answered ``tools/call``: its result
            object as sent, or ``{"error": {...}}`` for a JSON-RPC error (``exception`` stays
            ``None``: nothing was raised in Python); ``None`` for a Python function.
        strict_note: for accepted arguments a model in strict mode could not send (a
            property strict mode makes required is missing, a key the schema does not
            declare), what the strict schema says: the SDK's validation is laxer than it.
    """

    tool: str
    arguments: str
    status: CallStatus
    error: ModelBehaviorError | None = None
    sdk_error: str | None = None
    call_text: str | None = None
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    value: Any = None
    exception: BaseException | None = None
    model_text: str | None = None
    output_json: str | None = None
    output_error: str | None = None
    mcp_response: dict[str, Any] | None = None
    strict_note: str | None = None

    def _repr_mimebundle_(
        self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
    ) -> Bundle:
        return mimebundle(self, include, exclude)

    @property
    def pointer(self) -> str | None:
        """The JSON pointer of the first problem in the arguments, when they were rejected."""
        return None if self.error is None else self.error.pointer

    @property
    def accepted(self) -> bool:
        """The arguments parsed and validated (whatever the function did next)."""
        return self.status is not CallStatus.REJECTED


class FindingKind(str, enum.Enum):
    """The three things ``fuzz`` looks for; the values are stable ids."""

    RAISES = "raises"  # (a) arguments the schema admits make the function raise
    TIMEOUT = "timeout"  # (a) ... or make it hang past the timeout
    DISAGREEMENT = "disagreement"  # (b) the schema admits what the function's validation rejects
    ACCEPTS_INVALID = "accepts-invalid"  # (c) the schema forbids what the function accepts


@dataclass(frozen=True)
class FuzzFinding:
    """One distinct failure, with the smallest arguments found that show it.

    Attributes:
        kind: which of the three checks found it.
        key: what makes two failures the same (exception type and line, or pointer and rule).
        arguments: the smallest arguments found, as a JSON object.
        message: one line saying what happened.
        pointer: the JSON pointer involved (validation and schema findings), else ``None``.
        result: the call of ``arguments`` (its status, Python call, exception, model text).
        shrunk: Hypothesis shrank the first example to ``arguments``.
    """

    kind: FindingKind
    key: str
    arguments: dict[str, Any]
    message: str
    pointer: str | None
    result: CallResult
    shrunk: bool = False


@dataclass(frozen=True)
class FuzzReport:
    """Everything one ``fuzz`` run tried and found.

    Attributes:
        tool: the tool name.
        provider: the provider whose schema the arguments came from (``None``: toollens's
            own schema).
        schema: the schema the arguments were generated from (what the model sees).
        seed: the Hypothesis seed.
        examples: how many argument objects were tried, edge cases included.
        findings: one per distinct failure, in the order they were first seen.
        dry_run: the function was never called (validation only).
        invalid: arguments the schema forbids were tried too.
        stopped: why the run stopped early (a call hung), else ``None``.
        edge_cases: how many of ``examples`` were the edge cases tried first (the simplest
            object, each enum member and bound, ...), on top of the ``n`` drawn ones.
    """

    tool: str
    provider: str | None
    schema: dict[str, Any]
    seed: int
    examples: int
    findings: tuple[FuzzFinding, ...]
    dry_run: bool = False
    invalid: bool = False
    stopped: str | None = None
    edge_cases: int = 0

    @property
    def ok(self) -> bool:
        return not self.findings

    def _repr_mimebundle_(
        self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
    ) -> Bundle:
        return mimebundle(self, include, exclude)
