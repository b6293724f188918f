"""The verdict on a set of tools, computed once: a request in, one assessment out.

Between what reads tools (``targets``, ``toolsets``, ``mcp``, ``project``), what judges them
(``core``, ``consumers``, ``tokens``) and what shows them (``render``, ``jupyter``, ``cli``):
:class:`AssessRequest` says what to read and how to judge it (target, providers, clients,
budgets, strictness, connection); :func:`assess` reads it once and returns an
:class:`Assessment` with, per tool and per column (lint, each provider, each client), one
verdict with its findings, which findings gate on this path, one ``ok`` and one exit code.
Every front end renders that and decides nothing.
"""

from __future__ import annotations

from toollens.assess.model import Assessment, Counted
from toollens.assess.reading import CheckedTool, ToolRow
from toollens.assess.request import AssessRequest
from toollens.assess.run import assess, assess_toolset

__all__ = [
    "AssessRequest",
    "Assessment",
    "CheckedTool",
    "Counted",
    "ToolRow",
    "assess",
    "assess_toolset",
]
