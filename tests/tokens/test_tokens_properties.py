"""Properties of token counts: monotone in parameters, deterministic, parts add up."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("tiktoken")

from toollens.tokens import tokens

MODELS = ("gpt-4", "gpt-4o", "claude-sonnet-4-5", "gemini-2.5-flash")
names = st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)
text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
leaf = st.fixed_dictionaries(
    {"type": st.sampled_from(["string", "integer", "number", "boolean"])},
    optional={"description": text, "enum": st.lists(names, min_size=1, max_size=4)},
)
schemas = st.recursive(
    leaf,
    lambda inner: st.one_of(
        st.fixed_dictionaries({"type": st.just("array"), "items": inner}),
        st.fixed_dictionaries(
            {
                "type": st.just("object"),
                "properties": st.dictionaries(names, inner, min_size=1, max_size=3),
            }
        ),
    ),
    max_leaves=6,
)
properties = st.dictionaries(names, schemas, max_size=4)


def tool(props: dict[str, Any], description: str) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": "probe",
            "description": description,
            "parameters": {"type": "object", "properties": props},
        },
    }


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    props=properties,
    extra=names,
    extra_schema=schemas,
    description=text,
    model=st.sampled_from(MODELS),
)
def test_adding_a_parameter_never_lowers_the_count(
    props: dict[str, Any], extra: str, extra_schema: dict[str, Any], description: str, model: str
) -> None:
    if extra in props:
        return
    before = tokens(tool(props, description), model).total
    after = tokens(tool({**props, extra: extra_schema}, description), model).total
    assert after >= before


@SETTINGS
@given(props=properties, description=text, model=st.sampled_from(MODELS))
def test_counts_are_deterministic_and_parts_add_up(
    props: dict[str, Any], description: str, model: str
) -> None:
    first = tokens(tool(props, description), model)
    again = tokens(tool(props, description), model)
    assert first == again
    assert first.to_json() == again.to_json()
    (only,) = first.tools
    assert only.tokens == sum(p.tokens for p in only.parts)
    assert first.total == first.overhead + only.tokens
