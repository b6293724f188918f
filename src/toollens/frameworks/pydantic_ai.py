"""pydantic-ai: ``Tool(func).tool_def`` (the tool itself detects a ``RunContext`` parameter)."""

from __future__ import annotations

from toollens.core.schema.types import ToolFunction
from toollens.frameworks._spec import FrameworkSpec, copy_json
from toollens.frameworks.records import Sent

SPEC = FrameworkSpec(
    key="pydantic-ai",
    label="pydantic-ai",
    api="Tool(func).tool_def",
    distribution="pydantic-ai-slim",
    modules=("pydantic_ai",),
)


def build(func: ToolFunction) -> Sent:
    from pydantic_ai import Tool

    definition = Tool(func).tool_def
    return Sent(
        name=definition.name,
        description=definition.description,
        parameters=copy_json(definition.parameters_json_schema),
    )
