"""How ``check`` shows the clients' verdicts: a text section, JSON data, GitHub annotations."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from toollens.consumers import BLOCKING, ClientVerdict, RequestVerdict, RuleHit, Verdict
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from toollens.cli.check_clients import ClientsCheck
    from toollens.project.github import Annotation, Level
    from toollens.project.places import Place

__all__ = ["client_annotations", "clients_data", "clients_lines"]


def _hit_line(hit: RuleHit) -> str:
    where = f" at {hit.pointer}" if hit.pointer else ""
    return f"{hit.rule.id}{where}: {hit.message} [{hit.rule.evidence.value}: {hit.rule.source}]"


def _summary(verdicts: tuple[ClientVerdict, ...]) -> str:
    counts = Counter(v.verdict for v in verdicts)
    return ", ".join(f"{counts[v]} {v.value}" for v in Verdict if counts[v]) or "no tools"


def clients_lines(clients: ClientsCheck) -> list[str]:
    """One block per client: its counts, then each tool it does not accept as sent."""
    gate = "gate the exit code" if clients.chosen else "shown; name one with --client to gate"
    lines = [f"clients (server name {clients.report.listing.server_name!r}; {gate}):"]
    for judgement in clients.report.judgements:
        lines.append(f"  {judgement.client}: {_summary(judgement.tools)}")
        cost = clients.cost(judgement.client)
        if cost is not None:
            lines.append(f"    sends {cost}")
        server = [v for v in judgement.tools if v.verdict is Verdict.SERVER_DROPPED]
        if server:  # one cause for every tool: say it once
            lines.extend(f"    every tool: {_hit_line(hit)}" for hit in server[0].hits)
            lines.append(f"      fix: {server[0].hits[0].rule.fix}")
        for verdict in judgement.tools:
            if verdict.verdict in (Verdict.ACCEPTED, Verdict.SERVER_DROPPED):
                continue
            for hit in verdict.hits:
                lines.append(f"    {verdict.tool}: {verdict.verdict.value}: {_hit_line(hit)}")
                if verdict.verdict in BLOCKING:
                    lines.append(f"      fix: {hit.rule.fix}")
        for request in judgement.requests:
            lines.append(f"    request: {_request_text(request)}")
    return lines


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
            by_tool.setdefault(verdict.tool, []).append(verdict.to_json())
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
    from toollens.project.github import Annotation

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
