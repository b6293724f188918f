"""The Clients view: per client, what it does with one MCP tool, why, and what it sends.

:func:`tool_clients` gathers, from the consumers' verdicts (:mod:`toollens.consumers`), one
:class:`ClientSide` per client for one tool of a server's tool list: the verdict, the rules
that decided it (source, date, evidence), the name the client gives the tool and the JSON it
sends, next to the tool as the server sent it (laid out in the client's shape, so a diff of
the two shows only what the client changed). Three renderers read that one model:
:func:`clients_text` (``toollens show --view clients``), :func:`clients_data` (its
``--format json``) and :func:`clients_panel_html` (the explorer's Clients view, the static
report of a toolset and :meth:`ToolClients._repr_html_`).

Pure: no UI import; the consumers run only in :func:`tool_clients`.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.consumers.model import RuleHit, Verdict
from toollens.core.errors import TargetError
from toollens.core.schema.types import JsonObject
from toollens.render.markup import Child, Markup, badge, code, join, note, tag
from toollens.render.panel import panel

if TYPE_CHECKING:
    from toollens.consumers import ConsumerReport, RequestVerdict, ToolList

__all__ = [
    "CLIENTS_STYLE",
    "ClientSide",
    "ToolClients",
    "clients_data",
    "clients_note",
    "clients_panel_html",
    "clients_text",
    "tool_clients",
    "verdict_state",
]

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
"""

# A verdict as the severity that colours it (the table's badges and the summary's).
_STATES = {
    Verdict.ACCEPTED: "ok",
    Verdict.REWRITTEN: "warning",
    Verdict.TOOL_DROPPED: "error",
    Verdict.SERVER_DROPPED: "error",
    Verdict.REQUEST_REJECTED: "error",
}


def verdict_state(verdict: Verdict) -> str:
    """The severity a verdict is drawn with: ``ok``, ``warning`` (a rewrite) or ``error``."""
    return _STATES[verdict]


@dataclass(frozen=True)
class ClientSide:
    """One client's view of one tool.

    Attributes:
        client: the consumer's id (``cursor``).
        title: its name for people (``Cursor``).
        strict: whether it sends tools in strict mode.
        verdict: what it does with the tool (the worse of the tool's and its requests').
        hits: the rules that decided the tool's verdict.
        requests: the request-level verdicts that name this tool (a count limit, ...).
        served: the tool as the server sent it, in the client's shape (``parameters`` where
            the client sends ``parameters``), so it diffs against ``sent``.
        sent: the tool as the client sends it on; ``None`` when it does not.
    """

    client: str
    title: str
    strict: bool
    verdict: Verdict
    hits: tuple[RuleHit, ...]
    requests: tuple[RequestVerdict, ...]
    served: JsonObject
    sent: JsonObject | None

    @property
    def name(self) -> str | None:
        """The name the client gives the tool (``mcp__server__tool``), ``None`` when dropped."""
        name = self.sent.get("name") if self.sent is not None else None
        return name if isinstance(name, str) else None

    @property
    def renamed(self) -> JsonObject:
        """The tool as served, named as the client names it: what :attr:`sent` diffs against
        (the name is shown on its own; a rename alone is no change of the JSON)."""
        if self.name is None or "name" not in self.served:
            return self.served
        return {**self.served, "name": self.name}

    @property
    def changed(self) -> bool:
        """Whether the JSON the client sends differs from what the server sent (its name
        aside)."""
        return self.sent is not None and self.sent != self.renamed

    def diff_lines(self) -> list[str]:
        """A unified diff, the tool as served against as sent (``[]`` when the same)."""
        if self.sent is None or not self.changed:
            return []
        return list(
            difflib.unified_diff(
                _dump(self.renamed).splitlines(),
                _dump(self.sent).splitlines(),
                "as the server sent it",
                f"as {self.client} sends it",
                lineterm="",
            )
        )

    def to_json(self) -> JsonObject:
        return {
            "client": self.client,
            "title": self.title,
            "strict": self.strict,
            "verdict": self.verdict.value,
            "rules": [_hit_json(hit) for hit in self.hits],
            "requests": [r.to_json() for r in self.requests],
            "name": self.name,
            "sent": self.sent,
            "diff": self.diff_lines(),
        }


@dataclass(frozen=True)
class ToolClients:
    """Every chosen client's view of one tool of a server's tool list."""

    tool: str
    server_name: str
    sides: tuple[ClientSide, ...]

    @property
    def clients(self) -> tuple[str, ...]:
        return tuple(side.client for side in self.sides)

    def side(self, client: str | None) -> ClientSide:
        """The side of ``client``; the first client's when ``None`` or not among them."""
        return next((s for s in self.sides if s.client == client), self.sides[0])

    def _repr_html_(self) -> str:
        from toollens.render.css import style_tag

        body = Markup(clients_panel_html(self))
        return str(tag("div", style_tag(), body, class_="tl-root", data_toollens="clients"))

    def __str__(self) -> str:
        return clients_text(self)


