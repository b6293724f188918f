"""LangChain: ``convert_to_openai_tool(func)`` on the plain function."""

from __future__ import annotations

from toollens.core.schema.types import JsonObject, ToolFunction
from toollens.frameworks._spec import copy_json
from toollens.frameworks.records import Sent


def build(func: ToolFunction) -> Sent:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    return sent_from_openai_tool(convert_to_openai_tool(func))


def sent_from_openai_tool(payload: JsonObject) -> Sent:
    """Split LangChain's OpenAI tool payload into name, description and parameters."""
    function = payload["function"]
    return Sent(
        name=function["name"],
        description=function.get("description"),
        parameters=copy_json(function.get("parameters", {})),
        payload=copy_json(payload),
    )
