"""The constraint and alias a candidate calls the winner are the ones pydantic sends.

pydantic merges a ``= Field(...)`` default with ``Annotated[..., Field(...)]`` differently
for attributes (the default's ``alias`` wins) and for constraints (since 2.12 the
``Annotated`` value wins a clash). The oracle here is pydantic's own schema.
"""

from __future__ import annotations

from typing import Annotated, Any

import annotated_types
import pytest
from pydantic import Field

from toollens import function_schema

KEYWORD = {"le": "maximum", "ge": "minimum", "max_length": "maxLength", "min_length": "minLength"}


def clash_default_and_annotated(limit: Annotated[int, Field(le=100)] = Field(10, le=50)) -> str:
    """Clash on le."""
    return ""


def default_only_sets_one(limit: Annotated[int, Field(le=100)] = Field(10, ge=1)) -> str:
    """No clash."""
    return ""


def two_annotated_fields(limit: Annotated[int, Field(ge=1), Field(ge=3, le=9)] = 5) -> str:
    """The later Annotated Field wins."""
    return ""


def constraint_object_and_default(
    limit: Annotated[int, annotated_types.Le(20)] = Field(4, le=30),
) -> str:
    """An annotated-types object against the default."""
    return ""


def string_lengths(
    name: Annotated[str, Field(max_length=8)] = Field("a", max_length=3, min_length=1),
) -> str:
    """Lengths."""
    return ""


def aliases(limit: Annotated[int, Field(alias="lim")] = Field(1, alias="L")) -> str:
    """Alias clash."""
    return ""


CASES = [
    clash_default_and_annotated,
    default_only_sets_one,
    two_annotated_fields,
    constraint_object_and_default,
    string_lengths,
]


def _winners(fs: Any, name: str) -> dict[str, Any]:
    return {
        c.attribute: c.value
        for c in fs.parameter(name).candidates
        if c.won and c.attribute in KEYWORD
    }


@pytest.mark.parametrize("func", CASES, ids=lambda f: f.__name__)
def test_winning_constraints_are_what_pydantic_sends(func: Any) -> None:
    fs = function_schema(func, strict=False)
    (name,) = fs.json_schema["properties"]
    sent = fs.json_schema["properties"][name]
    winners = _winners(fs, name)
    assert winners, "every case offers a constraint"
    for attribute, value in winners.items():
        assert sent[KEYWORD[attribute]] == value, attribute
    assert {k: v for k, v in fs.parameter(name).constraints.items() if k in KEYWORD} == winners


def test_alias_winner_is_the_property_name_pydantic_sends() -> None:
    fs = function_schema(aliases, strict=False)
    (sent_name,) = fs.json_schema["properties"]
    (won,) = [c.value for c in fs.parameter("limit").candidates if c.attribute == "alias" and c.won]
    assert won == sent_name == "L"


def test_a_losing_constraint_names_the_source_that_beat_it() -> None:
    fs = function_schema(clash_default_and_annotated, strict=False)
    lost = [c for c in fs.parameter("limit").candidates if c.attribute == "le" and not c.won]
    assert len(lost) == 1
    (winner,) = [c for c in fs.parameter("limit").candidates if c.attribute == "le" and c.won]
    assert winner.source.label in lost[0].reason
