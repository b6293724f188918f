"""The lock of a toolset (``snapshot --toolset SOURCE``, ``diff --lock --toolset SOURCE``).

The tools are read as ``check`` reads the source (an MCP tool list non-strict, as its
clients send it: :func:`toollens.assess.options.judged_options`), so the lock holds them on
the path the assessment judges; an MCP tool list's entries carry each client's verdict.
The project's own table is locked by :func:`toollens.project.lock.collect_tools`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toollens.assess.clients import source_listing
from toollens.assess.options import judged_options
from toollens.assess.reading import read_toolset
from toollens.project.lock import locked_tools, reported_tools
from toollens.project.lock_clients import with_clients

if TYPE_CHECKING:
    from toollens.mcp.client import ConnectOptions
    from toollens.project.config import ProjectConfig
    from toollens.project.tools import ProjectTool

__all__ = ["lock_tools"]


def lock_tools(
    source: str, config: ProjectConfig, connect: ConnectOptions | None = None
) -> tuple[ProjectTool, ...]:
    """Each tool of a toolset as the lock records it, once per name, with ``config``'s
    providers, strictness and tokens model (:func:`toollens.project.config.toolset_lock_config`).

    Raises:
        TargetError: the source cannot be read, or holds no tools.
        ProjectError: a tool cannot be read or locked, or two tools share a name.
    """
    # MCP tools travel non-strict: the lock holds them on the path check judges them
    options = judged_options(config.report_options(config.providers[0]), source)
    ts = read_toolset(source, options, connect)
    tools = locked_tools(reported_tools(ts.tools, config.providers), config.tokens_model)
    listing = source_listing(source, ts)
    if listing is not None:  # an MCP tool list: each client's verdict on each tool
        return with_clients(tools, listing)
    return tools
