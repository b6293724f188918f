"""Call results and fuzz reports as plain text and as JSON-ready dicts (no UI library)."""

from __future__ import annotations

import json

from toollens.core.record_json import record_json
from toollens.core.schema.toolkit import shorten
from toollens.core.schema.types import JsonObject
from toollens.roundtrip.call_text import show_value
from toollens.roundtrip.records import CallResult, CallStatus, FuzzFinding, FuzzReport

_LABEL = 13  # width of the label column
_ANSWER_LIMIT = 400  # characters of an MCP server's answer shown (an image is long)


def _row(label: str, text: str) -> str:
    lines = text.splitlines() or [""]
    pad = " " * _LABEL
    return "\n".join(
        [f"{label:<{_LABEL}}{lines[0]}".rstrip(), *(f"{pad}{line}".rstrip() for line in lines[1:])]
    )


def _exception_text(exc: BaseException | None) -> str:
    return "" if exc is None else f"{type(exc).__name__}: {exc}"


def call_steps(result: CallResult) -> list[tuple[str, str]]:
    """The steps of one call as (label, text) pairs; the text and HTML views both show them."""
    steps = [("tool", result.tool), ("arguments", result.arguments or "(empty)")]
    if result.status is CallStatus.REJECTED:
        assert result.error is not None
        steps.append(("rejected", str(result.error)))
        if result.sdk_error is not None:  # None: a check the SDK does not make (MCP schemas)
            steps.append(("SDK error", result.sdk_error))
    else:
        steps.append(("validated", "accepted"))
        if result.strict_note is not None:
            steps.append(("note", result.strict_note))
        steps.append(("call", result.call_text or ""))
    if result.status is CallStatus.NOT_RUN:
        return [*steps, ("not run", "dry run: the call was built, not made")]
    if result.mcp_response is not None:
        steps.append(_mcp_answer(result))
    elif result.status is CallStatus.RETURNED:
        steps.append(("returned", show_value(result.value)))
    elif result.status in (CallStatus.RAISED, CallStatus.TIMED_OUT):
        label = "raised" if result.status is CallStatus.RAISED else "timed out"
        steps.append((label, _exception_text(result.exception)))
    if result.model_text is not None:
        steps.append(("model reads", result.model_text))
    if result.output_json is not None:
        steps.append(("as JSON", result.output_json))
    if result.output_error is not None:
        steps.append(("output", result.output_error))
    return steps


def _mcp_answer(result: CallResult) -> tuple[str, str]:
    """An MCP server's answer to ``tools/call``, labelled by what it is."""
    answer = result.mcp_response or {}
    label = "returned"
    if "error" in answer:
        label = "MCP error"  # a JSON-RPC error instead of a result
    elif answer.get("isError") is True:
        label = "isError"
    return label, shorten(json.dumps(answer, ensure_ascii=False), _ANSWER_LIMIT)


def call_rows(result: CallResult) -> list[str]:
    """The steps of one call, one labelled row each."""
    return [_row(label, text) for label, text in call_steps(result)]


def format_call(result: CallResult) -> str:
    """One call as text; arguments that are not JSON at all take one line, as the SDK's error."""
    if result.error is not None and result.error.rule == "not-json":
        return f"rejected: {result.error.message} (the SDK: {_one_line(result.sdk_error)})\n"
    return "\n".join(call_rows(result)) + "\n"


def call_data(result: CallResult) -> JsonObject:
    """One call as JSON-ready data."""
    error = result.error
    return {
        "tool": result.tool,
        "arguments": result.arguments,
        "status": result.status.value,
        "pointer": result.pointer,
        "error": None if error is None else error.message,
        "sdk_error": result.sdk_error,
        "call": result.call_text,
        "returned": None
        if result.status is not CallStatus.RETURNED or result.mcp_response is not None
        else show_value(result.value),
        "exception": _exception_text(result.exception) or None,
        "model_text": result.model_text,
        "output_json": result.output_json,
        "output_error": result.output_error,
        "mcp_response": result.mcp_response,
        "strict_note": result.strict_note,
    }


def format_fuzz(report: FuzzReport) -> str:
    """A fuzz report as text: a summary line, then each finding with its arguments."""
    source = f"the {report.provider} schema" if report.provider else "the tool's schema"
    mode = " (dry run)" if report.dry_run else ""
    count = len(report.findings)
    noun = "finding" if count == 1 else "findings"
    drawn = report.examples - report.edge_cases
    how = "drawn and mutated" if report.invalid else "drawn"
    split = f" ({report.edge_cases} edge cases, then {drawn} {how})" if report.edge_cases else ""
    lines = [
        f"fuzz {report.tool}: {report.examples} arguments{split} from {source}, "
        f"seed {report.seed}{mode}: {count or 'no'} {noun}"
    ]
    if report.stopped:
        lines.append(f"  {report.stopped}")
    for finding in report.findings:
        lines.extend(_finding_lines(finding))
    return "\n".join(lines) + "\n"


def _finding_lines(finding: FuzzFinding) -> list[str]:
    shrunk = " (shrunk)" if finding.shrunk else ""
    arguments = json.dumps(finding.arguments, ensure_ascii=False)
    lines = [
        "",
        f"{finding.kind.value}: {finding.message}",
        f"  arguments{shrunk}: {arguments}",
    ]
    if finding.result.model_text is not None:
        lines.append(f"  the model reads: {_one_line(finding.result.model_text)}")
    return lines


def fuzz_data(report: FuzzReport) -> JsonObject:
    """A fuzz report as JSON-ready data."""
    data = record_json(
        report,
        *("tool", "provider", "seed", "examples", "edge_cases", "dry_run", "invalid", "stopped"),
    )
    data["findings"] = [
        {
            **record_json(f, "kind", "key", "message", "pointer", "arguments", "shrunk"),
            "call": call_data(f.result),
        }
        for f in report.findings
    ]
    return data


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split())
