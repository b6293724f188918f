"""A model call (``CallResult``) and a fuzz run (``FuzzReport``) as notebook HTML and text.

Pure functions over the records of :mod:`toollens.roundtrip`, escaped through
:mod:`toollens.render.markup`; the text is the command line's (``toollens try``/``fuzz``).
"""

from __future__ import annotations

import json

from toollens.render.css import style_tag
from toollens.render.markup import Markup, badge, tag
from toollens.render.roundtrip_css import ROUNDTRIP_STYLE
from toollens.roundtrip.formatting import call_steps, format_call, format_fuzz
from toollens.roundtrip.records import CallResult, CallStatus, FuzzFinding, FuzzReport

__all__ = ["call_mimebundle", "fuzz_mimebundle", "render_call_html", "render_fuzz_html"]


_STATUS_CLASS = {
    CallStatus.RETURNED: "tl-on",
    CallStatus.NOT_RUN: "tl-on",
    CallStatus.REJECTED: "tl-sev-error",
    CallStatus.RAISED: "tl-sev-error",
    CallStatus.TIMED_OUT: "tl-sev-error",
}


def _root(*children: Markup, kind: str) -> str:
    style = Markup(f"<style>{ROUNDTRIP_STYLE}</style>")
    return str(tag("div", style_tag(), style, *children, class_="tl-root", data_toollens=kind))


def call_steps_table(result: CallResult) -> Markup:
    """The steps of one call as a two-column table (label, text)."""
    rows = (
        tag("tr", tag("th", label), tag("td", tag("pre", text)))
        for label, text in call_steps(result)
    )
    return tag("table", *rows, class_="tl-rt-steps")


def render_call_html(result: CallResult) -> str:
    """The steps of one call: arguments, validation, the Python call, what the model reads."""
    head = tag("div", badge(result.status.value, _STATUS_CLASS[result.status]), " ", result.tool)
    return _root(head, call_steps_table(result), kind="call")


def render_fuzz_html(report: FuzzReport) -> str:
    """A fuzz run: the summary line, then each finding with its smallest arguments."""
    summary = format_fuzz(report).splitlines()[0]
    extra = [tag("p", report.stopped)] if report.stopped else []
    findings = [_finding(f) for f in report.findings]
    return _root(tag("p", summary), *extra, *findings, kind="fuzz")


def _finding(finding: FuzzFinding) -> Markup:
    shrunk = " (shrunk)" if finding.shrunk else ""
    arguments = json.dumps(finding.arguments, ensure_ascii=False)
    return tag(
        "div",
        tag("div", badge(finding.kind.value, "tl-sev-error"), " ", finding.message),
        tag("div", f"arguments{shrunk}:"),
        tag("pre", arguments, class_="tl-code"),
        tag("div", f"the model reads: {finding.result.model_text or ''}"),
        class_="tl-rt-finding",
    )


def call_mimebundle(result: CallResult) -> dict[str, str]:
    """How a notebook shows a CallResult: the ``toollens try`` text and its HTML table."""
    return {"text/plain": format_call(result), "text/html": render_call_html(result)}


def fuzz_mimebundle(report: FuzzReport) -> dict[str, str]:
    """How a notebook shows a FuzzReport: the ``toollens fuzz`` text and its HTML."""
    return {"text/plain": format_fuzz(report), "text/html": render_fuzz_html(report)}
