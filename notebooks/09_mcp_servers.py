# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # MCP servers: what each model gets from a server's tools
#
# An MCP server publishes its tools with `tools/list`: a name, a description, an
# `inputSchema` and maybe an `outputSchema` for each. The client in the middle (an agent
# framework, a desktop app) passes those schemas on to a model provider, and each provider
# has its own idea of what a tool schema may contain: OpenAI's strict mode wants every object
# closed and every property required, Anthropic rejects numeric bounds in strict tools,
# and so on. A schema that one model takes happily can be refused by another, and the server
# author rarely sees the refusal.
#
# toollens starts the server itself (it is a child process toollens owns and always stops),
# reads its tools with the official `mcp` SDK client, and judges each schema exactly as the
# server sent it. Nothing here talks to a model or leaves the machine: the server runs over
# stdio.
#
# The server of this lesson is `servers/shop.py`, written with the `mcp` SDK's `MCPServer`.
# It could be written in any language; toollens only sees what it sends.

# %%
import os
import sys
from pathlib import Path

import toollens
from toollens.mcp import ConnectOptions, fetch_tools

# `python` in the targets below is the interpreter running this notebook (it has `mcp`).
os.environ["PATH"] = os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"]
source = Path("servers/shop.py").read_text(encoding="utf-8")
print(source[source.index("server = ") : source.index('if __name__ == "__main__":')].strip())

# %% [markdown]
# ## The tools as the server sent them
#
# A target written `mcp:COMMAND ARGS...` starts the server over stdio; `mcp:http://...`
# would connect to a running streamable-HTTP server instead. `fetch_tools` follows the
# pagination of `tools/list` and keeps every schema byte for byte: key order, `$defs`,
# `title`s and all.

# %%
served = fetch_tools("mcp:python servers/shop.py", ConnectOptions(timeout=30))
print(served.info.name, served.info.version, "speaks MCP", served.info.protocol_version)
for tool in served.tools:
    print(f"- {tool.name}: {tool.description}")
print()
print(sorted(served.tools[1].input_schema))  # schedule_delivery: its address lives in $defs

# %% [markdown]
# ## Every tool, every provider: the Toolset view
#
# `toollens.toolset("mcp:...")` reads the same server as a toolset: every tool with its
# report, and the findings only a set of tools has (two tools with one name, a name a
# provider rejects, more tools than a provider accepts in one request). Displayed in a
# notebook, it is a table: one row per tool, with the verdict of the provider it was read
# for (OpenAI Chat Completions unless `options` say otherwise) and each tool's findings.

# %%
shop = toollens.toolset("mcp:python servers/shop.py")
shop

# %% [markdown]
# `get_order` is fine, `search_products` only gets a warning (a `default` strict mode
# sends but does not apply), and OpenAI refuses `schedule_delivery`. Its `notes` parameter
# is an open object (`dict[str, str]`), which OpenAI's strict mode cannot express; its
# `tracking_page` says `format: uri`, which is not one of OpenAI's strict formats. The
# findings say where, with a JSON pointer into the schema as sent, and what to change.

# %%
delivery = shop["schedule_delivery"]
for finding in delivery.findings:
    print(f"{finding.severity.value:8} {finding.rule:36} {finding.pointer}")

# %% [markdown]
# ## One tool, one provider, every view
#
# Each entry holds the report toollens computes for any schema: the schema as sent, what
# strict conversion makes of it (or why it cannot), the payload the provider would
# receive, and the provider's verdict with the source of each rule. `report_for` gives the
# same views for another provider. Here is `search_products` as Anthropic would get it:
# its `max_results` bounds (`minimum`, `maximum`) are what Anthropic's strict mode refuses.

# %%
shop["search_products"].report_for("anthropic")

# %% [markdown]
# ## The output schema
#
# `get_order` returns a pydantic model, so the server also publishes an `outputSchema`: the
# shape its `structuredContent` must have. It is not sent to the model; toollens shows it
# as written, and a lock file records it, so a change to it shows up in review too.

# %%
print(served.tools[2].output_schema)
print(served.tools[2].annotations)

# %% [markdown]
# ## When the server does not start
#
# A server that crashes at start, writes only garbage to stdout, or never answers does not
# stop the notebook with a traceback from deep inside the client: `toolset` raises one
# `TargetError` whose message is one line, saying what happened and the last line the
# server wrote to stderr, which usually says why (on the command line: exit 3, that line on
# stderr). A log line or banner on stdout is skipped, as the official SDK client skips it,
# with a warning. Either way the server process, and anything it started, is gone when
# toollens returns.

# %%
from toollens import TargetError

try:
    toollens.toolset("mcp:python servers/shop.py --broken")
except TargetError as error:
    print(error)

# %% [markdown]
# ## The same from a terminal, and in CI
#
# Every command that takes a target takes an `mcp:` target, with `--env K=V` for the
# server's environment and `--timeout SECONDS`:
#
# ```bash
# toollens check "mcp:python servers/shop.py" --provider all
# toollens show "mcp:python servers/shop.py#get_order" --view provider
# ```
#
# To gate a server's schema changes in CI, list it under `[tool.toollens] tools` in
# `pyproject.toml` (`"mcp:node dist/index.js"` works the same), run `toollens snapshot`
# once and commit `toollens.lock.json`; `toollens diff --lock --format github` then fails
# the pull request that changes a tool in a breaking way, with an annotation per change.

# %%
from toollens.cli import main

code = main(["check", "mcp:python servers/shop.py#search_products", "--provider", "anthropic"])
print("exit code", code)  # 1: an error finding, so a CI job would fail here

# %% [markdown]
# ## Try it
#
# Change `servers/shop.py` so that `schedule_delivery` is accepted by OpenAI's strict mode
# (hint: replace the open `notes` object with a list of small objects, and drop the
# `format`), then run the Toolset cell again. Next, compare what `max_results` costs on
# Anthropic with what it buys: the bounds could move into the description instead.
#
# The full reference is the "MCP servers" page of the documentation.