def _hit_json(hit: RuleHit) -> JsonObject:
    return {**hit.to_json(), "verdict": hit.rule.verdict.value, "fix": hit.rule.fix}


def _dump(value: object) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def tool_clients(
    listing: ToolList,
    tool: str,
    clients: Sequence[str] | None = None,
    *,
    judged: ConsumerReport | None = None,
) -> ToolClients:
    """What each client (every one when ``clients`` is None) does with ``tool`` of ``listing``.

    Args:
        listing: the server's tool list as sent.
        tool: the tool's name as the server sent it.
        clients: consumer ids (``all`` for every one), in the order to show.
        judged: the consumers' verdicts on ``listing`` when already computed.

    Raises:
        TargetError: ``tool`` is not in the list, or a client id toollens does not know.
    """
    from toollens.consumers import CONSUMERS, judge_consumers

    if tool not in listing.names:
        raise TargetError(
            f"tool {tool!r} is not in the tool list of server {listing.server_name!r}",
            hint=f"name one of {', '.join(listing.names[:10]) or '(no tools)'}",
        )
    report = judged if judged is not None and clients is None else None
    report = report or judge_consumers(listing, list(clients) if clients is not None else None)
    raw = dict(listing.tools[listing.names.index(tool)])
    sides = []
    for judgement in report.judgements:
        verdict = judgement.verdict_for(tool)
        if verdict is None:
            continue
        requests = tuple(r for r in judgement.requests if tool in r.tools)
        worst = verdict.verdict
        for request in requests:
            worst = request.verdict if request.verdict.rank > worst.rank else worst
        consumer = CONSUMERS[judgement.client]
        sides.append(
            ClientSide(
                client=judgement.client,
                title=consumer.title,
                strict=consumer.strict,
                verdict=worst,
                hits=verdict.hits,
                requests=requests,
                served=_in_shape(raw, verdict.sent),
                sent=verdict.sent,
            )
        )
    return ToolClients(tool, listing.server_name, tuple(sides))


def _in_shape(raw: JsonObject, sent: JsonObject | None) -> JsonObject:
    """The tool as served, its schema under the key the client sends it under."""
    if sent is None or "inputSchema" in sent or "parameters" not in sent:
        return raw
    return {("parameters" if k == "inputSchema" else k): v for k, v in raw.items()}


# -- text -----------------------------------------------------------------------------------


def _rule_lines(hit: RuleHit) -> list[str]:
    rule = hit.rule
    where = f" at {hit.pointer}" if hit.pointer else ""
    return [
        f"    {rule.id}{where}: {hit.message}",
        f"      source: {rule.source} ({rule.evidence.value}, read {rule.date})",
        f"      fix: {rule.fix}",
    ]


def _sends_lines(side: ClientSide) -> list[str]:
    if side.sent is None:
        return ["  sends: nothing (the tool does not reach the model)"]
    listed = side.served.get("name")
    head = f"  sends it as {side.name!r}" if side.name else "  sends it"
    if side.name and side.name != listed:
        head += f" (listed as {listed!r})"
    if not side.changed:
        return [f"{head}: the JSON as the server sent it"]
    return [f"{head}; what it changes:", *("    " + line for line in side.diff_lines())]


def clients_text(view: ToolClients, client: str | None = None) -> str:
    """Each client's verdict, then per client (or only ``client``): why, and what it sends."""
    lines = [f"clients of tool {view.tool!r} (server name {view.server_name!r}):"]
    width = max((len(s.client) for s in view.sides), default=0)
    for side in view.sides:
        named = f"as {side.name}" if side.name else "not sent"
        lines.append(f"  {side.client:<{width}}  {side.verdict.value:<16}  {named}")
    for side in view.sides if client is None else (view.side(client),):
        lines += ["", f"{side.client} ({side.title}): {side.verdict.value}"]
        if side.hits:
            lines.append("  why:")
            for hit in side.hits:
                lines += _rule_lines(hit)
        for request in side.requests:
            kind = "warning" if request.verdict is Verdict.ACCEPTED else request.verdict.value
            lines.append(f"  request ({kind}):")
            lines += _rule_lines(request.hit)
        lines += _sends_lines(side)
    return "\n".join(lines) + "\n"


def clients_data(view: ToolClients) -> JsonObject:
    """The view as JSON: the tool, the server name, and per client its side."""
    return {
        "tool": view.tool,
        "server_name": view.server_name,
        "clients": [side.to_json() for side in view.sides],
    }


# -- HTML -----------------------------------------------------------------------------------


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
    from toollens.render.line_diff import Side, inline_diff

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
    diff = inline_diff(Side(side.renamed), Side(side.sent))
    return join(named, note("What it sends, against what the server sent (- / +):"), diff)


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
