"""LangChain ``@tool(parse_docstring=True)``, sent as ``convert_to_openai_tool`` sends it.

``parse_docstring=True`` is the way to get per-parameter descriptions from a docstring in
LangChain; it accepts only Google-style docstrings, and that refusal is a finding.
"""

from __future__ import annotations

from toollens.core.schema.types import ToolFunction
from toollens.frameworks.langchain import sent_from_openai_tool
from toollens.frameworks.records import Sent


def build(func: ToolFunction) -> Sent:
    from langchain_core.tools import tool
    from langchain_core.utils.function_calling import convert_to_openai_tool

    return sent_from_openai_tool(convert_to_openai_tool(tool(func, parse_docstring=True)))
