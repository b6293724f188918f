"""One entry per problem: a lint finding and the provider finding it explains are one item,
shown once in the explorer and counted once by the report and ``toollens check``."""

from __future__ import annotations

import dataclasses
import io
import json
import re

from toollens.cli import main
from toollens.core.problems import group_findings, problem_counts
from toollens.core.records import Severity
from toollens.core.report import report
from toollens.examples import EXAMPLES
from toollens.render.html import render_panels

TARGET = "toollens.examples:get_weather"  # two defaults: lint and openai-chat both object


def _check(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", TARGET, *argv], stdout=out, stderr=err)
    return code, out.getvalue()


def test_the_report_counts_each_problem_once() -> None:
    rep = report(EXAMPLES["get_weather"])
    angles, rest = group_findings(rep.lint, rep.provider_findings)
    joined = sum(len(found) for found in angles.values())
    assert joined == 2  # openai.default at unit and days
    everything = len(rep.lint) + len(rep.provider_findings)
    assert sum(rep.finding_counts.values()) == everything - joined
    assert rest == ()


def test_a_joined_problem_takes_the_worse_severity() -> None:
    rep = report(EXAMPLES["get_weather"])
    angles, _ = group_findings(rep.lint, rep.provider_findings)
    index = next(iter(angles))
    worse = [dataclasses.replace(f, severity=Severity.ERROR) for f in angles[index]]
    counts = problem_counts(rep.lint, [worse])
    assert counts[Severity.ERROR] == 1
    assert sum(counts.values()) == len(rep.lint)


def test_check_counts_once_and_says_which_lint_finding_a_provider_line_explains() -> None:
    code, text = _check()
    assert code == 0
    assert text.splitlines()[0] == "get_weather: 3 warnings, 1 info"
    assert text.count("same problem as lint.default-not-applied above (counted once)") == 2
    _, as_json = _check("--format", "json")
    counts = json.loads(as_json)["counts"]
    assert (counts["warning"], counts["info"]) == (3, 1)


def test_the_findings_view_shows_one_item_with_both_sources() -> None:
    html = render_panels(report(EXAMPLES["get_weather"]))["findings"]
    items = re.findall(r'<li class="tl-finding tl-joined[^"]*">', html)
    assert len(items) == 2
    assert "The same problem, as" not in html  # no second full entry nested inside
