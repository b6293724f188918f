"""What each edit changed: the schema of the previous report, kept here for the next diff.

A live front end (the explorer) shows, after every edit or toggle, what changed in the schema
the model receives. The previous schema belongs to that sequence of reports, not to a widget,
so any front end that re-renders (a widget, a file watcher, a test) gets the same answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toollens.core.schema.toolkit import compact_json
from toollens.core.schema.types import JsonSchema

if TYPE_CHECKING:
    from toollens.core.diff import SchemaDiff
    from toollens.core.diff.engine import LoadedSchema
    from toollens.core.report import Report

__all__ = ["EditChanges", "edited_schema"]


def edited_schema(rep: Report | None) -> JsonSchema | None:
    """The schema an edit changes: strict when it could be made strict, else the raw one."""
    if rep is None:
        return None
    schema = rep.schema if rep.schema is not None else rep.raw_schema
    return schema if isinstance(schema, dict) else None


class EditChanges:
    """Diffs each report's schema against the one before it.

    An edit that leaves the schema alone (a comment, the body, most toggles) gives the same
    JSON text as the last schema that diffed cleanly; it is answered without a diff. The
    previous schema is kept as the last diff read it, so it is not copied and checked again.
    """

    def __init__(self) -> None:
        self._previous: JsonSchema | None = None
        self._loaded: LoadedSchema | None = None  # the previous schema, as a clean diff read it
        self._clean_text: str | None = None  # JSON of the last schema that diffed cleanly

    def advance(self, rep: Report) -> SchemaDiff | None:
        """The changes from the previous report's schema to ``rep``'s.

        Returns ``None`` when either side has no schema to compare. Raises whatever the diff
        raises (the caller shows it instead of the change list); ``rep`` is the previous
        report for the next call either way.
        """
        from toollens.core.diff.engine import SchemaDiff, diff_sequence

        old, loaded, new = self._previous, self._loaded, edited_schema(rep)
        self._previous, self._loaded = new, None
        text = None if new is None else compact_json(new)  # not plain JSON: always diff it
        last, self._clean_text = self._clean_text, None
        if old is None or new is None:
            return None
        if text is not None and text == last:
            # The same JSON as the last clean diff's new side: that side stands for this one.
            self._loaded, self._clean_text = loaded, text
            return SchemaDiff()
        changes, self._loaded = diff_sequence(loaded if loaded is not None else old, new)
        self._clean_text = text
        return changes
