"""Jupyter front ends: the explorer widget, the schema-diff widget and the ``%toolschema`` magic.

Nothing here is imported by ``import toollens``; the widgets load ipywidgets on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from toollens.jupyter.diff_widget import DiffWidget
    from toollens.jupyter.explorer import Explorer
    from toollens.jupyter.toolset_widget import ToolsetView


class IPythonShell(Protocol):
    """What ``%load_ext`` hands over, as far as toollens uses it (IPython has no types)."""

    def register_magics(self, *magic_objects: object) -> None: ...


def load_ipython_extension(ipython: IPythonShell) -> None:
    """Register ``%toolschema`` / ``%%toolschema`` (``%load_ext toollens``)."""
    # lazy: the magic brings IPython and the report engine (~140 ms); loaded by %load_ext only
    from toollens.jupyter.magic import ToolSchemaMagics

    ipython.register_magics(ToolSchemaMagics)
    # Toolsets display as the live Toolset view from now on. Registered by name, so neither
    # toollens.toolsets nor a widget library is imported until a Toolset is shown.
    formatter = getattr(getattr(ipython, "display_formatter", None), "mimebundle_formatter", None)
    if formatter is not None:
        formatter.for_type_by_name("toollens.toolsets.model", "Toolset", _live_toolset)


def _live_toolset(ts: Any) -> Any:
    # lazy: the Toolset view (ipywidgets, assess; ~350 ms) loads when a Toolset is shown
    from toollens.jupyter.toolset_widget import toolset_live_bundle

    return toolset_live_bundle(ts)


def __getattr__(name: str) -> Any:
    if name == "Explorer":
        # lazy: each widget (ipywidgets, anywidget; ~300 ms) loads on first use
        from toollens.jupyter.explorer import Explorer

        return Explorer
    if name == "DiffWidget":
        # lazy: each widget (ipywidgets, anywidget; ~300 ms) loads on first use
        from toollens.jupyter.diff_widget import DiffWidget

        return DiffWidget
    if name == "ToolsetView":
        # lazy: each widget (ipywidgets, anywidget; ~300 ms) loads on first use
        from toollens.jupyter.toolset_widget import ToolsetView

        return ToolsetView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DiffWidget", "Explorer", "IPythonShell", "ToolsetView", "load_ipython_extension"]
