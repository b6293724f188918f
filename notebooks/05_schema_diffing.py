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
# # Schema diffing: did my change break the model's calls?
#
# Editing a docstring changes what the model reads; adding a parameter may change what
# it must send. `toollens.diff(old, new)` compares two versions of a tool and gives
# every change a severity:
#
# - **breaking**: a call that used to be valid may now be rejected (a new required
#   property, a narrower type, a renamed tool);
# - **compatible**: old calls stay valid (a new optional property, a wider type);
# - **description-only**: only the text the model reads changed.
#
# We write three versions of a small tool into a temporary folder, compare them in the
# notebook, and then run the command-line gate you would put in CI.

# %%
import os
import shutil
import subprocess
import sys
import tempfile

import toollens

workdir = tempfile.mkdtemp(prefix="toollens-diff-")
notebook_dir = os.getcwd()
os.chdir(workdir)
sys.path.insert(0, workdir)


# %%
# %%writefile search_v1.py
def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue.

    Args:
        query: Words to look for.
        limit: Most results.
    """
    return []


# %% [markdown]
# Version 2 only rewrites the descriptions, so the model reads better prose:

# %%
# %%writefile search_v2.py
def search(query: str, limit: int = 10) -> list[str]:
    """Search the product catalogue for items matching a free-text query.

    Args:
        query: Words to look for in product names and descriptions.
        limit: The largest number of results to return.
    """
    return []


# %% [markdown]
# Version 3 adds a parameter with a default, which looks harmless:

# %%
# %%writefile search_v3.py
def search(query: str, limit: int = 10, in_stock: bool = False) -> list[str]:
    """Search the catalogue.

    Args:
        query: Words to look for.
        limit: Most results.
        in_stock: Only list items that are in stock.
    """
    return []


# %%
import search_v1
import search_v2
import search_v3

print(toollens.diff(search_v1.search, search_v2.search))
print()
print(toollens.diff(search_v1.search, search_v3.search))

# %% [markdown]
# The new parameter is **breaking**: in strict mode every property is required
# ([notebook 03](03_strict_mode.ipynb)), so a model prompted with version 1's schema
# (a cached prompt, a fine-tuned model, a saved conversation) sends calls without
# `in_stock`, and those no longer match. Without strict mode the same change is
# compatible:

# %%
result = toollens.diff(
    toollens.function_schema(search_v1.search, strict=False),
    toollens.function_schema(search_v3.search, strict=False),
)
print("breaking:", result.breaking)
for change in result.changes:
    print(f"{change.severity.value:<12} {change.pointer:<22} {change.message}")

# %% [markdown]
# ## The diff widget
#
# `toollens.DiffWidget(old, new)` shows both schemas side by side with the changed
# lines marked, and the changes grouped by severity. Switch between the strict and the
# raw schema, or compare what one provider receives.

# %%
toollens.DiffWidget(search_v1.search, search_v3.search)


# %% [markdown]
# The widget needs a live kernel. The same comparison as static HTML, which any viewer
# shows (`render_diff_html` is what the widget itself displays):

# %%
from IPython.display import display

from toollens.render import render_diff_html

old = toollens.function_schema(search_v1.search)
new = toollens.function_schema(search_v3.search)
result = toollens.diff(old, new)
html = render_diff_html(result, old.json_schema, new.json_schema)
display({"text/plain": str(result), "text/html": html}, raw=True)


# %% [markdown]
# ## A gate for CI: `toollens diff`
#
# The same comparison runs from the command line, with an exit code a CI job can act
# on:
#
# | exit code | meaning |
# | --- | --- |
# | 0 | no change |
# | 1 | only compatible or description-only changes |
# | 2 | at least one breaking change |
# | 3 | the command could not run (bad target, unreadable file) |
#
# Targets are `file.py:FUNC`, `module:FUNC` or a JSON Schema file. In a shell you would
# write `toollens diff search_v1.py:search search_v2.py:search`; here we call the same
# command through `python -m toollens`, so it uses this notebook's Python.

# %%
def toollens_cli(*args):
    run = subprocess.run(
        [sys.executable, "-m", "toollens", *args], capture_output=True, text=True
    )
    print("$ toollens", " ".join(args))
    print((run.stdout + run.stderr).rstrip())
    print("exit code:", run.returncode)
    print()


toollens_cli("diff", "search_v1.py:search", "search_v1.py:search")
toollens_cli("diff", "search_v1.py:search", "search_v2.py:search")
toollens_cli("diff", "search_v1.py:search", "search_v3.py:search")
toollens_cli("diff", "search_v1.py:search", "search_v9.py:search")

# %% [markdown]
# In CI, compare the tool on the main branch with the one in the pull request, and fail
# only on a breaking change (2) or an error (3):
#
# ```bash
# git show origin/main:tools.py > old_tools.py
# toollens diff old_tools.py:search tools.py:search || [ $? -eq 1 ]
# ```
#
# `--format json` prints the changes as JSON for a bot to comment with, and
# `--provider openai-chat` compares the payloads a provider receives instead of the
# schemas.

# %%
os.chdir(notebook_dir)
sys.path.remove(workdir)
shutil.rmtree(workdir)
