"""One tool's ``check`` as text: findings grouped by checker, worst first, then a summary."""

from __future__ import annotations

from collections.abc import Sequence

from toollens.core.checks import ToolCheck
from toollens.core.problems import explained_by_lint, providers_by_finding
from toollens.core.records import SEVERITY_ORDER, Finding

__all__ = ["format_check"]


def format_check(result: ToolCheck) -> str:
    """Findings grouped by checker, worst first within each group, then a summary."""
    lines = [f"{result.title}: {_check_summary(result)}"]
    for view, message in result.view_errors.items():
        lines.append(f"  error[view.{view}]: {message}")

    # A finding two providers share (OpenAI Chat and Responses) is listed once, under the
    # first, with every provider it concerns; the later sections point back to it.
    concerns = providers_by_finding(result.providers)
    listed: dict[Finding, str] = {}
    groups = [("lint", result.lint), *result.providers.items()]
    for label, findings in groups:
        lines.append(f"{label}:")
        verdict = result.verdicts.get(label) if label != "lint" else None
        if verdict is not None:
            # lazy: render.verdict (~0.6 ms); `import toollens.cli` imports this module, not it
            from toollens.render.verdict import verdict_lines

            lines.extend("  " + line for line in verdict_lines(verdict))
        if label in result.unchecked:  # no payload to check: say so, not "no findings"
            lines.append(f"  not checked: {result.unchecked[label]}")
        elif not findings:
            lines.append("  no findings")
        same = explained_by_lint(result.lint, findings) if label != "lint" else {}
        earlier = [f for f in findings if f in listed] if label != "lint" else []
        for f in sorted(findings, key=_severity_rank):
            if f in earlier:
                continue
            shared = concerns.get(f, ()) if label != "lint" else ()
            lines.append(_finding_lines(f, shared if len(shared) > 1 else ()))
            if id(f) in same:
                lines.append(f"      same problem as {same[id(f)]} above (counted once)")
            listed.setdefault(f, label)
        if earlier:
            n = len(earlier)
            where = ", ".join(dict.fromkeys(listed[f] for f in earlier))
            lines.append(f"  {n} finding{'' if n == 1 else 's'} listed under {where} above")
    return "\n".join(lines) + "\n"


def _finding_lines(finding: Finding, providers: Sequence[str] = ()) -> str:
    head = f"  {finding.headline}"
    if providers:
        head += f"  [{', '.join(providers)}]"
    return f"{head}\n      fix: {finding.fix}" if finding.fix else head


def _severity_rank(finding: Finding) -> int:
    return SEVERITY_ORDER.index(finding.severity)


def _check_summary(result: ToolCheck) -> str:
    parts = [
        f"{n} {severity.value}{'' if n == 1 else 's'}"
        for severity, n in result.counts().items()
        if n
    ]
    if result.view_errors:
        n = len(result.view_errors)
        parts.append(f"{n} view error{'' if n == 1 else 's'}")
    return ", ".join(parts) if parts else "no findings"
