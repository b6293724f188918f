"""The tools of a module, read into toolset entries.

Which attributes are tools is one rule, :func:`toollens.targets.module_tools` (it lives
below this package so the project's ``pkg.tools:*`` expands with it too): ``__all__`` when
the module defines it, else its public functions, framework tool objects and LangChain
``BaseTool`` subclasses, in binding order. Pydantic models are not tools by default (name one
as ``MODULE:Model``). A module with no tool is an error saying what was looked for.
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING

from toollens.core.callables import is_langchain_tool_class
from toollens.targets import MISSING_NAME, module_tools, no_tools_error
from toollens.toolsets.entries import Tool, ToolOrigin, callable_origin
from toollens.toolsets.registry import framework_entries

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions

__all__ = ["MISSING_NAME", "module_entries", "module_items", "read_item"]


def module_entries(
    module: types.ModuleType, options: ReportOptions | None, *, label: str
) -> list[Tool]:
    """The entries of every tool ``module`` defines (see the module documentation).

    Raises:
        TargetError: the module has no tool.
    """
    return [
        entry for item in module_items(module, label) for entry in read_item(item, options, label)
    ]


def module_items(module: types.ModuleType, label: str | None = None) -> list[tuple[str, object]]:
    """``(name, value)`` of each tool of ``module``, in order; nothing is read yet.

    Raises:
        TargetError: the module has no tool (named ``label``, else its own name).
    """
    items = module_tools(module)
    if not items:
        raise no_tools_error(module, label or module.__name__)
    return items


def read_item(item: tuple[str, object], options: ReportOptions | None, label: str) -> list[Tool]:
    """The entries of one item of :func:`module_items`."""
    name, value = item
    if value is MISSING_NAME:
        origin = ToolOrigin(kind="module", label=label)
        return [Tool.failed(name, origin, f"__all__ in {label} lists {name!r}, not defined")]

    if not isinstance(value, type) or is_langchain_tool_class(value):
        found = framework_entries(value, options, label)
        if found is not None:
            return found
    origin = callable_origin(value, kind="module", label=label)
    return [Tool.from_callable(value, origin=origin, options=options)]
