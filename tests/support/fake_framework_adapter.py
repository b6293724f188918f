"""An adapter for a framework that is never installed: how a missing framework reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toollens.frameworks import Sent
from toollens.frameworks._spec import FrameworkSpec

SPEC = FrameworkSpec(
    key="nowhere",
    label="Nowhere",
    api="nowhere.tool(func)",
    distribution="toollens-no-such-framework",
    modules=("toollens_no_such_framework",),
)


def build(func: Callable[..., Any]) -> Sent:
    import toollens_no_such_framework  # type: ignore[import-not-found]

    return toollens_no_such_framework.build(func)  # type: ignore[no-any-return]
