"""Token counts in the lock: each tool's cost for one model, and how it moved.

A lock entry may carry ``"tokens": {"model": M, "count": N}``: what the tool alone costs on
model ``M`` (``toollens.tokens``), with ``"deferred": true`` for a tool its payload marks
``defer_loading`` (it costs nothing up front, ``N`` once the model loads it).
``toollens diff --lock`` reports each change ("+37 tokens", :class:`LockTokens`) and, when
the project sets ``max_token_growth``, a growth above it is an error finding. Entries are
written only when the tokenizer is installed (``toollens[tokens]``); install it wherever the
lock is written and checked, or the lock reads as out of date.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.core.records import Finding, Severity
from toollens.core.schema.types import JsonMapping, JsonObject
from toollens.project.github import Annotation

if TYPE_CHECKING:
    from toollens.core.report import Report
    from toollens.project.tools import ProjectTool

GROWTH_RULE = "tokens.growth"


def entry_tokens(report: Report, model: str | None) -> dict[str, str | int | bool] | None:
    """The lock's ``tokens`` value for one tool's report, or ``None`` when not counted."""
    if not model:
        return None
    # lazy: toollens.tokens (~43 ms) loads only when the lock records token counts
    from toollens.tokens import TokenizerUnavailableError, tokens

    try:
        counted = tokens(report, model)
    except TokenizerUnavailableError:
        return None  # no tokenizer here: the lock records no count rather than a guess
    entry: dict[str, str | int | bool] = {"model": model, "count": counted.tools[0].tokens}
    given = report.given
    if given is not None and given.own_fields.get("defer_loading") is True:
        entry["deferred"] = True  # paid once loaded, not up front
    return entry


@dataclass(frozen=True)
class TokenDelta:
    """How one tool's token count moved between the lock and now (same model)."""

    name: str
    model: str
    old: int
    new: int
    deferred: bool = False

    @property
    def change(self) -> int:
        return self.new - self.old

    def __str__(self) -> str:
        paid = ", deferred: paid once loaded" if self.deferred else ""
        return f"{self.change:+d} tokens ({self.model}: {self.old} -> {self.new}{paid})"


def token_deltas(
    old_entries: Mapping[str, JsonMapping], new_entries: Mapping[str, JsonMapping]
) -> tuple[TokenDelta, ...]:
    """The tools whose count changed, by name; entries without a count are skipped."""
    found = []
    for name in sorted(set(old_entries) & set(new_entries)):
        old, new = old_entries[name].get("tokens"), new_entries[name].get("tokens")
        if not isinstance(old, Mapping) or not isinstance(new, Mapping):
            continue
        if old.get("model") != new.get("model") or old.get("count") == new.get("count"):
            continue
        deferred = new.get("deferred") is True
        found.append(
            TokenDelta(name, str(new["model"]), int(old["count"]), int(new["count"]), deferred)
        )
    return tuple(found)


def growth_findings(deltas: Sequence[TokenDelta], threshold: int | None) -> list[Finding]:
    """An error finding for each tool that grew by more than ``threshold`` tokens."""
    if threshold is None:
        return []
    return [
        Finding(
            GROWTH_RULE,
            Severity.ERROR,
            None,
            f"tool {d.name!r} grew by {d.change} tokens on {d.model} ({d.old} -> {d.new}), "
            f"more than max_token_growth = {threshold}.",
            "shorten what was added, or raise max_token_growth under [tool.toollens]",
        )
        for d in deltas
        if d.change > threshold
    ]


@dataclass(frozen=True)
class LockTokens:
    """How the tools' token counts moved against the lock, and the growth findings.

    Computed from the lock's entries and the tools' new entries (data, never a command's
    output); ``diff --lock`` formats it with the rest of the comparison.
    """

    deltas: tuple[TokenDelta, ...]
    findings: tuple[Finding, ...]
    threshold: int | None = None

    @classmethod
    def compare(
        cls, lock: JsonMapping, tools: Sequence[ProjectTool], threshold: int | None
    ) -> LockTokens:
        deltas = token_deltas(lock["tools"], {t.name: t.entry for t in tools})
        return cls(deltas, tuple(growth_findings(deltas, threshold)), threshold)

    def to_json(self) -> JsonObject:
        """The ``tokens`` object of ``diff --lock --format json``."""
        return {
            "deltas": {
                d.name: {
                    "model": d.model,
                    "old": d.old,
                    "new": d.new,
                    "change": d.change,
                    **({"deferred": True} if d.deferred else {}),
                }
                for d in self.deltas
            },
            "findings": [f.to_json() for f in self.findings],
        }

    def text_lines(self) -> list[str]:
        """Each tool's change, then the growth findings."""
        return [f"{d.name}: {d}" for d in self.deltas] + [f"  {f}" for f in self.findings]

    def annotations(self, tools: Sequence[ProjectTool]) -> list[Annotation]:
        """Each growth finding as an annotation on the tool that grew."""
        return _growth_annotations(self.deltas, self.threshold, tools)


def _growth_annotations(
    deltas: Sequence[TokenDelta], threshold: int | None, tools: Sequence[ProjectTool]
) -> list[Annotation]:
    """Each growth finding as an annotation on the tool that grew."""
    # lazy: project.annotations + core.diff (~7 ms), for GitHub annotations only
    from toollens.project.annotations import tool_locator

    by_name = {t.name: t for t in tools}
    notes = []
    for delta in deltas:
        for finding in growth_findings([delta], threshold):
            grown = by_name.get(delta.name)
            locator = tool_locator(grown) if grown is not None else None
            notes.append(
                Annotation(
                    level="error",
                    title=f"toollens: {finding.rule}",
                    message=f"{finding.message} Fix: {finding.fix}",
                    file=locator.file if locator else None,
                    line=locator.line if locator else None,
                )
            )
    return notes
