"""Real servers' tools/list answers (``../shared/corpora/mcp``), judged by every client.

These servers work in the clients their READMEs name, so no non-strict client may lose a
tool of theirs, except where a client's own code, run here, shows it does. Skips when the
corpus is absent (a fresh clone).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from toollens.consumers import BLOCKING, judge_consumers, listing_from_payload

_BASE = os.environ.get("TOOLLENS_CORPORA_DIR")
_CORPUS = Path(_BASE) if _BASE else Path(__file__).resolve().parents[3] / "shared" / "corpora"
FILES = sorted((_CORPUS / "mcp").glob("*.tools.json"))

# (server, client) -> the rule that loses its tools, from that client's own code run here.
KNOWN = {
    # google-genai 3.6.1's _filter_to_supported_schema calls .items() on the boolean
    # additionalProperties every zod-made schema has.
    ("server-github", "google-genai"): "google-genai.conversion-failed",
}


@pytest.mark.skipif(not FILES, reason="the MCP corpus (../shared/corpora/mcp) is absent")
@pytest.mark.parametrize("path", FILES, ids=[p.name.removesuffix(".tools.json") for p in FILES])
def test_real_servers_keep_their_tools_in_every_non_strict_client(path: Path) -> None:
    server = path.name.removesuffix(".tools.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    report = judge_consumers(listing_from_payload(data, label=path.name))
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
