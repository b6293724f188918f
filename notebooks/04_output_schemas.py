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
# # Output schemas: what the model must answer
#
# A tool's *arguments* are one schema; an agent's *final answer* (structured output) is
# another. You declare the answer's type, and it goes one of three ways:
#
# | what you declare | path | the model answers |
# | --- | --- | --- |
# | no return annotation, `-> None`, `-> str` (as a type: `None`, `type(None)`, `str`) | **plain text** | free text; no schema is sent |
# | a pydantic model, a `TypedDict`, a `dict` | **direct object** | the object itself |
# | anything else: `int`, `list[...]`, a `Literal`, a union, a dataclass | **wrapped** | `{"response": <value>}` |
#
# Providers want an *object* at the root of a structured answer, which is why
# everything that is not already an object is wrapped. `None` is not wrapped: a function
# that returns nothing, or has no return annotation, hands the model its result as text,
# so `output_schema(None)` and `output_schema(type(None))` are the same plain-text path.

# %%
import json
from typing import Literal

from IPython.display import display
from pydantic import BaseModel

import toollens
from toollens.render import render_panels, render_view, style_tag


class Forecast(BaseModel):
    city: str
    high_c: float
    condition: Literal["clear", "cloudy", "rain"]


for tp in (None, type(None), str, Forecast, int, list[Forecast], Literal["ok", "retry"]):
    out = toollens.output_schema(tp)
    path = "plain text" if out.is_plain_text else "wrapped" if out.is_wrapped else "direct"
    declared = "type(None)" if tp is type(None) else "None" if tp is None else out.name
    print(f"{declared:<24} {path:<11} {out.explain()}")

# %% [markdown]
# `name` is a stable, readable name for the type (`list[Forecast]`,
# `Literal['ok', 'retry']`), the one you see in diagnostics; providers receive the
# answer format under a fixed name.
#
# ## Each path in the Output view
#
# A function's own return annotation is its output type; `fs.output` and the explorer's
# **Output view** show the same thing: the path, the name, whether the schema is strict,
# and the schema the model must follow, with what strict conversion changed.
# `output_view(target)` displays that one view of `toollens.report(target)` as static
# HTML, for a function or for a type:

# %%
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


def output_view(target, **options):
    """The Output view of a function or an output type."""
    return View("output", target, **options)


# %% [markdown]
# **Plain text.** A function without a return annotation and a function annotated
# `-> None` both answer with text: no schema is sent, and nothing is wrapped.

# %%
def send_reminder(user: str, text: str):
    """Send a reminder to a user."""


def archive_note(note_id: str) -> None:
    """Archive a note."""


display(output_view(send_reminder), output_view(archive_note))

# %% [markdown]
# **Direct object.** A pydantic model is already an object, so its schema is the answer's
# schema, closed by strict conversion (the marked line):

# %%
def get_forecast(city: str) -> Forecast:
    """Get tomorrow's forecast for a city."""
    return Forecast(city=city, high_c=12, condition="rain")


output_view(get_forecast)

# %% [markdown]
# **Wrapped.** The bundled `search_documents` returns `list[SearchHit]`, not an object,
# so the model must answer `{"response": [...]}`:

# %%
from toollens.examples import search_documents

output_view(search_documents)

# %% [markdown]
# ## Validating the model's answer
#
# `validate_json(text)` parses the answer and validates it against the type, in strict
# mode (no `"3"` for `3`). A wrapped answer is unwrapped for you.

# %%
forecast = toollens.output_schema(Forecast)
print(repr(forecast.validate_json('{"city": "Oslo", "high_c": 12, "condition": "rain"}')))
print(repr(toollens.output_schema(list[int]).validate_json('{"response": [1, 2, 3]}')))

# %% [markdown]
# When the answer does not parse or does not match, you get a `ModelBehaviorError`,
# never a `json.JSONDecodeError` or a pydantic `ValidationError`. It carries:
#
# - `pointer`: a JSON pointer to the offending value (`/high_c`), empty for the whole text;
# - `message`: what is wrong, with the value the model sent;
# - `hint`: what the model must answer, handy to send back in a retry;
# - `rule`: a stable id (`output-invalid-json`, `output-truncated`, `output-invalid-value`).

# %%
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

# %% [markdown]
# For a wrapped type the pointer goes through the wrapper. Strict validation does not
# coerce: a string that looks like a number is still a string.

# %%
try:
    toollens.output_schema(int).validate_json('{"response": "3"}')
except toollens.ModelBehaviorError as exc:
    print(exc)

# %% [markdown]
# ## Output types strict mode refuses
#
# The answer schema goes through the same strict conversion as tool arguments
# ([notebook 03](03_strict_mode.ipynb)), so an open map fails when the output schema
# is built. Declare the shape, or opt out with `strict=False`:

# %%
try:
    toollens.output_schema(dict[str, int])
except toollens.StrictSchemaError as exc:
    print(f"{type(exc).__name__}: {exc}")

loose = toollens.output_schema(dict[str, int], strict=False)
print("strict=False:", json.dumps(loose.json_schema), "| strict:", loose.strict)

# %% [markdown]
# In the explorer, such an output type does not stop the other views: the Output view
# shows the error, and the schema without strict conversion under it.

# %%
output_view(dict[str, int])

# %% [markdown]
# Next: [05 Schema diffing](05_schema_diffing.ipynb).
