"""The real-world schema corpus the provider tests run on, and the providers' own SDK types.

The corpus (1,500 JSON Schemas from JSONSchemaBench, with valid and invalid instances) is
third-party data kept beside the repository, never inside it: ``../shared/corpora/`` from
the repository root (``TOOLLENS_CORPORA_DIR`` points elsewhere). Tests that need it skip
when it is absent, so a fresh clone still passes.
"""

from __future__ import annotations

import functools
import gzip
import json
import os
from pathlib import Path
from typing import Annotated, Any, get_args, get_origin

import pytest
from typing_extensions import NotRequired, Required, get_type_hints

from toollens.core.errors import ToolLensError

_REPO = Path(__file__).resolve().parents[2]
_NAME = "jsonschemabench-dev.json.gz"
# (name, schema, its strict result or None when strict conversion refuses it, the changes)
StrictResult = tuple[str, dict[str, Any], "dict[str, Any] | None", tuple[Any, ...]]


def corpus_path() -> Path:
    override = os.environ.get("TOOLLENS_CORPORA_DIR")
    base = Path(override) if override else _REPO.parent / "shared" / "corpora"
    return base / _NAME


@functools.cache
def _load() -> tuple[dict[str, Any], ...]:
    with gzip.open(corpus_path(), "rt", encoding="utf-8") as handle:
        return tuple(json.load(handle))


def corpus() -> tuple[dict[str, Any], ...]:
    """Every corpus item (``_name``, ``schema``, ``tests``); skips the test when absent."""
    if not corpus_path().is_file():
        pytest.skip(f"the schema corpus is not here ({_NAME}); see {__name__}")
    return _load()


@functools.cache
def _strict_results() -> tuple[StrictResult, ...]:
    from toollens.core.strict import explain_strict

    out = []
    for item in _load():
        try:
            strict, changes = explain_strict(item["schema"])
        except ToolLensError:
            strict, changes = None, []
        out.append((item["_name"], item["schema"], strict, tuple(changes)))
    return tuple(out)


def strict_results() -> tuple[StrictResult, ...]:
    """``(name, schema, strict result or None, changes)`` for every corpus schema, once."""
    corpus()
    return _strict_results()


def sample(items: tuple[Any, ...], every: int) -> list[Any]:
    """Every ``every``-th item: a fixed, spread-out sample that keeps a test fast."""
    return list(items[::every])


def check_typed_dict(value: Any, typed_dict: Any, where: str = "") -> None:
    """Assert ``value`` fits a TypedDict of an SDK: pydantic validation plus no unknown key.

    Pydantic ignores unknown keys of a TypedDict, so keys are compared here, recursively.
    """
    from pydantic import TypeAdapter

    TypeAdapter(typed_dict).validate_python(value)
    hints = get_type_hints(typed_dict, include_extras=True)
    unknown = set(value) - set(hints)
    assert not unknown, f"{where or '/'}: keys {sorted(unknown)} are not in {typed_dict.__name__}"
    wrappers = {Required, NotRequired, Annotated}
    for key, hint in hints.items():
        inner = hint
        while get_origin(inner) in wrappers:  # Required[X] -> X; a Union stays a Union (open)
            inner = get_args(inner)[0]
        if isinstance(value.get(key), dict) and hasattr(inner, "__total__"):
            check_typed_dict(value[key], inner, f"{where}/{key}")
