"""OpenAI Agents SDK: ``function_tool(func)``; the payload from its Chat Completions converter."""

from __future__ import annotations

from toollens.core.schema.types import ToolFunction
from toollens.frameworks._spec import copy_json
from toollens.frameworks.records import Sent

# The SDK release whose callable-shape refusals docs/callable-shapes.md describes (its tests read
# at openai-agents-python main 7f7a44f8); a test fails when the installed one differs.
REFERENCE_VERSION = "0.24.0"


def build(func: ToolFunction) -> Sent:
    from agents import function_tool
    from agents.models.chatcmpl_converter import Converter

    tool = function_tool(func)
    return Sent(
        name=tool.name,
        description=tool.description,
        parameters=copy_json(tool.params_json_schema),
        payload=copy_json(dict(Converter.tool_to_openai(tool))),
    )
