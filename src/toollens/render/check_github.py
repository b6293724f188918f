"""``check``'s GitHub annotations of checked tools: each finding on its tool's ``def`` (or
on the JSON file that holds it), each tool followed by a summary line."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from toollens.project.annotations import Locator
from toollens.project.github import Annotation, plain_line
from toollens.project.tools import relative_path
from toollens.targets import parse_target

if TYPE_CHECKING:
    from toollens.core.checks import ToolCheck
    from toollens.core.function_schema import FunctionSchema
    from toollens.project.github import Level

__all__ = ["format_checks_github", "format_located_checks_github", "json_file"]

_FINDING_LEVELS: dict[str, Level] = {"error": "error", "warning": "warning", "info": "notice"}


def json_file(target: str) -> str | None:
    """The repository-relative path of a JSON-file target; ``None`` for Python targets."""
    spec = parse_target(target)
    return relative_path(Path(spec.location)) if spec.origin == "json" else None


def format_checks_github(
    results: Sequence[tuple[ToolCheck, object, FunctionSchema | None]], target: str | None = None
) -> str:
    """Check results as annotations, each tool followed by a summary line.

    Args:
        results: (check result, the tool's object, its FunctionSchema or ``None``) triples.
        target: the target as written, when one was given (a JSON file is annotated whole).
    """
    file = json_file(target) if target is not None else None
    return format_located_checks_github(
        [(result, Locator(obj, function, file=file)) for result, obj, function in results]
    )


def format_located_checks_github(results: Sequence[tuple[ToolCheck, Locator]]) -> str:
    """Check results as annotations at the place each locator gives, each tool followed by a
    summary line."""
    lines: list[str] = []
    for result, locator in results:
        lines.extend(str(a) for a in _check_annotations(result, locator))
        state = "no errors" if not result.errors else "errors found"
        lines.append(plain_line(f"{result.title}: {state}"))
    return "\n".join(lines) + "\n"


def _check_annotations(result: ToolCheck, locator: Locator) -> Iterator[Annotation]:
    for view, message in result.view_errors.items():
        yield Annotation(
            level="error",
            title=f"toollens: {result.title}: {view} view failed",
            message=message,
            file=locator.file,
            line=locator.line,
        )
    groups = [("lint", result.lint), *result.providers.items()]
    for label, findings in groups:
        for finding in findings:
            file, line = locator.at(finding.parameter)
            fix = f" Fix: {finding.fix}" if finding.fix else ""
            yield Annotation(
                level=_FINDING_LEVELS[finding.severity.value],
                title=f"toollens {label}: {finding.rule}",
                message=f"{result.title}: {finding.message}{fix}",
                file=file,
                line=line,
            )
