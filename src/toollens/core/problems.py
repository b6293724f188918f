"""One entry per problem: a lint finding and the provider findings that explain it.

One problem is often seen from two angles -- a default strict mode drops: lint says the
model never applies it, the provider check says the provider rejects it. Views and ``check``
show and count it once: a provider finding joins the lint finding at its pointer or its
parent whose rule names the same keyword (``openai.default`` at
``/properties/unit/default`` joins ``lint.default-not-applied`` at ``/properties/unit``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from toollens.core.records import SEVERITY_ORDER, Finding, Severity

__all__ = [
    "explained_by_lint",
    "group_findings",
    "problem_counts",
    "providers_by_finding",
    "set_counts",
    "worst_severity",
]


def _rule(finding: Finding) -> str:
    return str(getattr(finding.rule, "value", finding.rule))


def group_findings(
    lint: Sequence[Finding], provider: Sequence[Finding]
) -> tuple[dict[int, tuple[Finding, ...]], tuple[Finding, ...]]:
    """Provider findings about the same problem as a lint finding, and the rest.

    Returns:
        ``{index of the lint finding: provider findings}`` and the provider findings left.
    """
    at_pointer: dict[str | None, list[int]] = {}
    for index, item in enumerate(lint):
        at_pointer.setdefault(item.pointer, []).append(index)
    angles: dict[int, list[Finding]] = {}
    rest: list[Finding] = []
    for finding in provider:
        pointer = finding.pointer or ""
        keyword = pointer.rsplit("/", 1)[-1]
        parent = pointer.rsplit("/", 1)[0]
        near = sorted({*at_pointer.get(pointer, ()), *at_pointer.get(parent, ())})
        match = next((i for i in near if keyword and keyword in _rule(lint[i])), None)
        if match is None:
            rest.append(finding)
        else:
            angles.setdefault(match, []).append(finding)
    return {index: tuple(found) for index, found in angles.items()}, tuple(rest)


def explained_by_lint(lint: Sequence[Finding], findings: Sequence[Finding]) -> dict[int, str]:
    """The provider ``findings`` that explain a lint finding (and count as it, once):
    ``{id(finding): the lint finding's rule}``."""
    angles, _ = group_findings(lint, findings)
    return {id(f): _rule(lint[i]) for i, found in angles.items() for f in found}


def worst_severity(findings: Iterable[Finding]) -> Severity:
    """The worst severity among ``findings`` (which must not be empty)."""
    return min((Severity(f.severity) for f in findings), key=SEVERITY_ORDER.index)


def problem_counts(
    lint: Sequence[Finding], providers: Iterable[Sequence[Finding]]
) -> dict[Severity, int]:
    """Problems per severity, every severity present, worst first.

    A lint finding counts once, at the worst severity of itself and the provider findings
    (of any provider) that explain it; a provider finding that joins none counts on its own.
    """
    counts = dict.fromkeys(SEVERITY_ORDER, 0)
    joined: dict[int, list[Finding]] = {index: [item] for index, item in enumerate(lint)}
    for findings in providers:
        angles, rest = group_findings(lint, findings)
        for index, found in angles.items():
            joined[index].extend(found)
        for finding in rest:
            counts[Severity(finding.severity)] += 1
    for group in joined.values():
        counts[worst_severity(group)] += 1
    return counts


def set_counts(
    tools: Iterable[Mapping[Severity, int]], findings: Iterable[Finding] = ()
) -> dict[Severity, int]:
    """Problems per severity of a set of tools: each tool's problem counts (as ``check TOOL``
    counts them: a provider finding explaining a lint finding counts once) plus ``findings``,
    the set's own (names, request limits, budgets), one each."""
    counts = dict.fromkeys(SEVERITY_ORDER, 0)
    for finding in findings:
        counts[Severity(finding.severity)] += 1
    for tool in tools:
        for severity, n in tool.items():
            counts[severity] += n
    return counts


def providers_by_finding(
    checked: Mapping[str, Sequence[Finding]],
) -> dict[Finding, tuple[str, ...]]:
    """Each distinct provider finding and every provider that reports it, in check order.

    OpenAI's Chat Completions and Responses checks share their rules, so the same problem
    comes back from both: a view lists it once, with the providers it concerns.
    """
    concerns: dict[Finding, list[str]] = {}
    for provider, findings in checked.items():
        for finding in findings:
            names = concerns.setdefault(finding, [])
            if provider not in names:
                names.append(provider)
    return {finding: tuple(names) for finding, names in concerns.items()}
