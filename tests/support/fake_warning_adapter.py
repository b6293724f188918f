"""An adapter whose "framework" (the standard library's ``json``) warns while building:
adding a framework is one adapter module like this and one ``ADAPTERS`` entry (``ENTRY``)."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any

from toollens.frameworks import FrameworkSpec, Sent

#: The ``ADAPTERS`` entry that adds this framework (a test puts it in the table).
ENTRY = FrameworkSpec(
    key="warner",
    label="Warner",
    api="json.loads(...)",
    distribution="toollens-no-such-framework",
    modules=("json",),
    adapter="support.fake_warning_adapter",
)


def build(func: Callable[..., Any]) -> Sent:
    warnings.warn(f"{func.__name__} looks odd", UserWarning, stacklevel=2)
    schema = json.loads('{"type": "object", "properties": {"city": {"type": "string"}}}')
    return Sent(name=func.__name__, description=None, parameters=schema)
