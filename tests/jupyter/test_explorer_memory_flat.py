"""Typing for a long time does not grow the kernel: object counts after N edit cycles.

A headless explorer takes the cycle an author types over and over (a word typed at the end
of a docstring line, key by key, then deleted; a new word each time, so nothing typed is
ever typed again). After a warm-up, a further run of cycles must leave the number of live
objects and the entries of the views' caches where they were: the caches keep what the last
two renders used (see ``toollens.core.memo``), not everything ever typed.
"""

from __future__ import annotations

import gc
import textwrap

from support.hostile import module_from_source
from toollens.core import memo
from toollens.jupyter.explorer import Explorer

PARAMS = 12
SLACK_OBJECTS = 200  # interpreter noise (interned strings, regex and typing caches)


def _source() -> str:
    params = ",\n    ".join(
        f'p{i}: Annotated[int, Field(ge=0, description="Field {i}.")]' for i in range(PARAMS)
    )
    docs = "\n".join(f"        p{i}: The value of slot {i}." for i in range(PARAMS))
    return (
        "from typing import Annotated\n\nfrom pydantic import Field\n\n\n"
        f'def tool(\n    {params},\n) -> str:\n    """Do it.\n\n    Args:\n{docs}\n    """\n'
        '    return "ok"\n'
    )


def _cycle(ex: Explorer, start: str, index: int) -> None:
    needle = f"The value of slot {index % PARAMS}."
    word = f" typed{index}x"
    for end in [*range(1, len(word) + 1), *range(len(word) - 1, -1, -1)]:
        ex.editor.value = start.replace(needle, needle + word[:end])
        ex.flush()


def _entries() -> int:
    return sum(len(cache) for cache in list(memo._CACHES))


def test_object_counts_stay_flat_while_typing() -> None:
    func = module_from_source(textwrap.dedent(_source())).tool
    ex = Explorer(func, debounce=0)
    start = ex.editor.value
    try:
        for index in range(15):
            _cycle(ex, start, index)
        gc.collect()
        objects, entries = len(gc.get_objects()), _entries()
        for index in range(15, 75):
            _cycle(ex, start, index)
        gc.collect()
        assert _entries() <= entries + 20, (entries, _entries())
        assert len(gc.get_objects()) <= objects + SLACK_OBJECTS, (objects, len(gc.get_objects()))
    finally:
        ex.close()
