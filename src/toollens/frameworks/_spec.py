"""One framework's declaration (its ``ADAPTERS`` entry), and helpers the adapters share."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from toollens.core.schema.toolkit import copy_json
from toollens.core.schema.types import JsonObject

__all__ = ["FrameworkSpec", "copy_json", "run_coroutine"]

_T = TypeVar("_T")


@dataclass(frozen=True)
class FrameworkSpec:
    """How to find, name and build one framework: one entry of ``ADAPTERS``.

    Attributes:
        key: the table key and CLI name, e.g. ``"fastmcp"``.
        label: a readable name for views.
        api: the public API the adapter calls, shown next to every result.
        distribution: the package to look up for the version, e.g. ``"pydantic-ai-slim"``.
        modules: what to import to use it; the first one decides "installed".
        adapter: the module whose ``build(func) -> Sent`` calls that API, imported on
            first use, e.g. ``"toollens.frameworks.fastmcp"``.
    """

    key: str
    label: str
    api: str
    distribution: str
    modules: tuple[str, ...]
    adapter: str


def run_coroutine(coro: Coroutine[Any, Any, _T]) -> _T:
    """Run an async framework API to completion, also from inside a running event loop.

    A Jupyter kernel already runs a loop, where ``asyncio.run`` refuses; there the coroutine
    runs on a fresh loop in a short-lived thread. Nothing here does I/O.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: JsonObject = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:  # handed back to the caller's thread below
            box["error"] = exc

    thread = threading.Thread(target=target, name="toollens-framework")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]
