"""The edit-to-edit caches never serve a stale answer: cached and uncached explorers agree.

Two headless explorers on the same tool take the same edits and toolbar changes; one runs
with the caches of ``toollens.core.memo`` (remembered annotations, the change list's loaded
baselines), the other inside ``memo_disabled()``. After every step their synced views, change
lists, banners and notes must be equal. A table covers the edits an author makes (a
docstring line, an ``Annotated`` constraint, a default, a type, a broken then repaired
source, strict and provider toggles), and hypothesis draws random sequences of them.
"""

from __future__ import annotations

import contextlib
import json
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.hostile import module_from_source
from toollens.core import hint_memo
from toollens.core.memo import memo_disabled
from toollens.jupyter.explorer import Explorer

SOURCE = '''
from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

LIMIT = 7


class Address(BaseModel):
    """A postal address."""

    street: str
    city: str = Field(description="City or town.")


def lookup(
    query: Annotated[str, "What to look for."],
    limit: Annotated[int, Field(ge=0, le=LIMIT, description="How many.")],
    ratio: Annotated[float, Field(gt=0.0, lt=1.0)] = 0.5,
    ship_to: list[Address] | None = None,
    order: Literal["asc", "desc"] = "asc",
) -> str:
    """Look things up.

    Args:
        query: The free-text query.
        limit: How many results to return.
        ratio: A ratio between 0 and 1.
        ship_to: Where to send it.
        order: The sort order.
    """
    return "ok"
'''

Step = Callable[[Explorer], None]


def _text(old: str, new: str) -> Step:
    def edit(ex: Explorer) -> None:
        ex.editor.value = ex.editor.value.replace(old, new, 1)

    edit.__name__ = f"edit {old!r} -> {new!r}"
    return edit


def _toolbar(name: str, value: object) -> Step:
    def toggle(ex: Explorer) -> None:
        setattr(ex, name, value)

    toggle.__name__ = f"{name}={value!r}"
    return toggle


STEPS: dict[str, Step] = {
    "docstring line": _text("The free-text query.", "The free-text query, typed."),
    "docstring back": _text("The free-text query, typed.", "The free-text query."),
    "Annotated constraint": _text("le=LIMIT", "le=14"),
    "constraint back": _text("le=14", "le=LIMIT"),
    "Annotated description": _text('"What to look for."', '"What to find."'),
    "default": _text("= 0.5", "= 0.25"),
    "type": _text("order: Literal", "order: str | Literal"),
    "type back": _text("order: str | Literal", "order: Literal"),
    "new parameter": _text('= "asc",', '= "asc",\n    extra: bool = False,'),
    "broken": _text("-> str:", "-> str"),
    "repaired": _text("-> str\n", "-> str:\n"),
    "strict off": _toolbar("strict", False),
    "strict on": _toolbar("strict", True),
    "provider gemini": _toolbar("provider", "gemini"),
    "provider anthropic": _toolbar("provider", "anthropic"),
    "provider openai": _toolbar("provider", "openai-chat"),
    "changes since applied": _toolbar("changes_since", "applied"),
    "changes since opened": _toolbar("changes_since", "opened"),
}


def _views(ex: Explorer) -> dict[str, str]:
    values = {key: str(html) for key, html in ex.panels.items()}
    for extra in ("changes", "banner", "note", "source"):
        values[extra] = str(getattr(ex, extra))
    return values


@contextmanager
def _pair() -> Iterator[tuple[Explorer, Explorer]]:
    hint_memo.clear()
    func = module_from_source(textwrap.dedent(SOURCE)).lookup
    cached = Explorer(func, debounce=0)
    with memo_disabled():
        fresh = Explorer(func, debounce=0)
    try:
        yield cached, fresh
    finally:
        cached.close()
        fresh.close()


def _run(cached: Explorer, fresh: Explorer, names: list[str]) -> None:
    for index, name in enumerate(names):
        STEPS[name](cached)
        cached.flush()
        with memo_disabled():
            STEPS[name](fresh)
            fresh.flush()
        a, b = _views(cached), _views(fresh)
        differ = [key for key in a if a[key] != b[key]]
        assert not differ, f"step {index} ({name}): {differ} differ"


SEQUENCES = {
    "typing a docstring and back": ["docstring line", "docstring back", "docstring line"],
    "constraint tightened and restored": ["Annotated constraint", "constraint back"],
    "type changed and restored": ["type", "type back", "default"],
    "broken source then repaired": ["broken", "repaired", "docstring line"],
    "toolbar between edits": [
        "strict off",
        "docstring line",
        "strict on",
        "provider gemini",
        "Annotated constraint",
        "provider anthropic",
        "provider openai",
    ],
    "baseline switched": ["Annotated constraint", "changes since applied", "changes since opened"],
    "a parameter added": ["new parameter", "Annotated description", "docstring line"],
}


@pytest.mark.parametrize("names", list(SEQUENCES.values()), ids=list(SEQUENCES))
def test_cached_and_uncached_explorers_agree(names: list[str]) -> None:
    with _pair() as (cached, fresh):
        assert _views(cached) == _views(fresh)
        _run(cached, fresh, names)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=8))
def test_random_edit_sequences_agree(names: list[str]) -> None:
    with _pair() as (cached, fresh):
        _run(cached, fresh, names)


def test_apply_moves_the_applied_baseline_alike() -> None:
    with _pair() as (cached, fresh):
        _run(cached, fresh, ["Annotated constraint"])
        assert cached.apply()
        assert fresh.apply()
        _run(cached, fresh, ["changes since applied", "docstring line", "constraint back"])


CELL = SOURCE.replace("def lookup(", "def lookup(  # the whole cell is edited", 1)


@pytest.mark.parametrize(
    ("old", "new", "shown"),
    [
        ("LIMIT = 7", "LIMIT = 9", '"maximum":9'),  # a name the annotation uses, rebound
        ("    street: str\n", "    street: str\n    zip_code: str\n", '"zip_code"'),  # a class
    ],
    ids=["constant rebound", "model redefined"],
)
def test_an_edit_outside_the_annotations_is_seen(old: str, new: str, shown: str) -> None:
    """Same annotation texts, other objects behind their names: resolved afresh."""
    hint_memo.clear()
    module = module_from_source(textwrap.dedent(SOURCE))
    text = textwrap.dedent(CELL)
    cached = Explorer(module.lookup, debounce=0, source=text)
    with memo_disabled():
        fresh = Explorer(module.lookup, debounce=0, source=text)
    try:
        for ex in (cached, fresh):
            with memo_disabled() if ex is fresh else contextlib.nullcontext():
                ex.editor.value = ex.editor.value.replace(old, new, 1)
                ex.flush()
        assert _views(cached) == _views(fresh)
        assert cached.report is not None
        assert shown in json.dumps(cached.report.schema, separators=(",", ":"))
    finally:
        cached.close()
        fresh.close()
