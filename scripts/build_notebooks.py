"""Write and execute the teaching notebooks in ``notebooks/``.

The notebooks' source lives here, as lists of cells, so a change to a lesson is a reviewable
diff of Python strings rather than of notebook JSON. Running the script writes each
``.ipynb``, executes it top to bottom with nbclient (widget state stored, so the explorer
and the static HTML fallbacks show on GitHub), and saves it with its outputs.

The saved files are deterministic: fixed cell ids, a fixed kernel name, no execution
timestamps, no Python version, and widget model ids renumbered in order of appearance.

    python scripts/build_notebooks.py            # build every notebook
    python scripts/build_notebooks.py 03         # build the notebooks whose name contains "03"
"""

# Markdown tables and notebook cells keep their own line lengths: wrapping them would change
# what readers see.
# ruff: noqa: E501

from __future__ import annotations

import json
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
KERNEL_NAME = "python3"
TIMEOUT = 180

KERNELSPEC = {"name": KERNEL_NAME, "display_name": "Python 3 (ipykernel)", "language": "python"}
LANGUAGE_INFO = {
    "name": "python",
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
}

# Text that must never reach a committed output: machine paths and memory addresses.
FORBIDDEN_OUTPUT = re.compile(r"/work/|/tmp/|/root/|/home/|site-packages| at 0x[0-9a-f]+")


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" or "code"
    source: str
    hidden: bool = False  # collapsed in JupyterLab (an exercise's answer)


def md(text: str) -> Cell:
    return Cell("markdown", textwrap.dedent(text).strip())


def code(text: str) -> Cell:
    return Cell("code", textwrap.dedent(text).strip())


def answer(text: str) -> Cell:
    """A code cell whose source and output start collapsed: click the bar to show it."""
    return Cell("code", textwrap.dedent(text).strip(), hidden=True)


# ---------------------------------------------------------------------------------------
# 01 quickstart

QUICKSTART = [
    md(
        """
        # Quickstart: see what the model receives

        When you give a Python function to an agent framework as a *tool*, the model never
        sees your code. It sees a name, a description and a JSON Schema for the arguments,
        built from your signature, your type hints and your docstring. toollens shows you
        that schema, where every part of it came from, and what *strict mode* rewrote,
        while you edit the function.

        In this notebook you will load the extension, define a small tool, open the
        explorer on it, and edit the docstring to watch the views change.
        """
    ),
    code(
        """
        %load_ext toollens
        import json

        import toollens
        """
    ),
    md(
        """
        ## A tool to look at

        This is a copy of `toollens.examples.get_weather`, defined here so that the explorer
        can edit it. Its three parameters are described in three different ways:

        - `city` has an `Annotated` string (`"City name"`) **and** a line in the docstring;
        - `unit` is described only by the docstring;
        - `days` is described only by `Field(description=...)`, which also sets its limits.
        """
    ),
    code(
        '''
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
        '''
    ),
    md(
        """
        ## Open the explorer

        `%toolschema NAME` opens the explorer on a function of this notebook. (On GitHub
        you see a static copy of the views; run the notebook in JupyterLab or Voila to get
        the live editor.)
        """
    ),
    code("%toolschema get_weather"),
    md(
        """
        From top to bottom the explorer shows a toolbar, an editor holding the function's
        source, and four views:

        | view | what to read there |
        | --- | --- |
        | **Signature** | each parameter's kind, type and default, as Python sees them |
        | **Metadata** | every candidate description, default and constraint, the source it came from, and which one won and why (here: the docstring beats `"City name"`) |
        | **Strict schema** | the JSON Schema the provider receives, with every rewrite strict conversion made (`unit` and `days` became required) |
        | **Output schema** | what the return type becomes: `str` is plain text, so no schema is sent |

        Under the views come the findings: pitfalls in the tool, and what the chosen
        provider would reject or ignore. Here they warn that the docstring and the
        `Annotated` string disagree about `city`, and that the defaults of `unit` and `days`
        never apply in strict mode. After an edit, a last box lists what the edit changed
        in the schema.

        The views update a moment after you stop typing. Nothing you type changes this
        notebook's `get_weather` until you press **Apply**.

        ### Things to try in the editor

        1. Change the `city:` line of the docstring to `city: Name of the city, in English.`
           The Metadata view shows the new winner, the Strict schema its new
           `description`, and the changes list says it is a description-only change.
        2. Delete the `city:` line. Now the `Annotated` string `"City name"` wins: a
           docstring line beats an `Annotated` string ([notebook 02](02_metadata_precedence.ipynb)).
        3. Change `le=7` to `le=14` and find the new `maximum` in the Strict schema.
        4. Add a parameter `country: str | None = None`. It becomes *required* and typed
           string-or-null, and its `None` default disappears
           ([notebook 03](03_strict_mode.ipynb) explains why).
        5. Delete the `:` at the end of the `def` line. A red banner names the line and
           column, the views fade (they are the last good ones, marked stale) and your text
           stays as you typed it. Put the colon back and the banner goes away.
        6. Untick **strict** and pick the provider `gemini`: the findings list what that
           provider would reject.
        7. Press **Apply**: `get_weather` in this notebook now refers to your edited version.
        """
    ),
    md(
        """
        ## The same views, without a widget

        Every view comes from one engine, usable in scripts and tests. `function_schema`
        gives the schema the model receives and the list of rewrites strict mode made;
        `toollens.report(get_weather)` displays all the views as static HTML.
        """
    ),
    code(
        """
        fs = toollens.function_schema(get_weather)
        print(json.dumps(fs.json_schema, indent=2))
        """
    ),
    code(
        """
        for change in fs.strict_changes:
            print(f"{change.pointer or '/':<3} {change.rule.value:<24} {change.reason}")
        """
    ),
    md(
        """
        ## Where next

        - [02 Metadata precedence](02_metadata_precedence.ipynb): which description wins, and
          the run-context parameter.
        - [03 Strict mode](03_strict_mode.ipynb): what strict mode guarantees, what it costs,
          and every rewrite it makes.
        - [04 Output schemas](04_output_schemas.ipynb): plain text, objects, wrapped values,
          and validating a model's answer.
        - [05 Schema diffing](05_schema_diffing.ipynb): compare two versions of a tool and
          gate changes in CI.
        """
    ),
]

