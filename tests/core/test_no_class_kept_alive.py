"""Caches never keep the author's classes alive, and Apply leaves no source behind.

Live editing defines new classes on every keystroke; a cache keyed on class objects (or a
linecache entry per Apply) would grow for as long as the notebook runs.
"""

from __future__ import annotations

import gc
import linecache
import weakref
from typing import Any

import pytest
from pydantic import BaseModel

from toollens import output_schema
from toollens.core.metadata import precedence
from toollens.jupyter.live import apply_source


def _collected(ref: weakref.ref[Any]) -> bool:
    gc.collect()
    return ref() is None


def test_output_schemas_do_not_keep_the_type_alive() -> None:
    class Answer(BaseModel):
        text: str

    first = output_schema(Answer).json_schema
    assert output_schema(Answer).json_schema == first  # built once, served again
    ref = weakref.ref(Answer)
    del Answer
    assert _collected(ref)


def test_constraint_field_names_do_not_keep_the_class_alive() -> None:
    # (A class used inside Annotated[...] is also held by typing's own cache for a while,
    # so the metadata cache is checked on its own here.)
    namespace: dict[str, Any] = {}
    exec("import dataclasses\n@dataclasses.dataclass\nclass Limit:\n    le: int\n", namespace)
    assert precedence.dataclass_field_names(namespace["Limit"]) == ("le",)
    ref = weakref.ref(namespace["Limit"])
    namespace.clear()
    assert _collected(ref)


@pytest.mark.parametrize("count", [20])
def test_apply_leaves_only_live_sources_in_linecache(count: int) -> None:
    namespace: dict[str, Any] = {"__name__": "__main__"}
    names = [f"<toollens-test-apply-{i}>" for i in range(count)]
    for i, filename in enumerate(names):
        source = f"def tool(x: int) -> int:\n    return x + {i}\n"
        assert apply_source(source, namespace=namespace, filename=filename, target_name="tool").ok
    gc.collect()
    assert [name for name in names if name in linecache.cache] == [names[-1]]
    del namespace["tool"]
    gc.collect()
    assert names[-1] not in linecache.cache
