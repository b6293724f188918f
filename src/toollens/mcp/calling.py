"""``call_mcp_tool``: send a model's arguments to an MCP server's tool with a real ``tools/call``.

The steps follow the OpenAI Agents SDK's ``MCPUtil.invoke_mcp_tool``: the JSON text is parsed
as the SDK parses it (an empty text is ``{}``; text that is not a JSON object is rejected
before any server starts). Then toollens starts the server (the same owned child process and
timeout as :func:`~toollens.mcp.client.fetch_tools`), lists its tools, and checks the arguments
against the tool's ``inputSchema`` as listed (JSON Schema, draft 2020-12 unless the schema
names another). That check is toollens's: the SDK only refuses a missing top-level
``required`` property and sends everything else on, and the server may validate again. Then
a real ``tools/call`` is sent, and the answer becomes what the model reads next
(:mod:`toollens.mcp.model_output`). The server is stopped however the call ends.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toollens.core.errors import ModelBehaviorError, TargetError
from toollens.core.schema.pointer import join_pointer
from toollens.core.schema.toolkit import shorten
from toollens.core.schema.types import JsonObject
from toollens.mcp.client import ConnectOptions, converse, list_tools
from toollens.mcp.failures import Attempt
from toollens.mcp.model_output import model_text, structured_text
from toollens.mcp.target import McpTarget, parse_mcp_target
from toollens.roundtrip.calling import Arguments, encode_arguments, parse_arguments
from toollens.roundtrip.records import CallResult, CallStatus
from toollens.roundtrip.reply import DEFAULT_ERROR_TEXT, sdk_rejection

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

__all__ = ["call_mcp_tool", "check_arguments", "mcp_caller", "one_tool"]

_CHECK_HINT = (
    "toollens checks the arguments against the tool's inputSchema before calling; "
    "the Agents SDK would send them to the server, which may reject them too"
)


def call_mcp_tool(
    target: McpTarget | str,
    tool: str,
    arguments: Arguments,
    *,
    options: ConnectOptions | None = None,
    dry_run: bool = False,
) -> CallResult:
    """Send ``arguments`` to the server's ``tool`` as the OpenAI Agents SDK would for a model call.

    Args:
        target: the server (``mcp:COMMAND ARGS...`` or ``mcp:URL``); a ``#TOOL`` in it must be
            ``tool``.
        tool: the tool's name.
        arguments: the JSON text the model sent, or a mapping (encoded as JSON first).
        options: environment, working directory and timeout (start-up, each request, and the
            call itself).
        dry_run: list the tool and check the arguments, without calling it.

    Returns:
        A :class:`~toollens.roundtrip.CallResult`: ``REJECTED`` (not a JSON object, or not
        valid for the ``inputSchema``, with the JSON pointer), ``RETURNED``, ``RAISED`` (an
        ``isError`` result or a JSON-RPC error, in ``mcp_response``), ``TIMED_OUT``, or
        ``NOT_RUN`` for a dry run; ``model_text`` is what the model reads next.

    Raises:
        TargetError: the ``mcp`` package is missing, the server cannot start or fails, it has
            no such tool, or its answer is not a ``tools/call`` result.
    """
    spec = _tool_target(target, tool)
    text = encode_arguments(arguments)
    try:
        data = parse_arguments(tool, text)
    except ModelBehaviorError as exc:  # the SDK refuses it before any server is involved
        detail = text if exc.rule == "not-json" else "expected a JSON object"
        return CallResult(
            tool,
            text,
            CallStatus.REJECTED,
            error=exc,
            sdk_error=sdk_rejection(tool, detail),
            model_text=DEFAULT_ERROR_TEXT,
        )
    options = options or ConnectOptions()
    call = _ToolCall(tool, text, data, options.timeout, dry_run)
    return converse(spec, options, call.run)


def mcp_caller(
    target: McpTarget | str, tool: str, options: ConnectOptions | None = None
) -> Callable[[str], CallResult]:
    """A function that calls ``tool`` with the JSON text it is given (one server per call).

    Raises:
        TargetError: ``target`` is not an ``mcp:`` target, or names another tool.
    """
    spec = _tool_target(target, tool)

    def call(arguments: str) -> CallResult:
        return call_mcp_tool(spec, tool, arguments, options=options)

    return call


def one_tool(target: str) -> McpTarget:
    """``target`` parsed; it must name one tool (``mcp:...#TOOL``).

    Raises:
        TargetError: it is not an ``mcp:`` target, or names no tool.
    """
    spec = parse_mcp_target(target)
    if spec.tool is None:
        raise TargetError(
            f"{target!r} names a server, not the tool to call",
            hint=f"add #TOOL to the target; toollens show {spec.text!r} lists its tools",
        )
    return spec


def _tool_target(target: McpTarget | str, tool: str) -> McpTarget:
    spec = parse_mcp_target(target) if isinstance(target, str) else target
    if spec.tool is not None and spec.tool != tool:
        raise TargetError(
            f"{spec.text!r} names the tool {spec.tool!r}, not {tool!r}",
            hint="name one tool, in the target or as the tool argument",
        )
    return dataclasses.replace(spec, text=spec.for_tool(tool), tool=tool)


@dataclasses.dataclass(frozen=True)
class _ToolCall:
    """One call, run on the open session: list the tool, check the arguments, call it."""

    tool: str
    text: str
    data: JsonObject
    timeout: float
    dry_run: bool

    async def run(self, session: ClientSession, spec: McpTarget, attempt: Attempt) -> CallResult:
        listed = await list_tools(session, spec, attempt)  # one tool: spec names it
        schema = listed.tools[0].input_schema
        problem = check_arguments(self.tool, schema, self.data)
        if problem is not None:
            refused = bool(_missing_required(schema, self.data))
            return CallResult(
                self.tool,
                self.text,
                CallStatus.REJECTED,
                error=problem,
                # The SDK's own check refuses a missing top-level property: the model then
                # reads its default error; anything else reaches the server.
                model_text=DEFAULT_ERROR_TEXT if refused else None,
            )
        shown = f"tools/call {self.tool} {json.dumps(self.data, ensure_ascii=False)}"
        base = CallResult(
            self.tool, self.text, CallStatus.NOT_RUN, call_text=shown, kwargs=dict(self.data)
        )
        if self.dry_run:
            return base
        attempt.step = "tools/call"
        return await self._send(session, base)

    async def _send(self, session: ClientSession, base: CallResult) -> CallResult:
        import anyio
        import mcp_types as types
        from mcp.shared.exceptions import MCPError
        from pydantic import TypeAdapter

        params = types.CallToolRequestParams(name=self.tool, arguments=self.data)
        with anyio.move_on_after(self.timeout):
            try:
                raw = await session.send_request(
                    types.CallToolRequest(params=params),
                    TypeAdapter(dict[str, Any]),  # type: ignore[type-var]  # the raw answer
                )
            except MCPError as exc:
                if exc.code == types.CONNECTION_CLOSED:  # the server died: not an answer
                    raise
                error = exc.error.model_dump(mode="json", by_alias=True, exclude_none=True)
                return dataclasses.replace(
                    base,
                    status=CallStatus.RAISED,
                    mcp_response={"error": error},
                    model_text=DEFAULT_ERROR_TEXT,  # the SDK raises; its default error text
                )
            return _answered(base, raw)
        return dataclasses.replace(
            base,
            status=CallStatus.TIMED_OUT,
            exception=TimeoutError(f"the server did not answer within {self.timeout:g} seconds"),
            # The SDK's session times out with a JSON-RPC error: its default error text.
            model_text=DEFAULT_ERROR_TEXT,
        )


def _answered(base: CallResult, raw: dict[str, Any]) -> CallResult:
    import mcp_types as types

    result = types.CallToolResult.model_validate(raw)
    return dataclasses.replace(
        base,
        status=CallStatus.RAISED if result.is_error else CallStatus.RETURNED,
        mcp_response=raw,
        model_text=model_text(result),
        output_json=structured_text(result),
    )


def check_arguments(tool: str, schema: JsonObject, data: JsonObject) -> ModelBehaviorError | None:
    """The first problem JSON Schema finds in ``data`` (draft 2020-12 unless ``$schema``
    says otherwise), with its JSON pointer; ``None`` when the arguments are valid.

    Raises:
        TargetError: the ``inputSchema`` is not a usable JSON Schema.
    """
    from jsonschema import Draft202012Validator, validators
    from jsonschema.exceptions import SchemaError, best_match
    from referencing.exceptions import Unresolvable

    try:
        kind = validators.validator_for(schema, default=Draft202012Validator)
        kind.check_schema(schema)
        error = best_match(kind(schema).iter_errors(data))
    except (SchemaError, Unresolvable) as exc:
        what = exc.message if isinstance(exc, SchemaError) else f"unresolvable $ref ({exc})"
        raise TargetError(
            f"the inputSchema of tool {tool!r} is not a usable JSON Schema: {shorten(what)}",
            hint="fix the schema the server lists",
        ) from exc
    if error is None:
        return None
    pointer = join_pointer("", *error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, dict):
        missing = [n for n in error.validator_value if n not in error.instance]
        pointer = join_pointer(pointer, *missing[:1])
    return ModelBehaviorError(
        shorten(error.message), pointer=pointer, rule=str(error.validator), hint=_CHECK_HINT
    )


def _missing_required(schema: JsonObject, data: JsonObject) -> list[str]:
    """The top-level ``required`` names the arguments lack (the SDK's own pre-call check)."""
    required = schema.get("required")
    if not isinstance(required, list):
        return []
    return [name for name in required if isinstance(name, str) and name not in data]
