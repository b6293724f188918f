"""Rules know how old their sources are: a stale source fails here, deterministically.

The check compares each source's date (or its ``rechecked`` date) with the date the tables
were last reviewed (``RULES_REVIEWED``, stored with them), never with today: the suite
gives the same answer on any day, and a review is a commit that moves that date and
re-reads (or marks re-checked) whatever falls more than a year behind it.
"""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest

from toollens.cli import main
from toollens.core.providers.rules import (
    MAX_SOURCE_AGE_DAYS,
    RULES_REVIEWED,
)
from toollens.core.records import EVIDENCE_LEVELS, Citation
from toollens.toolsets.catalogue import RuleRow, rule_rows, stale_rules

ROWS = rule_rows()


def test_no_rule_source_is_more_than_a_year_older_than_the_review() -> None:
    stale = [(r.id, r.cite.checked) for r in stale_rules()]
    assert stale == [], f"re-read these sources (or mark them rechecked): {stale}"


@pytest.mark.parametrize(
    ("date", "rechecked", "stale"),
    [
        ("2025-12-02", None, False),  # exactly a year before the review
        ("2025-12-01", None, True),
        ("2025-12-01", "2026-06-01", False),  # re-checked within the year
        ("2022-06-16", "2025-01-01", True),  # re-checked, but that too is over a year ago
        ("2026-12-03", None, True),  # after the review: a date it cannot have seen
    ],
)
def test_staleness_is_judged_against_the_review_date(
    date: str, rechecked: str | None, stale: bool
) -> None:
    row = RuleRow(
        "x.y", "error", "always", "s", Citation("t", "https://e", date, "docs", rechecked)
    )
    assert bool(stale_rules([row], reviewed="2026-12-02", max_age_days=365)) is stale


def test_every_row_has_an_iso_date_an_evidence_level_and_a_link() -> None:
    assert MAX_SOURCE_AGE_DAYS == 365
    dt.date.fromisoformat(RULES_REVIEWED)
    ids = [r.id for r in ROWS]
    assert len(ids) == len(set(ids))
    for row in ROWS:
        dt.date.fromisoformat(row.cite.date)
        if row.cite.rechecked is not None:
            assert row.cite.rechecked > row.cite.date, row.id
        assert row.cite.evidence in EVIDENCE_LEVELS, row.id
        assert row.cite.url.startswith("https://"), row.id


def test_the_catalogue_covers_provider_request_and_mcp_rules() -> None:
    families = {r.id.split(".")[0] for r in ROWS}
    assert {"schema", "openai", "anthropic", "gemini", "toolset", "mcp"} <= families
    whens = {r.when for r in ROWS}
    assert {"always", "strict", "request", "mcp@2025-11-25+", "mcp@2026-07-28+"} <= whens
    assert "mcp@2025-06-18 to 2025-11-25" in whens


def _run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue()


def test_check_rules_lists_every_rule_with_its_date() -> None:
    from toollens.assess.rules import rule_registry

    code, text = _run("check", "--rules")
    assert code == 0
    assert f"sources last reviewed {RULES_REVIEWED}" in text
    for row in ROWS:
        assert row.id in text
    assert "read 2025-11-14 (re-checked 2026-12-01); evidence: docs" in text
    code, raw = _run("check", "--rules", "--format", "json")
    data = json.loads(raw)
    assert data["reviewed"] == RULES_REVIEWED
    assert [r["id"] for r in data["rules"]] == [r.id for r in rule_registry()]
    assert {r.id for r in ROWS} <= {r["id"] for r in data["rules"]}


def test_the_registry_holds_every_familys_table() -> None:
    from toollens.assess.budget import BUDGET_TOOL, BUDGET_TOTAL
    from toollens.assess.rules import FAMILIES, rule_registry
    from toollens.consumers import CONSUMER_RULES
    from toollens.core.lint import LINT_RULES
    from toollens.core.strict.rules import StrictRule
    from toollens.tokens.limits import LIMITS

    rules = rule_registry()
    ids = [r.id for r in rules]
    assert len(ids) == len(set(ids))
    assert {r.family for r in rules} == set(FAMILIES)
    expected = {
        *(str(r.id) for r in LINT_RULES),
        *(r.value for r in StrictRule),
        *(r.id for r in ROWS),
        *(r.id for r in CONSUMER_RULES),
        *(limit.rule for limit in LIMITS),
        BUDGET_TOOL,
        BUDGET_TOTAL,
    }
    assert set(ids) == expected
