"""What each framework consumer sends is the request body its library sends: the cases of
issue 48 (return schemas, a call that fails, pagination, the body's own spelling)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from toollens.consumers import CONSUMERS, Verdict, judge_consumers
from toollens.consumers.model import ToolList
from toollens.consumers.sent import plain_schema


def _need(*clients: str) -> None:
    missing = [p for c in clients for p in CONSUMERS[c].missing]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed")


def _tool(name: str, **schema: Any) -> dict[str, Any]:
    return {"name": name, "description": f"The {name} tool.",
            "inputSchema": {"type": "object", **schema}}  # fmt: skip


_TEXT = {"properties": {"text": {"type": "string"}}, "required": ["text"]}


def test_pydantic_ai_on_google_does_not_send_the_output_schema() -> None:
    _need("pydantic-ai:google")
    tool = {**_tool("clock", **_TEXT), "outputSchema": {
        "type": "object", "properties": {"now": {"type": "string"}}}}  # fmt: skip
    listing = ToolList("s", (tool,))
    (verdict,) = judge_consumers(listing, ["pydantic-ai:google"]).verdicts_for("clock")
    assert verdict.sent is not None
    assert verdict.sent["name"] == "clock"
    assert "parameters_json_schema" in verdict.sent
    # prepare_request clears return_schema: MCPToolset.include_return_schema is unset
    assert not {k for k in verdict.sent if "response" in k.lower()}


_BOOL_EXTRA = _tool("annotate", properties={"id": {"type": "string"}},
                    additionalProperties=True)  # fmt: skip


def test_google_genai_fails_the_whole_call_and_sends_nothing() -> None:
    _need("google-genai")
    listing = ToolList("s", (_tool("ping", **_TEXT), _BOOL_EXTRA, _tool("pong", **_TEXT)))
    judgement = judge_consumers(listing, ["google-genai"]).judgement("google-genai")
    assert [v.verdict for v in judgement.tools] == [Verdict.REQUEST_REJECTED] * 3
    assert all(v.sent is None for v in judgement.tools)  # no tool counted as sent
    (request,) = judgement.requests
    assert request.verdict is Verdict.REQUEST_REJECTED
    assert request.tools == ("ping", "annotate", "pong")
    assert "'annotate'" in request.hit.message
    assert "nothing is sent" in request.hit.message
    assert "'bool' object has no attribute 'items'" in request.hit.message
    culprit = judgement.verdict_for("annotate")
    assert culprit is not None
    assert culprit.hits[0].rule.id == "google-genai.conversion-failed"
    bystander = judgement.verdict_for("ping")
    assert bystander is not None
    assert [h.rule.id for h in bystander.hits] == ["google-genai.request-failed"]


_PAGED = ToolList("s", tuple(_tool(f"t{i:02}", **_TEXT) for i in range(20)),
                  page_sizes=(5, 5, 5, 5))  # fmt: skip


@pytest.mark.parametrize(
    ("client", "sent"),
    [
        ("google-genai", 5),  # generate_content calls list_tools() once
        ("anthropic-sdk", 5),  # as its docs show: one list_tools()
        ("pydantic-ai:google", 20),  # the FastMCP client reads every page
        ("pydantic-ai:anthropic", 20),
    ],
)
def test_pagination_is_followed_as_each_library_follows_it(client: str, sent: int) -> None:
    _need(client)
    judgement = judge_consumers(_PAGED, [client]).judgement(client)
    reached = [v.tool for v in judgement.tools if v.sent is not None]
    assert reached == [f"t{i:02}" for i in range(sent)]
    lost = [v for v in judgement.tools if v.sent is None]
    assert len(lost) == 20 - sent
    for verdict in lost:
        assert verdict.verdict is Verdict.TOOL_DROPPED
        assert verdict.hits[0].rule.id == f"{client}.first-page-only"
        assert "read 1 page(s)" in verdict.hits[0].message


def test_google_genai_sent_is_the_body_in_its_own_spelling_and_so_rewritten() -> None:
    _need("google-genai")
    either = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    listing = ToolList("s", (_tool("pick", properties={"value": either}),))
    (verdict,) = judge_consumers(listing, ["google-genai"]).verdicts_for("pick")
    assert verdict.sent is not None
    parameters = verdict.sent["parameters"]
    assert parameters["type"] == "OBJECT"
    assert parameters["properties"]["value"] == {"any_of": [{"type": "STRING"},
                                                            {"type": "INTEGER"}]}  # fmt: skip
    assert verdict.verdict is Verdict.REWRITTEN
    (hit,) = [h for h in verdict.hits if h.rule.id == "google-genai.sent-rewritten"]
    assert "upper-cased" in hit.message
    assert "any_of" in hit.message
    assert verdict.provider is not None
    assert not verdict.provider.rejected  # the provider reads the body's spelling


@pytest.mark.parametrize(
    ("wire", "plain"),
    [
        ({"type": "STRING"}, {"type": "string"}),
        ({"any_of": [{"type": "NULL"}]}, {"anyOf": [{"type": "null"}]}),
        # property names are names, not keywords: kept as written
        ({"type": "OBJECT", "properties": {"max_items": {"type": "ARRAY", "max_items": 2}}},
         {"type": "object", "properties": {"max_items": {"type": "array", "maxItems": 2}}}),
        ({"$defs": {"a_b": {"type": "BOOLEAN"}}, "$ref": "#/$defs/a_b"},
         {"$defs": {"a_b": {"type": "boolean"}}, "$ref": "#/$defs/a_b"}),
        ({"enum": ["STRING"]}, {"enum": ["STRING"]}),  # values are not types
    ],
)  # fmt: skip
def test_plain_schema_reads_the_body_spelling_as_json_schema(wire: Any, plain: Any) -> None:
    assert plain_schema(wire) == plain


def test_a_paged_server_reaches_first_page_clients_as_its_pages(tmp_path: Any) -> None:
    """A server that pages ``tools/list`` two tools a page, read by toollens (every page),
    then replayed to each library page by page."""
    import json
    import shlex
    import sys
    from pathlib import Path

    from toollens.consumers import listing_from_server
    from toollens.mcp import ConnectOptions, fetch_tools

    _need("google-genai", "pydantic-ai:openai")
    listing_file = tmp_path / "tools.json"
    listing_file.write_text(json.dumps([_tool(f"t{i}", **_TEXT) for i in range(5)]))
    script = Path(__file__).resolve().parents[1] / "mcp" / "mcp_servers" / "raw_tools.py"
    target = "mcp:" + shlex.join([sys.executable, str(script), str(listing_file)])
    served = fetch_tools(target, ConnectOptions(timeout=20))
    listing = listing_from_server(served)
    assert listing.page_sizes == (2, 2, 1)
    report = judge_consumers(listing, ["google-genai", "pydantic-ai:openai"])
    genai = report.judgement("google-genai")
    assert [v.tool for v in genai.tools if v.sent is not None] == ["t0", "t1"]
    later = genai.verdict_for("t4")
    assert later is not None
    assert later.hits[0].message.startswith("on tools/list page 3")
    pydantic = report.judgement("pydantic-ai:openai")
    assert all(v.sent is not None for v in pydantic.tools)


@pytest.mark.parametrize("profile", ["openai", "anthropic", "google"])
def test_a_retired_profile_model_prints_no_warning_of_the_library(profile: str) -> None:
    # pydantic-ai warns when the model a profile is taken from is past its retirement date;
    # the user named no model, and nothing in the tools sent depends on it.
    client = f"pydantic-ai:{profile}"
    _need(client)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        judge_consumers(ToolList("s", (_tool("clock", **_TEXT),)), [client])
    assert [str(w.message) for w in caught if "deprecated" in str(w.message)] == []
