"""The explorer's Try-it view beside its JSON editor: the verdict, the problems, the call,
and (after an explicit Call) what the model reads next.

Pure functions over :mod:`toollens.roundtrip` records; the editor itself and its marks
live in the front end.
"""

from __future__ import annotations

from toollens.render.markup import Markup, badge, code, note, tag
from toollens.render.roundtrip_css import TRY_STYLE
from toollens.render.roundtrip_html import call_steps_table
from toollens.roundtrip.checking import ArgumentCheck, ArgumentMark
from toollens.roundtrip.records import CallResult, CallStatus

__all__ = ["TRY_STYLE", "render_try_html"]


_SOURCE_TEXT = {
    "json": "not JSON",
    "sdk": "rejected by the SDK",
    "schema": "outside the schema the model sees",
}


def render_try_html(
    check: ArgumentCheck | None,
    *,
    checked_against: str,
    result: CallResult | None = None,
    result_stale: bool = False,
    note_text: str | None = None,
) -> str:
    """The verdict on the arguments, their problems, the Python call, and the last result.

    Args:
        check: the check of the arguments now in the editor (``None``: none yet).
        checked_against: which schema the ``schema`` marks come from, e.g.
            ``"openai's strict schema"``.
        result: the last call made (only ever after the author pressed Call).
        result_stale: the arguments or the function changed since ``result`` was made.
        note_text: a line above everything (an edge case's name, why Call is unavailable).
    """
    parts: list[Markup] = []
    if note_text:
        parts.append(note(note_text))
    if check is not None:
        parts.append(_verdict(check, checked_against))
        parts.extend(_problems(check))
        if check.dry_run is not None and check.dry_run.call_text:
            parts.append(tag("h4", "Python call"))
            parts.append(tag("pre", check.dry_run.call_text, class_="tl-try-said"))
    if result is not None:
        parts.append(_result(result, stale=result_stale))
    return str(tag("div", *parts, class_="tl-try-status-body"))


def _verdict(check: ArgumentCheck, against: str) -> Markup:
    sources = {mark.source for mark in check.marks}
    if "json" in sources:
        head = badge("not JSON", "tl-sev-error"), " the SDK rejects text that does not parse"
    elif "sdk" in sources:
        head = badge("rejected", "tl-sev-error"), " the function is never called"
    else:
        head = badge("accepted", "tl-on"), " the SDK would make this call"
    line = tag("div", *head, class_="tl-try-verdict")
    if "schema" in sources:
        return Markup(line + tag("div", badge("not in schema", "tl-sev-warning"), f" {against}"))
    return line


def _problems(check: ArgumentCheck) -> list[Markup]:
    rejected = check.dry_run.sdk_error if check.dry_run is not None else None
    out: list[Markup] = []
    if check.marks:
        out.append(tag("ul", *(_mark(mark) for mark in check.marks), class_="tl-try-marks"))
    if rejected:
        out.append(tag("h4", "The model is told"))
        out.append(tag("pre", rejected, class_="tl-try-said"))
    return out


def _mark(mark: ArgumentMark) -> Markup:
    where = (
        f"line {mark.line}, column {mark.column}"
        if mark.pointer is None
        else (mark.pointer or "(the object)")
    )
    return tag(
        "li",
        code(where),
        " ",
        mark.message,
        tag("span", f" · {_SOURCE_TEXT[mark.source]}", class_="tl-muted"),
        data_source=mark.source,
    )


def _result(result: CallResult, *, stale: bool) -> Markup:
    title = "Result" + (" (from an earlier call: press Call again)" if stale else "")
    kind = "tl-on" if result.status in (CallStatus.RETURNED, CallStatus.NOT_RUN) else "tl-sev-error"
    return tag(
        "div",
        tag("h4", badge(result.status.value, kind), " ", title),
        call_steps_table(result),
        class_="tl-try-result" + (" tl-stale" if stale else ""),
        data_status=result.status.value,
    )
