"""Core keeps the previous schema for "what this edit changed" (no widget involved)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

import toollens.core.diff as diff_module
from toollens.core.diff import DiffSeverity as Severity
from toollens.core.edit_changes import EditChanges, edited_schema
from toollens.core.report import report


def first(city: str) -> str:
    """Look up a city.

    Args:
        city: The city.
    """
    return city


def renamed_doc(city: str) -> str:
    """Look up a city.

    Args:
        city: The town.
    """
    return city


def new_required(city: str, country: str) -> str:
    """Look up a city."""
    return city


def test_first_report_has_nothing_to_compare() -> None:
    assert EditChanges().advance(report(first)) is None


def test_each_report_is_diffed_against_the_one_before() -> None:
    edits = EditChanges()
    edits.advance(report(first))
    described = edits.advance(report(renamed_doc))
    assert described is not None
    assert {c.severity for c in described.changes} == {Severity.DESCRIPTION_ONLY}
    breaking = edits.advance(report(new_required))
    assert breaking is not None
    assert Severity.BREAKING in {c.severity for c in breaking.changes}


def test_an_unchanged_schema_is_answered_without_a_diff(monkeypatch: pytest.MonkeyPatch) -> None:
    edits = EditChanges()
    edits.advance(report(first))
    assert edits.advance(report(renamed_doc)) is not None  # diffed cleanly once

    def refuses(*_args: Any) -> Any:
        raise AssertionError("diffed an unchanged schema")

    monkeypatch.setattr(diff_module, "diff", refuses)
    unchanged = edits.advance(report(renamed_doc))
    assert unchanged is not None
    assert not unchanged.changes


def test_the_strict_schema_is_the_one_compared_when_there_is_one() -> None:
    rep = report(first)
    assert edited_schema(rep) == rep.schema
    lax = report(first, strict=False)
    assert edited_schema(lax) == lax.schema
    assert edited_schema(None) is None


def test_a_sequence_of_edits_diffs_as_diff_does_and_checks_each_schema_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import toollens.core.diff.walk as walk_module
    from toollens.core.diff import diff

    checked: list[Any] = []
    real_check = walk_module.check_document

    def counting(doc: Any, side: str) -> None:
        checked.append(doc)
        real_check(doc, side)

    monkeypatch.setattr(walk_module, "check_document", counting)
    edits = EditChanges()
    reports = [report(f) for f in (first, renamed_doc, new_required, first, renamed_doc)]
    results = [edits.advance(rep) for rep in reports]
    # the first diff checks both sides; every later one only the schema it has not seen
    assert len(checked) == 2 + (len(reports) - 2)
    expected = [None] + [
        diff(edited_schema(a), edited_schema(b)) for a, b in itertools.pairwise(reports)
    ]
    assert results == expected


def test_a_previous_schema_that_cannot_be_diffed_keeps_failing_clearly() -> None:
    from toollens.core.errors import SchemaConstructionError
    from toollens.core.report import Report

    edits = EditChanges()
    broken = report({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}})
    assert isinstance(broken, Report)
    assert edits.advance(broken) is None
    with pytest.raises(SchemaConstructionError):
        edits.advance(report(first))
