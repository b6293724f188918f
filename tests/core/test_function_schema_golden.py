"""Golden files for the schemas of the callable corpus (reviewable JSON under tests/golden)."""

from __future__ import annotations

from typing import Any

import pytest

from conftest import check_golden
from support import corpus_callables as corpus
from toollens import ToolLensError
from toollens.core.function_schema import FunctionSchema, function_schema
from toollens.core.metadata import MISSING


def summary(fs: FunctionSchema) -> dict[str, Any]:
    """Everything a reviewer wants to see for one tool, in a stable JSON shape."""
    return {
        "name": fs.name,
        "description": fs.description,
        "strict": fs.strict,
        "context_parameter": fs.context_parameter,
        "docstring_style": fs.docstring.guess.style.value if fs.docstring.guess else None,
        "parameters": [
            {
                "name": p.name,
                "kind": p.kind.value,
                "annotation": p.annotation_text,
                "default": None if p.default is MISSING else repr(p.default),
                "required": p.required,
                "description": p.description,
                "constraints": {k: repr(v) for k, v in p.constraints.items()},
                "alias": p.alias,
                "candidates": [
                    [c.attribute, c.source.value, repr(c.value), c.won] for c in p.candidates
                ],
            }
            for p in fs.parameters
        ],
        "raw_json_schema": fs.raw_json_schema,
        "json_schema": fs.json_schema,
        "strict_changes": [[c.pointer, c.rule] for c in fs.strict_changes],
    }


CASES = sorted(corpus.CORPUS)


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("strict", [True, False], ids=["strict", "lax"])
def test_golden_schema(name: str, strict: bool) -> None:
    try:
        result: Any = summary(function_schema(corpus.CORPUS[name], strict=strict))
    except ToolLensError as exc:
        result = {"error": type(exc).__name__, "message": str(exc)}
    check_golden(f"function_schema/{name}.{'strict' if strict else 'lax'}.json", result)


def test_corpus_is_large_enough() -> None:
    assert len(CASES) >= 40
