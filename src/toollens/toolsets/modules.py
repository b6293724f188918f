"""Which attributes of a module are its tools.

The rule (documented in docs/toolsets.md):

1. When the module defines ``__all__``, the names it lists, in its order; a listed name that
   does not exist is an entry with its error, and a listed name that is not tool-shaped
   (a constant, a class, a submodule) is skipped.
2. Otherwise every public attribute (no leading ``_``) that is a function *defined in that
   module* (decorated functions count by the module of the function they wrap; imported
   functions do not), plus framework tool objects (``@function_tool``, LangChain ``@tool``)
   that a registered object reader recognises, in source order.

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
    listed = _exported(module)
    if listed is not None:
        return _listed_entries(module, listed, options, label)
    entries: list[tuple[int, ToolEntry]] = []
    for name, value in list(vars(module).items()):
        if name.startswith("_"):
            continue
        if _defined_function(value, module):
            origin = callable_origin(value, kind="module", label=label)
            entry = ToolEntry.from_callable(value, origin=origin, options=options)
            entries.append((origin.line or 0, entry))
        else:
            entries.extend((_line(e), e) for e in _framework_entries(value, options, label))
    entries.sort(key=lambda item: item[0])  # stable: same-line entries keep their order
    return [entry for _, entry in entries]


def _exported(module: types.ModuleType) -> list[str] | None:
    names = getattr(module, "__all__", None)
    if isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names):
        return list(names)
    return None


def _listed_entries(
    module: types.ModuleType, names: list[str], options: ReportOptions | None, label: str
) -> list[ToolEntry]:
    entries: list[ToolEntry] = []
    for name in names:
        if not hasattr(module, name):
            origin = ToolOrigin(kind="module", label=label, module=module.__name__)
            entries.append(
                ToolEntry.failed(
                    name, origin, f"__all__ lists {name!r}, which {module.__name__} does not define"
                )
            )
            continue
        value = getattr(module, name)
        framework = _framework_entries(value, options, label)
        if framework:
            entries.extend(framework)
        elif inspect.isfunction(_unwrapped(value)):
            origin = callable_origin(value, kind="module", label=label)
            entries.append(ToolEntry.from_callable(value, origin=origin, options=options))
    return entries


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


def _line(entry: ToolEntry) -> int:
    return entry.origin.line or 0
