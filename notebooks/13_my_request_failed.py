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
# # My request failed: what now
#
# The request went out and came back as a 400. The error names a position in a request you
# never saw (`tools[1]`, `tools.36`, `function_declarations[13]`) or a name a client made up
# (`mcp_acme_list_tags`), and a path inside a schema. This lesson goes from that text to the
# tool, the field, the line in your file and the rule that would have predicted it, then lets
# `toollens fix` mend what a machine can mend, and shows `check` agreeing that the request
# would now go through.
#
# ## The tools that were sent
#
# An OpenAI Chat Completions request, saved as the file the application sends: three tools,
# one of them strict.

# %%
import json
import os
import subprocess
import sys
import tempfile

import toollens
from toollens.explain import explain

tools = {
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_customer",
                "description": "Get one customer by id.",
                "parameters": {
                    "type": "object",
                    "properties": {"customer_id": {"type": "string"}},
                    "required": ["customer_id"],
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "search_orders",
                "description": "Search a customer's orders.",
                "strict": True,
                "parameters": {
                    "type": "object",
                    "properties": {
                        "customer_id": {"type": "string"},
                        "filters": {
                            "type": "object",
                            "properties": {"status": {"type": "string"}},
                            "required": ["status"],
                        },
                    },
                    "required": ["customer_id", "filters"],
                    "additionalProperties": False,
                },
            },
        },
        {
            "type": "function",
            "function": {
                "name": "tag_order",
                "description": "Put tags on an order.",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "order_id": {"type": "string"},
                        "tags": {"type": "array"},
                    },
                    "required": ["order_id", "tags"],
                },
            },
        },
    ]
}

os.chdir(tempfile.mkdtemp(prefix="toollens-failed-"))  # a scratch folder for the files
with open("acme.tools.json", "w", encoding="utf-8") as handle:
    json.dump(tools, handle, indent=2)

# %% [markdown]
# ## What the provider answered
#
# OpenAI's answer names the function and a *context*: the path inside its parameters. It
# stops at the first problem; the second tool would have failed next.

# %%
error = """Error code: 400 - {'error': {'message': "Invalid schema for function 'search_orders':
In context=('properties', 'filters'), 'additionalProperties' is required to be supplied and
to be false.", 'type': 'invalid_request_error', 'param': 'tools[1].function.parameters',
'code': 'invalid_function_parameters'}}"""

# %% [markdown]
# ## From the text to the tool, the field and the line
#
# `explain(text, toolset)` reads the error (every provider's and client's shapes toollens
# knows) and maps each place it names onto the tools that were sent: the tool as served, the
# JSON pointer in its schema, the file and line where that value is written, and the rule
# that predicts it, with the rule's fix.

# %%
sent = toollens.toolset("acme.tools.json")
for place in explain(error, sent):
    print("tool:   ", place.tool, f"(tools[{place.index}] in the request)")
    print("pointer:", place.pointer)
    print("source: ", place.source)
    print("rule:   ", place.rule)
    print("fix:    ", place.fix)

# %% [markdown]
# The rule is one `check` runs: the error was predictable before the request went out. The
# command line says the same (`toollens explain acme.tools.json --error-file error.txt`, or
# the text on standard input).
#
# ## A client's error
#
# A client renames tools before it sends them (VS Code: `mcp_<server>_<tool>`) and often
# refuses a tool itself. Its message names the renamed tool; with the server's saved
# `tools/list`, `explain` finds the tool as the server serves it.

# %%
listing = {
    "serverInfo": {"name": "acme"},
    "protocolVersion": "2025-11-25",
    "tools": [
        {"name": tool["function"]["name"], "description": tool["function"]["description"],
         "inputSchema": tool["function"]["parameters"]}
        for tool in tools["tools"]
    ],
}  # fmt: skip
with open("acme-server.tools.json", "w", encoding="utf-8") as handle:
    json.dump(listing, handle, indent=2)

vscode = "Failed to validate tool mcp_acme_tag_order: Error: tool parameters array type must have items"
for place in explain(vscode, toollens.toolset("acme-server.tools.json")):
    print(place.tool, place.pointer, place.rule, "|", place.note)

# %% [markdown]
# ## Let the machine fix what it can
#
# Many findings have a fix a machine can make. `toollens fix` shows them as a diff, and
# writes them with `--write`, keeping the file's key order and indentation. A fix is
# **safe** when the values the schema accepts do not change (`items: {}` on an array), and
# **unsafe** when they do: `additionalProperties: false` refuses keys the schema accepted,
# so it is applied only with `--unsafe`.


# %%
def toollens_cli(*args):
    """Run the toollens command line here and print what it prints, then its exit code."""
    run = subprocess.run(
        [sys.executable, "-m", "toollens", *args], capture_output=True, text=True, check=False
    )
    print(run.stdout.rstrip())
    print(run.stderr.strip() or f"exit code {run.returncode}")


toollens_cli("fix", "acme.tools.json", "--diff")

# %% [markdown]
# The diff holds the safe fix; the unsafe one is listed as left. This file is the request
# itself, so the closed object is what OpenAI's strict mode asks for: apply both.

# %%
toollens_cli("fix", "acme.tools.json", "--write", "--unsafe")
toollens_cli("check", "acme.tools.json")

# %% [markdown]
# `check` now says the request goes through: exit 0 is what a CI gate waits for. A Python
# tool is fixed in its source the same way (`toollens fix tools.py --diff`, with
# `pip install "toollens[fix]"`: a docstring entry for a parameter that does not exist, the
# losing one of two descriptions, an annotation taken from a default); in the explorer,
# each finding with a fix has a **Fix** button, and the **Explain** box takes a pasted error.
#
# A finding that needs your words (a vague description) is never "fixed": no placeholder is
# written. The documentation's *Explain* and *Fix* pages list every error shape toollens
# reads and every fix it makes.
