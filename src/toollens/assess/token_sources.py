"""What ``toollens tokens`` counts, read as ``check`` reads it.

A target naming one tool is counted as it resolves; a toolset source (a module, an agent, a
JSON tool list, a server, ``project``) as its toolset, with the entries its payload marks
``defer_loading`` (:func:`toollens.assess.gating.deferred_marks`), so a count and a check's
budget agree on what is deferred.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from toollens.assess.gating import deferred_marks
from toollens.assess.reading import is_toolset_source
from toollens.assess.request import PROJECT
from toollens.targets import resolve_target
from toollens.toolsets import toolset

if TYPE_CHECKING:
    from toollens.mcp.client import ConnectOptions
    from toollens.tokens.tooldefs import CountableTool

__all__ = ["token_targets"]


def token_targets(
    texts: Sequence[str], connect: ConnectOptions | None = None
) -> list[CountableTool]:
    """What ``tokens`` counts: each target named (a tool, or a toolset source: a module, an
    agent, a JSON tool list, a server), or with nothing named the project's tool list. A
    toolset keeps its entries' ``defer_loading`` marks, read as ``check`` reads them
    (:func:`toollens.assess.gating.deferred_marks`).

    Raises:
        TargetError: a target cannot be read.
    """
    return [
        deferred_marks(toolset(t, connect=connect))
        if is_toolset_source(t)
        # what resolve_target gives that tokens() cannot count, tokens() names
        else cast("CountableTool", resolve_target(t, connect=connect))
        for t in list(texts) or [PROJECT]  # nothing named: the project's
    ]
