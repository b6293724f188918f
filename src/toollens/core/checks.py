"""``toollens check`` as data: one tool's lint findings and each provider's, with verdicts.

:class:`ToolCheck` gathers the reports of one tool (one report per provider): the lint
findings once, each provider's findings and verdict, and the views that could not be built.
Its ``to_json()`` is made of the records' own ``to_json()`` forms, so a finding reads the
same in ``check``, ``compare`` and ``show`` output.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from toollens.core.problems import problem_counts
from toollens.core.records import Finding, Severity
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from toollens.core.providers import ProviderVerdict
    from toollens.core.report import Report

__all__ = ["ToolCheck"]

_NO_PAYLOAD = "no payload, because strict conversion failed (see the strict view's error)"


@dataclass(frozen=True)
class ToolCheck:
    """Lint findings (once) and each provider's findings, from one report per provider.

    Attributes:
        title: the tool's name.
        lint: the lint findings (the same for every provider, so kept once).
        providers: provider id -> its findings, in the order the providers were asked for.
        verdicts: provider id -> its verdict (``None`` when the provider view failed).
        view_errors: views that could not be built (``"provider (gemini)"`` for one
            provider's), each reported once; a problem CI should see.
        unchecked: provider id -> why its checks could not run (no payload because strict
            conversion failed): "no findings" would claim a check that never happened.
    """

    title: str
    lint: tuple[Finding, ...]
    providers: Mapping[str, tuple[Finding, ...]]
    verdicts: Mapping[str, ProviderVerdict | None]
    view_errors: Mapping[str, str]
    unchecked: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_reports(cls, reports: Sequence[Report]) -> ToolCheck:
        """Gather one tool's reports, one per provider (the first one's lint is kept)."""
        first = reports[0]
        view_errors: dict[str, str] = {}
        for r in reports:
            for view, message in r.view_errors.items():
                if view in r.repeated_errors:
                    continue  # "no payload" because strict failed: already reported once
                key = f"{view} ({r.provider})" if view == "provider" else view
                view_errors.setdefault(key, message)
        unchecked: dict[str, str] = {}
        for r in reports:
            if "provider" in r.view_errors and not r.provider_findings:
                repeated = "provider" in r.repeated_errors
                unchecked[r.provider] = _NO_PAYLOAD if repeated else r.view_errors["provider"]
        return cls(
            title=first.title,
            lint=tuple(first.lint),
            providers={r.provider: tuple(r.provider_findings) for r in reports},
            verdicts={r.provider: r.provider_verdict for r in reports},
            view_errors=view_errors,
            unchecked=unchecked,
        )

    def all_findings(self) -> list[Finding]:
        """Lint findings, then each provider's."""
        return [*self.lint, *(f for fs in self.providers.values() for f in fs)]

    def counts(self) -> dict[Severity, int]:
        """Problems per severity: a provider finding explaining a lint finding counts once."""
        return problem_counts(self.lint, list(self.providers.values()))

    def count(self, severity: Severity) -> int:
        return self.counts()[severity]

    @property
    def errors(self) -> int:
        """Error findings plus views that could not be built: what fails the check."""
        return self.count(Severity.ERROR) + len(self.view_errors)

    def to_json(self) -> JsonObject:
        """JSON-ready form; the same input always gives the same output."""
        return {
            "target": self.title,
            "ok": self.errors == 0,
            "counts": {
                **{sev.value: n for sev, n in self.counts().items()},
                "view_errors": len(self.view_errors),
            },
            "lint": [f.to_json() for f in self.lint],
            "providers": {p: [f.to_json() for f in fs] for p, fs in self.providers.items()},
            "verdicts": {p: v.to_json() for p, v in self.verdicts.items() if v is not None},
            "view_errors": dict(self.view_errors),
            "unchecked": dict(self.unchecked),
        }

    to_dict = to_json  # the name the toolset check (toollens.render.check_toolset) reads
