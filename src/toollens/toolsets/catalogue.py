"""Every rule that speaks for a provider, a request or the MCP specification, with its source.

One list for the rules page (``docs/rules.md``, generated) and ``toollens check --rules``:
the per-tool provider rules, the payload rules, the cross-tool (request) rules and the MCP
specification's rules, each with the source it comes from, the date that source was read
(and re-checked) and how strong it is. :func:`stale_rules` is what the tests hold at zero:
no source older than a year before the last review (:data:`RULES_REVIEWED`).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass

from toollens.core.providers.api import RULES_BY_ID
from toollens.core.providers.mcp_spec import MCP_REVISIONS, MCP_SPEC_RULES
from toollens.core.providers.rules import MAX_SOURCE_AGE_DAYS, RULES_REVIEWED
from toollens.core.records import Citation
from toollens.toolsets.rules import TOOLSET_RULES

__all__ = [
    "LISTING_RULES",
    "SDK_LIST_CHECK",
    "SDK_REFUSES_LIST",
    "STDIO_ONLY_MESSAGES",
    "STDOUT_NOISE",
    "RuleRow",
    "format_rules",
    "rule_rows",
    "stale_rules",
]


@dataclass(frozen=True)
class RuleRow:
    """One rule as the catalogue lists it.

    Attributes:
        id: the rule id.
        severity: ``error``, ``warning`` or ``info``.
        when: when it applies: ``always``, ``strict``, ``request`` (a cross-tool rule), the
            MCP revisions it belongs to (``mcp@2025-11-25+``), or ``mcp`` (how any server's
            list reaches a client).
        summary: one line.
        cite: its source, the date read, the date re-checked, the evidence level.
    """

    id: str
    severity: str
    when: str
    summary: str
    cite: Citation

    def to_json(self) -> dict[str, str | None]:
        return {
            "id": self.id,
            "severity": self.severity,
            "when": self.when,
            "summary": self.summary,
            "source": self.cite.title,
            "url": self.cite.url,
            "date": self.cite.date,
            "rechecked": self.cite.rechecked,
            "evidence": self.cite.evidence,
            "ended": self.cite.ended,
        }


STDOUT_NOISE = "mcp.stdout-not-json-rpc"
"""The rule id of the warning for stdout lines that are not JSON-RPC messages."""

SDK_REFUSES_LIST = "mcp.sdk-refuses-list"
"""The rule id of the error for a ``tools/list`` the official SDK's own types refuse."""

# Evidence: code. mcp 2.3.0 ClientSession.list_tools validates the page with
# mcp_types.ListToolsResult and raises on the first invalid tool: the whole list is lost.
SDK_LIST_CHECK = Citation(
    "mcp 2.3.0 mcp.client.session.ClientSession.list_tools (ListToolsResult), run here",
    "https://github.com/modelcontextprotocol/python-sdk",
    "2026-12-02",
    "code",
)

# Evidence: code. mcp 2.3.0, mcp/client/stdio.py `_parse_line` returns the parse error as a
# value and ClientSession hands it to its message_handler, whose default does nothing: the
# line is skipped. The MCP specification (transports, stdio, 2025-06-18 and later): "The
# server MUST NOT write anything to its stdout that is not a valid MCP message."
STDIO_ONLY_MESSAGES = Citation(
    "MCP specification, transports (stdio); mcp 2.3.0 mcp.client.stdio._parse_line skips "
    "such a line",
    "https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#stdio",
    "2026-12-02",
    "code",
)

LISTING_RULES: tuple[RuleRow, ...] = (
    RuleRow(
        SDK_REFUSES_LIST,
        "error",
        "mcp",
        "the official mcp SDK client refuses the tools/list: a client built on it loses every tool",
        SDK_LIST_CHECK,
    ),
    RuleRow(
        STDOUT_NOISE,
        "warning",
        "mcp",
        "the server writes lines to stdout that are not JSON-RPC messages",
        STDIO_ONLY_MESSAGES,
    ),
)
"""The rules of how any server's list reaches a client (the findings are made in
:mod:`toollens.toolsets.mcp_source`), beside the specification's
(:data:`toollens.core.providers.mcp_spec.MCP_SPEC_RULES`)."""


def rule_rows() -> list[RuleRow]:
    """Provider and payload rules (by id), then the request rules, then the MCP judge's."""
    rows = [
        RuleRow(r.id, r.severity.value, r.scope.value, r.summary, r.cite)
        for r in sorted(RULES_BY_ID.values(), key=lambda rule: rule.id)
    ]
    rows += [RuleRow(r.id, r.severity.value, "request", r.summary, r.cite) for r in TOOLSET_RULES]
    for item in MCP_SPEC_RULES:
        last = MCP_REVISIONS[MCP_REVISIONS.index(item.until) - 1] if item.until else None
        when = f"mcp@{item.since}" + (f" to {last}" if last and last != item.since else "+")
        rule = item.rule
        rows.append(RuleRow(rule.id, rule.severity.value, when, rule.summary, rule.cite))
    return rows + list(LISTING_RULES)


def stale_rules(
    rows: Sequence[RuleRow] | None = None,
    *,
    reviewed: str = RULES_REVIEWED,
    max_age_days: int = MAX_SOURCE_AGE_DAYS,
) -> list[RuleRow]:
    """The rules whose source was last read or re-checked more than ``max_age_days``
    before ``reviewed``, or dated after it (a date the review cannot have seen)."""
    review = dt.date.fromisoformat(reviewed)
    out = []
    for row in rule_rows() if rows is None else rows:
        if row.cite.ended is not None:
            continue  # no longer holds: kept as a record, nothing to re-read
        checked = dt.date.fromisoformat(row.cite.checked)
        if (review - checked).days > max_age_days or checked > review:
            out.append(row)
    return out


def _date(cite: Citation) -> str:
    text = cite.date + (f" (re-checked {cite.rechecked})" if cite.rechecked else "")
    return text + (f"; ended {cite.ended}" if cite.ended else "")


def format_rules(rows: Sequence[RuleRow], fmt: str = "text") -> str:
    """The catalogue as text (one block per rule) or JSON (``{"reviewed", "rules"}``)."""
    if fmt == "json":
        payload = {"reviewed": RULES_REVIEWED, "rules": [r.to_json() for r in rows]}
        return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    lines = [f"{len(rows)} rules; sources last reviewed {RULES_REVIEWED}", ""]
    width = max(len(r.id) for r in rows)
    for row in rows:
        lines.append(f"{row.id.ljust(width)}  {row.severity:<7}  {row.when}: {row.summary}")
        url = f" <{row.cite.url}>" if row.cite.url else ""
        lines.append(f"{'':{width}}  source: {row.cite.title}{url}")
        lines.append(f"{'':{width}}  read {_date(row.cite)}; evidence: {row.cite.evidence}")
    return "\n".join(lines) + "\n"
