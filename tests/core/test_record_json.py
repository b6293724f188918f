"""A record's JSON form (``record_json``): keys in the order declared, renamed where asked,
values turned to JSON one way; and the records that declare theirs with it, each pinned
key by key (order included: golden files and ``--format json`` depend on it)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

import pytest

from toollens.assess.clients import ClientCost
from toollens.consumers.model import (
    ClientVerdict,
    ConsumerRule,
    Evidence,
    ProviderCheck,
    RequestVerdict,
    RuleHit,
    Verdict,
)
from toollens.core.record_json import record_json
from toollens.core.records import Citation, Finding, Severity
from toollens.mcp.records import McpServerInfo, McpTool, SdkRefusal, UnreadTool
from toollens.roundtrip.checking import ArgumentMark
from toollens.tokens.deferred import CLIENT_TOOL_SEARCH
from toollens.tokens.result import PartTokens, TokenCount, ToolTokens
from toollens.tokens.result import UnreadTool as UncountedTool


class Colour(enum.Enum):
    RED = 1


@dataclass(frozen=True)
class Leaf:
    text: str

    def to_json(self) -> dict[str, str]:
        return {"leaf": self.text}


@dataclass(frozen=True)
class Node:
    snake_name: str
    colour: Colour
    leaf: Leaf | None
    leaves: tuple[Leaf, ...]
    nested: tuple[tuple[str, ...], ...]
    schema: dict[str, Any]
    kind: type[Leaf] = Leaf

    @property
    def shout(self) -> str:
        return self.snake_name.upper()


def test_keys_in_order_renamed_and_values_turned_to_json() -> None:
    schema = {"type": "object"}
    node = Node("a", Colour.RED, Leaf("x"), (Leaf("y"), Leaf("z")), (("p", "q"),), schema)
    data = record_json(
        node, "shout", ("snakeName", "snake_name"), "colour", "leaf", "leaves", "nested", "schema"
    )
    assert list(data.items()) == [
        ("shout", "A"),
        ("snakeName", "a"),
        ("colour", 1),
        ("leaf", {"leaf": "x"}),
        ("leaves", [{"leaf": "y"}, {"leaf": "z"}]),
        ("nested", [["p", "q"]]),
        ("schema", {"type": "object"}),
    ]
    assert data["schema"] is schema  # JSON data is the record's own, as a hand-written form
    # a class is a value, not a record: its to_json is not called
    assert record_json(node, "kind")["kind"] is Leaf
    assert record_json(Node("a", Colour.RED, None, (), (), {}), "leaf", "leaves") == {
        "leaf": None,
        "leaves": [],
    }


def test_an_unknown_attribute_is_an_error() -> None:
    with pytest.raises(AttributeError, match="missing"):
        record_json(Leaf("x"), "missing")


FINDING = Finding(
    "r.x",
    Severity.ERROR,
    "/a",
    "bad",
    "fix it",
    "p",
    cite=Citation("Doc", "https://doc", "2026-01-01", "code", rechecked="2026-06-01"),
)
RULE = ConsumerRule(
    "c.r", "c", Verdict.REWRITTEN, "sums", "fix", "https://src", "2026-01-01", Evidence.DOCS
)
HIT = RuleHit(RULE, "matched", "/p")
RULE_JSON = {"id": "c.r", "source": "https://src", "date": "2026-01-01", "evidence": "docs"}
HIT_JSON = {**RULE_JSON, "message": "matched", "pointer": "/p"}
FINDING_JSON = {
    "rule": "r.x",
    "severity": "error",
    "pointer": "/a",
    "parameter": "p",
    "message": "bad",
    "fix": "fix it",
    "source": "https://doc",
    "date": "2026-06-01",
    "evidence": "code",
}
SEARCH = CLIENT_TOOL_SEARCH["claude-code"]
SEARCH_JSON = {
    "id": "claude-code.tool-search",
    "threshold": 20_000,
    "source": SEARCH.source,
    "date": SEARCH.date,
    "evidence": "report",
}
PART = PartTokens("unit", "enum", 3)
TOOL = ToolTokens("t", 9, (PART,), deferred=True, unvalidated=("$ref",))
TOOL_JSON = {
    "name": "t",
    "tokens": 9,
    "deferred": True,
    "unvalidated": ["$ref"],
    "parts": [{"path": "unit", "kind": "enum", "tokens": 3}],
}

OWN_FINDING = Finding("lint.x", Severity.WARNING, None, "vague", "say more")
OWN_FINDING_JSON = {
    "rule": "lint.x",
    "severity": "warning",
    "pointer": None,
    "parameter": None,
    "message": "vague",
    "fix": "say more",
    "source": None,
    "date": None,
    "evidence": "toollens",
}
# a source with no address: its words stand for it, and an unrecorded date is null
WORDS_FINDING = Finding(
    "limits.x", Severity.ERROR, None, "long", "cut", cite=Citation("threads #1, #2", "", "")
)
WORDS_FINDING_JSON = {
    **OWN_FINDING_JSON,
    "rule": "limits.x",
    "severity": "error",
    "message": "long",
    "fix": "cut",
    "source": "threads #1, #2",
    "evidence": "docs",
}

RECORDS = [
    pytest.param(FINDING, FINDING_JSON, id="Finding"),
    pytest.param(OWN_FINDING, OWN_FINDING_JSON, id="Finding-own-rule"),
    pytest.param(WORDS_FINDING, WORDS_FINDING_JSON, id="Finding-cited-in-words"),
    pytest.param(
        McpServerInfo("srv", "1.0", None, "2025-06-18", "use it"),
        {
            "name": "srv",
            "version": "1.0",
            "title": None,
            "protocolVersion": "2025-06-18",
            "instructions": "use it",
        },
        id="McpServerInfo",
    ),
    pytest.param(
        McpTool("t", "d", {"type": "object"}, None, {"readOnlyHint": True}, "T", "mcp:x", {}),
        {
            "name": "t",
            "title": "T",
            "description": "d",
            "inputSchema": {"type": "object"},
            "outputSchema": None,
            "annotations": {"readOnlyHint": True},
        },
        id="McpTool",
    ),
    pytest.param(
        SdkRefusal(2, "t", "/inputSchema", "not an object"),
        {"index": 2, "tool": "t", "pointer": "/inputSchema", "message": "not an object"},
        id="SdkRefusal",
    ),
    pytest.param(
        UnreadTool(0, "#0", "no name"),
        {"index": 0, "name": "#0", "error": "no name"},
        id="mcp-UnreadTool",
    ),
    pytest.param(SEARCH, SEARCH_JSON, id="ClientToolSearch"),
    pytest.param(
        ClientCost("c", 3, 100, 20, "gpt-4o", "exact", "o200k_base", SEARCH, None, True),
        {
            "upfront": 100,
            "deferred": 20,
            "model": "gpt-4o",
            "exact": True,
            "method": "exact",
            "tokenizer": "o200k_base",
            "tools": 3,
            "deferred_by": SEARCH_JSON,
            "error": None,
            "rejected": True,
        },
        id="ClientCost",
    ),
    pytest.param(UncountedTool("x", "why"), {"name": "x", "error": "why"}, id="tokens-UnreadTool"),
    pytest.param(TOOL, TOOL_JSON, id="ToolTokens"),
    pytest.param(
        TokenCount(
            "gpt-4o",
            "rendered",
            20,
            5,
            (TOOL,),
            "o200k_base",
            notes=("n",),
            unread=(UncountedTool("x", "why"),),
            unvalidated=("anyOf",),
            messages=7,
        ),
        {
            "total": 20,
            "model": "gpt-4o",
            "method": "rendered",
            "tokenizer": "o200k_base",
            "overhead": 5,
            "up_front": 11,
            "deferred": 9,
            "messages": 7,
            "request": 18,
            "tools": [TOOL_JSON],
            "unread": [{"name": "x", "error": "why"}],
            "unvalidated": ["anyOf"],
            "notes": ["n"],
        },
        id="TokenCount",
    ),
    pytest.param(RULE, RULE_JSON, id="ConsumerRule"),
    pytest.param(
        ClientVerdict("c", "t", Verdict.REWRITTEN, (HIT,), {"name": "t"}, ProviderCheck("p", True)),
        {
            "client": "c",
            "verdict": "rewritten",
            "rules": [HIT_JSON],
            "sent": {"name": "t"},
            "provider": {"provider": "p", "strict": True, "accepted": True, "findings": []},
        },
        id="ClientVerdict",
    ),
    pytest.param(
        ClientVerdict("c", "t", Verdict.TOOL_DROPPED),
        {"client": "c", "verdict": "tool-dropped", "rules": [], "sent": None, "provider": None},
        id="ClientVerdict-dropped",
    ),
    pytest.param(
        RequestVerdict("c", Verdict.ACCEPTED, HIT, ("a", "b")),
        {"client": "c", "verdict": "accepted", "rule": HIT_JSON, "tools": ["a", "b"]},
        id="RequestVerdict",
    ),
    pytest.param(
        ArgumentMark(None, "not JSON", "json", 1, 4),
        {"pointer": None, "message": "not JSON", "source": "json", "line": 1, "column": 4},
        id="ArgumentMark",
    ),
]


@pytest.mark.parametrize(("record", "expected"), RECORDS)
def test_record_json_forms(record: Any, expected: dict[str, Any]) -> None:
    data = record.to_json()
    assert list(data.items()) == list(expected.items())
