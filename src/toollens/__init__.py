"""toollens: see what a model receives when you give it a Python function as a tool."""

from __future__ import annotations

from toollens.core.errors import (
    ModelBehaviorError,
    SchemaConstructionError,
    StrictSchemaError,
    TargetError,
    ToolLensError,
)
from toollens.core.records import Change, Finding, Severity

__version__ = "0.1.0"

__all__ = [
    "Change",
    "Finding",
    "ModelBehaviorError",
    "SchemaConstructionError",
    "Severity",
    "StrictSchemaError",
    "TargetError",
    "ToolLensError",
    "__version__",
]
