"""Result records shared across the core: rewrites (``Change``) and problems (``Finding``).

They are frozen dataclasses so front ends can hash, compare and render them without
worrying that a view mutates what another view shows.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, get_args

from toollens.core.record_json import record_json

# Re-exported for modules that still import it from here; it lives in schema.pointer.
from toollens.core.schema.pointer import join_pointer

__all__ = [
    "EVIDENCE_LEVELS",
    "SEVERITY_ORDER",
    "Change",
    "Citation",
    "Evidence",
    "Finding",
    "Origin",
    "RuleText",
    "Severity",
    "join_pointer",
    "severity_counts",
]


class Severity(str, enum.Enum):
    """How much a finding matters."""

    ERROR = "error"  # the request will be rejected / the tool cannot work
    WARNING = "warning"  # accepted, but likely not what the author meant
    INFO = "info"  # worth knowing


class Origin(str, enum.Enum):
    """What produced a provider finding or verdict."""

    DOCUMENTED_RULE = "documented rule"  # a rule written from the provider's documentation
    GRAMMAR = "llguidance"  # OpenAI's grammar engine compiled (or refused) the schema
    TRANSLATION = "translation"  # toollens' own rewrite for the provider could not do it


SEVERITY_ORDER: tuple[Severity, ...] = tuple(Severity)
"""Severities from the worst down: the order summaries and sorted lists use."""


def severity_counts(findings: Iterable[Finding]) -> dict[Severity, int]:
    """How many findings of each severity, every severity present, worst first."""
    counts = dict.fromkeys(SEVERITY_ORDER, 0)
    for finding in findings:
        counts[Severity(finding.severity)] += 1
    return counts


class RuleText(Protocol):
    """What a rule with text templates has: lint rules and provider rules alike."""

    @property
    def id(self) -> str: ...
    @property
    def severity(self) -> Severity: ...
    @property
    def message(self) -> str: ...
    @property
    def fix(self) -> str: ...


Evidence = Literal["code", "docs", "issue", "report"]
"""How strong a source is: the party's own code (runnable as an oracle), its documentation,
an issue on its own tracker with a reproduction, or a third-party report (a hint only)."""

EVIDENCE_LEVELS: tuple[Evidence, ...] = get_args(Evidence)


@dataclass(frozen=True)
class Citation:
    """Where a rule comes from, and the date of that source.

    Attributes:
        title: what the source is (a documentation page, an SDK type and its version, or
            the reports in words when there is no one page).
        url: the page; for an SDK, its documentation page; ``""`` when there is none.
        date: ISO date the source was read (a page) or released (an SDK version); ``""``
            when not recorded.
        evidence: how strong the source is (see :data:`Evidence`).
        rechecked: ISO date the rule was last checked against the source again, when that
            is later than ``date`` (the source had not changed); ``None`` when never.
        ended: ISO date by which the party had changed so that the rule no longer holds
            (a later source says so); ``None`` while it holds. An ended rule stays in the
            tables, with its evidence, but judges nothing.
    """

    title: str
    url: str
    date: str
    evidence: Evidence = "docs"
    rechecked: str | None = None
    ended: str | None = None

    @property
    def checked(self) -> str:
        """The latest date the rule is known to match its source (ISO)."""
        return max(self.date, self.rechecked or self.date)

    def to_json(self) -> dict[str, str | None]:
        return record_json(self, "title", "url", "date", "rechecked", "evidence", "ended")


@dataclass(frozen=True)
class Change:
    """One rewrite a converter made to a schema.

    Attributes:
        pointer: JSON pointer (RFC 6901) of the node that changed, in the output schema.
        rule: stable rule id, e.g. ``"close-object"``; ids are the contract, wording may change.
        before: the node's relevant value before the rewrite (``None`` when absent).
        after: the value after the rewrite (``None`` when removed).
        reason: one sentence a person understands.
    """

    pointer: str
    rule: str
    before: Any
    after: Any
    reason: str


@dataclass(frozen=True)
class Finding:
    """One problem a checker found: lint, provider compatibility, or size limits.

    Attributes:
        rule: stable rule id, e.g. ``"openai.root-not-object"``.
        severity: ``Severity.ERROR`` when a provider will reject the request.
        pointer: JSON pointer into the schema, or ``None`` when about the tool as a whole.
        message: what is wrong, with the offending value shown.
        fix: what to do about it.
        parameter: the parameter concerned, when there is one.
        cite: where the rule comes from (its source, date and evidence), carried by the
            finding so no front end looks it up by id; ``None`` for toollens' own rules
            (lint, strict conversion, budgets), which cite no third party.
        origin: what produced the finding (a documented rule, llguidance, a translation);
            ``None`` for lint findings.
    """

    rule: str
    severity: Severity
    pointer: str | None
    message: str
    fix: str
    parameter: str | None = None
    cite: Citation | None = field(default=None, compare=False)
    origin: Origin | None = field(default=None, compare=False)

    @property
    def source(self) -> str | None:
        """The rule's source as one string: its address, or its title when it has none."""
        return None if self.cite is None else self.cite.url or self.cite.title

    @property
    def evidence(self) -> str:
        """How strong the rule's source is; ``"toollens"`` for toollens' own rules."""
        return "toollens" if self.cite is None else self.cite.evidence

    @property
    def headline(self) -> str:
        """``error[rule] at /pointer: message``: the finding in one line, without the fix."""
        where = f" at {self.pointer or '/'}" if self.pointer is not None else ""
        return f"{self.severity.value}[{self.rule}]{where}: {self.message}"

    def __str__(self) -> str:
        """The text form every command prints: the headline, then the fix when there is one."""
        return f"{self.headline} Fix: {self.fix}" if self.fix else self.headline

    @classmethod
    def from_rule(
        cls,
        rule: RuleText,
        pointer: str | None,
        fields: Mapping[str, object],
        *,
        parameter: str | None = None,
        cite: Citation | None = None,
        origin: Origin | None = None,
    ) -> Finding:
        """One hit of ``rule`` as a finding: its message and fix filled from ``fields``."""
        return cls(
            rule=rule.id,
            severity=rule.severity,
            pointer=pointer,
            message=rule.message.format(**fields),
            fix=rule.fix.format(**fields),
            parameter=parameter,
            cite=cite,
            origin=origin,
        )

    def to_json(self) -> dict[str, str | None]:
        """The JSON form every command emits; keys in a fixed order: ``source`` (an address,
        or the reports in words), ``date`` the source was last read or re-checked (``None``
        when not recorded) and ``evidence`` (:data:`Evidence`, or ``"toollens"``)."""
        data = record_json(
            self, "rule", "severity", "pointer", "parameter", "message", "fix", "source"
        )
        data["date"] = (self.cite.checked or None) if self.cite is not None else None
        data["evidence"] = self.evidence
        return data
