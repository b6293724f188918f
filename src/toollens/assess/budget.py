"""The token budgets and the description limits: rules of an assessment, over the tool
definitions it already read (nothing is read a second time).

``max_tokens`` (per tool) and ``max_total_tokens`` (all the tools together) are error
findings when exceeded; the documented description limits
(:mod:`toollens.tokens.limits`) always apply. :class:`Budget` keeps each finding with the
definition it is about, so annotations can point at it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toollens.core.records import Finding, Severity
from toollens.tokens import tokens
from toollens.tokens.limits import iter_limit_findings

if TYPE_CHECKING:
    from toollens.core.schema.types import JsonObject
    from toollens.tokens.result import TokenCount
    from toollens.tokens.tooldefs import ToolDef

__all__ = ["BUDGET_TOOL", "BUDGET_TOTAL", "Budget", "budget", "budget_findings"]

BUDGET_TOOL = "tokens.tool-over-budget"
BUDGET_TOTAL = "tokens.total-over-budget"


def budget_findings(
    counted: TokenCount, max_tokens: int | None, max_total: int | None
) -> list[Finding]:
    """Error findings for tools over ``max_tokens`` and a total over ``max_total``."""
    return [f for f, _ in _budget_by_tool(counted, max_tokens, max_total)]


def _budget_by_tool(
    counted: TokenCount, max_tokens: int | None, max_total: int | None
) -> list[tuple[Finding, int | None]]:
    """:func:`budget_findings`, each with the index of its tool (``None``: all of them)."""
    found: list[tuple[Finding, int | None]] = []
    for index, tool in enumerate(counted.tools):
        if max_tokens is not None and tool.tokens > max_tokens:
            finding = Finding(
                BUDGET_TOOL,
                Severity.ERROR,
                None,
                f"tool {tool.name!r} costs {tool.tokens} tokens on {counted.model} "
                f"({counted.method}), over the budget of {max_tokens}.",
                "shorten its descriptions or drop parameters; "
                "`toollens tokens` shows where the tokens go",
            )
            found.append((finding, index))
    if max_total is not None and counted.up_front > max_total:
        deferred = (
            f" up front ({counted.deferred} more in deferred tools, paid once loaded)"
            if counted.deferred
            else ""
        )
        total = Finding(
            BUDGET_TOTAL,
            Severity.ERROR,
            None,
            f"the {len(counted.tools)} tools cost {counted.up_front} tokens together"
            f"{deferred} on {counted.model} ({counted.method}), over the budget of {max_total}.",
            "send fewer tools per request, defer the ones rarely used (defer_loading), or "
            "shorten the largest ones",
        )
        found.append((total, None))
    return found


@dataclass(frozen=True)
class Budget:
    """What the token budgets and the description limits say about tools already read.

    Attributes:
        found: each finding with the index of the definition it is about (``None``: the
            tools together).
        counted: the count the budgets were held against (``None``: no budget asked).
    """

    found: tuple[tuple[Finding, int | None], ...]
    counted: TokenCount | None = None

    @property
    def findings(self) -> list[Finding]:
        return [f for f, _ in self.found]

    @property
    def failed(self) -> bool:
        """Whether a finding is an error (``check`` then exits 1)."""
        return any(f.severity is Severity.ERROR for f, _ in self.found)

    def to_json(self) -> JsonObject:
        """The ``tokens`` object of ``check --format json``."""
        data: JsonObject = {}
        if self.counted is not None:
            data = {
                "total": self.counted.total,
                "up_front": self.counted.up_front,
                "model": self.counted.model,
                "method": self.counted.method,
                "tools": {t.name: t.tokens for t in self.counted.tools},
            }
        data["findings"] = [_finding_data(f) for f in self.findings]
        return data

    def to_text(self) -> str:
        """The lines ``check`` prints after its own."""
        counted = self.counted
        if counted is None:
            summary = "description limits:"
        elif counted.deferred:
            summary = (
                f"tokens ({counted.model}, {counted.method}): {counted.up_front} up front, "
                f"{counted.total} with every deferred tool loaded"
            )
        else:
            summary = f"tokens ({counted.model}, {counted.method}): {counted.total} in total"
        return summary + "\n" + "".join(f"  {f}\n" for f in self.findings)


def budget(
    defs: Sequence[ToolDef], max_tokens: int | None, max_total: int | None, model: str
) -> Budget:
    """The budgets (when asked) and the description limits over definitions already read.

    Counts nothing when neither budget is asked; never reads a target.
    """
    found: list[tuple[Finding, int | None]] = [
        (f, i) for i, d in enumerate(defs) for f in iter_limit_findings([d])
    ]
    if max_tokens is None and max_total is None:
        return Budget(tuple(found))
    counted = tokens(list(defs), model)
    if len(counted.tools) == len(defs):
        found += _budget_by_tool(counted, max_tokens, max_total)
    else:  # not one count per definition: the findings point at the whole run
        found += [(f, None) for f in budget_findings(counted, max_tokens, max_total)]
    return Budget(tuple(found), counted)


def _finding_data(finding: Finding) -> dict[str, Any]:
    return {
        "rule": finding.rule,
        "severity": finding.severity.value,
        "message": finding.message,
        "fix": finding.fix,
    }
