"""An adapter for a framework that is never installed: how a missing framework reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toollens.frameworks import FrameworkSpec, Sent

#: The ``ADAPTERS`` entry that adds this framework (a test puts it in the table).
ENTRY = FrameworkSpec(
    key="nowhere",
    label="Nowhere",
    api="nowhere.tool(func)",
    distribution="toollens-no-such-framework",
    modules=("toollens_no_such_framework",),
    adapter="support.fake_framework_adapter",
)


def build(func: Callable[..., Any]) -> Sent:
    import toollens_no_such_framework  # type: ignore[import-not-found]

    return toollens_no_such_framework.build(func)  # type: ignore[no-any-return]
