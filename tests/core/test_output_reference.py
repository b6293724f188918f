"""Output schemas against the reference: openai-agents 0.24.0 ``AgentOutputSchema``.

Every type of the corpus in ``test_output`` is built by both, strict and non-strict, and the
schemas, paths and validation results are compared. The deliberate differences are listed
here, each with a test that pins it down.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from test_output import CORPUS, Case

from toollens.core.errors import STRICT_OFF, ModelBehaviorError, StrictSchemaError
from toollens.core.output import OutputPath, output_schema

agent_output = pytest.importorskip("agents.agent_output")
agents_exceptions = pytest.importorskip("agents.exceptions")

pytestmark = pytest.mark.reference

# Names differ on purpose where the reference's format is unclear (see the README):
# - unions are written `A | B` and `A | None`, not `Union[A, NoneType]` / `UnionType[A, B]`;
# - `Annotated[T, ...]` is named after T, not after the repr of its metadata;
# - the plain-text path is named `str` also when no type was declared (reference: "None");
# - `None` and `...` are spelled as in annotations, not `NoneType` and `Ellipsis`.
NAME_DIFFERENCES = {
    "none": "None",
    "none_type": "NoneType",
    "tuple_variadic": "tuple[int, Ellipsis]",
    "optional_model": "Union[Foo, NoneType]",
    "union_models": "Union[Foo, Cat]",
    "union_pipe": "UnionType[int, str]",
    "optional_int": "UnionType[int, NoneType]",
    "nested_generic": "dict[str, list[Union[Foo, NoneType]]]",
}
# `type(None)` (a function's `-> None`) takes the plain-text path, as `None` does; the
# reference wraps it as {"response": null}.
PATH_DIFFERENCES = {"none_type"}
# Types whose reference name starts with this prefix (the rest is an unstable metadata repr).
NAME_PREFIX_DIFFERENCES = {"discriminated": "Annotated[", "annotated": "Annotated["}

CASE_MODES = [
    pytest.param(case, strict, id=f"{case.id}-{'strict' if strict else 'lax'}")
    for case in CORPUS
    for strict in (True, False)
]
STRUCTURED = [pytest.param(c, id=c.id) for c in CORPUS if c.path is not OutputPath.PLAIN_TEXT]


def reference(case: Case, strict: bool) -> Any:
    return agent_output.AgentOutputSchema(case.tp, strict_json_schema=strict)


@pytest.mark.parametrize(("case", "strict"), CASE_MODES)
def test_schema_and_path_match_reference(case: Case, strict: bool) -> None:
    if strict and not case.strict_ok:
        with pytest.raises(agents_exceptions.UserError, match="output type is not valid"):
            reference(case, strict)
        with pytest.raises(StrictSchemaError, match="cannot be strict"):
            output_schema(case.tp, strict=strict)
        return
    ref = reference(case, strict)
    ours = output_schema(case.tp, strict=strict)
    if case.id in PATH_DIFFERENCES:
        assert ours.is_plain_text != ref.is_plain_text()
        return
    assert ours.is_plain_text == ref.is_plain_text()
    assert ours.is_wrapped == ref._is_wrapped
    assert ours.strict == ref.is_strict_json_schema()
    if ref.is_plain_text():
        # Difference: no schema is data (None), where the reference raises UserError.
        with pytest.raises(agents_exceptions.UserError, match="plain text"):
            ref.json_schema()
        assert ours.json_schema is None
    else:
        assert ours.json_schema == ref.json_schema()
        if not strict:
            assert ours.raw_json_schema == ref.json_schema()


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CORPUS])
def test_names_match_reference_where_formats_agree(case: Case) -> None:
    ours = output_schema(case.tp, strict=False).name
    theirs = agent_output.AgentOutputSchema(case.tp, strict_json_schema=False).name()
    if case.id in NAME_DIFFERENCES:
        assert theirs == NAME_DIFFERENCES[case.id]
        assert ours != theirs
    elif case.id in NAME_PREFIX_DIFFERENCES:
        assert theirs.startswith(NAME_PREFIX_DIFFERENCES[case.id])
        assert ours == case.name
    else:
        assert ours == theirs


@pytest.mark.parametrize(
    ("case", "strict"),
    [
        p
        for p in CASE_MODES
        if p.values[0].path is not OutputPath.PLAIN_TEXT
        and (p.values[0].strict_ok or not p.values[1])
    ],
)
def test_validation_matches_reference(case: Case, strict: bool) -> None:
    ref = reference(case, strict)
    ours = output_schema(case.tp, strict=strict)
    assert ours.validate_json(case.valid) == ref.validate_json(case.valid)
    with pytest.raises(agents_exceptions.ModelBehaviorError):
        ref.validate_json(case.invalid)
    with pytest.raises(ModelBehaviorError):
        ours.validate_json(case.invalid)


@pytest.mark.parametrize(
    ("strict", "text"),
    [
        pytest.param(True, '{"response": "25"}', id="strict"),
        pytest.param(False, '{"response": "25"}', id="lax"),
    ],
)
def test_coercion_matches_reference(strict: bool, text: str) -> None:
    ref = agent_output.AgentOutputSchema(int, strict_json_schema=strict)
    ours = output_schema(int, strict=strict)
    if strict:
        with pytest.raises(agents_exceptions.ModelBehaviorError):
            ref.validate_json(text)
        with pytest.raises(ModelBehaviorError):
            ours.validate_json(text)
    else:
        assert ours.validate_json(text) == ref.validate_json(text) == 25


# --- deliberate differences, one test each ------------------------------------------------


def test_difference_plain_text_answer_is_returned_as_written() -> None:
    # The reference validates str output as a JSON string literal; the runner never calls it
    # for plain text, and toollens returns what the model wrote.
    ref = agent_output.AgentOutputSchema(str)
    with pytest.raises(agents_exceptions.ModelBehaviorError):
        ref.validate_json("hello")
    assert output_schema(str).validate_json("hello") == "hello"


def test_difference_none_type_is_plain_text() -> None:
    # `-> None` means the result reaches the model as text; the reference wraps NoneType.
    ref = agent_output.AgentOutputSchema(type(None))
    assert ref._is_wrapped
    assert not ref.is_plain_text()
    assert output_schema(type(None)) == output_schema(None)
    assert output_schema(type(None)).is_plain_text


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('{"response": NaN}', id="nan"),
        pytest.param('{"response": Infinity}', id="infinity"),
        pytest.param('{"response": 1e400}', id="overflow"),
    ],
)
def test_difference_non_finite_numbers_are_rejected(text: str) -> None:
    # Not JSON (RFC 8259) and no schema can describe them; the reference accepts them.
    value = agent_output.AgentOutputSchema(float).validate_json(text)
    assert not math.isfinite(value)
    with pytest.raises(ModelBehaviorError):
        output_schema(float).validate_json(text)


def test_difference_errors_say_where_and_what() -> None:
    # The reference hides details by default ("Invalid JSON when parsing model output").
    with pytest.raises(agents_exceptions.ModelBehaviorError) as theirs:
        agent_output.AgentOutputSchema(list[int]).validate_json('{"response": [1, "x"]}')
    assert str(theirs.value) == "Invalid JSON when parsing model output"
    with pytest.raises(ModelBehaviorError) as ours:
        output_schema(list[int]).validate_json('{"response": [1, "x"]}')
    assert ours.value.pointer == "/response/1"


def test_difference_strict_error_names_the_type_and_keeps_the_pointer() -> None:
    with pytest.raises(agents_exceptions.UserError) as theirs:
        agent_output.AgentOutputSchema(dict[str, int])
    assert "AgentOutputSchema(YourType, strict_json_schema=False)" in str(theirs.value)
    with pytest.raises(StrictSchemaError) as ours:
        output_schema(dict[str, int])
    assert ours.value.pointer == ""
    assert ours.value.hint is not None
    assert STRICT_OFF in ours.value.hint
