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
# # What the model's call does to your function
#
# The schema is half of a tool's contract. The other half happens when the model answers:
#
# 1. it sends the arguments as **JSON text**;
# 2. the OpenAI Agents SDK **parses and validates** them with the tool's pydantic model;
# 3. it turns them into a **Python call**, `get_weather(city='Oslo', days=3)`;
# 4. your function **runs**, and returns or raises;
# 5. the value (or the error) becomes the **text the model reads next**.
#
# `toollens.try_call` walks one call through those steps exactly as the SDK does, and
# `toollens.fuzz` walks hundreds of generated calls through them, looking for the ones your
# function cannot take. This lesson uses both on small tools with the bugs real tools have.

# %%
from typing import Annotated, Literal

from pydantic import AfterValidator, Field

import toollens


def get_weather(
    city: str,
    days: Annotated[int, Field(ge=1, le=7)] = 3,
    unit: Literal["c", "f"] = "c",
) -> dict[str, object]:
    """Forecast for a city.

    Args:
        city: the city name.
        days: how many days, 1 to 7.
        unit: degrees Celsius or Fahrenheit.
    """
    return {"city": city, "days": days, "unit": unit, "high": 21}


toollens.try_call(get_weather, '{"city": "Oslo", "days": 2}')

# %% [markdown]
# A `CallResult` displays as the steps of the call (its plain text is what `toollens try`
# prints). Read it top to bottom: the arguments were **accepted**, the **call** is the Python your
# function received (the default `unit='c'` filled in by validation), it **returned** a
# dict, and the **model reads** `str()` of that dict: a Python repr with single quotes, not
# JSON. That is the SDK's default for any value that is not a string. The **as JSON** row
# is the same value through the output schema of `-> dict[str, object]`, which is what a
# tool with a declared output schema sends. If you want the model to read JSON on the
# default path, return `json.dumps(...)` yourself.
#
# ## When the model gets the arguments wrong
#
# A model sends `days: 9`, outside `le=7`:

# %%
result = toollens.try_call(get_weather, '{"city": "Oslo", "days": 9}')
print("pointer:", result.pointer)
result

# %% [markdown]
# toollens names the problem with a JSON pointer (`/days`) and shows the SDK's own error
# text. But look at the last row: **the model never sees that error**. The SDK's default
# `failure_error_function` replaces every failure, bad arguments and exceptions alike, with
# one fixed sentence, so the model cannot tell what to fix. If you want a model to correct
# its own arguments, give the tool a `failure_error_function` that returns the reason.
#
# Text that is not JSON at all is rejected the same way; toollens says where it broke:

# %%
toollens.try_call(get_weather, '{"city": "Oslo", "days": 2')

# %% [markdown]
# ## Validation is more lenient than the schema
#
# The schema says `days` is an integer. pydantic, which validates, runs in lax mode: the
# string `"4"` is an integer to it. A model that sends `"4"` is accepted, although the
# schema it was given forbids it:

# %%
toollens.try_call(get_weather, '{"city": "Oslo", "days": "4"}')

# %% [markdown]
# ## When the function raises
#
# A bill-splitting tool, whose schema admits `people: 0`:

# %%
def split_bill(total: float, people: int) -> str:
    """Split a bill evenly.

    Args:
        total: the amount to split.
        people: how many people pay.
    """
    return f"{total / people:.2f} each"


toollens.try_call(split_bill, {"total": 90, "people": 0})

# %% [markdown]
# The exception stays on your side; the model reads the same fixed sentence as for bad
# arguments. Nothing in the schema told the model that 0 was wrong, so it may well try
# again with 0.
#
# ## Finding such calls before a model does: `fuzz`
#
# `fuzz` generates arguments from the schema the model sees (Hypothesis, seeded, so the
# same seed gives the same run): edge cases first (every enum member, each bound, 0, -1,
# `null` where allowed, empty and long strings), then `n` drawn objects. It calls the
# function with each and keeps one finding per distinct failure, shrunk to the smallest
# arguments that show it.

