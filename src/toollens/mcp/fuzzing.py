"""``fuzz`` for an MCP server's tool: generated arguments sent through real ``tools/call`` requests.

The server is started once and every call of the run goes over the same session. The
arguments are drawn from the tool's ``inputSchema`` as the server lists it (what the OpenAI
Agents SDK hands the model), and each is sent as the SDK would send it: only a missing
top-level ``required`` property is refused before the server sees it. An ``isError`` result
or a JSON-RPC error is a finding, shrunk like a Python function's exception.

Hypothesis drives the run synchronously, so it runs on a worker thread while the session
stays on the event loop; each call crosses back with ``anyio.from_thread.run``.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from typing import TYPE_CHECKING

from toollens.core.errors import TargetError
from toollens.core.schema.types import JsonObject
from toollens.mcp.calling import _missing_required, _ToolCall, check_arguments, one_tool
from toollens.mcp.client import ConnectOptions, converse, list_tools
from toollens.mcp.failures import Attempt
from toollens.mcp.target import McpTarget
from toollens.roundtrip.fuzzing import FuzzPlan, fuzz_calls
from toollens.roundtrip.records import CallResult, CallStatus, FuzzReport
from toollens.roundtrip.reply import DEFAULT_ERROR_TEXT

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

__all__ = ["fuzz_mcp_tool"]


def fuzz_mcp_tool(
    target: McpTarget | str,
    plan: FuzzPlan | None = None,
    *,
    options: ConnectOptions | None = None,
    provider: str | None = None,
) -> FuzzReport:
    """Fuzz the tool ``target`` names (``mcp:COMMAND ARGS...#TOOL``) over one server session.

    Args:
        target: the server and the tool (``#TOOL``).
        plan: how many arguments, the seed, ``invalid``, the timeout of each call, dry run.
        options: environment, working directory and the start-up/``tools/list`` timeout.
        provider: a provider the caller named, as :func:`toollens.roundtrip.fuzz` takes one;
            refused: an MCP tool has no Python schema to convert for a provider.

    Returns:
        A :class:`~toollens.roundtrip.FuzzReport` (``provider`` is ``None``: the arguments
        come from the ``inputSchema`` as listed).

    Raises:
        TargetError: a ``provider`` is named; no ``#TOOL``, the server cannot start, fails
            or has no such tool.
        ToolLensError: Hypothesis cannot generate from the ``inputSchema``, or is missing.
    """
    if provider is not None:  # checked before the target, so it fails without a server
        raise TargetError(
            f"--provider {provider} converts a Python function's schema; an MCP tool is "
            "fuzzed from its inputSchema as the server lists it",
            hint="drop --provider",
        )
    spec = one_tool(target) if isinstance(target, str) else target
    run_plan = plan or FuzzPlan()

    async def work(session: ClientSession, found: McpTarget, attempt: Attempt) -> FuzzReport:
        import anyio

        listed = await list_tools(session, found, attempt)  # one tool: the target names it
        tool = listed.tools[0]
        attempt.step = "tools/call"
        sender = _Sender(tool.name, tool.input_schema, session, run_plan)
        schema = copy.deepcopy(tool.input_schema)
        return await anyio.to_thread.run_sync(
            lambda: fuzz_calls(tool.name, schema, sender.call, run_plan)
        )

    return converse(spec, options or ConnectOptions(), work)


@dataclasses.dataclass
class _Sender:
    """Sends one model call on the open session, from Hypothesis's thread."""

    tool: str
    schema: JsonObject
    session: ClientSession
    plan: FuzzPlan

    def call(self, text: str) -> CallResult:
        import anyio.from_thread

        data = json.loads(text)  # the fuzzer only makes JSON objects
        if _missing_required(self.schema, data):  # the SDK's own check: never sent
            return CallResult(
                self.tool,
                text,
                CallStatus.REJECTED,
                error=check_arguments(self.tool, self.schema, data),
                model_text=DEFAULT_ERROR_TEXT,
            )
        shown = f"tools/call {self.tool} {json.dumps(data, ensure_ascii=False)}"
        base = CallResult(self.tool, text, CallStatus.NOT_RUN, call_text=shown, kwargs=data)
        if self.plan.dry_run:
            return base
        request = _ToolCall(self.tool, text, data, self.plan.timeout, dry_run=False)
        return anyio.from_thread.run(request._send, self.session, base)
