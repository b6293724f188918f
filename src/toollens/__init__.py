"""toollens: see what a model receives when you give it a Python function as a tool.

Every public name is re-exported here and loaded on first use, so ``import toollens``
stays fast and never imports pydantic, IPython or ipywidgets until they are needed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from toollens.core.display_hooks import set_loader
from toollens.core.errors import (
    ModelBehaviorError,
    SchemaConstructionError,
    StrictSchemaError,
    TargetError,
    ToolLensError,
)
from toollens.core.records import Change, Finding, Severity

__version__ = "0.1.0"

# public name -> module that defines it
_LAZY = {
    "FunctionSchema": "toollens.core.function_schema",
    "function_schema": "toollens.core.function_schema",
    "ParameterMetadata": "toollens.core.metadata",
    "Candidate": "toollens.core.metadata",
    "Source": "toollens.core.metadata",
    "strict_schema": "toollens.core.strict",
    "explain_strict": "toollens.core.strict",
    "ensure_strict_json_schema": "toollens.core.strict",
    "StrictRule": "toollens.core.strict",
    "OutputSchema": "toollens.core.output",
    "output_schema": "toollens.core.output",
    "provider_tool": "toollens.core.providers",
    "check_provider": "toollens.core.providers",
    "lint": "toollens.core.lint",
    "diff": "toollens.core.diff",
    "SchemaDiff": "toollens.core.diff",
    "Report": "toollens.core.report",
    "ReportOptions": "toollens.core.report",
    "report": "toollens.core.report",
    "compare": "toollens.frameworks.compare",
    "Comparison": "toollens.frameworks.compare",
    "Explorer": "toollens.jupyter",
    "DiffWidget": "toollens.jupyter",
    "tokens": "toollens.tokens",
    "TokenCount": "toollens.tokens",
    "toolset": "toollens.toolsets",
    "Toolset": "toollens.toolsets",
    "Tool": "toollens.toolsets",
    "try_call": "toollens.roundtrip",
    "fuzz": "toollens.roundtrip",
    "CallResult": "toollens.roundtrip",
    "FuzzReport": "toollens.roundtrip",
}

__all__ = [
    "CallResult",
    "Candidate",
    "Change",
    "Comparison",
    "DiffWidget",
    "Explorer",
    "Finding",
    "FunctionSchema",
    "FuzzReport",
    "ModelBehaviorError",
    "OutputSchema",
    "ParameterMetadata",
    "Report",
    "ReportOptions",
    "SchemaConstructionError",
    "SchemaDiff",
    "Severity",
    "Source",
    "StrictRule",
    "StrictSchemaError",
    "TargetError",
    "TokenCount",
    "Tool",
    "ToolLensError",
    "Toolset",
    "__version__",
    "check_provider",
    "compare",
    "diff",
    "ensure_strict_json_schema",
    "explain_strict",
    "function_schema",
    "fuzz",
    "lint",
    "load_ipython_extension",
    "output_schema",
    "provider_tool",
    "report",
    "strict_schema",
    "tokens",
    "toolset",
    "try_call",
]

if TYPE_CHECKING:
    from toollens.core.diff import SchemaDiff, diff
    from toollens.core.function_schema import FunctionSchema, function_schema
    from toollens.core.lint import lint
    from toollens.core.metadata import Candidate, ParameterMetadata, Source
    from toollens.core.output import OutputSchema, output_schema
    from toollens.core.providers import check_provider, provider_tool
    from toollens.core.report import Report, ReportOptions, report
    from toollens.core.strict import (
        StrictRule,
        ensure_strict_json_schema,
        explain_strict,
        strict_schema,
    )
    from toollens.frameworks.compare import Comparison, compare
    from toollens.jupyter import DiffWidget, Explorer, IPythonShell
    from toollens.roundtrip import CallResult, FuzzReport, fuzz, try_call
    from toollens.tokens import TokenCount, tokens
    from toollens.toolsets import Tool, Toolset, toolset


# A layer that registers itself into a lower one on import: loaded with the lower one, so
# ``toollens.toolset("project")`` reads the table although toollens.toolsets never imports
# toollens.project (the layers: tests/test_import_graph.py).
_REGISTERS_INTO = {"toollens.toolsets": "toollens.project.source"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'toollens' has no attribute {name!r}")
    if module in _REGISTERS_INTO:
        importlib.import_module(_REGISTERS_INTO[module])
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


def _load_renderers() -> None:
    # Called the first time a Report is displayed: importing render registers its display.
    import toollens.render  # noqa: F401


set_loader(_load_renderers)


def load_ipython_extension(ipython: IPythonShell) -> None:
    """``%load_ext toollens``: register the ``%toolschema`` magics."""
    # lazy: keeps toollens.jupyter out of `import toollens` (only %load_ext loads it)
    from toollens.jupyter import load_ipython_extension as load

    load(ipython)
