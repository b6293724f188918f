"""The Clients view as HTML: a summary line per client, then why and what it sends.

:func:`clients_panel_html` draws :class:`~toollens.render.clients_view.ToolClients` (escaped
through ``tag()``): the one render function of the explorer's Clients view (with its
picker), the static report and the toolset page (every client, folded but one), and a
notebook's display of the model (:func:`clients_mimebundle`).
"""

from __future__ import annotations

from toollens.consumers.model import RuleHit, Verdict
from toollens.render.clients_view import ClientSide, ToolClients, clients_text, verdict_state
from toollens.render.css import style_tag
from toollens.render.markup import Child, Markup, badge, code, join, note, tag
from toollens.render.panel import panel

__all__ = ["CLIENTS_STYLE", "clients_mimebundle", "clients_note", "clients_panel_html"]

CLIENTS_STYLE = """
.tl-root .tl-cl-summary td { vertical-align: top; }
.tl-xp .tl-cl-summary tr[data-client],
.tl-ts-detail .tl-cl-summary tr[data-client] { cursor: pointer; }
.tl-root .tl-cl-summary tr.tl-cl-chosen td:first-child {
  box-shadow: inset 3px 0 0 var(--tl-accent);
}
.tl-root .tl-cl-summary code { overflow-wrap: anywhere; }
.tl-root .tl-cl-picker { margin: 8px 0 4px; display: flex; gap: 6px; align-items: center; }
.tl-root .tl-cl-picker select {
  font: inherit; color: var(--tl-fg); background: var(--tl-bg);
  border: 1px solid var(--tl-border); border-radius: 3px; padding: 2px 6px;
}
.tl-root .tl-cl-client { margin: 6px 0; }
.tl-root .tl-cl-client > summary { cursor: pointer; font-weight: 600; }
.tl-root .tl-cl-rules { list-style: none; padding-left: 0; margin: 4px 0; }
.tl-root .tl-cl-rules li { margin: 4px 0; overflow-wrap: anywhere; }
.tl-root .tl-cl-rules .tl-cl-meta { color: var(--tl-muted); font-size: 0.9em; }
.tl-root .tl-cl-sends code { overflow-wrap: anywhere; }
.tl-root .tl-cl-detail h5 { margin: 8px 0 2px; font-size: 1em; font-weight: 600; }
.tl-root .tl-cl-diff .tl-hunk { color: var(--tl-muted); }
"""


def _verdict_badge(verdict: Verdict) -> Markup:
    state = verdict_state(verdict)
    return badge(verdict.value, "tl-on" if state == "ok" else f"tl-sev-{state}")


def _summary_table(view: ToolClients, chosen: str | None) -> Markup:
    head = tag("tr", [tag("th", t) for t in ("client", "verdict", "named", "rules")])
    rows = [
        tag(
            "tr",
            tag("td", side.client, class_="tl-name", title=side.title),
            tag("td", _verdict_badge(side.verdict)),
            tag("td", code(side.name) if side.name else tag("span", "not sent", class_="tl-muted")),
            tag("td", ", ".join(h.rule.id for h in (*side.hits, *(r.hit for r in side.requests)))),
            class_="tl-cl-chosen" if side.client == chosen else None,
            data_client=side.client,
        )
        for side in view.sides
    ]
    table = tag("table", tag("thead", head), tag("tbody", rows), class_="tl-table tl-cl-summary")
    return tag("div", table, class_="tl-scroll")


def _rule_item(hit: RuleHit, kind: str | None = None) -> Markup:
    rule = hit.rule
    state = "info" if kind else verdict_state(rule.verdict)
    return tag(
        "li",
        badge(kind or rule.verdict.value, f"tl-sev-{state}"),
        " ",
        code(rule.id),
        tag("span", " at ", code(hit.pointer)) if hit.pointer else None,
        ": ",
        hit.message,
        tag("br"),
        tag(
            "span",
            tag("a", rule.source, href=rule.source, target="_blank", rel="noopener"),
            f" · {rule.evidence.value} · read {rule.date}",
            class_="tl-cl-meta",
        ),
        tag("br"),
        tag("span", "fix: ", rule.fix, class_="tl-cl-meta"),
        data_rule=rule.id,
    )


def _why(side: ClientSide) -> Markup:
    items = [_rule_item(hit) for hit in side.hits]
    for request in side.requests:
        kind = "warning" if request.verdict is Verdict.ACCEPTED else request.verdict.value
        items.append(_rule_item(request.hit, f"request: {kind}"))
    if not items:
        return note("No rule of this client matches the tool: it is sent as listed.")
    return tag("ul", items, class_="tl-cl-rules")