# ---------------------------------------------------------------------------------------
# 02 metadata precedence

METADATA = [
    md(
        """
        # Metadata precedence: which description does the model see?

        A parameter can be described in four places at once, and its default and limits can
        come from two. The model sees exactly one description per parameter. This notebook
        shows the order toollens (following the OpenAI Agents SDK) uses to pick it, and how
        to see every candidate and why it won or lost.

        | what | precedence, strongest first |
        | --- | --- |
        | tool name, tool description | explicit `name=` / `description=` > the function's name / the docstring's summary |
        | parameter description | docstring line > `Annotated[T, "text"]` > `= Field(description=...)` default > `Annotated[T, Field(description=...)]` |
        | constraints (`ge`, `max_length`, ...) | merged from every `Field`; none is dropped |
        | default | the `= value` or `= Field(default)`, whichever the signature has |
        """
    ),
    code(
        """
        import json
        from typing import Annotated

        from pydantic import Field

        import toollens


        def candidates(fs, name):
            \"\"\"Print every candidate value for one parameter: source, value, won?, why.\"\"\"
            for c in fs.parameter(name).candidates:
                mark = "won " if c.won else "lost"
                print(f"{c.attribute:<12} {c.source.label:<22} {mark} {c.value!r}")
                print(f"{'':<12} {c.reason}")
        """
    ),
    md(
        """
        ## One function, every source

        `search_books` describes its parameters in every way at once:

        - `query` has a docstring line *and* an `Annotated` string;
        - `author` has only an `Annotated` string;
        - `limit` has a description in an `Annotated` `Field` *and* in a `= Field(...)`
          default, and each of them sets one limit.
        """
    ),
    code(
        '''
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
        '''
    ),
    md(
        """
        The docstring line won over the `Annotated` string. The docstring is where most
        authors write prose for people, so it is the one the model reads too. `author` has
        no docstring line, so its `Annotated` string is the only candidate:
        """
    ),
    code('candidates(fs, "author")'),
    md(
        """
        For `limit`, the `= Field(...)` default beats the `Annotated` `Field` for the
        description, but the constraints are *merged*: `ge=1` comes from one, `le=50` from the
        other, and both reach the schema as `minimum` and `maximum`.
        """
    ),
    code(
        """
        candidates(fs, "limit")
        print(json.dumps(fs.json_schema["properties"]["limit"], indent=2))
        """
    ),
    md(
        """
        ## Explicit overrides

        `name=` and `description=` override what is inferred from the function. The tool's
        own candidates are in `fs.provenance`. Turning the docstring off with
        `use_docstring_info=False` lets the next source win:
        """
    ),
    code(
        """
        fs = toollens.function_schema(
            search_books, name="find_books", description="Find books in the catalogue."
        )
        for c in fs.provenance:
            print(f"{c.attribute:<12} {c.source.label:<18} {'won ' if c.won else 'lost'} {c.value!r}")

        no_doc = toollens.function_schema(search_books, use_docstring_info=False)
        print()
        print("query without the docstring:", no_doc.parameter("query").description)
        """
    ),
    md(
        """
        ## The Metadata view

        The explorer and `toollens.report(...)` show the same candidates as a table: one row
        per parameter, one column per source, the winner marked, with the reason under it.
        """
    ),
    code("toollens.report(search_books)"),
    md(
        """
        ## The run context: first position only

        Agent runtimes pass some values to a tool themselves: the current user, a database
        handle, the conversation. The model must not choose them, so they must not be in the
        schema. The convention is that the **first** parameter, when its type is a run
        context (the OpenAI Agents SDK's `RunContextWrapper`, pydantic-ai's `RunContext`),
        is injected by the runtime and left out of the schema.

        `toollens.examples.lookup_order` takes a `ToolContext`, toollens's stand-in for those
        types; `context_types=` tells toollens to treat it as one.
        """
    ),
    code(
        """
        from toollens.examples import EXAMPLE_CONTEXT_TYPES, ShopState, ToolContext, lookup_order

        fs = toollens.function_schema(lookup_order, context_types=EXAMPLE_CONTEXT_TYPES)
        print("context parameter:", fs.context_parameter)
        print("the model sees:   ", list(fs.json_schema["properties"]))

        arguments = fs.validate_arguments('{"order_id": "ORD-004211", "include_items": true}')
        ctx = ToolContext(ShopState("cust-7", {"ORD-004211": ["tea", "mug"]}))
        args, kwargs = fs.to_call_args(arguments, context=ctx)
        print("call:", lookup_order(*args, **kwargs))
        """
    ),
    md(
        """
        A context parameter anywhere else is a mistake, not a second context: the runtime
        would not fill it, and the model could not either. toollens refuses the function when
        the tool is built, and says what to do:
        """
    ),
    code(
        '''
        def lookup_order_late(order_id: str, ctx: ToolContext[ShopState]) -> str:
            """Look up an order."""
            return order_id


        try:
            toollens.function_schema(lookup_order_late, context_types=EXAMPLE_CONTEXT_TYPES)
        except toollens.SchemaConstructionError as exc:
            print(f"{type(exc).__name__}: {exc}")
            print("parameter:", exc.parameter)
        '''
    ),
    md(
        """
        ## Summary

        - One description reaches the model per parameter: docstring > `Annotated` string >
          `= Field` default > `Annotated` `Field`; explicit overrides beat everything for the
          tool's name and description.
        - Constraints from every `Field` are merged, never dropped.
        - `fs.parameter(name).candidates` (and the Metadata view) show every candidate, the
          winner, and why.
        - Only the first parameter can be the injected run context; a later one is an error
          when the tool is built.

        Next: [03 Strict mode](03_strict_mode.ipynb).
        """
    ),
]

