"""Findings with a mechanical remedy, applied: ``toollens fix``.

Each remedy is data (:class:`Edit`, safe or unsafe) built from a finding by one row of a
table (:mod:`toollens.fixes.json_remedies` for a JSON tool,
:mod:`toollens.fixes.python_remedies` for a Python tool), and applied to the file the tool
comes from: a JSON tool list or payload with its key order and indentation kept
(:mod:`toollens.fixes.json_file`), a Python module through libcst, formatting and comments
kept (:mod:`toollens.fixes.python_source`). Sits above ``toolsets``; imports no UI.
"""

from toollens.fixes.model import Edit, FileFix, JsonOp, PyOp, Safety
from toollens.fixes.plan import FixRequest, fix_files, tool_findings

__all__ = [
    "Edit",
    "FileFix",
    "FixRequest",
    "JsonOp",
    "PyOp",
    "Safety",
    "fix_files",
    "tool_findings",
]
