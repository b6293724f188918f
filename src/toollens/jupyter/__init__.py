"""Jupyter front ends: the explorer widget, the schema-diff widget and the ``%toolschema`` magic.

Nothing here is imported by ``import toollens``; the widgets load ipywidgets on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toollens.jupyter.diff_widget import DiffWidget
    from toollens.jupyter.explorer import Explorer
    from toollens.jupyter.toolset_widget import ToolsetView


def load_ipython_extension(ipython: Any) -> None:
    """Register ``%toolschema`` / ``%%toolschema`` (``%load_ext toollens``)."""
    from toollens.jupyter.magic import ToolSchemaMagics
    from toollens.jupyter.toolset_widget import show_toolsets_live

    ipython.register_magics(ToolSchemaMagics)
    show_toolsets_live()


def __getattr__(name: str) -> Any:
    if name == "Explorer":
        from toollens.jupyter.explorer import Explorer

        return Explorer
    if name == "DiffWidget":
        from toollens.jupyter.diff_widget import DiffWidget

        return DiffWidget
    if name == "ToolsetView":
        from toollens.jupyter.toolset_widget import ToolsetView

        return ToolsetView
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DiffWidget", "Explorer", "ToolsetView", "load_ipython_extension"]
