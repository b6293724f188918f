"""How ``check`` shows the clients' verdicts: a text section, JSON data, GitHub annotations."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from toollens.consumers import (
    BLOCKING,
    CONSUMERS,
    ClientVerdict,
    ConsumerJudgement,
    RequestVerdict,
    RuleHit,
    Verdict,
)
from toollens.core.schema.types import JsonObject
from toollens.project.github import Annotation

if TYPE_CHECKING:
    from toollens.assess.clients import ClientsCheck
    from toollens.project.github import Level
    from toollens.project.places import Place

__all__ = ["client_annotations", "clients_data", "clients_lines"]


def _hit_line(hit: RuleHit) -> str:
    where = f" at {hit.pointer}" if hit.pointer else ""
    return f"{hit.rule.id}{where}: {hit.message} [{hit.rule.evidence.value}: {hit.rule.source}]"


def _summary(judgement: ConsumerJudgement) -> str:
    """``N accepted, M rewritten, K lost (K tool-dropped, ...)``; the zero counts left out.
    Each tool counts as its column shows it: past VS Code's 128th, request-rejected."""
    if not judgement.tools:
        return "no tools"
    counts = Counter(judgement.tool_verdict(v.tool) for v in judgement.tools)
    lost = sum(counts[v] for v in BLOCKING)
    parts = [f"{counts[v]} {v.value}" for v in (Verdict.ACCEPTED, Verdict.REWRITTEN) if counts[v]]
    if lost:
        kinds = ", ".join(f"{counts[v]} {v.value}" for v in Verdict if v in BLOCKING and counts[v])
        parts.append(f"{lost} lost ({kinds})")
    return ", ".join(parts)


#: How many tool names a grouped rewrite shows before "...".
EXAMPLES = 3


def clients_lines(clients: ClientsCheck) -> list[str]:
    """One block per client: a summary line (accepted, rewritten, lost), what the tools it
    sends cost, each tool it loses with the rule, its source and the fix, then its rewrites
    and warnings grouped by rule (how many tools, a few names, where to see what it sends).
    Every hit is shown with its own rule's verdict, not the tool's worst one."""
    gate = "gate the exit code" if clients.chosen else "shown; name one with --client to gate"
    lines = [f"clients (server name {clients.report.listing.server_name!r}; {gate}):"]
    if not clients.providers:  # the provider columns judge the tools as if sent raw
        lines.insert(
            0,
            "providers: the tools as sent raw, not through a client; shown; name one "
            "with --provider to gate",
        )
    for judgement in clients.report.judgements:
        consumer = CONSUMERS[judgement.client]
        # a strict client's provider step holds the strict-mode rules: say it is opt-in
        strict = f"; sends strict, by choice ({consumer.title})" if consumer.strict else ""
        lines.append(f"  {judgement.client}: {_summary(judgement)}{strict}")
        cost = clients.cost(judgement.client)
        if cost is not None:
            lines.append(f"    sends {cost}")
        lines.extend(_losses(judgement.tools))
        lines.extend(_grouped(judgement.tools, judgement.client, clients.target))
        for request in judgement.requests:
            lines.append(f"    request: {_request_text(request)}")
    if clients.left_out:
        names = ", ".join(clients.left_out)
        lines.append(f"  not judged (their packages are not installed): {names}")
    return lines


def _losses(verdicts: tuple[ClientVerdict, ...]) -> list[str]:
    """Each tool lost, per losing hit (``tool: verdict: rule ... fix``); a server dropped
    (the same cause for every tool) is said once."""
    lines: list[str] = []
    server = [v for v in verdicts if v.verdict is Verdict.SERVER_DROPPED]
    if server:
        n = len(server)
        for hit in server[0].hits:
            lines.append(f"    every tool ({n}): {hit.rule.verdict.value}: {_hit_line(hit)}")
            lines.append(f"      fix: {hit.rule.fix}")
    for verdict in verdicts:
        if verdict.verdict is Verdict.SERVER_DROPPED:
            continue
        for hit in verdict.hits:
            if hit.rule.verdict in BLOCKING:
                lines.append(f"    {verdict.tool}: {hit.rule.verdict.value}: {_hit_line(hit)}")
                lines.append(f"      fix: {hit.rule.fix}")
    return lines


