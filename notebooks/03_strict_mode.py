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
# # Strict mode: what it guarantees, and what it costs
#
# Without strict mode the JSON Schema you send is a *request*: the model usually
# follows it, but sometimes leaves out a required argument, adds one you never
# declared, sends `"3"` where you wanted `3`, or stops in the middle of the JSON. Your
# code has to validate the arguments and retry.
#
# With strict mode on (`"strict": true` in OpenAI function calling and Structured
# Outputs, strict tool use at Anthropic) the provider turns the schema into a grammar
# and the model can only produce output the grammar allows. **The arguments always
# parse as JSON and always match the schema.**
#
# A grammar can be built only from a subset of JSON Schema, and that is the cost:
#
# 1. **every object is closed**: `additionalProperties: false`, no undeclared keys;
# 2. **every property is required**: "optional" means "may be `null`", not "may be
#    missing";
# 3. **no open maps**: `dict[str, int]` or `**kwargs` cannot be expressed;
# 4. **defaults do no work**: the model sends every key, so nothing ever falls back to
#    a default;
# 5. some keywords (`oneOf`, a one-entry `allOf`, a `$ref` with other keys beside it)
#    are not accepted, so they are rewritten where the meaning can be kept.
#
# toollens's converter makes the same rewrites as the OpenAI Agents SDK's
# `ensure_strict_json_schema`, with two deliberate differences: it never changes the
# dict you give it (even when it fails), and it checks every `$ref` (a missing or remote
# target is an error rather than something the provider discovers). `explain_strict(schema)`
# returns the strict schema together with one `Change` per rewrite: where (a JSON
# pointer), which rule, and why.
#
# Each rewrite below is shown with toollens's **Strict view**, the one the explorer
# shows: the schema the provider receives with every changed line marked (hover a marked
# line for the rule), the list of changes, and, folded under it, the schema before
# conversion. `strict_view(target)` displays that one view of `toollens.report(target)`
# as static HTML, so it reads the same on GitHub or in an HTML export as in JupyterLab.

# %%
import json
from typing import Annotated, Literal

from IPython.display import display
from pydantic import BaseModel, Field

import toollens
from toollens.render import render_panels, render_view, style_tag


