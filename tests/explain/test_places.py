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
