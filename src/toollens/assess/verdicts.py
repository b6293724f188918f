"""One verdict per tool and per column: lint, each provider, each client.

Every front end shows these (the text table, JSON, the page, the widget, the lock's client
columns), none computes its own: a provider column is the worst of that provider's findings,
the findings across tools that concern it, and its view's failure; the lint column the lint
findings and the views no provider owns; a client column what
:meth:`~toollens.assess.clients.ClientsCheck.verdict` says, requests included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from toollens.core.records import Finding, severity_counts
from toollens.toolsets.rules import concerns_provider

if TYPE_CHECKING:
    from toollens.assess.clients import ClientsCheck
    from toollens.core.checks import ToolCheck
    from toollens.toolsets import Tool

__all__ = ["RANKS", "ColumnVerdict", "ToolVerdicts", "judged", "plural", "tool_verdicts"]

# A state's rank: the worst first; a filter keeps the rows ranked at most a level.
RANKS: Mapping[str, int] = {
    "error": 0,
    "not read": 0,  # a tool that could not be read ranks with the errors
    "warning": 1,
    "info": 2,
    "ok": 3,
    "not checked": 4,
}


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


@dataclass(frozen=True)
class ColumnVerdict:
    """One tool's verdict in one column: its state (a severity, ``ok``, ``not read``,
    ``not checked``; a client's verdict value) and what it counts (``2 warnings``)."""

    state: str
    text: str


@dataclass(frozen=True)
class ToolVerdicts:
    """Every column's verdict on one tool.

    Attributes:
        name: the tool's name.
        providers: per provider column, its verdict.
        lint: the lint column's verdict.
        clients: per client shown, what it does with the tool (``None``: the tool list
            does not hold it).
        findings: how many findings the tool has (its own and the cross-tool ones about it).
        rank: the worst state's rank (:data:`RANKS`).
        lint_count: how many lint findings it has.
    """

    name: str
    providers: Mapping[str, ColumnVerdict]
    lint: ColumnVerdict
    clients: Mapping[str, ColumnVerdict | None] = field(default_factory=dict)
    findings: int = 0
    rank: int = 0
    lint_count: int = 0

    def columns(self) -> dict[str, str]:
        """``{column: state}`` over every column (``lint``, each provider, ``client:ID``)."""
        found = {"lint": self.lint.state, **{p: v.state for p, v in self.providers.items()}}
        for client, verdict in self.clients.items():
            found[f"client:{client}"] = "-" if verdict is None else verdict.state
        return found


def judged(findings: Sequence[Finding], view_errors: int) -> ColumnVerdict:
    """The verdict of some findings and failed views, and the counts it stands for."""
    counts = severity_counts(findings)
    parts = [plural(n, sev.value) for sev, n in counts.items() if n]
    if view_errors:
        parts.append(plural(view_errors, "view error"))
    worst = next((sev.value for sev, n in counts.items() if n), "ok")
    return ColumnVerdict("error" if view_errors else worst, ", ".join(parts) if parts else "ok")


def _client_verdicts(name: str, clients: ClientsCheck | None) -> dict[str, ColumnVerdict | None]:
    if clients is None:
        return {}
    found: dict[str, ColumnVerdict | None] = {}
    for client in clients.report.clients:
        verdict = clients.verdict(client, name)
        found[client] = None if verdict is None else ColumnVerdict(verdict.value, verdict.value)
    return found


def tool_verdicts(
    entry: Tool,
    check: ToolCheck | None,
    cross: Sequence[Finding],
    providers: Sequence[str],
    clients: ClientsCheck | None = None,
) -> ToolVerdicts:
    """Every column's verdict on ``entry`` (``check``: its checks, ``None`` when it was not
    read or has no schema; ``cross``: the findings across tools that name it)."""
    shown = _client_verdicts(entry.name, clients)
    if check is None:
        state = "not read" if entry.error is not None else "not checked"
        text = state if entry.error is not None else f"not checked ({entry.origin.role})"
        none = ColumnVerdict(state, text)
        return ToolVerdicts(
            entry.name, dict.fromkeys(providers, none), none, shown, 0, RANKS[state]
        )
    columns, every = {}, [*check.lint, *cross]
    for provider in providers:
        found = check.providers.get(provider, ())
        failed = sum(1 for view in check.view_errors if view.endswith(f"({provider})"))
        # A name the provider rejects is that provider's problem too, not only the set's.
        mine = [*found, *(f for f in cross if concerns_provider(f, provider))]
        columns[provider] = judged(mine, failed)
        if provider in check.unchecked and not failed:  # nothing to send, so not "ok"
            columns[provider] = ColumnVerdict("error", "no payload (strict failed)")
        every.extend(found)
    unowned = sum(1 for view in check.view_errors if not view.endswith(")"))
    lint = judged(check.lint, unowned)
    worst = judged(every, len(check.view_errors))
    rank = min(RANKS[worst.state], RANKS[lint.state])
    return ToolVerdicts(entry.name, columns, lint, shown, len(every), rank, len(check.lint))