# ---------------------------------------------------------------------------------------
# 03 strict mode

STRICT = [
    md(
        """
        # Strict mode: what it guarantees, and what it costs

        Without strict mode the JSON Schema you send is a *request*: the model usually
        follows it, but sometimes leaves out a required argument, adds one you never
        declared, sends `"3"` where you wanted `3`, or stops in the middle of the JSON. Your
        code has to validate the arguments and retry.

        With strict mode on (`"strict": true` in OpenAI function calling and Structured
        Outputs, strict tool use at Anthropic) the provider turns the schema into a grammar
        and the model can only produce output the grammar allows. **The arguments always
        parse as JSON and always match the schema.**

        A grammar can be built only from a subset of JSON Schema, and that is the cost:

        1. **every object is closed**: `additionalProperties: false`, no undeclared keys;
        2. **every property is required**: "optional" means "may be `null`", not "may be
           missing";
        3. **no open maps**: `dict[str, int]` or `**kwargs` cannot be expressed;
        4. **defaults do no work**: the model sends every key, so nothing ever falls back to
           a default;
        5. some keywords (`oneOf`, a one-entry `allOf`, a `$ref` with other keys beside it)
           are not accepted, so they are rewritten where the meaning can be kept.

        toollens's converter follows the OpenAI Agents SDK's `ensure_strict_json_schema`,
        and `explain_strict(schema)` returns the strict schema together with one `Change`
        per rewrite: where (a JSON pointer), which rule, and why.
        """
    ),
    code(
        '''
        import json
        from typing import Annotated, Literal

        from pydantic import BaseModel, Field

        import toollens
        from toollens import explain_strict


        def compact(value, indent=0):
            """JSON text that keeps every object or list that fits on one line there."""
            flat = json.dumps(value)
            if len(flat) + indent <= 76 or not isinstance(value, (dict, list)) or not value:
                return flat
            pad = " " * (indent + 2)
            if isinstance(value, dict):
                items = [f"{pad}{json.dumps(k)}: {compact(v, indent + 2)}" for k, v in value.items()]
                return "{\\n" + ",\\n".join(items) + "\\n" + " " * indent + "}"
            items = [pad + compact(v, indent + 2) for v in value]
            return "[\\n" + ",\\n".join(items) + "\\n" + " " * indent + "]"


        def print_changes(changes):
            width = max(len(c.pointer or "/") for c in changes)
            for c in changes:
                print(f"  {c.pointer or '/':<{width}}  {c.rule.value:<24} {c.reason}")


        def show_strict(schema):
            """Print a schema before and after strict conversion, and every change made."""
            after, changes = explain_strict(schema)
            print("before:", compact(schema))
            print("after: ", compact(after))
            print("changes:")
            print_changes(changes)
        '''
    ),
    md(
        """
        ## 1. Objects are closed and every property is required

        The smallest example: `limit` is optional in the schema below. After conversion the
        object is closed and `limit` is required. (`explain_strict` never changes the dict
        you give it: it returns a new one.)
        """
    ),
    code(
        """
        show_strict({
            "type": "object",
            "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
            "required": ["query"],
        })
        """
    ),
    md(
        """
        Strict mode does not make `limit` *nullable* for you: the model must now send an
        integer every time. If "no limit" should be possible, say so in the type
        (`int | None`), and the model will send `null`. Nested objects are closed the same
        way, at every depth.

        ## 2. `None` defaults are removed

        The usual way to write an optional parameter in Python is `tag: str | None = None`.
        Pydantic puts `"default": null` in the schema, which strict mode does not accept; the
        type already allows `null`, so the default is dropped. Here it is on a function,
        where `raw_json_schema` is the schema before strict conversion:
        """
    ),
    code(
        '''
        def add_note(text: str, tag: str | None = None) -> str:
            """Add a note to the current document.

            Args:
                text: The note itself.
                tag: A label to file the note under.
            """
            return text


        fs = toollens.function_schema(add_note)
        print("before:", compact(fs.raw_json_schema["properties"]["tag"]))
        print("after: ", compact(fs.json_schema["properties"]["tag"]))
        print_changes(fs.strict_changes)
        '''
    ),
    md(
        """
        So the model always sends `tag`, as a string or as `null`, and your function gets
        `None` as before:
        """
    ),
    code(
        """
        arguments = fs.validate_arguments('{"text": "check the figures", "tag": null}')
        print(fs.to_call_args(arguments))
        """
    ),
    md(
        """
        ## 3. `oneOf` becomes `anyOf`

        `oneOf` means "exactly one variant matches", which a grammar cannot check cheaply.
        When the variants cannot overlap, as in this discriminated union, `anyOf` accepts the
        same values, so the rewrite keeps the meaning. The variants and the discriminator
        are kept.
        """
    ),
    code(
        """
        show_strict({
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
        """
    ),
    md(
        """
        ## 4. A single `allOf` is merged into its parent

        Pydantic and hand-written schemas often wrap a reference in a one-entry `allOf` to
        attach a description to it. A one-entry `allOf` means the same as its entry, so the
        entry's keywords are merged into the parent (the parent's description stays).
        """
    ),
    code(
        """
        show_strict({
            "type": "object",
            "properties": {
                "window": {
                    "allOf": [{"type": "object", "properties": {"days": {"type": "integer"}}}],
                    "description": "Forecast window",
                }
            },
        })
        """
    ),
    md(
        """
        ## 5. A `$ref` with sibling keywords is inlined

        Strict mode allows a `$ref` only on its own. Pydantic writes
        `{"$ref": ..., "description": ...}` whenever a field with a description has a model
        type, so toollens copies the target in and keeps the siblings. A bare `$ref` is left
        as it is.
        """
    ),
    code(
        """
        show_strict({
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
        """
    ),
    md(
        """
        ## 6. What strict mode refuses, and why

        Some schemas cannot be made strict without changing what they accept. toollens does
        not guess: it raises `StrictSchemaError` **when the tool is built**, with the rule,
        the JSON pointer of the offending node and a hint. The three you will meet:

        - `additionalProperties: true` (an object that takes any extra key);
        - `dict[str, X]`, which pydantic writes as `additionalProperties: {<schema of X>}`;
        - `**kwargs`, which is a `dict[str, X]` of whatever keywords the caller sends.

        Closing such an object would silently change its meaning (the model could no longer
        send the keys you wanted), so it is an error instead of a rewrite.
        """
    ),
    code(
        '''
        def set_scores(scores: dict[str, int]) -> None:
            """Record each player's score.

            Args:
                scores: Player names mapped to their points.
            """


        def configure(**options: str) -> None:
            """Set named options on the service."""


        attempts = {
            "additionalProperties: true": lambda: explain_strict(
                {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": True}
            ),
            "dict[str, int]": lambda: toollens.function_schema(set_scores),
            "**kwargs": lambda: toollens.function_schema(configure),
        }
        for label, attempt in attempts.items():
            try:
                attempt()
            except toollens.SchemaConstructionError as exc:
                print(f"{label}\\n  {type(exc).__name__}: {exc}")
                fields = {"rule": getattr(exc.rule, "value", exc.rule), "pointer": exc.pointer,
                          "parameter": exc.parameter}
                print("  " + "  ".join(f"{k}={v!r}" for k, v in fields.items() if v is not None))
                print()
        '''
    ),
    md(
        """
        Two ways out. Declare the shape (a list of small objects instead of an open map), or
        give up the guarantee and build the tool with `strict=False`: the schema is then sent
        as pydantic wrote it, and the provider payload says `"strict": false`, so your code
        must validate the arguments itself.
        """
    ),
    code(
        '''
        class Score(BaseModel):
            player: str
            points: int


        def set_scores_strict(scores: list[Score]) -> None:
            """Record each player's score.

            Args:
                scores: One entry per player.
            """


        print(compact(toollens.function_schema(set_scores_strict).json_schema["$defs"]["Score"]))

        loose = toollens.function_schema(set_scores, strict=False)
        payload = toollens.provider_tool(loose, "openai-chat")
        print(compact(payload["function"]["parameters"]["properties"]["scores"]))
        print("strict:", payload["function"]["strict"])
        '''
    ),
    md(
        """
        ## 7. Defaults that do work: `optional_defaults="nullable"`

        A default other than `None` stays in the strict schema as a hint, but the property is
        still required, so the model must pick a value on every call and the Python default
        never applies. Some providers reject `default` in strict mode altogether.

        With `optional_defaults="nullable"` (an opt-in; the reference behaviour keeps the
        default) toollens makes such a parameter nullable instead, and
        `validate_arguments` turns a `null` from the model back into the Python default.
        Say the default in the docstring, because the schema no longer shows it.
        """
    ),
    code(
        '''
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
        '''
    ),
    md(
        """
        ## 8. Providers accept different subsets

        Strict conversion makes a schema valid for OpenAI's strict mode, but each provider
        has its own list of keywords it accepts. `check_provider(fs, provider)` checks the
        schema as that provider will receive it, and returns findings with a pointer and a
        fix. Here is one tool checked for three providers:
        """
    ),
    code(
        '''
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
        for provider in ("openai-chat", "anthropic", "gemini"):
            print(provider)
            for finding in toollens.check_provider(fs, provider):
                print(f"  {finding.severity.value:<7} {finding.rule:<28} {finding.pointer}")
                print(f"          {finding.message}")
        '''
    ),
    md(
        """
        How to read that:

        - **OpenAI** (strict): the subset strict conversion targets; `uniqueItems` (from
          `set[str]`) is not in it, and a non-null `default` is a warning because some
          deployments refuse it and it is never applied.
        - **Anthropic** (strict tool use): closed objects like OpenAI, but no numeric,
          string-length or array constraints, so `minimum`, `minLength` and `uniqueItems`
          must move into the description and be checked in your function.
        - **Gemini** (function declarations): an OpenAPI subset, not JSON Schema. toollens
          translates the payload for it (no `additionalProperties`, `nullable: true` instead
          of a `null` type, `$ref` inlined) and reports only what it could not translate.

        `toollens.provider_tool(fs, provider)` gives the exact payload; compare two of them:
        """
    ),
    code(
        """
        print(compact(toollens.provider_tool(fs, "openai-chat")["function"]["parameters"]["properties"]["filters"]))
        print(compact(toollens.provider_tool(fs, "gemini")["parameters"]["properties"]["filters"]))
        """
    ),
    md(
        """
        ## Strict mode in one minute (to explain to a colleague)

        - **What it buys**: the model's arguments always parse and always match the schema;
          no retry loop for malformed calls.
        - **How**: the provider compiles the schema into a grammar, so only a subset of JSON
          Schema is allowed.
        - **What changes in your schema**: objects closed, every property required, `None`
          defaults removed, `oneOf` → `anyOf`, one-entry `allOf` merged, `$ref` with siblings
          inlined. `explain_strict` lists each rewrite.
        - **What it costs**: optional means nullable, not missing; no open maps or
          `**kwargs`; defaults are hints at best (`optional_defaults="nullable"` gives them
          back); each provider accepts a slightly different subset (`check_provider`).
        - **What it refuses**: anything it cannot rewrite without changing the meaning, as a
          `StrictSchemaError` with a pointer and a hint, when the tool is built.

        ## Exercises

        Each answer is in the collapsed cell under the question: click the bar (or the
        `...`) on its left in JupyterLab to show it. On GitHub the answers are shown
        directly, so cover them up first!

        **Exercise 1.** `def tag_photo(photo_id: str, tags: list[str] | None = None)`. What
        does the strict schema say about `tags`, and what must the model send to mean "no
        tags"? Predict, then check with `toollens.function_schema(tag_photo).json_schema`.
        """
    ),
    answer(
        '''
        # Show answer: `tags` is required, may be an array of strings or null, and has no default.
        # To mean "no tags" the model sends "tags": null (it cannot leave the key out).
        def tag_photo(photo_id: str, tags: list[str] | None = None) -> None:
            """Tag a photo."""


        fs = toollens.function_schema(tag_photo)
        print(compact(fs.json_schema["properties"]["tags"]))
        print("required:", fs.json_schema["required"])
        '''
    ),
    md(
        """
        **Exercise 2.** Why does `def set_limits(limits: dict[str, int])` fail in strict
        mode? Give two fixes.
        """
    ),
    answer(
        '''
        # Show answer: dict[str, int] is an open map (additionalProperties: {"type": "integer"});
        # strict mode closes every object, which would forbid every key. Fix 1: declare the
        # shape, e.g. a list of {name, limit} objects. Fix 2: strict=False, and validate yourself.
        class Limit(BaseModel):
            name: str
            limit: int


        def set_limits(limits: list[Limit]) -> None:
            """Set rate limits."""


        print(compact(toollens.function_schema(set_limits).json_schema["$defs"]["Limit"]))
        '''
    ),
    md(
        """
        **Exercise 3.** Which rewrites does strict conversion make to this schema, and at
        which pointers?
        `{"type": "object", "properties": {"when": {"allOf": [{"$ref": "#/$defs/Slot"}],
        "description": "Meeting time"}}, "$defs": {"Slot": {"type": "object", "properties":
        {"start": {"type": "string"}, "minutes": {"type": "integer", "default": null}}}}}`
        """
    ),
    answer(
        """
        # Show answer: the root and /$defs/Slot are closed and get every property required;
        # `minutes` loses its null default; the one-entry allOf at /properties/when is merged,
        # which copies the Slot object in (closed, all required) and keeps "Meeting time".
        show_strict({
            "type": "object",
            "properties": {"when": {"allOf": [{"$ref": "#/$defs/Slot"}], "description": "Meeting time"}},
            "$defs": {
                "Slot": {
                    "type": "object",
                    "properties": {"start": {"type": "string"}, "minutes": {"type": "integer", "default": None}},
                }
            },
        })
        """
    ),
    md(
        """
        **Exercise 4.** `def page(cursor: str, size: int = 50)`. In strict mode, can the model
        leave `size` out? What does `optional_defaults="nullable"` change, and what does your
        function receive when the model sends `"size": null`?
        """
    ),
    answer(
        '''
        # Show answer: no, `size` is required (default 50 is only a hint). With "nullable",
        # `size` becomes integer-or-null with no default, and a null from the model is turned
        # back into 50 by validate_arguments, so the function receives size=50.
        def page(cursor: str, size: int = 50) -> list[str]:
            """Fetch one page of results."""
            return []


        fs = toollens.function_schema(page, optional_defaults="nullable")
        print(compact(fs.json_schema["properties"]["size"]))
        print(fs.to_call_args(fs.validate_arguments('{"cursor": "c1", "size": null}')))
        '''
    ),
    md("Next: [04 Output schemas](04_output_schemas.ipynb)."),
]

