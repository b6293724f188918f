"""Which attributes of a module are its tools.

The rule (documented in docs/toolsets.md):

1. When the module defines ``__all__``, the names it lists, in its order; a listed name that
   does not exist is an entry with its error, and a listed name that is not tool-shaped
   (a constant, a class, a submodule) is skipped.
2. Otherwise every public attribute (no leading ``_``) that is a function *defined in that
   module* (decorated functions count by the module of the function they wrap; imported
   functions do not), plus the framework tool objects it binds (``@function_tool``,
   LangChain ``@tool``, an agent), in the order the module binds them (source order).

Classes are never tools by default (most exported classes are data models); name them in a
list to check one.
"""

from __future__ import annotations

import inspect
import types
from typing import TYPE_CHECKING, Any

from toollens.toolsets.entries import ToolEntry, ToolOrigin, callable_origin

if TYPE_CHECKING:
    from toollens.core.report import ReportOptions

__all__ = ["module_entries"]


def module_entries(
    module: types.ModuleType, options: ReportOptions | None, *, label: str
) -> list[ToolEntry]:
    """The entries of every tool ``module`` defines (see the module documentation)."""
    return [entry for item in module_items(module) for entry in read_item(item, options, label)]


def module_items(module: types.ModuleType) -> list[tuple[str, object]]:
    """``(name, value)`` of each tool-shaped attribute, in order; nothing is read yet.

    A name ``__all__`` lists but the module lacks has the value :data:`MISSING_NAME`.
    """
    listed = _exported(module)
    if listed is not None:
        return [
            (name, getattr(module, name, MISSING_NAME))
            for name in listed
            if not hasattr(module, name) or _tool_shaped(getattr(module, name))
        ]
    return [
        (name, value)
        for name, value in list(vars(module).items())
        if not name.startswith("_")
        and (_defined_function(value, module) or _framework_object(value))
    ]


def read_item(
    item: tuple[str, object], options: ReportOptions | None, label: str
) -> list[ToolEntry]:
    """The entries of one item of :func:`module_items`."""
    name, value = item
    if value is MISSING_NAME:
        origin = ToolOrigin(kind="module", label=label)
        return [ToolEntry.failed(name, origin, f"__all__ in {label} lists {name!r}, not defined")]
    framework = _framework_entries(value, options, label)
    if framework:
        return framework
    origin = callable_origin(value, kind="module", label=label)
    return [ToolEntry.from_callable(value, origin=origin, options=options)]


def _exported(module: types.ModuleType) -> list[str] | None:
    names = getattr(module, "__all__", None)
    if isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names):
        return list(names)
    return None


class _Missing:
    def __repr__(self) -> str:
        return "MISSING_NAME"


MISSING_NAME: Any = _Missing()


def _tool_shaped(value: Any) -> bool:
    return inspect.isfunction(_unwrapped(value)) or _framework_object(value)


def _framework_object(value: Any) -> bool:
    if isinstance(value, (types.ModuleType, type)) or inspect.isfunction(value):
        return False
    return type(value).__module__.split(".")[0] in _FRAMEWORK_ROOTS


# Packages whose objects a registered reader may read (checked before reading anything).
_FRAMEWORK_ROOTS = frozenset({"agents", "pydantic_ai", "langchain_core", "langchain"})


def _framework_entries(value: Any, options: ReportOptions | None, label: str) -> list[ToolEntry]:
    from toollens.toolsets.registry import framework_entries

    if isinstance(value, (types.ModuleType, type)) or inspect.isfunction(value):
        return []
    return framework_entries(value, options, label) or []


def _defined_function(value: Any, module: types.ModuleType) -> bool:
    target = _unwrapped(value)
    return inspect.isfunction(target) and target.__module__ == module.__name__


def _unwrapped(value: Any) -> Any:
    try:
        return inspect.unwrap(value) if callable(value) else value
    except Exception:  # a hostile __wrapped__ chain (ValueError on a cycle)
        return value
