"""The callable shapes people write (issue 13), each through every front end.

One table, ``SHAPES``, names a callable in ``tests/cli_fixtures/shapes.py`` and what a model
must receive for it, or the refusal it must get. Every row runs through ``function_schema``,
``report()`` (every view rendered), the explorer (headless) and the command line, so the
library and the front ends cannot disagree.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from support import CLI_FIXTURES
from toollens import SchemaConstructionError, StrictSchemaError, function_schema, report
from toollens.cli import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, main
from toollens.core.output import output_schema
from toollens.jupyter.explorer import Explorer
from toollens.render.html import render_html
from toollens.render.text import VIEWS, render_text, render_view
from toollens.targets import resolve_target

FIXTURES = CLI_FIXTURES


@dataclass(frozen=True)
class Shape:
    """One callable shape and what every front end must make of it.

    ``params`` are the properties the model gets (``None``: the shape is refused with
    ``refusal`` in the message). ``call`` is an argument object and the result calling the
    target with the rebuilt arguments must give.
    """

    target: str
    params: tuple[str, ...] | None = None
    refusal: str | None = None
    output: str = "wrapped"
    description: str | None = None
    param_docs: dict[str, str] = field(default_factory=dict)
    strict_refused: bool = False
    call: tuple[dict[str, Any], Any] | None = None


DOUBLE = "Double a whole number and return the result to the caller."
NUMBER_DOC = {"number": "The whole number to double."}

SHAPES = [
    # 1. no return annotation: plain text, nothing fails
    Shape("no_return_annotation", ("city",), output="plain text (no return annotation)",
          call=({"city": "Oslo"}, "Oslo")),
    # 2. `-> None`: plain text as well
    Shape("returns_none", ("city",), output="plain text", call=({"city": "Oslo"}, None)),
    # 3. **kwargs: refused by strict conversion only
    Shape("with_kwargs", ("city", "options"), output="plain text", strict_refused=True),
    # 4. methods read from the class
    Shape("Search.run", refusal="pass the bound method (Search().run)"),
    Shape("Search.static_run", ("query",), output="plain text", call=({"query": "q"}, "q")),
    Shape("Search.class_run", ("query",), output="plain text", call=({"query": "q"}, "q")),
    Shape("bound_run", ("query",), output="plain text", call=({"query": "q"}, "q")),
    # 5. callable objects
    Shape("static_call", ("number",), description=DOUBLE, param_docs=NUMBER_DOC,
          call=({"number": 3}, 6)),
    Shape("class_call", ("number",), description=DOUBLE, param_docs=NUMBER_DOC,
          call=({"number": 3}, 6)),
    Shape("wrapped_call", ("number",), description=DOUBLE, param_docs=NUMBER_DOC,
          call=({"number": 3}, 6)),
    Shape("signature_call", ("number",), description=DOUBLE, param_docs=NUMBER_DOC,
          call=({"number": 3}, 6)),
    Shape("documented_call", ("number",), description=DOUBLE, param_docs=NUMBER_DOC,
          call=({"number": 3}, 6)),
    Shape("call_only_doc", ("number",), description=DOUBLE, param_docs=NUMBER_DOC,
          call=({"number": 3}, 6)),
    Shape("nested_type_tool", ("payload",), output="plain text",
          call=({"payload": {"title": "memo", "size": 3}}, "memo")),
    Shape("updated_wrapper", ("amount", "currency"), output="plain text",
          description="Convert an amount of money into another currency.",
          call=({"amount": "2.5", "currency": "EUR"}, "2.5 EUR")),
    Shape("async_call", ("query", "page"), call=({"query": "q", "page": 2}, ["q"])),
    Shape("dispatch_call", refusal="dispatches on the type of its first argument"),
    Shape("descriptor_call", refusal="is a _Passthrough descriptor"),
    Shape("raising_doc_tool", refusal="reading the docstring of RaisingDocTool raised"),
    # 6. issue 27: a wraps wrapper keeping self; a __signature__ the code cannot bind
    Shape("keeps_receiver_call", ("value",), description="Triple a whole number and return "
          "the result to the caller.", param_docs={"value": "The whole number to triple."},
          call=({"value": 3}, 9)),
    Shape("signature_elsewhere", refusal="does not bind to the code Python runs"),
]  # fmt: skip

ACCEPTED = [pytest.param(s, id=s.target) for s in SHAPES if s.params is not None]
REFUSED = [pytest.param(s, id=s.target) for s in SHAPES if s.params is None]
ALL = [pytest.param(s, id=s.target) for s in SHAPES]


def load(shape: Shape) -> Any:
    return resolve_target(f"shapes:{shape.target}", cwd=FIXTURES)


def cli(*argv: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    monkeypatch.chdir(FIXTURES)
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------------ function_schema


@pytest.mark.parametrize("shape", ACCEPTED)
def test_function_schema(shape: Shape) -> None:
    target = load(shape)
    if shape.strict_refused:
        with pytest.raises(StrictSchemaError) as refused:
            function_schema(target)
        assert refused.value.pointer == "/properties/options"
        assert refused.value.parameter == "options"
    fs = function_schema(target, strict=not shape.strict_refused)
    assert tuple(fs.json_schema["properties"]) == shape.params
    assert "self" not in fs.json_schema["properties"]
    assert "cls" not in fs.json_schema["properties"]
    assert fs.output.label == shape.output
    if shape.description is not None:
        assert fs.description == shape.description
    for name, doc in shape.param_docs.items():
        assert fs.parameter(name).description == doc


@pytest.mark.parametrize("shape", [s for s in ACCEPTED if s.values[0].call is not None])
def test_the_rebuilt_call_reaches_the_code(shape: Shape) -> None:
    assert shape.call is not None
    target = load(shape)
    fs = function_schema(target)
    args, kwargs = fs.to_call_args(fs.validate_arguments(json.dumps(shape.call[0])))
    result = target(*args, **kwargs)
    if inspect.iscoroutine(result):
        result = asyncio.run(result)
    assert result == shape.call[1]


@pytest.mark.parametrize("shape", REFUSED)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_refusals_say_what_to_do(shape: Shape, strict: bool) -> None:
    with pytest.raises(SchemaConstructionError) as refused:
        function_schema(load(shape), strict=strict)
    assert not isinstance(refused.value, StrictSchemaError)
    assert shape.refusal is not None
    assert shape.refusal in str(refused.value)
    assert refused.value.hint


def test_unreadable_docstring_is_ignored_when_docstrings_are_off() -> None:
    target = resolve_target("shapes:raising_doc_tool", cwd=FIXTURES)
    fs = function_schema(target, use_docstring_info=False)
    assert tuple(fs.json_schema["properties"]) == ("number",)
    assert fs.description is None
    with pytest.raises(SchemaConstructionError) as refused:
        function_schema(target)
    assert isinstance(refused.value.__cause__, RuntimeError)


def test_partial_binding_self_is_not_refused() -> None:
    import functools

    search = resolve_target("shapes:Search", cwd=FIXTURES)
    fs = function_schema(functools.partial(search.run, search()))
    assert tuple(fs.json_schema["properties"]) == ("query",)


def test_none_and_none_type_agree_and_explain_themselves() -> None:
    assert output_schema(None) == output_schema(type(None))
    assert output_schema(type(None)).json_schema is None
    unannotated = output_schema(inspect.Signature.empty)
    assert unannotated.is_plain_text
    assert unannotated.json_schema is None
    assert "no return annotation" in unannotated.explain()
    assert unannotated.label == "plain text (no return annotation)"
    assert output_schema(None).label == "plain text"


# --------------------------------------------------------------------------------- report


@pytest.mark.parametrize("shape", ACCEPTED)
def test_report_renders_every_view(shape: Shape) -> None:
    rep = report(load(shape))
    expected_errors = {"strict", "provider"} if shape.strict_refused else set()
    assert set(rep.view_errors) == expected_errors
    assert tuple(rep.raw_schema["properties"]) == shape.params
    assert rep.output is not None
    assert rep.output.label == shape.output
    for view in VIEWS:
        text = render_view(rep, view)
        if view in ("signature", "metadata"):
            for name in shape.params or ():
                assert name in text
    if shape.strict_refused:
        assert "cannot be expressed in a strict schema" in render_view(rep, "strict")
    html = render_html(rep)
    assert "self" not in rep.raw_schema["properties"]
    assert shape.output in html
    assert render_text(rep)


@pytest.mark.parametrize("shape", REFUSED)
def test_report_refuses_with_the_engine_message(shape: Shape) -> None:
    with pytest.raises(SchemaConstructionError, match=_escaped(shape.refusal)):
        report(load(shape))


def _escaped(text: str | None) -> str:
    import re

    return re.escape(text or "")


# ------------------------------------------------------------------------------- explorer


@pytest.mark.parametrize("shape", REFUSED)
def test_explorer_refuses_with_the_engine_message(shape: Shape) -> None:
    # A target with no editable source is read-only: a refusal is raised, not left blank.
    with pytest.raises(SchemaConstructionError, match=_escaped(shape.refusal)):
        Explorer(load(shape), debounce=0)


@pytest.mark.parametrize("shape", ACCEPTED)
def test_explorer(shape: Shape) -> None:
    explorer = Explorer(load(shape), debounce=0)
    try:
        assert explorer.banner == ""  # the front end shows the banner only when it has text
        assert "No views yet" not in explorer.banner
        for name in shape.params:
            assert name in explorer.panels["signature"]
            assert name in explorer.panels["metadata"]
        assert shape.output in explorer.panels["output"]
        strict_panel = explorer.panels["strict"]
        assert ("cannot be expressed in a strict schema" in strict_panel) == shape.strict_refused
    finally:
        explorer.close()


# --------------------------------------------------------------------------- command line


@pytest.mark.parametrize("shape", ALL)
def test_command_line_show(shape: Shape, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = cli("show", f"shapes:{shape.target}", "--format", "json",
                         monkeypatch=monkeypatch)  # fmt: skip
    if shape.params is None:
        assert code == EXIT_ERROR
        assert out == ""
        assert shape.refusal is not None
        assert shape.refusal in err
        assert len(err.splitlines()) == 1
        return
    assert code == EXIT_OK, err
    data = json.loads(out)
    assert tuple(data["views"]["raw"]["properties"]) == shape.params
    assert [p["name"] for p in data["views"]["signature"]] == list(shape.params)
    assert ("strict" in data["view_errors"]) == shape.strict_refused
    assert "output" not in data["view_errors"]


@pytest.mark.parametrize("shape", ACCEPTED)
def test_command_line_check(shape: Shape, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = cli("check", f"shapes:{shape.target}", "--format", "json",
                         monkeypatch=monkeypatch)  # fmt: skip
    data = json.loads(out)
    if shape.strict_refused:
        assert code == EXIT_FINDINGS, err
        assert "strict" in data["view_errors"]
    else:
        # a clean tool passes, whatever its return annotation (issue 13, item 1)
        assert code == EXIT_OK, (out, err)
        assert data["ok"] is True
