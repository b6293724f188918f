"""How the commands write their results: JSON, a report's views, a diff's change list.

Kept apart from the commands so that any of them (``show`` of a toolset in
:mod:`toollens.cli.show_tools` too) can format another's result without an import cycle.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from toollens.core.errors import ToolLensError

if TYPE_CHECKING:
    from toollens.core.diff import SchemaDiff
    from toollens.core.report import Report
    from toollens.core.schema.types import JsonObject

__all__ = [
    "dump",
    "ensure_newline",
    "format_diff",
    "format_show",
    "show_all_data",
    "show_data",
]


def dump(value: object) -> str:
    return json.dumps(value, indent=2) + "\n"


def format_show(rep: Report, view: str, fmt: str) -> str:
    """One view (or all of them) of a report, as the explorer shows it."""
    # lazy: render.text + the report engine (~100 ms); not loaded by `import toollens.cli`
    from toollens.render.text import render_text, render_view

    if view != "all":
        return ensure_newline(render_view(rep, view, fmt))
    if fmt == "text":
        return ensure_newline(render_text(rep))
    return dump(show_all_data(rep))


def show_data(rep: Report, view: str) -> object:
    """One view (or all of them) of a report as JSON data: what ``format_show`` writes as
    JSON, for a command that writes several tools' views in one document."""
    # lazy: render.text + the report engine (~100 ms); not loaded by `import toollens.cli`
    from toollens.render.text import view_data

    return show_all_data(rep) if view == "all" else view_data(rep, view)


def show_all_data(rep: Report) -> JsonObject:
    """Every view that applies to the report, each exactly as the library returns it.

    A view that does not apply to the target (``signature`` of a JSON schema) or that
    failed (``strict`` of an open mapping) is left out of ``views`` and its message is
    under ``view_errors``, so one bad view does not hide the others.
    """
    # lazy: render.text + the report engine (~100 ms); not loaded by `import toollens.cli`
    from toollens.render.text import VIEWS as views
    from toollens.render.text import view_data

    data: dict[str, Any] = {}
    errors: dict[str, str] = dict(rep.view_errors)
    for view in views:
        try:
            data[view] = view_data(rep, view)
        except ToolLensError as exc:
            errors.setdefault(view, str(exc))
    return {
        "title": rep.title,
        "target_kind": rep.target_kind,
        "strict": rep.options.strict,
        "provider": rep.provider,
        "views": data,
        "lint": [f.to_json() for f in rep.lint],
        "provider_findings": [f.to_json() for f in rep.provider_findings],
        "view_errors": errors,
    }


def ensure_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def format_diff(result: SchemaDiff, old: str, new: str) -> str:
    """The change list under a header naming both sides."""
    return f"{old} -> {new}\n{result}\n"
