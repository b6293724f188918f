"""What the edits changed: against a baseline the author chose, and the last edit on its own.

A live front end (the explorer) shows, after every edit or toggle, what changed in the schema
the model receives since a baseline -- the schema as the explorer opened it, or as last
applied -- and, apart from that, what the last edit did. Intermediate states the author
typed through (``le=7`` -> ``le=1`` -> ``le=14``) do not pile up: the list compares the
baseline with the schema now. The schemas belong to that sequence of reports, not to a
widget, so any front end that re-renders (a widget, a file watcher, a test) gets the same
answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from toollens.core import memo
from toollens.core.diff.engine import SchemaDiff, diff_loaded, diff_sequence
from toollens.core.schema.toolkit import compact_json
from toollens.core.schema.types import JsonSchema

if TYPE_CHECKING:
    from toollens.core.diff.engine import LoadedSchema
    from toollens.core.report import Report

__all__ = ["BASELINES", "Baseline", "EditChanges", "EditStep", "edited_schema"]

#: What the change list compares with: the schema when the explorer opened the target, or
#: when the author last applied the edited source.
Baseline = Literal["opened", "applied"]
BASELINES: tuple[Baseline, ...] = ("opened", "applied")


def edited_schema(rep: Report | None) -> JsonSchema | None:
    """The schema an edit changes: strict when it could be made strict, else the raw one."""
    if rep is None:
        return None
    schema = rep.schema if rep.schema is not None else rep.raw_schema
    return schema if isinstance(schema, dict) else None


@dataclass(frozen=True)
class EditStep:
    """What one report changed.

    Attributes:
        since_baseline: the changes from the baseline's schema to this one (empty when they
            are equal); ``None`` while there is nothing to compare (the first report).
        last: the changes from the previous report's schema (``None`` likewise).
        baseline: which baseline ``since_baseline`` is against.
    """

    since_baseline: SchemaDiff | None
    last: SchemaDiff | None
    baseline: Baseline = "opened"


@dataclass
class _Snapshot:
    text: str | None  # compact JSON, to answer "equal to the baseline?" without a diff
    schema: dict[str, Any]
    loaded: LoadedSchema | None = None  # the schema as the first diff against it read it


class EditChanges:
    """Diffs each report's schema against the one before it and against a baseline.

    An edit that leaves the schema alone (a comment, the body, most toggles) gives the same
    JSON text as the last schema that diffed cleanly; it is answered without a diff. The
    previous schema is kept as the last diff read it, so it is not copied and checked again.
    """

    def __init__(self) -> None:
        self._previous: JsonSchema | None = None
        self._loaded: LoadedSchema | None = None  # the previous schema, as a clean diff read it
        self._clean_text: str | None = None  # JSON of the last schema that diffed cleanly
        self._baselines: dict[Baseline, _Snapshot] = {}
        self._since: tuple[Baseline, str, SchemaDiff] | None = None  # the last answer

    def advance(self, rep: Report) -> SchemaDiff | None:
        """The changes from the previous report's schema to ``rep``'s.

        Returns ``None`` when either side has no schema to compare. Raises whatever the diff
        raises (the caller shows it instead of the change list); ``rep`` is the previous
        report for the next call either way.
        """
        old, loaded, new = self._previous, self._loaded, edited_schema(rep)
        self._previous, self._loaded = new, None
        text = None if new is None else compact_json(new)  # not plain JSON: always diff it
        last, self._clean_text = self._clean_text, None
        if new is not None and not self._baselines and text is not None:
            snapshot = _Snapshot(text, new)
            self._baselines = {"opened": snapshot, "applied": snapshot}
        if old is None or new is None:
            return None
        if text is not None and text == last:
            # The same JSON as the last clean diff's new side: that side stands for this one.
            self._loaded, self._clean_text = loaded, text
            return SchemaDiff()
        changes, self._loaded = diff_sequence(loaded if loaded is not None else old, new)
        self._clean_text = text
        return changes

    def step(self, rep: Report, baseline: Baseline = "opened") -> EditStep:
        """:meth:`advance`, and the changes from ``baseline``'s schema to ``rep``'s."""
        last = self.advance(rep)
        return EditStep(self.since(baseline), last, baseline)

    def rebased(self, baseline: Baseline) -> EditStep:
        """The last step again, against another baseline (the last edit counts as no change)."""
        since = self.since(baseline)
        return EditStep(since, None if since is None else SchemaDiff(), baseline)

    def since(self, baseline: Baseline = "opened") -> SchemaDiff | None:
        """The changes from ``baseline``'s schema to the last report's (``None``: no pair)."""
        snapshot = self._baselines.get(baseline)
        new, text = self._previous, self._clean_text
        if snapshot is None or new is None:
            return None
        if text is None:
            text = compact_json(new)
        if text is None:  # not plain JSON (NaN...): nothing to compare by text
            return diff_sequence(snapshot.schema, new)[0]
        if text == snapshot.text:
            return SchemaDiff()
        if self._since is not None and self._since[:2] == (baseline, text):
            return self._since[2]  # the same schema as the last answer (a comment, the body)
        if memo.enabled():
            changes = self._since_loaded(snapshot, new)
        else:
            changes, _ = diff_sequence(snapshot.schema, new)
        self._since = (baseline, text, changes)
        return changes

    def _since_loaded(self, snapshot: _Snapshot, new: JsonSchema) -> SchemaDiff:
        """The diff from the baseline, reading neither side again: the baseline as its first
        diff loaded it (it does not change), the new schema as the last edit's diff did."""
        current = self._loaded if self._loaded is not None else new
        changes, snapshot.loaded, _ = diff_loaded(snapshot.loaded or snapshot.schema, current)
        return changes

    def mark_applied(self) -> None:
        """The last report's schema becomes the ``"applied"`` baseline (after Apply)."""
        if self._previous is not None:
            self._baselines["applied"] = _Snapshot(compact_json(self._previous), self._previous)
            self._since = None
