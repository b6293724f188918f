"""Read a big module's tools in several processes; the result is the serial one, in order.

Listing a module's tools (:func:`~toollens.toolsets.modules.module_items`) is cheap and
deterministic; reading each one (its report) is the cost. The parent lists the items and
hands contiguous index ranges to worker processes; each worker imports the module (by
name, from the same directory), lists the same items, reads its range and returns the
entries without their reports (a report holds generated classes that cannot be pickled)
plus whatever ``check(entry)`` returns for each, computed next to the report. The parent
joins the ranges in index order and runs the cross-tool rules once, so the toolset, its
findings and the order are the serial run's.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

from toollens.consumers.workers import usable_cores
from toollens.core.errors import ToolLensError
from toollens.targets import load_module
from toollens.toolsets.entries import Tool
from toollens.toolsets.model import Toolset
from toollens.toolsets.sources import toolset

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions

__all__ = ["chunk_ranges", "parallel_module_toolset"]

_T = TypeVar("_T")
_CHUNKS_PER_WORKER = 4  # smaller chunks even out tools of very different cost


def chunk_ranges(count: int, workers: int) -> list[range]:
    """Contiguous ranges covering ``range(count)``, about ``_CHUNKS_PER_WORKER`` per worker."""
    pieces = max(1, min(count, workers * _CHUNKS_PER_WORKER))
    size, extra = divmod(count, pieces)
    ranges, start = [], 0
    for piece in range(pieces):
        stop = start + size + (1 if piece < extra else 0)
        if stop > start:
            ranges.append(range(start, stop))
        start = stop
    return ranges


def parallel_module_toolset(
    module_name: str,
    options: ReportOptions | None,
    workers: int | None = None,
    *,
    check: Callable[[Tool], _T] | None = None,
) -> tuple[Toolset, list[_T | None]]:
    """The toolset of a module read in ``workers`` processes (``None``: one per usable core),
    and ``check(entry)`` of each entry (``None`` without ``check``), in toolset order.

    A module that cannot be imported gives the serial result: one entry with its error.
    """
    # lazy: the module reader (~0.4 ms); `toollens show f` loads this module without it
    from toollens.toolsets.modules import module_items

    try:
        items = module_items(load_module(module_name))
    except ToolLensError:
        ts = toolset(module_name, options)
        return ts, [None] * len(ts)
    count = workers or usable_cores()
    cwd = os.getcwd()
    jobs = [(module_name, cwd, options, r, check) for r in chunk_ranges(len(items), count)]
    pairs: list[tuple[Tool, Any]] = []
    with ProcessPoolExecutor(max_workers=count) as pool:
        for chunk in pool.map(_read_range, *zip(*jobs, strict=True)) if jobs else ():
            pairs.extend(chunk)
    entries = [entry for entry, _ in pairs]
    ts = Toolset.from_entries(entries, label=module_name, options=options)
    return ts, [result for _, result in pairs]


def _read_range(
    module_name: str,
    cwd: str,
    options: ReportOptions | None,
    indices: Sequence[int],
    check: Callable[[Tool], Any] | None,
) -> list[tuple[Tool, Any]]:
    # lazy: the module reader (~0.4 ms); `toollens show f` loads this module without it
    from toollens.toolsets.modules import module_items, read_item

    items = module_items(load_module(module_name, cwd=cwd))
    out = []
    for index in indices:
        for entry in read_item(items[index], options, module_name):
            result = check(entry) if check is not None else None
            out.append((entry.without_report(), result))
    return out
