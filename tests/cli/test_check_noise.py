"""One finding where one would do: ``check --provider all`` lists a finding two providers
share once, a split verdict says which judge it follows, a schema-only tool's fix names no
Python option, and ``try`` says when the SDK accepts what a strict model never sends."""

from __future__ import annotations

import io
import json

import pytest

from toollens.cli import main
from toollens.core.choices import ProviderId
from toollens.core.providers.api import Judgement, ProviderVerdict
from toollens.core.records import Origin
from toollens.core.report import report
from toollens.examples import EXAMPLES
from toollens.render.verdict import verdict_html, verdict_lines
from toollens.roundtrip import try_call


def _run(*argv: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue() + err.getvalue()


def test_a_finding_two_providers_share_is_listed_once_with_both() -> None:
    _, out = _run("check", "toollens.examples:get_weather", "--provider", "all")
    headlines = [line for line in out.splitlines() if line.startswith("  warning[openai.")]
    assert headlines, out
    assert len(headlines) == len(set(headlines))  # printed once each
    assert all(line.endswith("[openai-chat, openai-responses]") for line in headlines)
    responses = out.split("openai-responses:\n", 1)[1].split("anthropic:", 1)[0]
    assert f"{len(headlines)} findings listed under openai-chat above" in responses


def test_one_provider_lists_its_findings_untagged() -> None:
    _, out = _run("check", "toollens.examples:get_weather", "--provider", "openai-responses")
    assert "  warning[openai.default]" in out
    assert "[openai-chat" not in out
    assert "listed under" not in out


def _verdict(*outcomes: str) -> ProviderVerdict:
    judges = (
        Judgement(Origin.DOCUMENTED_RULE, "documented rules", outcomes[0], "x"),  # type: ignore[arg-type]
        Judgement(Origin.GRAMMAR, "llguidance", outcomes[1], "y"),  # type: ignore[arg-type]
    )
    return ProviderVerdict("openai-chat", "OpenAI", "rejected" not in outcomes, judges, ())


@pytest.mark.parametrize(
    ("outcomes", "follows"),
    [
        (("rejected", "accepted"), "the verdict follows documented rules"),
        (("accepted", "rejected"), "the verdict follows llguidance"),
        (("accepted", "accepted"), None),
        (("accepted", "not run"), None),  # a judge that did not run does not disagree
    ],
    ids=["rules-reject", "grammar-rejects", "agree", "not-run"],
)
def test_a_split_verdict_says_which_judge_it_follows(
    outcomes: tuple[str, str], follows: str | None
) -> None:
    verdict = _verdict(*outcomes)
    text = "\n".join(verdict_lines(verdict))
    html = str(verdict_html(verdict))
    if follows is None:
        assert "disagree" not in text
        assert "tl-verdict-split" not in html
    else:
        assert follows in text
        assert follows in html


SCHEMA = {
    "type": "object",
    "properties": {"unit": {"type": "string", "default": "celsius"}},
    "additionalProperties": False,
}


@pytest.mark.parametrize("provider", ["openai-chat", "openai-responses"])
def test_a_schema_only_tool_gets_a_fix_in_the_schemas_terms(provider: ProviderId) -> None:
    rep = report(SCHEMA, provider=provider)
    fixes = [f.fix for f in rep.findings if f.rule == "openai.default"]
    assert fixes, rep.findings
    assert all("optional_defaults" not in fix and "null" in fix for fix in fixes)


def test_a_python_tool_keeps_the_python_option_in_its_fix() -> None:
    rep = report(EXAMPLES["get_weather"])
    assert any("optional_defaults='nullable'" in f.fix for f in rep.findings)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"city": "Oslo"}, "'days' is a required property"),  # strict makes it required
        (
            {"city": "Oslo", "unit": "celsius", "days": 1, "extra": 1},
            "Additional properties are not allowed",
        ),
    ],
    ids=["missing", "extra-key"],
)
def test_try_says_when_the_sdk_accepts_what_a_strict_model_never_sends(
    arguments: dict[str, object], said: str
) -> None:
    result = try_call(EXAMPLES["get_weather"], arguments, dry_run=True)
    assert result.accepted
    assert result.strict_note is not None
    assert said in result.strict_note
    assert "laxer than the schema" in result.strict_note


def test_try_adds_no_note_for_arguments_a_strict_model_can_send() -> None:
    arguments = {"city": "Oslo", "unit": "celsius", "days": 2}
    assert try_call(EXAMPLES["get_weather"], arguments, dry_run=True).strict_note is None
    code, out = _run(
        "try", "toollens.examples:get_weather", '{"city": "Oslo"}', "--dry-run", "--format", "json"
    )
    assert code == 0
    assert "laxer" in json.loads(out)["strict_note"]


def test_show_and_check_lay_out_fixes_the_same_way() -> None:
    _, shown = _run("show", "toollens.examples:get_weather")
    _, checked = _run("check", "toollens.examples:get_weather")

    def fixes(text: str) -> set[str]:
        return {line.strip() for line in text.splitlines() if line.strip().startswith("fix: ")}

    assert fixes(checked)
    assert fixes(checked) <= fixes(shown)  # each fix on its own line, under its finding
    assert " Fix: " not in shown