def _sends(side: ClientSide) -> Markup:
    if side.sent is None:
        lost = "the tool" if side.verdict is Verdict.TOOL_DROPPED else "the request"
        if side.verdict is Verdict.SERVER_DROPPED:
            lost = "every tool of the server"
        return note(f"Nothing: {lost} does not reach the model.")
    listed = side.served.get("name")
    renamed = side.name is not None and side.name != listed
    named = tag(
        "p",
        "Named ",
        code(side.name or "?"),
        (" (listed as ", code(str(listed)), ")") if renamed else None,
        class_="tl-cl-sends",
    )
    if not side.changed:
        return join(named, note("The JSON as the server sent it."))
    return join(named, note("What it changes in the JSON the server sent (- / +):"), _diff(side))


_LINE_KINDS = {"+": "tl-add", "-": "tl-del", "@": "tl-hunk"}


def _diff(side: ClientSide) -> Markup:
    """The unified diff's hunks as the line diff's rows (its classes and colours)."""
    rows = [
        tag(
            "span",
            tag("span", line[:1] if line[:1] in "+-" else " ", class_="tl-sign"),
            tag("span", line[1:] if line[:1] in "+- " else line, class_="tl-dc"),
            class_=f"tl-line tl-dl {_LINE_KINDS.get(line[:1], 'tl-ctx')}",
        )
        for line in side.diff_lines()[2:]  # past the ---/+++ header
    ]
    return tag("pre", tag("code", rows), class_="tl-code tl-ldiff tl-inline tl-cl-diff")


def _detail(side: ClientSide) -> Markup:
    return tag(
        "div",
        tag("h5", "Why"),
        _why(side),
        tag("h5", "What it sends"),
        _sends(side),
        class_="tl-cl-detail",
    )


def _picker(view: ToolClients, chosen: str) -> Markup:
    options = [
        tag("option", f"{s.client}: {s.verdict.value}", value=s.client, selected=s.client == chosen)
        for s in view.sides
    ]
    select = tag("select", options, data_tl_client="", aria_label="client")
    return tag("label", "Client ", select, class_="tl-cl-picker")


def _static_details(view: ToolClients, chosen: str | None) -> list[Markup]:
    """Every client's detail, folded but the chosen one (default: the first not accepted)."""
    if chosen is None:
        worse = [s for s in view.sides if s.verdict is not Verdict.ACCEPTED]
        chosen = (worse or list(view.sides))[0].client
    return [
        tag(
            "details",
            tag("summary", f"{side.client}: {side.verdict.value}"),
            _detail(side),
            class_="tl-cl-client",
            data_client=side.client,
            open=side.client == chosen,
        )
        for side in view.sides
    ]


def clients_panel_html(
    view: ToolClients, client: str | None = None, *, picker: bool = False
) -> str:
    """The Clients view as an HTML fragment (its own rules; the host page has the rest).

    Args:
        view: from :func:`tool_clients`.
        client: the client shown (picker) or unfolded (static); default: the first (picker)
            or the first that does not accept the tool as listed (static).
        picker: the explorer's form: a select (``data-tl-client``) and the chosen client's
            detail, re-rendered by the kernel on a change. Without it (a static copy, which
            has nothing to send the choice to) every client's detail is there, folded.

    Returns:
        The panel, ``<section class="tl-panel tl-panel-clients" data-view="clients">``
        around ``<div class="tl-cl">``: a summary row per client (``data-client``), then the
        detail(s): why (``li[data-rule]`` with source, evidence, date, fix) and what it sends.
    """
    if not view.sides:
        return clients_note("No client chosen.")
    chosen = view.side(client).client if picker or client is not None else None
    parts: list[Child] = [
        tag("style", Markup(CLIENTS_STYLE)),
        tag("h4", "What each client does with ", code(view.tool)),
        tag(
            "p",
            "server name ",
            code(view.server_name),
            " (clients put it in tool names)",
            class_="tl-muted",
        ),
        _summary_table(view, chosen),
    ]
    if picker and chosen is not None:
        parts += [_picker(view, chosen), _detail(view.side(chosen))]
    else:
        parts += _static_details(view, chosen)
    return str(panel("clients", "Clients", tag("div", *parts, class_="tl-cl", data_client=chosen)))


def clients_note(text: str) -> str:
    """The Clients view's panel holding only a note (the clients could not judge the tool)."""
    return str(panel("clients", "Clients", tag("div", note(text), class_="tl-cl")))


def clients_mimebundle(view: ToolClients) -> dict[str, str]:
    """How a notebook shows a :class:`ToolClients`: its text, and the panel with the
    stylesheet."""
    body = Markup(clients_panel_html(view))
    html = tag("div", style_tag(), body, class_="tl-root", data_toollens="clients")
    return {"text/plain": clients_text(view), "text/html": str(html)}
