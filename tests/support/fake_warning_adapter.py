"""An adapter whose "framework" (the standard library's ``json``) warns while building:
adding a framework is one module like this and one ``ADAPTERS`` entry."""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable
from typing import Any

from toollens.frameworks import Sent
from toollens.frameworks._spec import FrameworkSpec

SPEC = FrameworkSpec(
    key="warner",
    label="Warner",
    api="json.loads(...)",
    distribution="toollens-no-such-framework",
    modules=("json",),
)


def build(func: Callable[..., Any]) -> Sent:
    warnings.warn(f"{func.__name__} looks odd", UserWarning, stacklevel=2)
    schema = json.loads('{"type": "object", "properties": {"city": {"type": "string"}}}')
    return Sent(name=func.__name__, description=None, parameters=schema)
