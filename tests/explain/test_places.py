"""Reading real error texts (``error_texts.py``: each from a public thread, cited there)."""

from __future__ import annotations

import pytest
from error_texts import ERROR_TEXTS, ErrorText

from toollens.explain import UnreadableError, read_error


@pytest.mark.parametrize("case", ERROR_TEXTS, ids=[c.id for c in ERROR_TEXTS])
def test_each_place_of_a_real_error_is_read(case: ErrorText) -> None:
    places = read_error(case.text)
    got = [(p.index, p.name, p.path, p.keyword, p.part) for p in places]
    want = [(e.index, e.name, e.path, e.keyword, e.part) for e in case.places]
    assert got == want
    assert {p.author for p in places} == {case.author}
    if case.client is not None:
        assert {p.client for p in places} == {case.client}
    if case.provider is not None:
        assert {p.provider for p in places} == {case.provider}


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Request contains an invalid argument.",  # Gemini's bare 400 names no place
        "something went wrong",
    ],
)
def test_a_text_without_a_known_shape_is_refused_with_what_to_do(text: str) -> None:
    with pytest.raises(UnreadableError, match="no provider or client error shape"):
        read_error(text)


def test_a_place_repeated_in_one_body_is_one_place() -> None:
    # Gemini's body says each violation twice: in "message" and in "fieldViolations"
    text = (
        'Unknown name "const" at \'tools[0].function_declarations[0].parameters.properties[3]'
        '.value\': Cannot find field.\n"field": "x", "description": "Invalid JSON payload '
        'received. Unknown name \\"const\\" at \'tools[0].function_declarations[0].parameters'
        ".properties[3].value': Cannot find field.\""
    )
    assert len(read_error(text)) == 1


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a client printing only OpenAI's context and reason: one place, no function named
        ("In context=('properties', 'texts'), array schema missing items.",
         (None, None, ("properties", "texts"), "items", "parameters")),
        # the reason inside the whole answer is the same place, read once
        ("Invalid schema for function 'f': In  context=('properties','a'),  array schema "
         "missing items.", (None, "f", ("properties", "a"), "items", "parameters")),
        ("Missing required parameter: 'tools[2].name'.", (2, None, None, "name", "tool")),
        ("Unable to submit request because `git_create_branch` functionDeclaration "
         "`parameters.base.ref` schema specified other fields alongside any_of.",
         (None, "git_create_branch", ("properties", "base", "properties", "ref"), "anyOf",
          "parameters")),
        ("Error validating the mcp_x_get tool:  Error: tool parameters array type must have "
         "items.", (None, "mcp_x_get", None, "items", "parameters")),
        # a terminal's wrapped line, read joined
        ('API Error: 400\n {"message":"tools.4.custom.input_schem\n  a.properties: Property '
         "keys should match pattern'\"}", (4, None, ("properties",), "properties",
                                           "parameters")),
    ],
)  # fmt: skip
def test_the_shapes_clients_print_are_read(text: str, want: tuple[object, ...]) -> None:
    places = read_error(text)
    assert [(p.index, p.name, p.path, p.keyword, p.part) for p in places] == [want]
