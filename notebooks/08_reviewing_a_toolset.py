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
# # Reviewing an agent's whole toolset
#
# The earlier lessons looked at one tool at a time. A real agent hands the model ten,
# thirty, sometimes hundreds of tools in one request, and some problems only exist at that
# level: two tools the model cannot tell apart, a parameter called `order_id` that is an
# integer in one tool and a string in the next, a name one provider accepts and another
# rejects, more tools than a provider takes in one request.
#
# `toollens.toolset(source)` reads every tool of a source — a module, a list, an OpenAI
# Agents SDK or pydantic-ai agent, LangChain tools, a provider payload, the project's
# `[tool.toollens]` table — gives each one its usual report, and adds the findings that
# only the set has. In this lesson you review a small support agent, fix what the review
# finds, and see how the same review runs in CI.

# %% [markdown]
# ## The agent
#
# A support agent built with the OpenAI Agents SDK: five function tools, one hosted tool
# (web search) and a handoff to a billing agent. The tools were written by different people
# over a few months, which is how toolsets usually grow.

# %%
from typing import Any

from agents import Agent, WebSearchTool, function_tool
from IPython.display import display

import toollens


@function_tool
def search_orders(customer_email: str, status: str = "open") -> list[str]:
    """Find a customer's orders by email address and return their order ids.

    Args:
        customer_email: the customer's email address.
        status: only orders in this state.
    """
    return []


@function_tool
def find_orders(customer_email: str, status: str = "open") -> list[str]:
    """List a customer's orders by email address and return their order ids.

    Args:
        customer_email: the email address of the customer.
        status: only orders in this state.
    """
    return []


@function_tool
def get_order(order_id: int) -> str:
    """Show one order: its items, totals and delivery state.

    Args:
        order_id: the order number.
    """
    return ""


@function_tool(name_override="orders.refund")
def refund_order(order_id: str, amount: float) -> str:
    """Refund part or all of an order to the original payment method.

    Args:
        order_id: the order number.
        amount: how much to refund, in the order's currency.
    """
    return ""


@function_tool(strict_mode=False)
def update_preferences(customer_email: str, preferences: dict[str, Any]) -> str:
    """Save a customer's contact preferences.

    Args:
        customer_email: the customer's email address.
        preferences: any preference names and values.
    """
    return ""


billing = Agent(name="Billing agent", instructions="Answer billing questions.")
support = Agent(
    name="Support",
    instructions="Help customers with their orders.",
    tools=[
        search_orders,
        find_orders,
        get_order,
        refund_order,
        update_preferences,
        WebSearchTool(),
    ],
    handoffs=[billing],
)

# %% [markdown]
# ## The review
#
# Give the agent to `toollens.toolset`. Each tool is read through the SDK's own objects
# (the `params_json_schema` the SDK sends, its strictness), the handoff becomes the tool
# the model sees (`transfer_to_billing_agent`), and the hosted tool is listed but not
# checked: its schema is OpenAI's own. Displayed in a notebook, the toolset is one table:
# a row per tool, the worst finding per provider, the strict status and the lint count,
# with the findings across tools under it.

# %%
ts = toollens.toolset(support, toollens.ReportOptions(provider="openai-responses"))
display(ts)

# %% [markdown]
# The findings across tools, one per line, with the tools each one is about:

# %%
for item in ts.cross_findings:
    print(f"{item.finding.severity.value:7} {item.finding.rule}")
    print(f"        {item.finding.message}")
    print(f"        tools: {', '.join(item.tools)}")

# %% [markdown]
# Three problems the single-tool views could not show:
#
# - **`orders.refund`** has a dot in its name. OpenAI and Anthropic accept only letters,
#   digits, `_` and `-`, so the request is rejected; Gemini would take it. The same name is
#   also flagged by the OpenAI provider check of that one tool.
# - **`search_orders` and `find_orders`** have descriptions that say the same thing in
#   slightly different words. The model picks a tool by its description; with two that
#   read alike it picks at random, and the calls you see in logs split between them.
# - **`order_id`** is an integer in `get_order` and a string in the refund tool. A model
#   that just read an order id from one tool's answer will often send it to the other in
#   the wrong type.
#
# Each tool still has its own report, with every view the explorer shows. The SDK sends
# `update_preferences` without strict mode (`strict_mode=False`), which is the only reason
# its open `preferences` object is accepted; ask for the strict view of the same schema and
# toollens says why strict mode would refuse it:

# %%
entry = ts["update_preferences"]
print("sent strict:", entry.report.options.strict)
print(toollens.report(entry.parameters_schema, strict=True).view_errors["strict"])

# %% [markdown]
# The entries also say where each tool came from:

# %%
for entry in ts:
    role = f" ({entry.origin.role})" if entry.origin.role else ""
    print(f"{entry.name:28} {entry.origin.kind:8} {entry.origin}{role}")

# %% [markdown]
# ## Fixing it
#
# Merge the two search tools into one, give `order_id` one type everywhere, and rename the
# refund tool. Then review again: the findings across tools are gone.


# %%
@function_tool(name_override="refund_order")
def refund_order_fixed(order_id: int, amount: float) -> str:
    """Refund part or all of an order to the original payment method.

    Args:
        order_id: the order number.
        amount: how much to refund, in the order's currency.
    """
    return ""


fixed = support.clone(
    tools=[search_orders, get_order, refund_order_fixed, update_preferences, WebSearchTool()]
)
reviewed = toollens.toolset(fixed, toollens.ReportOptions(provider="openai-responses"))
print(len(reviewed), "tools;", len(reviewed.findings), "findings across tools")
display(reviewed)

# %% [markdown]
# ## Other sources
#
# The same call reads a provider payload, for tools that only exist as JSON (an MCP server's
# `tools/list`, a request captured from production). Each malformed entry becomes one row
# with its error instead of stopping the review:

# %%
payload = {
    "tools": [
        {"type": "function", "name": "get_weather", "parameters": {"type": "object"}},
        {"type": "web_search"},
        {"description": "a tool someone forgot to name", "parameters": {}},
    ]
}
for entry in toollens.toolset(payload):
    print(entry.name, "->", entry.error or "read")

# %% [markdown]
# A module works too (`toollens.toolset("myapp.tools")`: every public function defined in
# it, or the names in its `__all__`), and so do pydantic-ai agents, LangChain tool lists and
# `toollens.toolset("project")` for the tools under `[tool.toollens]`.
#
# In a live notebook, `%toolschema --toolset support` (after `%load_ext toollens`) opens
# the interactive Toolset view: the same table, sortable by any column and filterable by
# text and severity; clicking a row opens that tool's explorer under it.
#
# ## In CI
#
# The command line runs the same review, with exit codes a CI job can gate on:
#
# ```bash
# toollens check myapp.tools                        # a module: a table, then the findings
# toollens check --agent myapp.agents:support       # an agent (or a list of tools)
# toollens check --agent myapp.agents:support --format github   # PR annotations
# toollens report myapp.agents:support --html toolset.html      # one offline page
# toollens snapshot --toolset myapp.agents:support  # lock what the model receives
# toollens diff --lock --toolset myapp.agents:support           # fail on a breaking change
# ```
#
# `check` exits 0 with no error, 1 on an error finding (the dotted name above would be
# one), and 3 only when nothing could be read at all. Every source, rule and option is in
# [docs/toolsets.md](../docs/toolsets.md).
