"""Every rule toollens applies, of every family, in one registry.

An aggregation over the families' own tables, so a rule added to any of them is listed
here with nothing else to edit: lint (:data:`toollens.core.lint.LINT_RULES`), strict
conversion's rewrites and refusals (:mod:`toollens.core.strict.rules`), the provider, request
and MCP specification rules (:func:`toollens.toolsets.catalogue.rule_rows`), the clients'
rules (:data:`toollens.consumers.CONSUMER_RULES`), the description limits
(:data:`toollens.tokens.limits.LIMITS`) and the token budgets. ``check --rules`` lists it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from toollens.assess.budget import BUDGET_TOOL, BUDGET_TOTAL
from toollens.consumers import CONSUMER_RULES
from toollens.core.lint import LINT_RULES
from toollens.core.schema.types import JsonObject
from toollens.core.strict.rules import PROBLEMS, REASONS
from toollens.tokens.limits import LIMITS
from toollens.toolsets.catalogue import rule_rows

__all__ = ["FAMILIES", "Family", "Rule", "rule_registry"]

Family = Literal["lint", "strict", "provider", "request", "mcp", "client", "budget"]
FAMILIES: tuple[Family, ...] = ("lint", "strict", "provider", "request", "mcp", "client", "budget")


@dataclass(frozen=True)
class Rule:
    """One rule of any family.

    Attributes:
        id: the stable id (the contract).
        family: which table it comes from (:data:`FAMILIES`).
        severity: ``error``, ``warning`` or ``info``.
        when: when it applies (``always``, ``strict``, ``request``, ``mcp@...``, a client).
        summary: what it finds, one line.
        fix: what to do (``""`` when the rule needs nothing done).
        source, url, date, evidence: where it comes from; empty for toollens' own rules
            (lint, strict conversion, budgets), which cite no third party.
    """

    id: str
    family: Family
    severity: str
    when: str
    summary: str
    fix: str = ""
    source: str = ""
    url: str = ""
    date: str = ""
    evidence: str = "toollens"

    def to_json(self) -> JsonObject:
        return {
            "id": self.id,
            "family": self.family,
            "severity": self.severity,
            "when": self.when,
            "summary": self.summary,
            "fix": self.fix,
            "source": self.source,
            "url": self.url,
            "date": self.date,
            "evidence": self.evidence,
        }


def _lint() -> Iterator[Rule]:
    for r in LINT_RULES:
        yield Rule(str(r.id), "lint", r.severity.value, "always", r.summary, r.fix)


def _strict() -> Iterator[Rule]:
    for rewrite, reason in REASONS.items():
        yield Rule(rewrite.value, "strict", "info", "strict", reason)
    for refusal, (message, hint) in PROBLEMS.items():
        yield Rule(refusal.value, "strict", "error", "strict", message, hint)


def _cited() -> Iterator[Rule]:
    for row in rule_rows():
        family: Family = (
            "request"
            if row.when == "request"
            else "mcp"
            if row.when.startswith("mcp")
            else "provider"
        )
        cite = row.cite
        date = cite.date + (f" (re-checked {cite.rechecked})" if cite.rechecked else "")
        yield Rule(
            row.id,
            family,
            row.severity,
            row.when,
            row.summary,
            "",
            cite.title,
            cite.url,
            date,
            cite.evidence,
        )


def _clients() -> Iterator[Rule]:
    for r in CONSUMER_RULES:
        summary = f"{r.verdict.value}: {r.summary}"
        yield Rule(
            r.id,
            "client",
            r.severity.value,
            r.consumer,
            summary,
            r.fix,
            r.source,
            r.source,
            r.date,
            r.evidence.value,
        )


def _budgets() -> Iterator[Rule]:
    for limit in LIMITS:
        summary = f"a description over {limit.max_chars} characters: {limit.consequence}"
        yield Rule(
            limit.rule,
            "budget",
            limit.severity.value,
            "always",
            summary,
            limit.fix,
            limit.cite.title,
            limit.cite.url,
            limit.cite.date,
            limit.cite.evidence,
        )
    yield Rule(
        BUDGET_TOOL,
        "budget",
        "error",
        "--max-tokens",
        "a tool costs more tokens than the budget",
        "shorten its descriptions or drop parameters",
    )
    yield Rule(
        BUDGET_TOTAL,
        "budget",
        "error",
        "--max-total-tokens",
        "the tools together cost more tokens than the budget",
        "send fewer tools, defer the rarely used ones, or shorten the largest",
    )


def rule_registry() -> tuple[Rule, ...]:
    """Every rule, family by family (:data:`FAMILIES` order), each family in its table's order."""
    return (*_lint(), *_strict(), *_cited(), *_clients(), *_budgets())
