"""pydantic-ai: ``Tool(func).tool_def`` (the tool itself detects a ``RunContext`` parameter)."""

from __future__ import annotations

from toollens.core.schema.types import ToolFunction
from toollens.frameworks._spec import copy_json
from toollens.frameworks.records import Sent


def build(func: ToolFunction) -> Sent:
    from pydantic_ai import Tool

    definition = Tool(func).tool_def
    return Sent(
        name=definition.name,
        description=definition.description,
        parameters=copy_json(definition.parameters_json_schema),
    )
