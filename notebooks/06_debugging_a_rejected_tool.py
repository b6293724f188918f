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
# # Debugging a tool the provider rejects
#
# A tool that works with one provider can be refused by the next one, with an error
# that arrives only when the agent first calls the model ("Invalid schema for function",
# "Unknown name", "not supported"). Each provider accepts a different part of JSON
# Schema, and an innocent type hint can step outside it.
#
# In this notebook a ticket-filing tool is rejected by OpenAI (strict mode), Anthropic
# (strict tool use) and Gemini (classic function declarations), each for its own reason.
# We read the findings toollens reports for each provider, fix the tool one step at a
# time, and finish with `toollens diff`, which proves the fix changed nothing a caller
# relies on: every call the model could make before is still valid.
#
# As in [notebook 05](05_schema_diffing.ipynb), each version of the tool is written to a
# file in a temporary folder, so that the same commands you would run in CI work here.

# %%
import os
import shutil
import subprocess
import sys
import tempfile

from IPython.display import display

import toollens
from toollens.render import render_panels, style_tag

# OpenAI strict mode, Anthropic strict tool use, Gemini's classic function declarations
# (provider "gemini-openapi"; the default "gemini" sends JSON Schema as parametersJsonSchema).
PROVIDERS = ("openai-chat", "anthropic", "gemini-openapi")
PROVIDER_ARGS = [arg for provider in PROVIDERS for arg in ("--provider", provider)]


class FindingsView:
    """The explorer's Findings panel for one provider, as static HTML (text elsewhere)."""

    def __init__(self, target, provider):
        self.report = toollens.report(target, provider=provider)

    def _repr_mimebundle_(self, include=None, exclude=None):
        lines = [f"{self.report.provider}: {len(self.report.findings)} finding(s)"]
        for f in self.report.findings:
            lines.append(f"  {f.severity.value} [{f.rule}] at {f.pointer}: {f.message}")
        panel = render_panels(self.report)["findings"]
        return {
            "text/plain": "\n".join(lines),
            "text/html": f'<div class="tl-root">{style_tag()}{panel}</div>',
        }


def findings(target):
    """Display the Findings panel of `target` for each of the three providers."""
    display(*(FindingsView(target, provider) for provider in PROVIDERS))


def toollens_cli(*args):
    """Run the `toollens` command with this notebook's Python; print its output and exit code."""
    run = subprocess.run([sys.executable, "-m", "toollens", *args], capture_output=True, text=True)
    print("$ toollens", " ".join(args))
    print((run.stdout + run.stderr).rstrip())
    print("exit code:", run.returncode)


workdir = tempfile.mkdtemp(prefix="toollens-debug-")
notebook_dir = os.getcwd()
os.chdir(workdir)
sys.path.insert(0, workdir)

# %% [markdown]
# ## The tool
#
# `create_ticket` files a ticket in a team's tracker. Nothing about it looks unusual:
# the labels are a `set`, because a label given twice means nothing more; the priority
# is one of three numbers, so it is a `Literal`; and the estimate is a positive number
# of hours, so it says `gt=0`.

# %%
# %%writefile tickets_v1.py
from typing import Annotated, Literal

from pydantic import Field


def create_ticket(
    title: str,
    body: str,
    labels: set[str],
    priority: Literal[1, 2, 3],
    estimate_hours: Annotated[int, Field(gt=0)] | None = None,
) -> str:
    """Open a ticket in the team's tracker and return its id.

    Args:
        title: One line that says what is wrong.
        body: What happened, what you expected, and how to reproduce it.
        labels: Labels to file the ticket under, e.g. "bug" or "billing".
        priority: 1 (urgent), 2 (normal) or 3 (low).
        estimate_hours: A first estimate of the work, in whole hours.
    """
    return "T-1042"

# %% [markdown]
# ## Step 1: ask before the provider does
#
# `toollens check` lints the tool and checks it against each provider you name, without
# calling any of them. It exits 1 when a finding is an error, so it can gate a pull
# request:

# %%
toollens_cli("check", "tickets_v1.py:create_ticket", *PROVIDER_ARGS)

# %% [markdown]
# The explorer shows the same findings under its views, for the provider picked in its
# toolbar (`%toolschema create_ticket --provider anthropic`). Here is its Findings panel
# for each of the three, with the fix it suggests, a link to the provider's rule, and
# the payload that provider would receive:

# %%
import tickets_v1

findings(tickets_v1.create_ticket)

# %% [markdown]
# Three providers, three different complaints:
#
# - **OpenAI, strict mode**: `set[str]` becomes `"uniqueItems": true`, and `uniqueItems`
#   is not among the keywords a strict schema may use. The API refuses the request
#   ("Invalid schema for function") before the model runs.
# - **Anthropic, strict tool use**: strict tools support no numeric constraints, and
#   `gt=0` becomes `exclusiveMinimum`. (`uniqueItems` is out too.)
# - **Gemini, classic function declarations** (`gemini-openapi`: `parameters`, an
#   OpenAPI-style `Schema`; the default `gemini` payload sends `parametersJsonSchema`):
#   an `enum` there is a list of strings, and `Literal[1, 2, 3]` is an enum of integers.
#   Keywords `Schema` has no field for (`uniqueItems`, `exclusiveMinimum`) are dropped
#   from the payload instead, each drop recorded; only what cannot be dropped is a finding.
#
# Every finding has a JSON pointer, so each one leads to one parameter. We fix one
# provider at a time.
#
# ## Step 2: OpenAI, a set the schema cannot say
#
# The schema cannot promise unique labels, but the function can make them unique
# itself. Take a `list[str]`, say in the description that a repeated label counts once,
# and drop the duplicates in the body:

