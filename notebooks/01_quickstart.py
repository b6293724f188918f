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
# # Quickstart: see what the model receives
#
# When you give a Python function to an agent framework as a *tool*, the model never
# sees your code. It sees a name, a description and a JSON Schema for the arguments,
# built from your signature, your type hints and your docstring. toollens shows you
# that schema, where every part of it came from, and what *strict mode* rewrote,
# while you edit the function.
#
# In this notebook you will load the extension, define a small tool, open the
# explorer on it, and edit the docstring to watch the views change.

# %%
# %load_ext toollens
import json

import toollens

# %% [markdown]
# ## A tool to look at
#
# This is a copy of `toollens.examples.get_weather`, defined here so that the explorer
# can edit it. Its three parameters are described in three different ways:
#
# - `city` has an `Annotated` string (`"City name"`) **and** a line in the docstring;
# - `unit` is described only by the docstring;
# - `days` is described only by `Field(description=...)`, which also sets its limits.

# %%
import hashlib
from typing import Annotated, Literal

from pydantic import Field


def get_weather(
    city: Annotated[str, "City name"],
    unit: Literal["celsius", "fahrenheit"] = "celsius",
    days: Annotated[int, Field(ge=1, le=7, description="How many days to forecast")] = 1,
) -> str:
    """Get the weather forecast for a city.

    Args:
        city: The city to forecast, e.g. "Paris" or "San Francisco, CA".
        unit: The temperature unit of the answer.
    """
    digest = hashlib.sha256(city.strip().lower().encode()).digest()
    highs = [8 + digest[day] % 22 for day in range(days)]
    if unit == "fahrenheit":
        highs = [round(c * 9 / 5 + 32) for c in highs]
    return f"{city}: highs of " + ", ".join(map(str, highs))


# %% [markdown]
# ## Open the explorer
#
# `%toolschema NAME` opens the explorer on a function of this notebook. (On GitHub
# you see a static copy of the views; run the notebook in JupyterLab or Voila to get
# the live editor.)

# %%
# %toolschema get_weather

# %% [markdown]
# From top to bottom the explorer shows a toolbar, an editor holding the function's
# source, and four views:
#
# | view | what to read there |
# | --- | --- |
# | **Signature** | each parameter's kind, type and default, as Python sees them |
# | **Metadata** | every candidate description, default and constraint, the source it came from, and which one won and why (here: the docstring beats `"City name"`) |
# | **Strict schema** | the JSON Schema the provider receives, with every rewrite strict conversion made (`unit` and `days` became required) |
# | **Output schema** | what the return type becomes: `str` is plain text, so no schema is sent |
#
# Under the views come the findings: pitfalls in the tool, and what the chosen
# provider would reject or ignore. Here they warn that the docstring and the
# `Annotated` string disagree about `city`, and that the defaults of `unit` and `days`
# never apply in strict mode. After an edit, a box under the editor lists what the edit
# changed in the schema.
#
# The views update a moment after you stop typing. Nothing you type changes this
# notebook's `get_weather` until you press **Apply**.
#
# ### Things to try in the editor
#
# 1. Change the `city:` line of the docstring to `city: Name of the city, in English.`
#    The Metadata view shows the new winner, the Strict schema its new
#    `description`, and the changes list says it is a description-only change.
# 2. Delete the `city:` line. Now the `Annotated` string `"City name"` wins: a
#    docstring line beats an `Annotated` string ([notebook 02](02_metadata_precedence.ipynb)).
# 3. Change `le=7` to `le=14` and find the new `maximum` in the Strict schema.
# 4. Add a parameter `country: str | None = None`. It becomes *required* and typed
#    string-or-null, and its `None` default disappears
#    ([notebook 03](03_strict_mode.ipynb) explains why).
# 5. Delete the `:` at the end of the `def` line. A red banner names the line and
#    column, the views fade (they are the last good ones, marked stale) and your text
#    stays as you typed it. Put the colon back and the banner goes away.
# 6. Untick **strict** and pick the provider `gemini`: the findings list what that
#    provider would reject.
# 7. Press **Apply**: `get_weather` in this notebook now refers to your edited version.

# %% [markdown]
# ## The same views, without a widget
#
# Every view comes from one engine, usable in scripts and tests. `function_schema`
# gives the schema the model receives and the list of rewrites strict mode made;
# `toollens.report(get_weather)` displays all the views as static HTML: the same panels
# as the explorer, without the editor. This copy also reads where no kernel runs (an
# HTML export, a viewer without widget support).

# %%
toollens.report(get_weather)

# %% [markdown]
# The schema and the rewrites are plain data too:

# %%
fs = toollens.function_schema(get_weather)
print(json.dumps(fs.json_schema, indent=2))

# %%
for change in fs.strict_changes:
    print(f"{change.pointer or '/':<3} {change.rule.value:<24} {change.reason}")

# %% [markdown]
# ## Where next
#
# - [02 Metadata precedence](02_metadata_precedence.ipynb): which description wins, and
#   the run-context parameter.
# - [03 Strict mode](03_strict_mode.ipynb): what strict mode guarantees, what it costs,
#   and every rewrite it makes.
# - [04 Output schemas](04_output_schemas.ipynb): plain text, objects, wrapped values,
#   and validating a model's answer.
# - [05 Schema diffing](05_schema_diffing.ipynb): compare two versions of a tool and
#   gate changes in CI.