# ---------------------------------------------------------------------------------------
# 04 output schemas

OUTPUT = [
    md(
        """
        # Output schemas: what the model must answer

        A tool's *arguments* are one schema; an agent's *final answer* (structured output) is
        another. You declare the answer's type, and it goes one of three ways:

        | type | path | the model answers |
        | --- | --- | --- |
        | none, or `str` | **plain text** | free text; no schema is sent |
        | a pydantic model, a `TypedDict`, a `dict` | **direct object** | the object itself |
        | anything else: `int`, `list[...]`, a `Literal`, a union, a dataclass | **wrapped** | `{"response": <value>}` |

        Providers want an *object* at the root of a structured answer, which is why
        everything that is not already an object is wrapped.
        """
    ),
    code(
        """
        import json
        from typing import Literal

        from pydantic import BaseModel

        import toollens


        class Forecast(BaseModel):
            city: str
            high_c: float
            condition: Literal["clear", "cloudy", "rain"]


        for tp in (None, str, Forecast, int, list[Forecast], Literal["ok", "retry"]):
            out = toollens.output_schema(tp)
            path = "plain text" if out.is_plain_text else "wrapped" if out.is_wrapped else "direct"
            declared = "None" if tp is None else out.name
            print(f"{declared:<24} {path:<11} {out.explain()}")
        """
    ),
    md(
        """
        `name` is a stable, readable name for the type (`list[Forecast]`,
        `Literal['ok', 'retry']`), the one you see in diagnostics; providers receive the
        answer format under a fixed name. Here are the two object-shaped schemas, direct and
        wrapped, both already strict:
        """
    ),
    code(
        """
        print(json.dumps(toollens.output_schema(Forecast).json_schema, indent=2))
        print(json.dumps(toollens.output_schema(int).json_schema, indent=2))
        """
    ),
    md(
        """
        A function's own return annotation is its output type; `fs.output` and the explorer's
        Output schema view show the same thing. The bundled `search_documents` returns
        `list[SearchHit]`, so its answer is wrapped:
        """
    ),
    code(
        """
        from toollens.examples import search_documents

        out = toollens.function_schema(search_documents).output
        print(out.name, "| wrapped:", out.is_wrapped)
        """
    ),
    md(
        """
        ## Validating the model's answer

        `validate_json(text)` parses the answer and validates it against the type, in strict
        mode (no `"3"` for `3`). A wrapped answer is unwrapped for you.
        """
    ),
    code(
        """
        forecast = toollens.output_schema(Forecast)
        print(repr(forecast.validate_json('{"city": "Oslo", "high_c": 12, "condition": "rain"}')))
        print(repr(toollens.output_schema(list[int]).validate_json('{"response": [1, 2, 3]}')))
        """
    ),
    md(
        """
        When the answer does not parse or does not match, you get a `ModelBehaviorError`,
        never a `json.JSONDecodeError` or a pydantic `ValidationError`. It carries:

        - `pointer`: a JSON pointer to the offending value (`/high_c`), empty for the whole text;
        - `message`: what is wrong, with the value the model sent;
        - `hint`: what the model must answer, handy to send back in a retry;
        - `rule`: a stable id (`output-invalid-json`, `output-truncated`, `output-invalid-value`).
        """
    ),
    code(
        """
        answers = {
            "missing key": '{"city": "Oslo", "condition": "rain"}',
            "wrong type": '{"city": "Oslo", "high_c": "warm", "condition": "rain"}',
            "not in the enum": '{"city": "Oslo", "high_c": 12, "condition": "snow"}',
            "not JSON": "The forecast for Oslo is rain.",
            "cut off": '{"city": "Oslo", "high_c": 12, "cond',
        }
        for label, text in answers.items():
            try:
                forecast.validate_json(text)
            except toollens.ModelBehaviorError as exc:
                print(f"{label}: rule={exc.rule} pointer={exc.pointer!r}")
                print(f"  message: {exc.message}")
                print(f"  hint:    {exc.hint}")
        """
    ),
    md(
        """
        For a wrapped type the pointer goes through the wrapper. Strict validation does not
        coerce: a string that looks like a number is still a string.
        """
    ),
    code(
        """
        try:
            toollens.output_schema(int).validate_json('{"response": "3"}')
        except toollens.ModelBehaviorError as exc:
            print(exc)
        """
    ),
    md(
        """
        ## Output types strict mode refuses

        The answer schema goes through the same strict conversion as tool arguments
        ([notebook 03](03_strict_mode.ipynb)), so an open map fails when the output schema
        is built. Declare the shape, or opt out with `strict=False`:
        """
    ),
    code(
        """
        try:
            toollens.output_schema(dict[str, int])
        except toollens.StrictSchemaError as exc:
            print(f"{type(exc).__name__}: {exc}")

        loose = toollens.output_schema(dict[str, int], strict=False)
        print("strict=False:", json.dumps(loose.json_schema), "| strict:", loose.strict)
        """
    ),
    md("Next: [05 Schema diffing](05_schema_diffing.ipynb)."),
]

