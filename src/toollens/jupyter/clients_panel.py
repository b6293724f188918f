"""The explorer's Clients view of an MCP tool: pick a client, see its verdict, why, what it sends.

The explorer of a tool read from an MCP tool list (an ``mcp:`` server, a saved
``tools/list`` answer) gets one more panel, declared like the others (a ``Panel`` with its
``render``): the consumers judge the server's list with the tool as it is now in the editor,
and :func:`toollens.render.clients_view.clients_panel_html` draws the chosen client (the
``client`` trait, set by the panel's select). The HTML comes from ``render``.
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import TYPE_CHECKING

from toollens.core.errors import TargetError
from toollens.jupyter.explorer_state import Panel

if TYPE_CHECKING:
    from toollens.consumers import ToolList
    from toollens.core.report import Report
    from toollens.jupyter.explorer_state import ExplorerState
    from toollens.render.clients_view import ToolClients

__all__ = ["ClientsPanel", "attach_clients"]

CLIENTS_KEY = "clients"
_UNSET = object()


class ClientsPanel:
    """Renders the Clients view of ``tool`` (named as the server lists it) for a report."""

    def __init__(self, listing: ToolList, tool: str, state: ExplorerState) -> None:
        self.listing, self.tool = listing, tool
        self._state = state
        self.view: ToolClients | None = None  # the last one drawn, for the static copy
        self._judged_for: object = _UNSET  # the inputSchema self.view was judged with

    def judged(self, rep: Report | None) -> ToolClients:
        """Every client's view of the tool, with its ``inputSchema`` as edited; the clients
        judge the whole list again only when that schema changed (not for another client)."""
        # lazy: the clients' judges (~23 ms) load when the Clients view opens, not with the Explorer
        from toollens.render.clients_view import tool_clients

        schema = None if rep is None else rep.raw_schema
        if self.view is None or schema != self._judged_for:
            self.view = tool_clients(_edited(self.listing, self.tool, rep), self.tool)
            self._judged_for = schema
        return self.view

    @property
    def chosen(self) -> str | None:
        return str(self._state.client) or None

    def render(self, rep: Report) -> str:
        # lazy: the clients' panel (~25 ms) loads when the Clients view opens, not with the Explorer
        from toollens.render.clients_html import clients_note, clients_panel_html

        try:
            self.view = self.judged(rep)
        except Exception as exc:  # a consumer's own code runs here: one failure, one view
            return clients_note(f"The clients could not judge the tool: {exc}")
        return clients_panel_html(self.view, self.chosen, picker=True)


def _edited(listing: ToolList, tool: str, rep: Report | None) -> ToolList:
    """``listing`` with the tool's ``inputSchema`` as the editor holds it now."""
    schema = None if rep is None else rep.raw_schema
    if schema is None or tool not in listing.names:
        return listing
    at = listing.names.index(tool)
    tools = list(listing.tools)
    tools[at] = {**tools[at], "inputSchema": dict(schema)}
    return dataclasses.replace(listing, tools=tuple(tools))


def attach_clients(
    explorer: ExplorerState,
    listing: ToolList | None,
    tool: str | None,
    lock: contextlib.AbstractContextManager[object],
) -> ClientsPanel | None:
    """Add the Clients view of ``tool`` of ``listing`` to ``explorer`` (no view without a
    listing). A change of the ``client`` trait redraws the view from the report shown, under
    ``lock`` (the explorer's render lock); an unknown client shows the first.

    Raises:
        TargetError: ``tool`` is not in ``listing``.
    """
    if listing is None:
        return None
    if tool is None or tool not in listing.names:
        raise TargetError(
            f"tool {tool!r} is not in the tool list of server {listing.server_name!r}",
            hint="pass name= as the server lists the tool",
        )
    panel = ClientsPanel(listing, tool, explorer)
    explorer.declarations = (*explorer.declarations, Panel(CLIENTS_KEY, "below", panel.render))
    explorer.panel_order = [*explorer.panel_order, CLIENTS_KEY]
    explorer.panel_areas = {**explorer.panel_areas, CLIENTS_KEY: "below"}

    def picked(_change: object) -> None:
        rep = getattr(explorer, "report", None)
        with lock, explorer.hold_sync():
            if rep is not None:  # the same report, another client
                explorer.publish({CLIENTS_KEY: panel.render(rep)})

    explorer.observe(picked, names="client")
    return panel
