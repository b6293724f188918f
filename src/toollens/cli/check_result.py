"""The result of ``toollens check``: computed once over the tools read, formatted once.

``check`` reads its tools once (one tool, or a toolset: the project's list too), checks each,
and keeps all it has to say in one :class:`CheckResult`: the per-tool checks, the findings
across tools, the clients' verdicts with what each chosen client's tools cost
(:class:`toollens.cli.check_clients.ClientsCheck`), and the token rules (budgets and
description limits, :class:`toollens.cli.tokens.Budget`) held against the definitions
already read. :func:`format_result` writes it as text, JSON or GitHub annotations; nothing
reads a tool a second time or parses another command's output.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from toollens.cli.common import EXIT_FINDINGS, EXIT_OK

if TYPE_CHECKING:
    from toollens.cli.check_clients import ClientsCheck
    from toollens.cli.tokens import Budget
    from toollens.cli.toolset_format import ToolRow
    from toollens.core.checks import ToolCheck
    from toollens.core.function_schema import FunctionSchema
    from toollens.core.records import Finding
    from toollens.core.schema.types import JsonObject
    from toollens.toolsets import Toolset

__all__ = ["CheckResult", "CheckedTool", "Counted", "Mode", "format_result"]

Mode = Literal["tool", "toolset"]


@dataclass(frozen=True)
class CheckedTool:
    """One tool checked on its own (a target naming one tool).

    Attributes:
        result: its findings, per provider.
        obj: the tool's object (annotations point at its ``def``).
        function: its ``FunctionSchema`` when it is a Python function.
    """

    result: ToolCheck
    obj: object
    function: FunctionSchema | None = None


@dataclass(frozen=True)
class Counted:
    """What the token rules counted: the objects, each with the text naming it (the places
    of their definitions are found from these when annotating)."""

    named: tuple[tuple[object, str], ...]
    given: bool  # the command line named them (else: the project's list)


@dataclass(frozen=True)
class CheckResult:
    """Everything one ``check`` says, computed once.

    Attributes:
        mode: ``tool`` (one target naming one tool) or ``toolset`` (a module, an agent, a
            tool list, a server, the project's list).
        providers: the providers checked against.
        target: the target as named (``project`` for the project's list).
        checks: the tool checked on its own (``tool`` mode).
        toolset: the toolset read (``toolset`` mode), with its findings across tools.
        rows: each entry of the toolset with its check.
        clients: the clients' verdicts and what each chosen client's tools cost.
        tokens: the token budgets and description limits (``None``: no definition read).
        counted: what ``tokens`` counted, for annotations.
        code: the exit code of the checks and the clients, before the token rules.
    """

    mode: Mode
    providers: tuple[str, ...]
    target: str
    checks: tuple[CheckedTool, ...] = ()
    toolset: Toolset | None = None
    rows: tuple[ToolRow, ...] = ()
    clients: ClientsCheck | None = None
    tokens: Budget | None = None
    counted: Counted | None = None
    code: int = EXIT_OK

    @property
    def exit_code(self) -> int:
        """1 when a check, a chosen client or a token rule fails, else 0."""
        failed = self.tokens is not None and self.tokens.failed
        return max(self.code, EXIT_FINDINGS if failed else EXIT_OK)

    @property
    def token_section(self) -> bool:
        """Whether the token rules have something to say (a count asked, or a finding)."""
        return self.tokens is not None and (
            bool(self.tokens.found) or self.tokens.counted is not None
        )

    def to_json(self) -> JsonObject:
        """The result as ``check --format json`` writes it."""
        if self.mode == "toolset":
            from toollens.cli.toolset_format import toolset_data

            assert self.toolset is not None
            more = self.token_findings
            data = toolset_data(self.toolset, self.rows, self.providers, self.clients, more)
            data["ok"] = self.exit_code == EXIT_OK  # what gates: chosen clients, --provider
        else:
            data = self.checks[0].result.to_json()
            data["ok"] = data["ok"] and self.exit_code == EXIT_OK
        if self.token_section:
            assert self.tokens is not None
            data["tokens"] = self.tokens.to_json()
        return data

    @property
    def token_findings(self) -> tuple[Finding, ...]:
        """The token budgets' and description limits' findings."""
        return tuple(self.tokens.findings) if self.tokens is not None else ()


def format_result(result: CheckResult, fmt: str) -> str:
    """``result`` as ``text``, ``json`` or ``github`` annotations."""
    if fmt == "json":
        return json.dumps(result.to_json(), indent=2) + "\n"
    if fmt == "github":
        return _github(result) + _token_annotations(result)
    if result.tokens is None or not result.token_section:
        return _text(result)
    gap = "\n" if result.mode == "toolset" else ""  # a section of its own under the table
    return _text(result) + gap + result.tokens.to_text()


def _text(result: CheckResult) -> str:
    if result.mode == "toolset":
        from toollens.cli.toolset_format import format_text

        assert result.toolset is not None
        more = result.token_findings
        return format_text(result.toolset, result.rows, result.providers, result.clients, more)
    from toollens.cli.check_text import format_check

    return "".join(format_check(c.result) for c in result.checks)


def _github(result: CheckResult) -> str:
    if result.mode == "toolset":
        from toollens.cli.toolset_format import format_github

        assert result.toolset is not None
        more = result.token_findings
        return format_github(result.toolset, result.rows, result.target, result.clients, more)
    from toollens.cli.project import format_checks_github

    triples = [(c.result, c.obj, c.function) for c in result.checks]
    return format_checks_github(triples, result.target)


def _token_annotations(result: CheckResult) -> str:
    if not result.token_section or result.counted is None:
        return ""
    from toollens.cli.budget_github import budget_annotations

    assert result.tokens is not None
    return budget_annotations(result.tokens.found, result.counted.named, result.counted.given)
