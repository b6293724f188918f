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
# # What a tool costs: tokens, exactly
#
# Every request carries every tool definition again. Ten tools with generous docstrings
# can take thousands of tokens before the user has said a word, and they count against
# the context window and the bill on every turn. `toollens.tokens()` says how many, for a
# given model, and where they go.
#
# OpenAI's models do not read the JSON you send: the definitions become a short
# TypeScript-like block in a system message, and that text is what is tokenized. toollens
# renders the block and counts it with the model's own tokenizer, offline. The count
# matches every API-measured figure we found published for it (13 requests; the list is
# on the documentation's *What tools cost* page, `docs/tokens.md`).

# %%
from typing import Literal

import toollens


def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
    """Get the current weather in a city.

    Args:
        city: The city and country, e.g. "Paris, France". Give the region too when two
            cities share a name.
        unit: The temperature unit to answer in.
    """
    return ""


def search_flights(origin: str, destination: str, day: str, passengers: int = 1) -> list[str]:
    """Search direct and connecting flights between two airports on one day.

    Args:
        origin: IATA code of the departure airport, e.g. "CDG".
        destination: IATA code of the arrival airport, e.g. "JFK".
        day: The departure date, as YYYY-MM-DD.
        passengers: How many seats are needed.
    """
    return []


count = toollens.tokens([get_weather, search_flights], model="gpt-4o")
count

# %% [markdown]
# The total is what the two definitions add to a request; `overhead` is the block's frame
# (its header, the `namespace` lines, the system message it travels in). Each tool's bar
# splits into parts: the name and description, then each parameter's description, name,
# type, enum members and default. Here the descriptions are most of the cost, which is
# usually the case, and usually worth it.
#
# ## What the model reads
#
# This is the text behind the count: what gpt-4o reads for these two tools.

# %%
from toollens.tokens import tool_defs
from toollens.tokens.openai_render import render, text_of

print(text_of(render(tool_defs([get_weather, search_flights]))))

# %% [markdown]
# Counting the JSON instead, as many tools do, gets a very different number:

# %%
import json

from toollens.tokens import encodings

payloads = [toollens.provider_tool(toollens.function_schema(f), "openai-chat")
            for f in (get_weather, search_flights)]
print("tokens of the JSON payload:", encodings.count("o200k_base", json.dumps(payloads)))
print("tokens the model reads:    ", count.total)

# %% [markdown]
# ## Per model
#
# The encoding follows the model family: `cl100k_base` for gpt-3.5 and gpt-4,
# `o200k_base` for gpt-4o and later. For gpt-oss the count comes from OpenAI's own
# `openai-harmony` renderer. Anthropic and Gemini publish no offline tokenizer: their
# figures are labelled estimates, plus Anthropic's documented tool-use system prompt
# (346 tokens for current Claude models with `tool_choice` auto). `online=True` asks the
# provider's count-tokens endpoint instead, with your API key.

# %%
for model in ("gpt-4", "gpt-4o", "gpt-oss-20b", "claude-sonnet-4-5", "gemini-2.5-flash"):
    c = toollens.tokens([get_weather, search_flights], model=model)
    print(f"{model:<18} {c.total:>5}  {c.method:<8} overhead {c.overhead:>4}  ({c.tokenizer})")

# %% [markdown]
# ## Watching a description cost tokens
#
# A shorter docstring is cheaper, but the model reads less. Here is the same weather tool
# with the minimum, part by part:

# %%
def get_weather_short(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> str:
    """Current weather.

    Args:
        city: City name.
        unit: Unit.
    """
    return ""


for f in (get_weather, get_weather_short):
    tool = toollens.tokens(f).tools[0]
    parts = ", ".join(f"{p.label} {p.tokens}" for p in tool.parts if p.tokens)
    print(f"{f.__name__}: {tool.tokens} tokens ({parts})\n")

# %% [markdown]
# In the explorer, `add_tokens_view` adds a Tokens view that recounts on every edit: type
# in a docstring and watch its bar grow.
#
# ```python
# from toollens.jupyter.tokens_view import add_tokens_view
# add_tokens_view(toollens.Explorer(get_weather))
# ```
#
# ## A budget in CI
#
# `toollens check` turns a budget into findings with exit code 1: `--max-tokens N` per
# tool, `--max-total-tokens N` for all the tools together. The lock file records each
# tool's tokens, and `toollens diff --lock` reports `+37 tokens` when a change makes one
# grow. Here we call the command line through `python -m toollens` on a module `travel`
# holding the two tools (a module name is a toolset: every tool in it):

# %%
import inspect
import os
import subprocess
import sys
import tempfile

workdir = tempfile.mkdtemp(prefix="toollens-tokens-")
with open(os.path.join(workdir, "travel.py"), "w", encoding="utf-8") as handle:
    handle.write("from typing import Literal\n\n")
    handle.write(inspect.getsource(get_weather) + "\n\n" + inspect.getsource(search_flights))


def toollens_cli(*args, lines=-1):
    run = subprocess.run(
        [sys.executable, "-m", "toollens", *args], capture_output=True, text=True, cwd=workdir
    )
    print("$ toollens", " ".join(args))
    out = run.stdout.rstrip().splitlines()
    print("\n".join(out[:lines] if lines > 0 else out[lines:]))
    print((run.stderr or "").strip() or f"exit code {run.returncode}")


toollens_cli("tokens", "travel", lines=3)
toollens_cli("check", "travel:search_flights", "--max-tokens", "60")
toollens_cli("check", "travel", "--max-total-tokens", "100")

# %% [markdown]
# The first call prints the count (its first lines shown here; `--format json` for a
# script); the two checks fail, each with a `tokens.*` finding naming the tool and its
# count (their last line shown).
#
# The full reference (what exactly is counted, the offline data, Anthropic's and Google's
# figures, the lock, description limits) is the documentation's *What tools cost* page.