# %%
# %%writefile tickets_v2.py
from typing import Annotated, Literal

from pydantic import Field


def create_ticket(
    title: str,
    body: str,
    labels: list[str],
    priority: Literal[1, 2, 3],
    estimate_hours: Annotated[int, Field(gt=0)] | None = None,
) -> str:
    """Open a ticket in the team's tracker and return its id.

    Args:
        title: One line that says what is wrong.
        body: What happened, what you expected, and how to reproduce it.
        labels: Labels to file the ticket under, e.g. "bug" or "billing"; a label given
            twice counts once.
        priority: 1 (urgent), 2 (normal) or 3 (low).
        estimate_hours: A first estimate of the work, in whole hours.
    """
    labels = sorted(set(labels))
    return "T-1042"

# %%
import tickets_v2

findings(tickets_v2.create_ticket)

# %% [markdown]
# OpenAI accepts the tool now.
#
# ## Step 3: Anthropic, a range strict tools cannot say
#
# Same move: the range goes into the description, where the model reads it, and into
# the function, which checks it. A call with `0` now reaches the function and gets an
# error back instead of being prevented by the grammar; for an estimate, that is a fair
# price for a tool every provider accepts.

# %%
# %%writefile tickets_v3.py
from typing import Literal


def create_ticket(
    title: str,
    body: str,
    labels: list[str],
    priority: Literal[1, 2, 3],
    estimate_hours: int | None = None,
) -> str:
    """Open a ticket in the team's tracker and return its id.

    Args:
        title: One line that says what is wrong.
        body: What happened, what you expected, and how to reproduce it.
        labels: Labels to file the ticket under, e.g. "bug" or "billing"; a label given
            twice counts once.
        priority: 1 (urgent), 2 (normal) or 3 (low).
        estimate_hours: A first estimate of the work, in whole hours (at least 1).
    """
    if estimate_hours is not None and estimate_hours < 1:
        raise ValueError("estimate_hours must be at least 1")
    labels = sorted(set(labels))
    return "T-1042"

# %%
import tickets_v3

findings(tickets_v3.create_ticket)

# %% [markdown]
# OpenAI and Anthropic accept it; Gemini still refuses the integer enum.
#
# ## Step 4: Gemini, an enum of numbers
#
# Turning the priorities into strings (`"urgent"`, `"normal"`, `"low"`) would read well,
# but every caller that sends `1` today would break. Keep the integer, say the three
# values in the description (it already does), and check them in the function:

# %%
# %%writefile tickets_v4.py
def create_ticket(
    title: str,
    body: str,
    labels: list[str],
    priority: int,
    estimate_hours: int | None = None,
) -> str:
    """Open a ticket in the team's tracker and return its id.

    Args:
        title: One line that says what is wrong.
        body: What happened, what you expected, and how to reproduce it.
        labels: Labels to file the ticket under, e.g. "bug" or "billing"; a label given
            twice counts once.
        priority: 1 (urgent), 2 (normal) or 3 (low).
        estimate_hours: A first estimate of the work, in whole hours (at least 1).
    """
    if priority not in (1, 2, 3):
        raise ValueError("priority must be 1, 2 or 3")
    if estimate_hours is not None and estimate_hours < 1:
        raise ValueError("estimate_hours must be at least 1")
    labels = sorted(set(labels))
    return "T-1042"

# %%
import tickets_v4

findings(tickets_v4.create_ticket)

# %% [markdown]
# No findings for any of the three providers. The CI gate agrees (exit code 0):

# %%
toollens_cli("check", "tickets_v4.py:create_ticket", *PROVIDER_ARGS)

# %% [markdown]
# ## Step 5: prove the fix broke nothing
#
# Fixing a schema for one provider changes what every model is told. Did we make any
# call invalid that used to be valid? `toollens diff` compares the first version with
# the last and classifies each change
# ([notebook 05](05_schema_diffing.ipynb) explains the severities):

# %%
toollens_cli("diff", "tickets_v1.py:create_ticket", "tickets_v4.py:create_ticket")

# %% [markdown]
# Exit code 1: only **compatible** and **description-only** changes, no breaking one.
# Dropping `uniqueItems`, `exclusiveMinimum` and the enum only widens what the schema
# accepts, so every call a model made against version 1 still matches version 4; the new
# sentences only change what the model reads. A CI job that fails on exit code 2 lets
# this fix through.
#
# The same holds for the payload each provider receives, not only for toollens's schema:

# %%
for provider in PROVIDERS:
    toollens_cli(
        "diff", "tickets_v1.py:create_ticket", "tickets_v4.py:create_ticket",
        "--provider", provider,
    )
    print()

# %% [markdown]
# ## Summary
#
# - Providers reject different parts of JSON Schema, and everyday type hints (`set`,
#   `gt=0`, a `Literal` of numbers) produce some of them. `toollens check --provider ...`
#   and the explorer's findings say which, where (a JSON pointer) and what to do, before
#   any request.
# - When a provider cannot express a rule, move it from the schema to the description
#   (for the model) and to the function (for the check). Keep the values callers send:
#   a fix that renames or retypes them is a breaking change.
# - `toollens diff old new` exits 1, not 2, when a fix only widens the schema and
#   rewrites descriptions: proof that no caller's valid call became invalid.
#
# Back to the start: [01 Quickstart](01_quickstart.ipynb).

# %%
os.chdir(notebook_dir)
sys.path.remove(workdir)
shutil.rmtree(workdir)