# ---------------------------------------------------------------------------------------
# 05 schema diffing

DIFFING = [
    md(
        """
        # Schema diffing: did my change break the model's calls?

        Editing a docstring changes what the model reads; adding a parameter may change what
        it must send. `toollens.diff(old, new)` compares two versions of a tool and gives
        every change a severity:

        - **breaking**: a call that used to be valid may now be rejected (a new required
          property, a narrower type, a renamed tool);
        - **compatible**: old calls stay valid (a new optional property, a wider type);
        - **description-only**: only the text the model reads changed.

        We write three versions of a small tool into a temporary folder, compare them in the
        notebook, and then run the command-line gate you would put in CI.
        """
    ),
    code(
        """
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
        """
    ),
    code(
        '''
        %%writefile search_v1.py
        def search(query: str, limit: int = 10) -> list[str]:
            """Search the catalogue.

            Args:
                query: Words to look for.
                limit: Most results.
            """
            return []
        '''
    ),
    md("Version 2 only rewrites the descriptions, so the model reads better prose:"),
    code(
        '''
        %%writefile search_v2.py
        def search(query: str, limit: int = 10) -> list[str]:
            """Search the product catalogue for items matching a free-text query.

            Args:
                query: Words to look for in product names and descriptions.
                limit: The largest number of results to return.
            """
            return []
        '''
    ),
    md("Version 3 adds a parameter with a default, which looks harmless:"),
    code(
        '''
        %%writefile search_v3.py
        def search(query: str, limit: int = 10, in_stock: bool = False) -> list[str]:
            """Search the catalogue.

            Args:
                query: Words to look for.
                limit: Most results.
                in_stock: Only list items that are in stock.
            """
            return []
        '''
    ),
    code(
        """
        import search_v1
        import search_v2
        import search_v3

        print(toollens.diff(search_v1.search, search_v2.search))
        print()
        print(toollens.diff(search_v1.search, search_v3.search))
        """
    ),
    md(
        """
        The new parameter is **breaking**: in strict mode every property is required
        ([notebook 03](03_strict_mode.ipynb)), so a model prompted with version 1's schema
        (a cached prompt, a fine-tuned model, a saved conversation) sends calls without
        `in_stock`, and those no longer match. Without strict mode the same change is
        compatible:
        """
    ),
    code(
        """
        result = toollens.diff(
            toollens.function_schema(search_v1.search, strict=False),
            toollens.function_schema(search_v3.search, strict=False),
        )
        print("breaking:", result.breaking)
        for change in result.changes:
            print(f"{change.severity.value:<12} {change.pointer:<22} {change.message}")
        """
    ),
    md(
        """
        ## The diff widget

        `toollens.DiffWidget(old, new)` shows both schemas side by side with the changed
        lines marked, and the changes grouped by severity. Switch between the strict and the
        raw schema, or compare what one provider receives.
        """
    ),
    code("toollens.DiffWidget(search_v1.search, search_v3.search)"),
    md(
        """
        ## A gate for CI: `toollens diff`

        The same comparison runs from the command line, with an exit code a CI job can act
        on:

        | exit code | meaning |
        | --- | --- |
        | 0 | no change |
        | 1 | only compatible or description-only changes |
        | 2 | at least one breaking change |
        | 3 | the command could not run (bad target, unreadable file) |

        Targets are `file.py:FUNC`, `module:FUNC` or a JSON Schema file. In a shell you would
        write `toollens diff search_v1.py:search search_v2.py:search`; here we call the same
        command through `python -m toollens`, so it uses this notebook's Python.
        """
    ),
    code(
        """
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
        """
    ),
    md(
        """
        In CI, compare the tool on the main branch with the one in the pull request, and fail
        only on a breaking change (2) or an error (3):

        ```bash
        git show origin/main:tools.py > old_tools.py
        toollens diff old_tools.py:search tools.py:search || [ $? -eq 1 ]
        ```

        `--format json` prints the changes as JSON for a bot to comment with, and
        `--provider openai-chat` compares the payloads a provider receives instead of the
        schemas.
        """
    ),
    code(
        """
        os.chdir(notebook_dir)
        sys.path.remove(workdir)
        shutil.rmtree(workdir)
        """
    ),
]

