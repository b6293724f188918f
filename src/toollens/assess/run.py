"""``assess(request) -> Assessment``: a request's tools read once and judged once.

A toolset (a module, an agent, a tool list, a server; the project's list when no target is
given) is read with the options of :func:`~toollens.assess.options.read_options`, each tool
checked per provider column, the clients judge an MCP tool list, the findings across tools
are judged by the path the tools take (:mod:`toollens.assess.gating`), then the token rules
run over the definitions already read. One tool is checked per provider. Every verdict,
``ok`` and the exit code come out of here; the front ends only render them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from toollens.assess.budget import budget
from toollens.assess.clients import (
    clients_check,
    mcp_limits,
    mcp_request_findings,
    require_listing,
)
from toollens.assess.gating import (
    EXIT_FINDINGS,
    EXIT_OK,
    deferred_marks,
    exit_code,
    unjudged_providers,
)
from toollens.assess.model import Assessment, Counted
from toollens.assess.options import read_options, report_options
from toollens.assess.reading import (
    CheckedTool,
    ToolRow,
    check_entry,
    checked_toolset,
    is_toolset_source,
    report_of,
)
from toollens.assess.verdicts import ToolVerdicts, tool_verdicts
from toollens.core.checks import ToolCheck
from toollens.core.errors import ToolLensError
from toollens.tokens import DEFAULT_MODEL, tool_defs

if TYPE_CHECKING:
    from toollens.assess.budget import Budget
    from toollens.assess.clients import ClientsCheck
    from toollens.assess.request import AssessRequest
    from toollens.core.records import Finding
    from toollens.tokens.tooldefs import CountableTool
    from toollens.toolsets import Toolset

__all__ = ["assess", "assess_toolset", "wants_toolset"]


def wants_toolset(request: AssessRequest) -> bool:
    """Whether the request names a toolset (anything but one tool's target)."""
    source = request.source
    return request.toolset or not isinstance(source, str) or is_toolset_source(source)


def assess(request: AssessRequest) -> Assessment:
    """Everything said about what ``request`` names, each tool read once.

    Raises:
        TargetError: the target cannot be read, or clients are named for a source that is
            not an MCP tool list.
        ProjectError: the project's table cannot be read.
    """
    if wants_toolset(request):
        options, providers = read_options(request)
        ts, rows = checked_toolset(
            request.source, options, providers, request.jobs, request.connect
        )
        return judge_toolset(request, ts, rows, providers)
    return _one_tool(request)


def assess_toolset(
    ts: Toolset, request: AssessRequest, providers: Sequence[str] | None = None
) -> Assessment:
    """The assessment of a toolset already read (a widget's, a Python caller's), judged as
    :func:`assess` judges it; ``providers``: the columns (the request's, else the toolset's)."""
    default = ts.options.provider if ts.options is not None else None
    columns = tuple(providers or request.named_providers or ([default] if default else []))
    columns = columns or read_options(request)[1]
    rows = [ToolRow(e, check_entry(e, columns)) for e in ts.tools]
    return judge_toolset(request, ts, rows, columns)


def _one_tool(request: AssessRequest) -> Assessment:
    target = cast("str", request.target)
    providers = read_options(request)[1]
    reports = [report_of(target, report_options(request, p)) for p in providers]
    if request.clients:  # after reading: a target that cannot be read says so first
        require_listing(None)
    first = reports[0]
    checks = (CheckedTool(ToolCheck.from_reports(reports), first.target, first.function),)
    code = EXIT_FINDINGS if checks[0].result.errors else EXIT_OK
    tokens, counted = _token_rules(request, [first.target], [(first.target, target)])
    return Assessment(
        request, "tool", providers, target, checks, tokens=tokens, counted=counted, code=code
    )


def judge_toolset(
    request: AssessRequest, ts: Toolset, rows: Sequence[ToolRow], providers: Sequence[str]
) -> Assessment:
    """A toolset's rows judged on the request's path: the clients, the findings across tools,
    the gating, the verdicts per column and the token rules."""
    named = request.named_providers
    clients = clients_check(request, ts)
    if clients is not None:  # an MCP list: judged by the path its tools take
        ts = mcp_request_findings(ts, clients, named)
    else:  # judged for the providers of its columns
        ts = unjudged_providers(ts, providers)
    chosen = bool(clients and clients.chosen)
    # An MCP list's tools reach a model through its clients: a provider judges them raw
    # (its column) and fails the check only when it is named.
    gate = clients is None or bool(named)
    code = exit_code(ts, rows, providers, clients_chosen=chosen, providers_gate=gate)
    if clients is not None:
        code = max(code, clients.exit_code)
    marked = deferred_marks(ts)
    label = request.source if isinstance(request.source, str) else ts.label
    tokens, counted = _token_rules(request, [marked], [(marked, label)])
    if clients is not None and tokens is not None:  # an MCP tool list: its clients' limits
        tokens = dataclasses.replace(tokens, found=mcp_limits(tokens.found, clients, named))
    return Assessment(
        request,
        "toolset",
        tuple(providers),
        label,
        toolset=ts,
        rows=tuple(rows),
        verdicts=_verdicts(ts, rows, providers, clients),
        clients=clients,
        tokens=tokens,
        counted=counted,
        code=code,
    )


def _verdicts(
    ts: Toolset, rows: Sequence[ToolRow], providers: Sequence[str], clients: ClientsCheck | None
) -> tuple[ToolVerdicts, ...]:
    cross: dict[str, list[Finding]] = {}
    for item in ts.cross_findings:
        for name in item.tools:
            cross.setdefault(name, []).append(item.finding)
    return tuple(
        tool_verdicts(r.entry, r.result, cross.get(r.entry.name, ()), providers, clients)
        for r in rows
    )


def _token_rules(
    request: AssessRequest, objs: Sequence[object], named: Sequence[tuple[object, str]]
) -> tuple[Budget | None, Counted | None]:
    """The token budgets (when asked) and the description limits over the definitions of
    the tools already read; ``(None, None)`` when what was read is not a tool (a model or
    an output type) and no budget was asked.

    Raises:
        ToolLensError: a budget was asked for and the tools cannot be counted.
    """
    try:
        defs = tool_defs([cast("CountableTool", obj) for obj in objs])
    except ToolLensError:
        if request.budgets_asked:
            raise
        return None, None
    model = request.tokens_model or DEFAULT_MODEL
    counted = budget(defs, request.max_tokens, request.max_total_tokens, model)
    return counted, Counted(tuple(named), request.target is not None)
