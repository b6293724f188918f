"""Properties over every callable the tests know (issue 13).

- A strict refusal is a finding about the strict view only: for every callable of the
  corpus, the hostile corpus and the shape table, ``report()`` renders every view that does
  not depend on strict conversion (signature, metadata, raw schema, output, lint, provider
  findings), and a target ``report()`` refuses is refused without strict mode too.
- No error toollens raises, and no view error it records, quotes pydantic's advice to
  pydantic users ("arbitrary_types_allowed", "model_config", ...).
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_callable_shapes import SHAPES

from support import CLI_FIXTURES
from support import corpus_callables as corpus
from support.hostile import outcome
from test_hardening_inputs import CALLABLES, SCHEMAS
from toollens import (
    StrictSchemaError,
    ToolLensError,
    function_schema,
    lint,
    output_schema,
    report,
)
from toollens.core.validation import PYDANTIC_ADVICE
from toollens.render.html import render_html
from toollens.render.text import render_text, render_view, view_data
from toollens.targets import resolve_target

FIXTURES = CLI_FIXTURES

# A few hostile inputs take seconds each (300 parameters, 1 MB docstrings): they run in the
# hardening tests; here they would only repeat that cost.
_SLOW = {
    "300-parameters",
    "docstring-1mb-words",
    "docstring-1mb-one-line",
    "docstring-5000-params-documented",
    "nested-models-50-levels",
}


def _builders() -> dict[str, Any]:
    found: dict[str, Any] = {f"corpus:{n}": (lambda v=v: v) for n, v in corpus.CORPUS.items()}
    found.update({f"hostile:{i.id}": i.build for i in CALLABLES if i.id not in _SLOW})
    found.update(
        {
            f"shape:{s.target}": (lambda t=s.target: resolve_target(f"shapes:{t}", cwd=FIXTURES))
            for s in SHAPES
        }
    )
    return found


TARGETS = _builders()
NON_STRICT_VIEWS = ("signature", "metadata", "raw")


def _assert_other_views_render(rep: Any) -> None:
    assert rep.function is not None
    assert rep.raw_schema is not None
    for view in NON_STRICT_VIEWS:
        view_data(rep, view)  # raises if the view is missing
    for view in ("output", "provider", "strict"):
        assert render_view(rep, view)  # the text view renders, error included
    assert "lint" not in rep.view_errors
    text = render_text(rep)
    assert "Lint" in text
    assert render_html(rep).startswith("<div")
    if "strict" in rep.view_errors:
        assert rep.schema is None
        assert rep.view_errors["strict"] in render_view(rep, "strict")


def _check_target(target: Any, **options: Any) -> None:
    try:
        rep = report(target, **options)
    except StrictSchemaError:
        pytest.fail("report() let a strict refusal stop every view")
    except ToolLensError:
        # Only a target that cannot be a tool at all is refused: strict mode off, too.
        lax = {**options, "strict": False}
        with pytest.raises(ToolLensError):
            report(target, **lax)
        return
    if rep.target_kind != "callable":
        return  # builtins such as int are output types: no parameters to check
    _assert_other_views_render(rep)
    try:
        function_schema(target, **{k: v for k, v in options.items() if k != "provider"})
    except StrictSchemaError:
        assert "strict" in rep.view_errors
    except ToolLensError:
        pass  # a refusal outside strict conversion is reported by report() as well


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_strict_refusal_never_hides_the_other_views(name: str) -> None:
    target = TARGETS[name]()
    outcome(lambda: _check_target(target, strict=True), what=f"report({name})")


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    name=st.sampled_from(sorted(n for n in TARGETS if not n.startswith("hostile:"))),
    optional_defaults=st.sampled_from([None, "keep", "nullable"]),
    use_docstring_info=st.booleans(),
    provider=st.sampled_from(["openai-chat", "anthropic", "gemini"]),
)
def test_strict_refusal_never_hides_the_other_views_with_any_options(
    name: str, optional_defaults: str | None, use_docstring_info: bool, provider: str
) -> None:
    _check_target(
        TARGETS[name](),
        strict=True,
        optional_defaults=optional_defaults,
        use_docstring_info=use_docstring_info,
        provider=provider,
    )


# ------------------------------------------------------------- no pydantic advice leaks


class _Opaque:
    """A class pydantic has no schema for."""


def _opaque_tool(thing: _Opaque) -> None:
    """Take a thing pydantic cannot describe."""


def _opaque_output(x: int) -> _Opaque:
    """Return a thing pydantic cannot describe."""
    return _Opaque()


ODD_OUTPUT_TYPES = [_Opaque, object, inspect.Parameter, list[_Opaque], "Nowhere"]


def _messages() -> list[tuple[str, str]]:
    """(where, message) for every error and view error of the hostile inputs."""
    found: list[tuple[str, str]] = []

    def record(where: str, call: Any) -> None:
        result = outcome(call, what=where)
        if isinstance(result, ToolLensError):
            found.append((where, str(result)))
        elif hasattr(result, "view_errors"):
            found.extend((f"{where}[{k}]", v) for k, v in result.view_errors.items())

    targets = [*(i.build for i in CALLABLES if i.id not in _SLOW)]
    targets += [lambda: _opaque_tool, lambda: _opaque_output]
    for index, build in enumerate(targets):
        target = build()
        record(f"function_schema#{index}", lambda t=target: function_schema(t))
        record(f"lint#{index}", lambda t=target: lint(t))
        record(f"report#{index}", lambda t=target: report(t))
    for inp in SCHEMAS:
        schema = inp.build()
        record(f"report({inp.id})", lambda s=schema: report(s))
    for tp in ODD_OUTPUT_TYPES:
        record(f"output_schema({tp!r})", lambda t=tp: output_schema(t))
    return found


def test_no_error_quotes_pydantic_advice() -> None:
    messages = _messages()
    # The corpus does reach pydantic's schema failures (else this test would prove nothing).
    assert sum("no JSON schema is known for" in text for _, text in messages) >= 5
    leaks = [
        (where, text)
        for where, text in messages
        if any(marker in text for marker in PYDANTIC_ADVICE)
    ]
    assert leaks == []


def test_an_unknown_type_names_the_type_in_our_words() -> None:
    with pytest.raises(ToolLensError) as refused:
        function_schema(_opaque_tool)
    assert refused.value.parameter == "thing"
    assert "_Opaque" in str(refused.value)
    assert "arbitrary_types_allowed" not in str(refused.value)
    assert "arbitrary_types_allowed" in str(refused.value.__cause__)  # chained, not lost