def compact(value, indent=0):
    """JSON text that keeps every object or list that fits on one line there."""
    flat = json.dumps(value)
    if len(flat) + indent <= 76 or not isinstance(value, (dict, list)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {compact(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + compact(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def print_changes(changes):
    width = max(len(c.pointer or "/") for c in changes)
    for c in changes:
        print(f"  {c.pointer or '/':<{width}}  {c.rule.value:<24} {c.reason}")


class View:
    """One view of `toollens.report(target)`: static HTML in a notebook, text elsewhere."""

    def __init__(self, view, target, **options):
        self.view = view
        self.report = toollens.report(target, **options)

    def _repr_mimebundle_(self, include=None, exclude=None):
        panel = render_panels(self.report)[self.view]
        return {
            "text/plain": render_view(self.report, self.view),
            "text/html": f'<div class="tl-root">{style_tag()}{panel}</div>',
        }


def strict_view(target, **options):
    """The Strict view of a function, a model or a JSON Schema."""
    return View("strict", target, **options)


# %% [markdown]
# ## 1. Objects are closed and every property is required
#
# The smallest example: `limit` is optional in the schema below. After conversion the
# object is closed and `limit` is required. Both rewrites are made on the root object,
# so its first line is the one marked. (Strict conversion never changes the dict you
# give it: it returns a new one.)

# %%
strict_view({
    "type": "object",
    "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
    "required": ["query"],
})


# %% [markdown]
# Strict mode does not make `limit` *nullable* for you: the model must now send an
# integer every time. If "no limit" should be possible, say so in the type
# (`int | None`), and the model will send `null`. Nested objects are closed the same
# way, at every depth.
#
# ## 2. `None` defaults are removed
#
# The usual way to write an optional parameter in Python is `tag: str | None = None`.
# Pydantic puts `"default": null` in the schema, which strict mode does not accept; the
# type already allows `null`, so the default is dropped. Here it is on a function (unfold
# "Before strict conversion" to see the `default: null` that went away):

# %%
def add_note(text: str, tag: str | None = None) -> str:
    """Add a note to the current document.

    Args:
        text: The note itself.
        tag: A label to file the note under.
    """
    return text


strict_view(add_note)

# %% [markdown]
# So the model always sends `tag`, as a string or as `null`, and your function gets
# `None` as before:

# %%
fs = toollens.function_schema(add_note)
arguments = fs.validate_arguments('{"text": "check the figures", "tag": null}')
print(fs.to_call_args(arguments))

# %% [markdown]
# ## 3. `oneOf` becomes `anyOf`
#
# `oneOf` means "exactly one variant matches", which a grammar cannot check cheaply.
# When the variants cannot overlap, as in this discriminated union, `anyOf` accepts the
# same values, so the rewrite keeps the meaning. The variants and the discriminator
# are kept.

# %%
strict_view({
    "type": "object",
    "properties": {
        "location": {
            "oneOf": [
                {"type": "object", "properties": {"kind": {"const": "video"}}},
                {"type": "object", "properties": {"kind": {"const": "room"}, "room": {"type": "string"}}},
            ],
            "discriminator": {"propertyName": "kind"},
        }
    },
})

# %% [markdown]
# ## 4. A single `allOf` is merged into its parent
#
# Pydantic and hand-written schemas often wrap a reference in a one-entry `allOf` to
# attach a description to it. A one-entry `allOf` means the same as its entry, so the
# entry's keywords are merged into the parent (the parent's description stays).

# %%
strict_view({
    "type": "object",
    "properties": {
        "window": {
            "allOf": [{"type": "object", "properties": {"days": {"type": "integer"}}}],
            "description": "Forecast window",
        }
    },
})

# %% [markdown]
# ## 5. A `$ref` with sibling keywords is inlined
#
# Strict mode allows a `$ref` only on its own. Pydantic writes
# `{"$ref": ..., "description": ...}` whenever a field with a description has a model
# type, so toollens copies the target in and keeps the siblings. A bare `$ref` is left
# as it is.

# %%
strict_view({
    "type": "object",
    "properties": {
        "origin": {"$ref": "#/$defs/Point", "description": "Where the trip starts"},
        "destination": {"$ref": "#/$defs/Point"},
    },
    "$defs": {
        "Point": {
            "type": "object",
            "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
        }
    },
})


# %% [markdown]
# ## 6. What strict mode refuses, and why
#
# Some schemas cannot be made strict without changing what they accept. toollens does
# not guess: it raises `StrictSchemaError` **when the tool is built**, with the rule,
# the JSON pointer of the offending node and a hint. The three you will meet:
#
# - `additionalProperties: true` (an object that takes any extra key);
# - `dict[str, X]`, which pydantic writes as `additionalProperties: {<schema of X>}`;
# - `**kwargs`, which is a `dict[str, X]` of whatever keywords the caller sends.
#
# Closing such an object would silently change its meaning (the model could no longer
# send the keys you wanted), so it is an error instead of a rewrite.

# %%
def set_scores(scores: dict[str, int]) -> None:
    """Record each player's score.

    Args:
        scores: Player names mapped to their points.
    """


def configure(**options: str) -> None:
    """Set named options on the service."""


attempts = {
    "additionalProperties: true": lambda: toollens.explain_strict(
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": True}
    ),
    "dict[str, int]": lambda: toollens.function_schema(set_scores),
    "**kwargs": lambda: toollens.function_schema(configure),
}
for label, attempt in attempts.items():
    try:
        attempt()
    except toollens.SchemaConstructionError as exc:
        print(f"{label}\n  {type(exc).__name__}: {exc}")
        fields = {"rule": getattr(exc.rule, "value", exc.rule), "pointer": exc.pointer,
                  "parameter": exc.parameter}
        print("  " + "  ".join(f"{k}={v!r}" for k, v in fields.items() if v is not None))
        print()


# %% [markdown]
# The Strict view shows such a refusal in place of the strict schema: the error, and the
# schema before conversion with the open map in it. The explorer's other views (the
# signature, the metadata, the output) still render.

# %%
strict_view(set_scores)


# %% [markdown]
# Two ways out. Declare the shape (a list of small objects instead of an open map), or
# give up the guarantee and build the tool with `strict=False`: the schema is then sent
# as pydantic wrote it, and the provider payload says `"strict": false`, so your code
# must validate the arguments itself.

# %%
class Score(BaseModel):
    player: str
    points: int


def set_scores_strict(scores: list[Score]) -> None:
    """Record each player's score.

    Args:
        scores: One entry per player.
    """


display(strict_view(set_scores_strict))

loose = toollens.function_schema(set_scores, strict=False)
payload = toollens.provider_tool(loose, "openai-chat")
print(compact(payload["function"]["parameters"]["properties"]["scores"]))
print("strict:", payload["function"]["strict"])


# %% [markdown]
# ## 7. Defaults that do work: `optional_defaults="nullable"`
#
# A default other than `None` stays in the strict schema as a hint, but the property is
# still required, so the model must pick a value on every call and the Python default
# never applies. Some providers reject `default` in strict mode altogether.
#
# With `optional_defaults="nullable"` (an opt-in; the reference behaviour keeps the
# default) toollens makes such a parameter nullable instead, and
# `validate_arguments` turns a `null` from the model back into the Python default.
# Say the default in the docstring, because the schema no longer shows it.

# %%
def list_orders(status: Literal["open", "shipped"] = "open", limit: int = 20) -> list[str]:
    """List the customer's orders.

    Args:
        status: Which orders to list (default: open).
        limit: The most orders to return (default: 20).
    """
    return []


kept = toollens.function_schema(list_orders)
nullable = toollens.function_schema(list_orders, optional_defaults="nullable")
print("default kept:", compact(kept.json_schema["properties"]["limit"]))
print("nullable:    ", compact(nullable.json_schema["properties"]["limit"]))
print_changes([c for c in nullable.strict_changes if c.rule.value == "nullable-default"])

arguments = nullable.validate_arguments('{"status": null, "limit": null}')
print("the model sent nulls; the function gets:", nullable.to_call_args(arguments))


# %% [markdown]
# The Strict view of the nullable variant marks both parameters: each lost its default
# and gained `null` in its type.

# %%
strict_view(list_orders, optional_defaults="nullable")


# %% [markdown]
# ## 8. Providers accept different subsets
#
# Strict conversion makes a schema valid for OpenAI's strict mode, but each provider
# has its own list of keywords it accepts. `check_provider(fs, provider)` checks the
# schema as that provider will receive it, and returns findings with a pointer and a
# fix. Here is one tool checked for three providers:

# %%
class Filters(BaseModel):
    """Narrow the search."""

    tags: set[str] = Field(default_factory=set, description="Require all of these tags")
    published_after: int | None = Field(None, ge=1450, description="Earliest year")


def find_books(
    title: Annotated[str, Field(min_length=2)],
    filters: Filters | None = None,
    limit: int = 10,
) -> list[str]:
    """Find books in the catalogue.

    Args:
        title: Words from the title.
        filters: Optional filters.
        limit: Most results.
    """
    return []


fs = toollens.function_schema(find_books)
for provider in ("openai-chat", "anthropic", "gemini-openapi"):
    print(provider)
    for finding in toollens.check_provider(fs, provider):
        print(f"  {finding.severity.value:<7} {finding.rule:<28} {finding.pointer}")
        print(f"          {finding.message}")

# %% [markdown]
# How to read that:
#
# - **OpenAI** (strict): the subset strict conversion targets; `uniqueItems` (from
#   `set[str]`) is not in it, and a non-null `default` is a warning because some
#   deployments refuse it and it is never applied.
# - **Anthropic** (strict tool use): closed objects like OpenAI, but no numeric,
#   string-length or array constraints, so `minimum`, `minLength` and `uniqueItems`
#   must move into the description and be checked in your function.
# - **Gemini, classic `parameters`** (`gemini-openapi`): an OpenAPI subset, not JSON
#   Schema. toollens translates the payload for it (no `additionalProperties`,
#   `nullable: true` instead of a `null` type, `$ref` inlined) and reports only what it
#   could not translate. The default `gemini` payload sends the schema unchanged as
#   `parametersJsonSchema`, which takes JSON Schema.
#
# `toollens.provider_tool(fs, provider)` gives the exact payload; compare two of them:

# %%
print(compact(toollens.provider_tool(fs, "openai-chat")["function"]["parameters"]["properties"]["filters"]))
print(compact(toollens.provider_tool(fs, "gemini-openapi")["parameters"]["properties"]["filters"]))


# %% [markdown]
# ## Strict mode in one minute (to explain to a colleague)
#
# - **What it buys**: the model's arguments always parse and always match the schema;
#   no retry loop for malformed calls.
# - **How**: the provider compiles the schema into a grammar, so only a subset of JSON
#   Schema is allowed.
# - **What changes in your schema**: objects closed, every property required, `None`
#   defaults removed, `oneOf` → `anyOf`, one-entry `allOf` merged, `$ref` with siblings
#   inlined. `explain_strict` lists each rewrite.
# - **What it costs**: optional means nullable, not missing; no open maps or
#   `**kwargs`; defaults are hints at best (`optional_defaults="nullable"` gives them
#   back); each provider accepts a slightly different subset (`check_provider`).
# - **What it refuses**: anything it cannot rewrite without changing the meaning, as a
#   `StrictSchemaError` with a pointer and a hint, when the tool is built.
#
# ## Exercises
#
# Each answer is in the collapsed cell under the question: click the bar (or the
# `...`) on its left in JupyterLab to show it. On GitHub the answers are shown
# directly, so cover them up first!
#
# **Exercise 1.** `def tag_photo(photo_id: str, tags: list[str] | None = None)`. What
# does the strict schema say about `tags`, and what must the model send to mean "no
# tags"? Predict, then check with `toollens.function_schema(tag_photo).json_schema`.

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
# Show answer: `tags` is required, may be an array of strings or null, and has no default.
# To mean "no tags" the model sends "tags": null (it cannot leave the key out).
def tag_photo(photo_id: str, tags: list[str] | None = None) -> None:
    """Tag a photo."""


fs = toollens.function_schema(tag_photo)
print(compact(fs.json_schema["properties"]["tags"]))
print("required:", fs.json_schema["required"])


# %% [markdown]
# **Exercise 2.** Why does `def set_limits(limits: dict[str, int])` fail in strict
# mode? Give two fixes.

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
# Show answer: dict[str, int] is an open map (additionalProperties: {"type": "integer"});
# strict mode closes every object, which would forbid every key. Fix 1: declare the
# shape, e.g. a list of {name, limit} objects. Fix 2: strict=False, and validate yourself.
class Limit(BaseModel):
    name: str
    limit: int


def set_limits(limits: list[Limit]) -> None:
    """Set rate limits."""


print(compact(toollens.function_schema(set_limits).json_schema["$defs"]["Limit"]))

# %% [markdown]
# **Exercise 3.** Which rewrites does strict conversion make to this schema, and at
# which pointers?
# `{"type": "object", "properties": {"when": {"allOf": [{"$ref": "#/$defs/Slot"}],
# "description": "Meeting time"}}, "$defs": {"Slot": {"type": "object", "properties":
# {"start": {"type": "string"}, "minutes": {"type": "integer", "default": null}}}}}`

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
# Show answer: the root and /$defs/Slot are closed and get every property required;
# `minutes` loses its null default; the one-entry allOf at /properties/when is merged,
# which copies the Slot object in (closed, all required) and keeps "Meeting time".
strict_view({
    "type": "object",
    "properties": {"when": {"allOf": [{"$ref": "#/$defs/Slot"}], "description": "Meeting time"}},
    "$defs": {
        "Slot": {
            "type": "object",
            "properties": {"start": {"type": "string"}, "minutes": {"type": "integer", "default": None}},
        }
    },
})


# %% [markdown]
# **Exercise 4.** `def page(cursor: str, size: int = 50)`. In strict mode, can the model
# leave `size` out? What does `optional_defaults="nullable"` change, and what does your
# function receive when the model sends `"size": null`?

# %% jupyter={"source_hidden": true, "outputs_hidden": true}
# Show answer: no, `size` is required (default 50 is only a hint). With "nullable",
# `size` becomes integer-or-null with no default, and a null from the model is turned
# back into 50 by validate_arguments, so the function receives size=50.
def page(cursor: str, size: int = 50) -> list[str]:
    """Fetch one page of results."""
    return []


fs = toollens.function_schema(page, optional_defaults="nullable")
print(compact(fs.json_schema["properties"]["size"]))
print(fs.to_call_args(fs.validate_arguments('{"cursor": "c1", "size": null}')))

# %% [markdown]
# Next: [04 Output schemas](04_output_schemas.ipynb).