NOTEBOOKS: dict[str, list[Cell]] = {
    "01_quickstart.ipynb": QUICKSTART,
    "02_metadata_precedence.ipynb": METADATA,
    "03_strict_mode.ipynb": STRICT,
    "04_output_schemas.ipynb": OUTPUT,
    "05_schema_diffing.ipynb": DIFFING,
}


# ---------------------------------------------------------------------------------------
# Building


def make_notebook(name: str, cells: list[Cell]) -> Any:
    """An unexecuted notebook with deterministic ids and metadata."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": dict(KERNELSPEC), "language_info": dict(LANGUAGE_INFO)}
    stem = name.split("_", 1)[0]
    for index, cell in enumerate(cells, start=1):
        if cell.kind == "markdown":
            nb_cell = nbformat.v4.new_markdown_cell(cell.source)
        else:
            nb_cell = nbformat.v4.new_code_cell(cell.source)
            if cell.hidden:
                nb_cell.metadata["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
        nb_cell.id = f"nb{stem}-{index:02d}"
        nb.cells.append(nb_cell)
    return nb


def execute(nb: Any) -> None:
    """Run every cell in a fresh kernel, storing widget state; raises on any error."""
    from nbclient import NotebookClient

    client = NotebookClient(
        nb,
        timeout=TIMEOUT,
        startup_timeout=TIMEOUT,
        kernel_name=KERNEL_NAME,
        store_widget_state=True,
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    client.execute()


def problems(nb: Any) -> list[str]:
    """Error outputs, stderr text, and machine paths or addresses in outputs."""
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                found.append(f"{cell.id}: {output.ename}: {output.evalue}")
            elif output.output_type == "stream" and output.name == "stderr":
                found.append(f"{cell.id}: stderr: {output.text[:300]}")
            match = FORBIDDEN_OUTPUT.search(json.dumps(output))
            if match:
                found.append(f"{cell.id}: output contains {match.group(0)!r}")
    return found


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def static_copies(nb: Any) -> Any:
    """Save toollens widgets as their static HTML copy, not as live views with state.

    A saved live view needs its model's state (for an anywidget, its whole ESM bundle) and
    a widget renderer fetched from a CDN; without them JupyterLab says "model not found" and
    nbconvert's HTML shows nothing. The text/html copy every toollens widget puts in its
    output reads everywhere (JupyterLab, nbconvert offline, GitHub); running the cell brings
    the live widget back. Models no remaining view uses are dropped from the saved state.
    """
    widgets = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {})
    state = widgets.get("state", {})
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            view = data.get(WIDGET_VIEW)
            model = state.get(view["model_id"], {}).get("state", {}) if view else {}
            ours = str(model.get("_anywidget_id", "")).startswith("toollens.")
            if ours and "text/html" in data:
                del data[WIDGET_VIEW]
    keep: set[str] = set()

    def visit(model_id: str) -> None:
        if model_id in state and model_id not in keep:
            keep.add(model_id)
            for ref in _MODEL_REF.findall(json.dumps(state[model_id])):
                visit(ref)

    for cell in nb.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view:
                visit(view["model_id"])
    for model_id in [m for m in state if m not in keep]:
        del state[model_id]
    if not state:
        nb.metadata.pop("widgets", None)
    return nb


def normalize(nb: Any) -> Any:
    """Strip run-dependent metadata, join split streams, renumber widget model ids."""
    import nbformat

    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = dict(LANGUAGE_INFO)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _join_streams(cell.outputs)
    text = json.dumps(nb, sort_keys=True)
    mapping = {old: f"{n:032x}" for n, old in enumerate(_widget_order(nb), 1)}
    if mapping:
        pattern = re.compile("|".join(map(re.escape, mapping)))
        text = pattern.sub(lambda m: mapping[m.group(0)], text)
    return nbformat.reads(text, as_version=4)


def _join_streams(outputs: list[Any]) -> list[Any]:
    """One output per run of stdout (or stderr) text: the kernel splits them by timing."""
    joined: list[Any] = []
    for output in outputs:
        last = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and last is not None
            and last.output_type == "stream"
            and last.name == output.name
        ):
            last.text += output.text
        else:
            joined.append(output)
    return joined


_MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def _widget_order(nb: Any) -> list[str]:
    """Widget model ids in an order that does not depend on the ids themselves.

    The ids are random uuids. Walk from the displayed views, in cell order, through the
    references each model's state holds; models no view reaches come last, sorted by their
    state with the ids masked.
    """
    state = (
        nb.metadata.get("widgets", {})
        .get("application/vnd.jupyter.widget-state+json", {})
        .get("state", {})
    )
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in state and model_id not in order:
            order.append(model_id)
            for ref in _MODEL_REF.findall(json.dumps(state[model_id], sort_keys=True)):
                visit(ref)

    for cell in nb.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view:
                visit(view["model_id"])

    def masked(model_id: str) -> str:
        return _MODEL_REF.sub("IPY_MODEL_", json.dumps(state[model_id], sort_keys=True))

    order.extend(sorted((m for m in state if m not in order), key=masked))
    return order


def build(name: str, cells: list[Cell]) -> Path:
    import nbformat

    nb = make_notebook(name, cells)
    execute(nb)
    found = problems(nb)
    if found:
        raise SystemExit(f"{name}: " + "\n  ".join(["problems in outputs:", *found]))
    nb = normalize(static_copies(nb))
    nbformat.validate(nb)
    path = NOTEBOOK_DIR / name
    path.write_text(nbformat.writes(nb, version=4) + "\n", encoding="utf-8")
    return path


def main(argv: list[str]) -> int:
    wanted = [n for n in NOTEBOOKS if not argv or any(a in n for a in argv)]
    if not wanted:
        print(f"no notebook matches {argv}; known: {', '.join(NOTEBOOKS)}", file=sys.stderr)
        return 2
    NOTEBOOK_DIR.mkdir(exist_ok=True)
    for name in wanted:
        path = build(name, NOTEBOOKS[name])
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
