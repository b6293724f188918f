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
# # One function, seven frameworks
#
# You write one Python function and serve it as a tool through several frameworks: an
# agent built with the OpenAI Agents SDK, the same tool behind an MCP server, a LangChain
# chain for another team. Each framework turns the function into a JSON Schema its own
# way, and the model behind each one reads something different.
#
# `toollens.compare(func)` hands the function to each installed framework's own public API
# (nothing is re-implemented, nothing is sent over the network) and lays the results side
# by side: the schema each one sends, its diff against toollens' reference view (the
# OpenAI Agents SDK's strict rules), and a per-parameter matrix of where they disagree.
#
# The frameworks come with `pip install "toollens[frameworks]"`; a framework that is not
# installed is reported as such.

# %%
import enum
from typing import Annotated

from pydantic import BaseModel, Field

import toollens


class Priority(str, enum.Enum):
    LOW = "low"
    HIGH = "high"


class Reporter(BaseModel):
    email: str
    name: str | None = None


def create_ticket(
    title: Annotated[str, Field(description="One line, shown in lists", max_length=80)],
    reporter: Reporter,
    priority: Priority = Priority.LOW,
    tags: list[str] = [],  # noqa: B006 - a default the frameworks treat differently
    due: str | None = None,
) -> str:
    """Open a support ticket.

    Args:
        title: The ticket's title.
        reporter: Who reported the problem.
        priority: How urgent it is.
        tags: Labels to file it under.
        due: The due date (YYYY-MM-DD), if there is one.
    """
    return "T-1"


comparison = toollens.compare(create_ticket)
comparison  # noqa: B018 - the notebook displays it

# %% [markdown]
# The first table says which framework (and which version) accepted the function and how
# far its schema is from toollens' reference view. The matrix below it has one row per
# parameter and one column per framework; a highlighted cell is an attribute on which the
# frameworks disagree. The rest of this notebook takes the disagreements one at a time.

# %%
for entry in comparison.entries:
    result = entry.result
    verdict = "materially different" if entry.materially_different else "same as the reference"
    print(f"{result.framework:15} {result.version or '-':8} {result.status.value:13} {verdict}")

# %% [markdown]
# ## 1. Which description wins
#
# `title` has two descriptions: the docstring says "The ticket's title.", the `Field` says
# "One line, shown in lists". toollens' Metadata view lists both candidates and which one
# the reference rules pick:

# %%
fs = toollens.function_schema(create_ticket)
for candidate in fs.parameter("title").candidates_for("description"):
    print(f"{candidate.source.value:16} won={candidate.won!s:5} {candidate.value!r}")

# %% [markdown]
# The matrix row for `title` shows which source each framework sends (`docstring`,
# `annotated-field`, or `none` when it sends no description at all):

# %%
row = comparison.matrix.row("title")
for key, cell in row.cells:
    print(f"{key:15} {cell.description:16} {cell.description_text!r}")

# %% [markdown]
# The docstring wins for the OpenAI Agents SDK and LangChain; the `Field` wins for
# pydantic-ai, the MCP SDK, FastMCP, Anthropic and Google GenAI. A model served through
# MCP reads a different sentence than the same model served through the Agents SDK.

# %% [markdown]
# ## 2. Is a parameter with a default required?
#
# Strict mode (the Agents SDK, toollens' reference) lists every property as required, so
# `priority`, `tags` and `due` become required and the model must always send them. The
# other frameworks leave them optional:

# %%
for name in ("priority", "tags", "due"):
    cells = comparison.matrix.row(name).cells
    marks = [f"{k}={'req' if c.required else 'opt'}" for k, c in cells if c.present]
    print(f"{name:9}", ", ".join(marks))

# %% [markdown]
# The Strict schema view says why: each of these is a strict-conversion change with its
# JSON pointer and reason.

# %%
for change in fs.strict_changes:
    print(change.pointer or "/", change.rule.value, "-", change.reason)

# %% [markdown]
# ## 3. Is the default sent, and how is `Optional` typed?
#
# Strict mode drops `default: null` (a model cannot omit a required property anyway); the
# other frameworks send the default to the model.

# %%
row = comparison.matrix.row("due")
for key, cell in row.cells:
    sent = f"default {cell.default!r}" if cell.default_sent else "no default"
    print(f"{key:15} {cell.type:16} {sent}")
print("disagree on:", row.disagreements)

# %% [markdown]
# ## 4. Is the object closed?
#
# The `(tool)` row and the `reporter` row say whether extra properties are refused
# (`additionalProperties: false`). Strict frameworks close every object; others leave the
# root open, some close the root but not the nested model.

# %%
for name in ("(tool)", "reporter"):
    cells = comparison.matrix.row(name).cells
    print(f"{name:9}", ", ".join(f"{k}={'closed' if c.closed else 'open'}" for k, c in cells))

# %% [markdown]
# ## 5. The diff between any two frameworks
#
# The same diff engine as `toollens diff` compares any two columns. From the MCP SDK to
# FastMCP, for example (a *breaking* change is one that rejects a call the other accepted;
# where FastMCP is not installed, the next framework that accepted stands in):

# %%
first, second = [k for k in ("mcp", "fastmcp", "anthropic") if k in comparison.accepted][:2]
print(f"{first} -> {second}:", comparison.pair_diff(first, second))

# %% [markdown]
# And from the reference view to the MCP SDK, with the changes strict mode does not explain
# (what `materially_different` counts):

# %%
entry = comparison.entry("mcp")
print(entry.diff.headline)
for change in entry.material:
    print(f"  {change.where:26} {change.keyword:18} {change.message}")

# %% [markdown]
# ## 6. Whether the framework accepts the function at all
#
# Some frameworks refuse shapes the others accept. LangChain's `@tool(parse_docstring=True)`
# reads only Google-style docstrings; FastMCP refuses `*args`. A refusal is a finding that
# carries the framework's own message:


# %%
def greet(*names: str) -> str:
    """Greet everyone.

    Parameters
    ----------
    names : str
        Who to greet.
    """
    return ", ".join(names)


for finding in toollens.compare(greet).findings:
    print(finding.severity.value, "-", finding.message)

# %% [markdown]
# ## In CI
#
# `toollens compare tools:create_ticket --framework mcp --framework openai-agents` prints
# the same comparison and exits 0 when the frameworks agree, 1 when only compatible or
# description-only differences remain, 2 on a breaking difference between any two (or a
# refusal), and 3 when it could not run, so a team serving one tool through several
# frameworks can gate on "they still agree".
#
# Which frameworks are compared depends on what is installed: `pip install
# "toollens[frameworks]"` brings all seven (on Python 3.10, the three whose current
# releases still support it). Back to the [notebooks index](README.md).
