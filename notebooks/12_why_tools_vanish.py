# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Why my server's tools vanish in client X
#
# An MCP server's tools never reach the model as the server wrote them. A **client** sits in
# between: Claude Code, Cursor, VS Code Copilot, Gemini CLI, or an agent framework on the
# official MCP SDK client. It reads the `tools/list` answer, and it may refuse the whole list
# because of one tool, filter a tool out, rename tools, rewrite their schemas, and then send
# what is left to a model provider, which has its own rules. None of them tells the server
# author: the tools are simply not there.
#
# This lesson takes a small server's tool list with problems of the kinds seen on real
# servers, shows what each client does with it, and fixes each problem. Every verdict
# cites the rule that decided it: its source (the client's own code where it can run here,
# its documentation, or an issue on its tracker), the date it was read, and how strong
# that evidence is.

# %% [markdown]
# ## The server's answer
#
# A `tools/list` answer, as a JSON file saved from the server or as a Python dict. Four
# tools, written the way hand-rolled servers often are: `export_report` declares its
# arguments under `parameters` (the OpenAI habit) instead of `inputSchema`.

# %%
import json

import toollens.consumers as consumers

answer = {
    "serverInfo": {"name": "acme-inventory"},
    "protocolVersion": "2025-11-25",
    "tools": [
        {
            "name": "get_item",
            "description": "Get one item by its SKU.",
            "inputSchema": {
                "type": "object",
                "properties": {"sku": {"type": "string"}},
                "required": ["sku"],
            },
        },
        {
            "name": "find_similar",
            "description": "Items similar to one item, optionally in one category.",
            "inputSchema": {
                "type": "object",
                "properties": {
                    "sku": {"type": "string"},
                    "category": {"type": ["string", "null"], "default": None},
                },
                "required": ["sku"],
            },
        },
        {
            "name": "list_warehouse_stock_levels_by_region_and_category",
            "description": "Stock levels of every warehouse in a region.",
            "inputSchema": {
                "type": "object",
                "properties": {"region": {"type": "string"}},
                "required": ["region"],
            },
        },
        {
            "name": "export_report",
            "description": "Export the stock report as CSV.",
            "parameters": {"type": "object", "properties": {"month": {"type": "string"}}},
        },
    ],
}

CLIENTS = ["mcp-python", "claude-code", "cursor", "gemini-cli", "vscode-copilot"]


def table(answer, clients=CLIENTS):
    """Each tool's verdict in each client, one row per tool."""
    listing = consumers.listing_from_payload(answer, label="acme.json")
    report = consumers.judge_consumers(listing, clients)
    print(f"{'tool':<52}" + "".join(f"{c:<18}" for c in clients))
    for name in listing.names:
        row = {v.client: v.verdict.value for v in report.verdicts_for(name)}
        print(f"{name:<52}" + "".join(f"{row[c]:<18}" for c in clients))
    for request in report.requests():  # verdicts on the request as a whole
        print(f"request, {request.client}: {request.verdict.value} [{request.hit.rule.id}]")
    return report


report = table(answer)

# %% [markdown]
# Three clients lose **every** tool (`server-dropped`) because of `export_report` alone;
# Cursor keeps the server but loses one tool (`tool-dropped`); Gemini CLI sends one tool
# changed (`rewritten`). VS Code Copilot accepts everything here. Verdicts run from best to
# worst: `accepted`, `rewritten`, `tool-dropped`, `server-dropped`, `request-rejected`.
#
# ## server-dropped: one tool, the whole server
#
# The official Python SDK client checks the answer against its own `ListToolsResult` type,
# and one tool that does not fit fails the call: the framework on top of it (the OpenAI
# Agents SDK, pydantic-ai, LangChain's adapters) gets no tool at all. That verdict is not
# predicted: toollens runs the SDK's own type on the answer, and says which tool and which
# pointer made it fail.

# %%
def why(report, client, tool):
    """The rules behind one client's verdict on one tool."""
    verdict = report.judgement(client).verdict_for(tool)
    print(f"{client} / {tool}: {verdict.verdict.value}")
    for hit in verdict.hits:
        print(f"  [{hit.rule.id}] {hit.message}")
        where = f"at {hit.pointer}; " if hit.pointer else ""
        print(f"    {where}{hit.rule.evidence.value} evidence, read {hit.rule.date}")
        print(f"    source: {hit.rule.source}")
        print(f"    fix: {hit.rule.fix}")


why(report, "mcp-python", "get_item")

# %% [markdown]
# Claude Code and Gemini CLI are TypeScript: they list tools with the TypeScript SDK, whose
# `ToolSchema` refuses the same answer. For Gemini CLI that is read in its own code; for
# Claude Code it is an issue on its tracker with a reproduction, and the evidence level says
# so.

# %%
why(report, "claude-code", "get_item")

# %% [markdown]
# The fix is the field name: `inputSchema`, as the MCP specification spells it.

