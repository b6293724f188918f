"""From a provider's or client's error text back to the tool, the field, the line and the rule.

``read_error(text)`` finds the places an error names (:mod:`toollens.explain.places`, one
parser row per provider and client shape); ``explain(text, ts)`` maps each onto the tools
that were sent (:mod:`toollens.explain.mapping`): the tool as served, the index the request
used, the JSON pointer, the source line and the toollens rule that predicts it. This package
sits above ``toolsets`` (it reads a target's tools) and imports no UI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toollens.explain.mapping import Explanation, explain_places, served_name
from toollens.explain.places import read_error
from toollens.explain.records import ErrorPlace, UnreadableError
from toollens.explain.sources import SourceLine

if TYPE_CHECKING:
    from toollens.toolsets import Toolset

__all__ = [
    "ErrorPlace",
    "Explanation",
    "SourceLine",
    "UnreadableError",
    "explain",
    "read_error",
    "served_name",
]


def explain(text: str, ts: Toolset | None = None) -> tuple[Explanation, ...]:
    """Every place ``text`` names, explained against the tools ``ts`` holds.

    Raises:
        UnreadableError: no provider or client error shape is in ``text``.
    """
    return tuple(explain_places(ts, read_error(text)))
