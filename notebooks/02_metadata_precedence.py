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
# # Metadata precedence: which description does the model see?
#
# A parameter can be described in four places at once, and its default and limits can
# come from two. The model sees exactly one description per parameter. This notebook
# shows the order toollens uses to pick it, and how to see every candidate and why it
# won or lost.
#
# | what | precedence, strongest first |
# | --- | --- |
# | tool name, tool description | explicit `name=` / `description=` > the function's name / the docstring's summary |
# | parameter description | docstring line > `Annotated[T, "text"]` > `= Field(description=...)` default > `Annotated[T, Field(description=...)]` |
# | constraints (`ge`, `max_length`, ...) | merged key by key: a constraint only one `Field` sets is kept; when two `Field`s set the same constraint, one value replaces the other (pydantic's merge) |
# | default | the `= value` (plain or `= Field(default)`) > an `Annotated` `Field` default |
#
# This is the order of the OpenAI Agents SDK, with one deliberate difference: when a
# parameter has a docstring line *and* both kinds of `Field` description, the Agents SDK
# lets the `= Field(description=...)` default beat the docstring; toollens keeps the
# docstring first in every case (the README lists this under "Where toollens differs").

# %%
import json
from typing import Annotated

from pydantic import Field

import toollens


def candidates(fs, name):
    """Print every candidate value for one parameter: source, value, won?, why."""
    for c in fs.parameter(name).candidates:
        mark = "won " if c.won else "lost"
        print(f"{c.attribute:<12} {c.source.label:<22} {mark} {c.value!r}")
        print(f"{'':<12} {c.reason}")


# %% [markdown]
# ## One function, every source
#
# `search_books` describes its parameters in every way at once:
#
# - `query` has a docstring line *and* an `Annotated` string;
# - `author` has only an `Annotated` string;
# - `limit` has a description in an `Annotated` `Field` *and* in a `= Field(...)`
#   default, and each of them sets one limit.

# %%
def search_books(
    query: Annotated[str, "Search text"],
    author: Annotated[str, "Author's family name, e.g. 'Le Guin'"],
    limit: Annotated[int, Field(ge=1, description="Page size")] = Field(
        10, le=50, description="How many books to return"
    ),
) -> list[str]:
    """Search the library catalogue.

    Args:
        query: Words from the title or the blurb.
    """
    return []


fs = toollens.function_schema(search_books)
candidates(fs, "query")

# %% [markdown]
# The docstring line won over the `Annotated` string. The docstring is where most
# authors write prose for people, so it is the one the model reads too. `author` has
# no docstring line, so its `Annotated` string is the only candidate:

# %%
candidates(fs, "author")

# %% [markdown]
# For `limit`, the `= Field(...)` default beats the `Annotated` `Field` for the
# description. The constraints are merged key by key, the way pydantic merges `Field`s:
# `ge=1` comes from one and `le=50` from the other, and both reach the schema as
# `minimum` and `maximum`. Had both `Field`s set `le`, only one value would survive the
# merge (which one depends on pydantic's merge order), so set each constraint in one
# place.

# %%
candidates(fs, "limit")
print(json.dumps(fs.json_schema["properties"]["limit"], indent=2))

# %% [markdown]
# ## Explicit overrides
#
# `name=` and `description=` override what is inferred from the function. The tool's
# own candidates are in `fs.provenance`. Turning the docstring off with
# `use_docstring_info=False` lets the next source win:

# %%
fs = toollens.function_schema(
    search_books, name="find_books", description="Find books in the catalogue."
)
for c in fs.provenance:
    print(f"{c.attribute:<12} {c.source.label:<18} {'won ' if c.won else 'lost'} {c.value!r}")

no_doc = toollens.function_schema(search_books, use_docstring_info=False)
print()
print("query without the docstring:", no_doc.parameter("query").description)

# %% [markdown]
# ## The Metadata view
#
# The explorer and `toollens.report(...)` show the same candidates as a table: one row
# per parameter, one column per source, the winner marked, with the reason under it.

# %%
toollens.report(search_books)

# %% [markdown]
# ## The run context: first position only
#
# Agent runtimes pass some values to a tool themselves: the current user, a database
# handle, the conversation. The model must not choose them, so they must not be in the
# schema. The convention is that the **first** parameter, when its type is a run
# context (the OpenAI Agents SDK's `RunContextWrapper`, pydantic-ai's `RunContext`),
# is injected by the runtime and left out of the schema.
#
# `toollens.examples.lookup_order` takes a `ToolContext`, toollens's stand-in for those
# types; `context_types=` tells toollens to treat it as one.

# %%
from toollens.examples import EXAMPLE_CONTEXT_TYPES, ShopState, ToolContext, lookup_order

fs = toollens.function_schema(lookup_order, context_types=EXAMPLE_CONTEXT_TYPES)
print("context parameter:", fs.context_parameter)
print("the model sees:   ", list(fs.json_schema["properties"]))

arguments = fs.validate_arguments('{"order_id": "ORD-004211", "include_items": true}')
ctx = ToolContext(ShopState("cust-7", {"ORD-004211": ["tea", "mug"]}))
args, kwargs = fs.to_call_args(arguments, context=ctx)
print("call:", lookup_order(*args, **kwargs))


# %% [markdown]
# A context parameter anywhere else is a mistake, not a second context: the runtime
# would not fill it, and the model could not either. toollens refuses the function when
# the tool is built, and says what to do:

# %%
def lookup_order_late(order_id: str, ctx: ToolContext[ShopState]) -> str:
    """Look up an order."""
    return order_id


try:
    toollens.function_schema(lookup_order_late, context_types=EXAMPLE_CONTEXT_TYPES)
except toollens.SchemaConstructionError as exc:
    print(f"{type(exc).__name__}: {exc}")
    print("parameter:", exc.parameter)

# %% [markdown]
# ## Summary
#
# - One description reaches the model per parameter: docstring > `Annotated` string >
#   `= Field` default > `Annotated` `Field`; explicit overrides beat everything for the
#   tool's name and description.
# - Constraints are merged key by key: a constraint only one `Field` sets is kept; when
#   two `Field`s set the same one, one value replaces the other, so set each in one place.
# - toollens follows the OpenAI Agents SDK's order, except that a docstring line always
#   beats every `Field` description.
# - `fs.parameter(name).candidates` (and the Metadata view) show every candidate, the
#   winner, and why.
# - Only the first parameter can be the injected run context; a later one is an error
#   when the tool is built.
#
# Next: [03 Strict mode](03_strict_mode.ipynb).