# %%
fixed = json.loads(json.dumps(answer))
fixed["tools"][3]["inputSchema"] = fixed["tools"][3].pop("parameters")
report = table(fixed)

# %% [markdown]
# ## tool-dropped: Cursor's name length
#
# Cursor filters out a tool whose server name and tool name together reach 60 characters
# (the server name is the one *you* give the server in Cursor's configuration, not the
# server's own). Nothing else sees a problem with the name.

# %%
why(report, "cursor", "list_warehouse_stock_levels_by_region_and_category")
print(len("acme-inventory") + len("list_warehouse_stock_levels_by_region_and_category"), "characters")

# %% [markdown]
# Claude Code keeps the tool, but the name it sends, `mcp__acme-inventory__list_...`, passes
# the 64 characters the API takes: that is a verdict on the request (the last line of the
# table above), from a third-party report, so its evidence says `report`.
#
# Two fixes: a shorter tool name on the server, or a shorter name for the server in the
# client's configuration. `server_name=` (`--server-name` on the command line) is that
# configured name; clients put it in the tool names they send.

# %%
short = consumers.listing_from_payload(fixed, label="acme.json", server_name="acme")
(cursor,) = consumers.judge_consumers(short, ["cursor"]).verdicts_for(
    "list_warehouse_stock_levels_by_region_and_category"
)
print(cursor.verdict.value)

# %% [markdown]
# ## rewritten: what Gemini CLI sends instead
#
# Gemini CLI renames every tool (`mcp_<server>_<tool>`, characters outside
# `[a-zA-Z0-9_.:-]` replaced) and rewrites a two-entry `type: [X, "null"]` to `type: X,
# nullable: true`. A rewrite loses nothing, so it is a warning; `sent` is the tool as the
# client sends it, which is what the model reads.

# %%
why(report, "gemini-cli", "find_similar")
sent = report.judgement("gemini-cli").verdict_for("find_similar").sent
print(json.dumps(sent, indent=2))

# %% [markdown]
# If the model should see `category` as a plain optional string, drop the `null` from its
# type (it is optional already: it is not in `required`).
#
# ## After the client, the provider
#
# What a client sends still goes to a model provider: Claude Code to Anthropic, Gemini CLI to
# Gemini, the Agents SDK to OpenAI's Responses API. Each verdict carries the provider's
# judgement of the tool **as that client sends it**, strict only when that client sends it
# strict (`ClientVerdict.provider`). A tool the provider refuses is `request-rejected`: the
# API refuses the whole request that carries it. Cursor and VS Code send to the model the
# user picks, so no one provider judges them.

# %%
broken = json.loads(json.dumps(fixed))
broken["tools"][0]["inputSchema"]["properties"]["sku"] = {"$ref": "#/$defs/Sku"}
report = table(broken, ["claude-code", "gemini-cli", "cursor"])
check = report.judgement("claude-code").verdict_for("get_item").provider
print(check.provider, "strict" if check.strict else "non-strict")
for finding in check.findings:
    print(" ", finding.headline)

# %% [markdown]
# The `$ref` points at a definition the schema does not have: both SDKs pass the tool on,
# and the providers refuse it. Add the definition (`"$defs": {"Sku": {"type": "string"}}`)
# or write the schema inline.
#
# ## The same on the command line
#
# `toollens check` on a saved `tools/list` answer (or an `mcp:` target) shows the chosen
# clients' verdicts and exits 1 when one of them loses a tool (here Cursor, on the answer
# with its `inputSchema` fixed); `--client all` chooses every client toollens knows, the
# frameworks included when they are installed.

# %%
import os
import subprocess
import sys
import tempfile

workdir = tempfile.mkdtemp(prefix="toollens-vanish-")
with open(os.path.join(workdir, "acme.tools.json"), "w", encoding="utf-8") as handle:
    json.dump(fixed, handle)  # the answer with inputSchema fixed
run = subprocess.run(
    [sys.executable, "-m", "toollens", "check", "acme.tools.json",
     "--client", "cursor", "--client", "claude-code"],
    capture_output=True, text=True, cwd=workdir,
)  # fmt: skip
print("\n".join(run.stdout.rstrip().splitlines()[-12:]))
print(run.stderr.strip() or f"exit code {run.returncode}")

# %% [markdown]
# ## The same in a view
#
# `ToolsetView` with `clients=` shows the verdicts `check` prints: one column per client
# (the menu above the table picks which), and, for the tool you click (here opened from
# code), its **Clients** view: each client's verdict, the rules behind it with their
# sources, and what that client sends, as a diff against the tool as the server sent it.

# %%
from toollens.jupyter import ToolsetView

view = ToolsetView(fixed, clients=CLIENTS)  # the answer as a dict, or its saved file
view.open_tool(1)  # find_similar, as clicking its row does
view

# %% [markdown]
# The full list of clients, what each does and every rule with its source is the
# documentation's *Clients* page (`docs/clients.md`).
#
# Next: [13_my_request_failed](13_my_request_failed.ipynb), when the request already failed
# and you hold the error text.
