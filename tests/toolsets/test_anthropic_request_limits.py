"""Anthropic's per-request limits on strict tools: counted over the whole toolset."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from toollens.core.options import ReportOptions
from toollens.core.providers.requests import (
    ANTHROPIC_MAX_OPTIONAL,
    ANTHROPIC_MAX_STRICT_TOOLS,
    ANTHROPIC_MAX_UNIONS,
    over_budget,
    strict_share,
)
from toollens.toolsets.entries import Tool, ToolOrigin
from toollens.toolsets.rules import RULE_PROVIDERS, iter_toolset_findings

TOOLS = "toolset.anthropic-too-many-strict-tools"
OPTIONAL = "toolset.anthropic-too-many-optional"
UNIONS = "toolset.anthropic-too-many-unions"


def entry(name: str, schema: dict[str, Any], *, strict: bool = True) -> Tool:
    return Tool.from_definition(
        name,
        f"Tool {name}.",
        schema,
        origin=ToolOrigin(kind="json", label="t"),
        options=ReportOptions(strict=strict),
    )


def plain(name: str, **more: Any) -> Tool:
    schema = {
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "required": ["q"],
        "additionalProperties": False,
    }
    return entry(name, schema, **more)


def found(entries: list[Tool]) -> dict[str, Any]:
    return {f.finding.rule: f for f in iter_toolset_findings(entries)}


@pytest.mark.parametrize(
    ("count", "over"),
    [(ANTHROPIC_MAX_STRICT_TOOLS, False), (ANTHROPIC_MAX_STRICT_TOOLS + 1, True)],
    ids=["20", "21"],
)
def test_strict_tool_count(count: int, over: bool) -> None:
    entries = [plain(f"t{i}") for i in range(count)]
    by_rule = found(entries)
    assert (TOOLS in by_rule) is over
    if over:
        hit = by_rule[TOOLS]
        assert hit.tools == ("t20",)  # the 21st tool takes the request past 20
        assert "21 strict tools" in hit.finding.message
        assert "'t20'" in hit.finding.message


def test_non_strict_tools_do_not_count() -> None:
    entries = [plain(f"t{i}") for i in range(20)] + [plain("lax", strict=False)]
    assert TOOLS not in found(entries)


def optional_tool(name: str, optional: int, required: int = 0) -> Tool:
    props = {f"o{i}": {"type": "string"} for i in range(optional)}
    props.update({f"r{i}": {"type": "string"} for i in range(required)})
    schema = {"type": "object", "properties": props, "required": [f"r{i}" for i in range(required)]}
    # Sent as given (not through toollens' strict conversion, which would make them required
    # and nullable): an Anthropic strict tool may keep optional properties out of required.
    return entry(name, schema, strict=False)


def test_optional_parameters_are_counted_across_tools() -> None:
    # Counted on what is sent: a strict tool's schema after toollens' conversion has no
    # optional properties, so the shares are measured directly.
    schema = {"type": "object", "properties": {f"o{i}": {"type": "string"} for i in range(13)}}
    assert strict_share("a", schema).optional == 13
    assert over_budget([("a", 13), ("b", 11)], ANTHROPIC_MAX_OPTIONAL) is None
    overrun = over_budget([("a", 13), ("b", 12), ("c", 0), ("d", 1)], ANTHROPIC_MAX_OPTIONAL)
    assert overrun is not None
    assert (overrun.total, overrun.tools) == (26, ("b", "d"))


def test_nested_and_definition_properties_count() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object", "properties": {"x": {"type": "string"}}}},
        "required": ["a"],
        "$defs": {"D": {"type": "object", "properties": {"y": {"type": ["string", "null"]}}}},
    }
    share = strict_share("t", schema)
    assert (share.optional, share.unions) == (2, 1)


def nullable_tool(name: str, count: int) -> Tool:
    props = {f"o{i}": {"type": ["string", "null"]} for i in range(count)}
    return entry(name, {"type": "object", "properties": props, "required": list(props)})


def test_unions_are_counted_on_the_schema_sent() -> None:
    # toollens' strict conversion lists every property in required, so a strict tool sent by
    # toollens has no optional parameter left; its nullable ones are unions.
    by_rule = found([nullable_tool("a", 9), nullable_tool("b", 9)])
    assert OPTIONAL not in by_rule
    assert by_rule[UNIONS].tools == ("b",)
    assert "18 parameters with a union type" in by_rule[UNIONS].finding.message
    assert UNIONS not in found([nullable_tool("a", 9), nullable_tool("b", 7)])  # 16


def test_optional_parameters_of_strict_tools_sent_as_given() -> None:
    # Counted through the toolset: strict tools whose schema (after toollens' conversion)
    # still has optional properties, here built without conversion and marked strict.
    entries = [optional_tool("a", 13), optional_tool("b", 12)]
    strict = [dataclasses.replace(e, strict=True) for e in entries]
    by_rule = found(strict)
    assert by_rule[OPTIONAL].tools == ("b",)
    assert "25 optional parameters" in by_rule[OPTIONAL].finding.message
    assert OPTIONAL not in found(strict[:1])


def test_union_counting_shapes() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "b": {"type": ["integer", "null"]},
            "c": {"type": ["string"]},  # one type: no union
            "d": {"type": "string"},
        },
        "required": ["a", "b", "c", "d"],
    }
    assert strict_share("t", schema).unions == 2
    assert ANTHROPIC_MAX_UNIONS == 16


def test_the_limits_speak_for_anthropic_only() -> None:
    for rule in (TOOLS, OPTIONAL, UNIONS):
        assert RULE_PROVIDERS[rule] == ("anthropic",)


@pytest.mark.parametrize(
    ("providers", "code"),
    [(("openai-chat",), 0), (("anthropic",), 1), (("openai-chat", "anthropic"), 1), ((), 1)],
    ids=["openai-only", "anthropic", "both", "no-provider-named"],
)
def test_a_request_limit_fails_the_check_only_for_its_provider(
    providers: tuple[str, ...], code: int
) -> None:
    from toollens.assess import ToolRow
    from toollens.assess.gating import exit_code
    from toollens.toolsets.model import Toolset

    ts = Toolset.from_entries([plain(f"t{i}") for i in range(21)], label="t")
    assert TOOLS in {f.rule for f in ts.findings}
    rows = [ToolRow(e, None) for e in ts.tools]
    assert exit_code(ts, rows, providers) == code


# check of 21 strict Python tools: the limit is an error only when Anthropic is judged, and
# what the text and JSON count agrees with the exit code.
CHECKED = [
    ((), "warning", 0),
    (("--provider", "openai-chat"), "warning", 0),
    (("--provider", "anthropic"), "error", 1),
    (("--provider", "openai-chat", "--provider", "anthropic"), "error", 1),
    (("--provider", "all"), "error", 1),
]


@pytest.mark.parametrize(("extra", "severity", "code"), CHECKED)
def test_check_shows_the_limit_as_it_gates(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, extra: tuple[str, ...], severity: str, code: int
) -> None:
    import io
    import json

    from toollens.cli import main

    body = "".join(
        f'def tool_{i}(q: str) -> str:\n    """Look up thing {i}.\n\n    Args:\n'
        f'        q: What to look for.\n    """\n    return q\n\n\n'
        for i in range(21)
    )
    (tmp_path / "limit_tools.py").write_text(body, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    out, err = io.StringIO(), io.StringIO()
    assert (
        main(["check", "limit_tools", *extra, "--format", "json"], stdout=out, stderr=err) == code
    )
    data = json.loads(out.getvalue())
    (limit,) = [f for f in data["findings"] if f["rule"] == TOOLS]
    assert limit["severity"] == severity
    assert data["ok"] is (code == 0)
    assert (data["counts"]["error"] > 0) is (code == 1)
    if severity == "warning":
        assert limit["message"].endswith(
            "No provider judged is anthropic (--provider anthropic judges it), so it is a "
            "warning here."
        )
