"""Real servers' tools/list answers (``../shared/corpora/mcp``), judged by every client.

These servers work in the clients their READMEs name, so no non-strict client may lose a
tool of theirs, except where a client's own code, run here, shows it does. Skips when the
corpus is absent (a fresh clone).
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from toollens.cli import EXIT_OK, main
from toollens.consumers import BLOCKING, CONSUMERS, judge_consumers, listing_from_payload

_BASE = os.environ.get("TOOLLENS_CORPORA_DIR")
_CORPUS = Path(_BASE) if _BASE else Path(__file__).resolve().parents[3] / "shared" / "corpora"
FILES = sorted((_CORPUS / "mcp").glob("*.tools.json"))

# (server, client) -> the rule that loses its tools, from that client's own code run here.
KNOWN = {
    # google-genai 3.6.1's conversion calls .items() on the boolean additionalProperties
    # every zod-made schema has (each tool fails the call on its own), and generate_content
    # then sends nothing: every tool is lost.
    ("server-github", "google-genai"): "google-genai.conversion-failed",
}


@pytest.mark.skipif(not FILES, reason="the MCP corpus (../shared/corpora/mcp) is absent")
@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".tools.json") for p in FILES])
def test_real_servers_keep_their_tools_in_every_non_strict_client(path: Path) -> None:
    server = path.name.removesuffix(".tools.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    report = judge_consumers(listing_from_payload(data, label=path.name), ["all"])
    for judgement in report.judgements:
        if judgement.client == "openai-agents-strict":
            continue  # strict by choice: its refusals are the provider's strict rules
        lost = {
            v.tool: [h.rule.id for h in v.hits] for v in judgement.tools if v.verdict in BLOCKING
        }
        expected = KNOWN.get((server, judgement.client))
        if expected is None:
            assert lost == {}, (server, judgement.client)
        else:
            assert lost, (server, judgement.client)
            assert all(expected in rules for rules in lost.values())


# The default ``check`` (no --client) on each server: its exit code, and every tool a
# default client loses, with the rule that loses it. Only openai-agents-strict (strict by
# choice, convert_schemas_to_strict=True; it does not gate the exit) loses a tool: OpenAI's
# strict mode refuses the format "uri" both servers use.
DEFAULT_CHECK: dict[str, tuple[int, dict[tuple[str, str], str]]] = {
    "awslabs.aws-documentation-mcp-server": (EXIT_OK, {}),
    "duckduckgo-mcp-server": (EXIT_OK, {}),
    "mcp-server-fetch": (
        EXIT_OK,
        {("fetch", "openai-agents-strict"): "openai.format-unsupported"},
    ),
    "mcp-server-git": (EXIT_OK, {}),
    "mcp-server-time": (EXIT_OK, {}),
    "server-everything": (
        EXIT_OK,
        {("gzip-file-as-resource", "openai-agents-strict"): "openai.format-unsupported"},
    ),
    "server-filesystem": (EXIT_OK, {}),
    "server-github": (EXIT_OK, {}),
    "server-memory": (EXIT_OK, {}),
    "server-sequential-thinking": (EXIT_OK, {}),
}

#: Rules of OpenAI strict mode (and the strict view): never reported by the default check,
#: except in the provider step of a client that sends strict.
STRICT_RULE_PREFIXES = ("openai.", "view.strict")


def _rules_outside_clients(data: Any) -> set[str]:
    """Every rule id in ``data``, the clients' own verdicts (``clients`` keys) left out."""
    found: set[str] = set()
    if isinstance(data, dict):
        rule = data.get("rule")
        if isinstance(rule, str):
            found.add(rule)
        for key, value in data.items():
            if key != "clients":
                found |= _rules_outside_clients(value)
    elif isinstance(data, list):
        for item in data:
            found |= _rules_outside_clients(item)
    return found


def test_the_default_check_table_covers_the_corpus() -> None:
    if FILES:
        assert sorted(DEFAULT_CHECK) == sorted(p.name.removesuffix(".tools.json") for p in FILES)


@pytest.mark.skipif(not FILES, reason="the MCP corpus (../shared/corpora/mcp) is absent")
@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".tools.json") for p in FILES])
def test_the_default_check_reports_no_strict_rule_and_loses_only_the_listed_tools(
    path: Path,
) -> None:
    server = path.name.removesuffix(".tools.json")
    expected_code, expected_lost = DEFAULT_CHECK[server]
    out, err = io.StringIO(), io.StringIO()
    code = main(["check", str(path), "--format", "json"], stdout=out, stderr=err)
    assert code == expected_code, err.getvalue()
    data = json.loads(out.getvalue())
    strict = {r for r in _rules_outside_clients(data) if r.startswith(STRICT_RULE_PREFIXES)}
    assert strict == set(), server
    lost: dict[tuple[str, str], list[str]] = {}
    for tool in data["tools"]:
        for verdict in tool["clients"]:
            if verdict["verdict"] in {v.value for v in BLOCKING}:
                rules = [r["id"] for r in verdict["rules"]]
                lost[(tool["name"], verdict["client"])] = rules
                if not CONSUMERS[verdict["client"]].strict:  # a non-strict client: no
                    assert not [r for r in rules if r.startswith(STRICT_RULE_PREFIXES)]
    assert sorted(lost) == sorted(expected_lost), server
    for key, rule in expected_lost.items():
        assert lost[key][0] == rule, (server, key)  # the worst hit decided the verdict
    assert data["clients"]["chosen"] == []  # none named: none gates the exit code