def _grouped(verdicts: tuple[ClientVerdict, ...], client: str, target: str) -> list[str]:
    """The hits that lose nothing (rewrites, warnings), one group per rule: how many tools,
    the message (when every tool has the same one, else the rule's summary), the source,
    a few tool names, and the command that shows what the client sends."""
    groups: dict[str, list[tuple[str, RuleHit]]] = {}
    for verdict in verdicts:
        if verdict.verdict is Verdict.SERVER_DROPPED:
            continue
        for hit in verdict.hits:
            if hit.rule.verdict not in BLOCKING:
                groups.setdefault(hit.rule.id, []).append((verdict.tool, hit))
    lines: list[str] = []
    for found in groups.values():
        rule = found[0][1].rule
        tools = list(dict.fromkeys(tool for tool, _ in found))
        messages = {hit.message for _, hit in found}
        said = next(iter(messages)) if len(messages) == 1 else rule.summary
        n = len(tools)
        what = "rewritten" if rule.verdict is Verdict.REWRITTEN else "warned on"
        source = f"[{rule.evidence.value}: {rule.source}]"
        lines.append(f"    {n} tool{'' if n == 1 else 's'} {what} by {rule.id}: {said} {source}")
        shown = ", ".join(tools[:EXAMPLES]) + (", ..." if n > EXAMPLES else "")
        example = "e.g. " if n > 1 else ""
        lines.append(f"      {example}{shown}; {_sent_hint(target, client)} has what it sends")
    return lines


def _sent_hint(target: str, client: str) -> str:
    """The command that shows what ``client`` sends for each tool (as a diff when rewritten)."""
    shown = shlex.quote(target) if target else "TARGET"
    return f"`toollens show {shown} --view clients --client {client}`"


def _request_text(request: RequestVerdict) -> str:
    kind = "warning" if request.verdict is Verdict.ACCEPTED else request.verdict.value
    shown = ", ".join(request.tools[:5]) + (", ..." if len(request.tools) > 5 else "")
    return f"{kind}: {_hit_line(request.hit)} (tools: {shown})"


def clients_data(clients: ClientsCheck) -> tuple[dict[str, list[JsonObject]], JsonObject]:
    """Per tool, each client's ``{client, verdict, rules, sent}``; and the whole list's data,
    with ``per_client``: each chosen client's ``tokens`` (``upfront``, ``deferred``,
    ``model``, ``exact``, ...)."""
    by_tool: dict[str, list[JsonObject]] = {}
    for judgement in clients.report.judgements:
        for verdict in judgement.tools:
            # the client's one verdict on the tool: a request it rejects loses the tool too
            found = clients.verdict(judgement.client, verdict.tool) or verdict.verdict
            data = {**verdict.to_json(), "verdict": found.value}
            by_tool.setdefault(verdict.tool, []).append(data)
    whole: JsonObject = {
        "server_name": clients.report.listing.server_name,
        "chosen": list(clients.chosen),
        "shown": list(clients.report.clients),
        "ok": clients.exit_code == 0,
        "requests": [r.to_json() for r in clients.report.requests()],
        "per_client": [{"client": c.client, "tokens": c.to_json()} for c in clients.costs],
    }
    return by_tool, whole


def client_annotations(clients: ClientsCheck, whole: Place) -> Iterator[Annotation]:
    """A notice per chosen client with what its tools cost, an annotation per tool it loses,
    and per request it rejects or warns on; all on the place naming the tool list."""
    found: list[tuple[Level, str, str]] = [
        ("notice", f"{cost.client}: tokens", f"{cost.client} sends {cost}")
        for cost in clients.costs
    ]
    for judgement in clients.report.judgements:
        if judgement.client not in clients.chosen:
            continue
        for verdict in judgement.tools:
            if verdict.verdict in BLOCKING:
                hit = verdict.hits[0]
                title = f"{judgement.client}: {verdict.tool} {verdict.verdict.value}"
                found.append(("error", title, f"{_hit_line(hit)} Fix: {hit.rule.fix}"))
        for request in judgement.requests:
            level: Level = "warning" if request.verdict is Verdict.ACCEPTED else "error"
            title = f"{judgement.client}: {request.hit.rule.id}"
            found.append((level, title, f"{_request_text(request)} Fix: {request.hit.rule.fix}"))
    for level, title, message in found:
        yield Annotation(
            level=level,
            title=f"toollens {title}",
            message=message,
            file=whole.file,
            line=whole.line,
        )
