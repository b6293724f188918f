"""One render model: the text and HTML renderers format the same decisions.

``render.model.view_model`` decides what each view shows; these tests pin that the two
renderers say the same things about the same report, for every kind of target, including
the cases where they used to disagree (the schema before a failed strict conversion).
"""

from __future__ import annotations

import html
from typing import Annotated, Any, Literal

import pytest
from pydantic import BaseModel, Field

from toollens.core.report import Report, report
from toollens.examples import EXAMPLE_OPTIONS, EXAMPLES
from toollens.render.html import render_html
from toollens.render.model import group_findings, view_model
from toollens.render.text import render_text


class Booking(BaseModel):
    """A booking."""

    room: str = Field(description="Room name")
    seats: int = 2


def tagged(
    city: Annotated[str, Field(description="City name")],
    unit: Literal["c", "f"] = "c",
) -> str:
    """Weather.

    Args:
        city: The city to forecast.
    """
    return city


BROKEN_REF = {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}
PLAIN_SCHEMA = {
    "type": "object",
    "description": "A plain schema.",
    "properties": {"q": {"type": "string", "description": "The query"}, "n": {"type": "integer"}},
    "required": ["q"],
}

TARGETS: dict[str, Any] = {
    "callable": tagged,
    "model": Booking,
    "output-type": list[int],
    "json-schema": PLAIN_SCHEMA,
    "failed-strict": BROKEN_REF,
}


def _reports() -> list[tuple[str, Report]]:
    made = [(name, report(target)) for name, target in TARGETS.items()]
    made += [
        (name, report(func, **EXAMPLE_OPTIONS.get(name, {}))) for name, func in EXAMPLES.items()
    ]
    return made


REPORTS = _reports()


def _missing(strings: Any, *documents: str) -> list[str]:
    """The strings some document does not contain."""
    return [text for text in strings if text and any(text not in doc for doc in documents)]


@pytest.mark.parametrize(("name", "rep"), REPORTS, ids=[n for n, _ in REPORTS])
def test_both_renderers_say_what_the_model_holds(name: str, rep: Report) -> None:
    model = view_model(rep)
    text, page = render_text(rep), html.unescape(render_html(rep))
    said = [model.header.title, *(model.header.description or "").splitlines()[:1]]
    said += [model.signature.absent, *(row.name for row in model.signature.rows)]
    said += [model.metadata.absent, model.strict.absent]
    said += [text for row in model.metadata.properties for text in (row.name, row.description)]
    said += [model.strict.error, model.output.error]
    said += [f.message for f in (*model.findings.lint, *model.findings.provider_findings)]
    assert len([s for s in said if s]) >= 3
    assert _missing(said, text, page) == []


def test_a_failed_strict_conversion_shows_the_schema_before_it_in_both() -> None:
    rep = report(BROKEN_REF)
    model = view_model(rep).strict
    assert model.schema is None
    assert model.error
    assert model.before == BROKEN_REF
    text, page = render_text(rep), html.unescape(render_html(rep))
    assert _missing(["before strict conversion:", '"#/$defs/Missing"'], text) == []
    assert _missing(["Before strict conversion", "#/$defs/Missing"], page) == []


def test_schema_properties_are_rows_in_both() -> None:
    model = view_model(report(PLAIN_SCHEMA)).metadata
    rows = {row.name: row for row in model.properties}
    assert (rows["q"].required, rows["q"].type, rows["q"].description) == (
        True,
        "string",
        "The query",
    )
    assert (rows["n"].required, rows["n"].description) == (False, None)
    assert "  q (string, required): The query" in render_text(report(PLAIN_SCHEMA))


def test_provider_findings_join_the_lint_finding_about_the_same_problem() -> None:
    rep = report(EXAMPLES["get_weather"], **EXAMPLE_OPTIONS.get("get_weather", {}))
    findings = view_model(rep).findings
    joined = [f for found in findings.angles.values() for f in found]
    assert joined, "the example's default is flagged by lint and by the provider"
    assert set(joined) | set(findings.provider_rest) == set(findings.provider_findings)
    angles, rest = group_findings(rep.lint, rep.provider_findings)
    assert (angles, rest) == (findings.angles, findings.provider_rest)
