"""How ``toollens check`` prints an assessment: one emitter per format.

The assessment (:class:`toollens.assess.Assessment`) holds everything the command says,
computed once; :func:`format_result` writes it as text, JSON or GitHub annotations, and
decides nothing: the verdicts, ``ok`` and the exit code are the assessment's.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from toollens.render.check_tool import format_check

if TYPE_CHECKING:
    from toollens.assess import Assessment
    from toollens.core.schema.types import JsonObject

__all__ = ["assessment_json", "format_result"]


def assessment_json(result: Assessment) -> JsonObject:
    """The assessment as ``check --format json`` writes it."""
    if result.mode == "toolset":
        # lazy: render.check_toolset (~2 ms), for a toolset's check only
        from toollens.render.check_toolset import toolset_data

        data = toolset_data(result)
    else:
        data = result.checks[0].result.to_json()
        data["ok"] = result.ok
    if result.token_section:
        assert result.tokens is not None
        data["tokens"] = result.tokens.to_json()
    return data


def format_result(result: Assessment, fmt: str) -> str:
    """``result`` as ``text``, ``json`` or ``github`` annotations."""
    if fmt == "json":
        return json.dumps(assessment_json(result), indent=2) + "\n"
    if fmt == "github":
        return _github(result) + _token_annotations(result)
    if result.tokens is None or not result.token_section:
        return _text(result)
    gap = "\n" if result.mode == "toolset" else ""  # a section of its own under the table
    return _text(result) + gap + result.tokens.to_text()


def _text(result: Assessment) -> str:
    if result.mode == "toolset":
        # lazy: render.check_toolset (~2 ms), for a toolset's check only
        from toollens.render.check_toolset import format_text

        return format_text(result)

    return "".join(format_check(c.result) for c in result.checks)


def _github(result: Assessment) -> str:
    if result.mode == "toolset":
        # lazy: render.check_toolset (~2 ms), for a toolset's check only
        from toollens.render.check_toolset import format_github

        return format_github(result)
    # lazy: render.check_github brings project.annotations (~4 ms), for --format github only
    from toollens.render.check_github import format_checks_github

    triples = [(c.result, c.obj, c.function) for c in result.checks]
    return format_checks_github(triples, result.target)


def _token_annotations(result: Assessment) -> str:
    if not result.token_section or result.counted is None:
        return ""
    # lazy: the budget annotations + project.places (~3 ms), for a token budget only
    from toollens.render.check_budget import budget_annotations

    assert result.tokens is not None
    return budget_annotations(result.tokens.found, result.counted.named, result.counted.given)
