"""The assessment: everything said about a request's tools, computed once.

:class:`Assessment` holds the tools read (one tool, or a toolset with its findings across
tools as judged on the request's path), each tool's checks and its verdict per column
(:class:`~toollens.assess.verdicts.ToolVerdicts`), the clients' verdicts and costs, the
token rules, which findings gate, one ``ok`` and one exit code. The front ends (``check``'s
text, JSON and GitHub emitters, ``report --html``, the Toolset widget, the lock) render it
and decide nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from toollens.assess.gating import EXIT_FINDINGS, EXIT_OK
from toollens.core.problems import set_counts
from toollens.core.records import Finding, Severity

if TYPE_CHECKING:
    from toollens.assess.budget import Budget
    from toollens.assess.clients import ClientsCheck
    from toollens.assess.reading import CheckedTool, ToolRow
    from toollens.assess.request import AssessRequest
    from toollens.assess.verdicts import ToolVerdicts
    from toollens.toolsets import Toolset

__all__ = ["Assessment", "Counted", "Mode"]

Mode = Literal["tool", "toolset"]


@dataclass(frozen=True)
class Counted:
    """What the token rules counted: the objects, each with the text naming it (the places
    of their definitions are found from these when annotating)."""

    named: tuple[tuple[object, str], ...]
    given: bool  # the request named them (else: the project's list)


@dataclass(frozen=True)
class Assessment:
    """Everything one request's assessment says, computed once.

    Attributes:
        request: what was asked.
        mode: ``tool`` (a target naming one tool) or ``toolset``.
        providers: the provider columns.
        target: the target as named (``project`` for the project's list).
        checks: the tool checked on its own (``tool`` mode).
        toolset: the toolset read (``toolset`` mode), its findings across tools as judged
            on this path (an error of a provider nobody sends to is a warning here).
        rows: each entry of the toolset with its check.
        verdicts: each row's verdict per column, in toolset order.
        clients: the clients' verdicts and what each named client's tools cost.
        tokens: the token budgets and description limits (``None``: no definition read).
        counted: what ``tokens`` counted, for annotations.
        code: the exit code of the checks and the clients, before the token rules.
    """

    request: AssessRequest
    mode: Mode
    providers: tuple[str, ...]
    target: str
    checks: tuple[CheckedTool, ...] = ()
    toolset: Toolset | None = None
    rows: tuple[ToolRow, ...] = ()
    verdicts: tuple[ToolVerdicts, ...] = ()
    clients: ClientsCheck | None = None
    tokens: Budget | None = None
    counted: Counted | None = None
    code: int = EXIT_OK

    @property
    def exit_code(self) -> int:
        """1 when a check, a named client or a token rule fails, else 0."""
        failed = self.tokens is not None and self.tokens.failed
        return max(self.code, EXIT_FINDINGS if failed else EXIT_OK)

    @property
    def ok(self) -> bool:
        """Whether nothing gates on this path (the exit code is 0)."""
        return self.exit_code == EXIT_OK

    @property
    def token_section(self) -> bool:
        """Whether the token rules have something to say (a count asked, or a finding)."""
        return self.tokens is not None and (
            bool(self.tokens.found) or self.tokens.counted is not None
        )

    @property
    def token_findings(self) -> tuple[Finding, ...]:
        """The token budgets' and description limits' findings."""
        return tuple(self.tokens.findings) if self.tokens is not None else ()

    @property
    def counts(self) -> dict[Severity, int]:
        """Problems per severity: each tool's as a check of it alone counts them, the
        findings across tools and the token rules' (one each)."""
        if self.mode == "tool":
            return set_counts([c.result.counts() for c in self.checks], self.token_findings)
        assert self.toolset is not None
        tools = (r.result.counts() for r in self.rows if r.result is not None)
        return set_counts(tools, [*self.toolset.findings, *self.token_findings])

    @property
    def view_errors(self) -> int:
        """How many views could not be built, over every tool."""
        results = [c.result for c in self.checks] or [
            r.result for r in self.rows if r.result is not None
        ]
        return sum(len(r.view_errors) for r in results)

    @property
    def unread(self) -> int:
        """How many tools could not be read."""
        return sum(1 for r in self.rows if r.entry.error is not None)

    def verdict_table(self) -> dict[str, dict[str, str]]:
        """``{tool: {column: state}}``: what every front end shows, for comparing them."""
        return {v.name: v.columns() for v in self.verdicts}