# %%
report = toollens.fuzz(split_bill, n=100, seed=0)
report

# %% [markdown]
# The fix belongs in the schema, where the model can see it: `people` must be at least 1.

# %%
def split_bill(total: float, people: Annotated[int, Field(ge=1)]) -> str:
    """Split a bill evenly.

    Args:
        total: the amount to split.
        people: how many people pay, at least one.
    """
    return f"{total / people:.2f} each"


print("findings:", len(toollens.fuzz(split_bill, n=100, seed=0).findings))

# %% [markdown]
# ## When the schema and your validation disagree
#
# A custom validator is invisible to the model: the schema says "integer", the validator
# wants an even one. `fuzz` reports that as a **disagreement**: arguments the schema admits
# that the function's own validation rejects.

# %%
def _even(value: int) -> int:
    if value % 2:
        raise ValueError("seats come in pairs")
    return value


def book_seats(count: Annotated[int, AfterValidator(_even)]) -> str:
    """Book seats, in pairs."""
    return f"{count} seats booked"


for finding in toollens.fuzz(book_seats, n=50).findings:
    print(finding.kind.value, "|", finding.message)

# %% [markdown]
# Say it in the schema (`Field(multiple_of=2)`), or at least in the description, so the
# model has a chance.
#
# ## A constraint lost on the way to a provider
#
# Providers do not all read the same schema. Gemini's classic `parameters` field takes an
# OpenAPI subset that has no `exclusiveMinimum`: `gt=0` is dropped in translation, and the
# model may send 0. Fuzz with the schema that provider sees:

# %%
def share(amount: Annotated[float, Field(gt=0)], parts: Annotated[int, Field(gt=0)]) -> float:
    """Share an amount."""
    return amount / parts


for provider in (None, "gemini-openapi"):
    found = toollens.fuzz(share, n=50, provider=provider).findings
    print(provider or "toollens schema (OpenAI, Anthropic)", "->", [f.message for f in found])

# %% [markdown]
# `ge=1` survives the translation; `gt=0` does not.
#
# ## Arguments the schema forbids
#
# With `invalid=True`, `fuzz` also breaks one property at a time (a wrong type, a value past
# a bound, a missing required key, an unexpected key) and reports what the function accepts
# anyway. `dry_run=True` validates and builds each call without making it, for tools with
# side effects:

# %%
for finding in toollens.fuzz(get_weather, n=50, invalid=True, dry_run=True).findings:
    print(finding.kind.value, "|", finding.message)

# %% [markdown]
# Strict mode marks every parameter required, but the function keeps its defaults, so a
# call without `days` still works; and lax validation takes `"1"` for an integer. Neither
# is a bug, but both are worth knowing when you read what a model sent.
#
# ## In the explorer: Try it
#
# The explorer has all of this under its views. Unfold **Try it**: a JSON editor opens with
# an example of the schema the model sees, and every problem is marked at its pointer as you
# type, in red when the SDK rejects it and in amber when the schema the model sees does not
# admit it. Beside the editor you see the Python call. **Call** runs the function, and only
# then. **Another example** and **Edge case** give you new arguments. Edit the function
# above the views, for example add a required parameter, and the arguments are re-checked
# (never replaced). Here the explorer opens on a call a model got wrong:

# %%
toollens.Explorer(get_weather, arguments='{"city": "Oslo", "days": 9}')

# %% [markdown]
# ## On the command line
#
# ```bash
# toollens try tools:get_weather '{"city": "Oslo", "days": 9}'   # 0 returned, 1 rejected, 2 raised
# toollens fuzz tools:split_bill -n 500 --seed 1                 # 0 nothing found, 1 findings
# toollens fuzz tools:share --provider gemini-openapi --invalid --dry-run --format json
# ```
#
# Everything here, step by step and with its limits: `docs/round-trip.md`. Back to the
# [notebooks index](README.md).
