"""Toolsets: every tool an agent, a module, a project or a payload gives a model, at once.

``toolset(source)`` reads the tools (each with its :class:`~toollens.core.report.Report`)
and runs the cross-tool rules (duplicate names, names a provider rejects, too many tools,
near-duplicate descriptions, one parameter name with several types). This package imports
no UI library; framework readers import their framework only when given its objects.
The ``project`` source (a ``[tool.toollens]`` table) is the project layer's: importing
:mod:`toollens.project.source` registers it (``toollens.toolset`` does that for you).
"""

from toollens.toolsets.definitions import Definition, definition_entry
from toollens.toolsets.entries import OriginKind, Tool, ToolOrigin
from toollens.toolsets.mcp_source import load_mcp
from toollens.toolsets.model import Toolset
from toollens.toolsets.readers import READERS
from toollens.toolsets.registry import (
    ConnectingLoader,
    ObjectReader,
    SourceLoader,
    register_object_reader,
    register_source,
    registered_prefixes,
)
from toollens.toolsets.rules import TOOLSET_RULES, ToolsetFinding, ToolsetRule
from toollens.toolsets.sources import toolset

register_source("mcp", load_mcp, connects=True)
for _reader in READERS:
    register_object_reader(_reader)

__all__ = [
    "TOOLSET_RULES",
    "ConnectingLoader",
    "Definition",
    "ObjectReader",
    "OriginKind",
    "SourceLoader",
    "Tool",
    "ToolOrigin",
    "Toolset",
    "ToolsetFinding",
    "ToolsetRule",
    "definition_entry",
    "register_object_reader",
    "register_source",
    "registered_prefixes",
    "toolset",
]
