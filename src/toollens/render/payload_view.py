"""The provider view's part about a payload as the user wrote it, when the view is for
another provider than the payload's own.

For the payload's own provider nothing is added: the payload shown carries the payload's
own fields and the findings on them are that provider's findings. For another provider,
the fields are not sent (toollens' own payload for that provider is shown), so the view
says which fields the payload carries and lists what its own provider says of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.core.records import Finding

if TYPE_CHECKING:
    from toollens.core.report import Report

__all__ = ["GivenView", "given_view"]


@dataclass(frozen=True)
class GivenView:
    """A payload as written, seen from another provider's view."""

    provider: str
    note: str
    findings: tuple[Finding, ...]
    empty: str = "Its provider finds nothing to say about its own fields."


def given_view(report: Report) -> GivenView | None:
    """The payload part of ``report``'s provider view; ``None`` when the target is no
    provider payload, or the view is for the payload's own provider."""
    given = report.given
    if given is None or given.provider == report.provider:
        return None
    fields = ", ".join(sorted(given.own_fields)) or "none"
    note = (
        f"The target is a tool payload written for {given.provider}: its own fields beside "
        f"the schema ({fields}) are sent to {given.provider} only; shown above is what "
        f"{report.provider} receives. What {given.provider} says of the payload:"
    )
    return GivenView(given.provider, note, given.findings)
