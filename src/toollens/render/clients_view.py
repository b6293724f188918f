"""The Clients view: per client, what it does with one MCP tool, why, and what it sends.

:func:`tool_clients` gathers, from the consumers' verdicts (:mod:`toollens.consumers`), one
:class:`ClientSide` per client for one tool of a server's tool list: the verdict, the rules
that decided it (source, date, evidence), the name the client gives the tool and the JSON it
sends, next to the tool as the server sent it (laid out in the client's shape, so a diff of
the two shows only what the client changed). Three renderers read that one model:
:func:`clients_text` (``toollens show --view clients``), :func:`clients_data` (its
``--format json``) and :func:`toollens.render.clients_html.clients_panel_html` (the
explorer's Clients view, the static report of a toolset and
a notebook's display of :class:`ToolClients`).

Pure: no UI import; the consumers run only in :func:`tool_clients`.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.consumers import CONSUMERS
from toollens.consumers.model import RuleHit, Verdict
from toollens.core.display_hooks import mimebundle
from toollens.core.errors import TargetError
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from toollens.consumers import ConsumerReport, RequestVerdict, ToolList

__all__ = [
    "ClientSide",
    "ToolClients",
    "clients_data",
    "clients_text",
    "tool_clients",
    "tools_clients",
    "verdict_state",
]

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
    def changed(self) -> bool:
        """Whether the JSON the client sends differs from what the server sent, its name
        included (a rename is a change) and its keys' order not (JSON objects have none)."""
        return self.sent is not None and self.sent != self.served

    def diff_lines(self) -> list[str]:
        """A unified diff, the tool as served against as sent (``[]`` when the same): the
        changed lines with three of context, so a big tool's diff stays small. The sent
        side is laid out in the served side's key order, so a key the client only moved
        is no change."""
        if self.sent is None or not self.changed:
            return []
        return list(
            difflib.unified_diff(
                _dump(self.served).splitlines(),
                _dump(_in_order_of(self.sent, self.served)).splitlines(),
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

    def _repr_mimebundle_(
        self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
    ) -> dict[str, str]:
        # Registered by toollens.render (clients_html.clients_mimebundle): the HTML renderer
        # reads this model, so the model does not import it.
        return mimebundle(self, include, exclude)

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
        judged: the consumers' verdicts on ``listing`` when already computed (then
            ``clients`` is left out: the report's clients are shown).

    Raises:
        TargetError: ``tool`` is not in the list, or a client id toollens does not know.
    """
    return tools_clients(listing, [tool], clients, judged=judged)[0]


def tools_clients(
    listing: ToolList,
    tools: Sequence[str],
    clients: Sequence[str] | None = None,
    *,
    judged: ConsumerReport | None = None,
) -> list[ToolClients]:
    """:func:`tool_clients` of each of ``tools``, the verdicts indexed once (a list of
    1,000 tools is looked up in linear time)."""
    at = {name: i for i, name in reversed(list(enumerate(listing.names)))}
    missing = [tool for tool in tools if tool not in at]
    if missing:
        raise TargetError(
            f"tool {missing[0]!r} is not in the tool list of server {listing.server_name!r}",
            hint=f"name one of {', '.join(listing.names[:10]) or '(no tools)'}",
        )
    # per call, not hoisted: tests replace toollens.consumers.judge_consumers
    from toollens.consumers import judge_consumers

    report = judged or judge_consumers(listing, list(clients) if clients is not None else None)
    sides: dict[str, list[ClientSide]] = {tool: [] for tool in tools}
    for judgement in report.judgements:
        consumer = CONSUMERS[judgement.client]
        verdicts = {v.tool: v for v in reversed(judgement.tools)}
        requests: dict[str, list[RequestVerdict]] = {}
        for request in judgement.requests:
            for name in request.tools:
                requests.setdefault(name, []).append(request)
        for tool, found in sides.items():
            verdict = verdicts.get(tool)
            if verdict is None:
                continue
            named = tuple(requests.get(tool, ()))
            worst = judgement.tool_verdict(tool) or verdict.verdict  # requests included
            raw = dict(listing.tools[at[tool]])
            found.append(
                ClientSide(
                    client=judgement.client,
                    title=consumer.title,
                    strict=consumer.strict,
                    verdict=worst,
                    hits=verdict.hits,
                    requests=named,
                    served=_in_shape(raw, verdict.sent),
                    sent=verdict.sent,
                )
            )
    return [ToolClients(tool, listing.server_name, tuple(sides[tool])) for tool in tools]


def _in_shape(raw: JsonObject, sent: JsonObject | None) -> JsonObject:
    """The tool as served, its schema under the key the client sends it under."""
    if sent is None or "inputSchema" in sent or "parameters" not in sent:
        return raw
    return {("parameters" if k == "inputSchema" else k): v for k, v in raw.items()}


def _in_order_of(value: object, like: object) -> object:
    """``value`` with each object's keys in the order ``like`` has them (keys ``like`` lacks
    last, in their own order), at every depth: the same JSON, laid out to diff line by line."""
    if isinstance(value, dict) and isinstance(like, dict):
        keys = [k for k in like if k in value] + [k for k in value if k not in like]
        return {k: _in_order_of(value[k], like.get(k)) for k in keys}
    if isinstance(value, list) and isinstance(like, list):
        return [_in_order_of(v, like[i] if i < len(like) else None) for i, v in enumerate(value)]
    return value


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
