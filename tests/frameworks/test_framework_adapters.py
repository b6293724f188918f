"""Each adapter returns exactly what its framework's own public API returns.

For every framework and every function of ``framework_functions``, the test calls the
framework's API itself and compares: same name, description, parameter schema and payload,
or, when the framework raises, a refusal carrying the framework's own message.
"""

from __future__ import annotations

import asyncio
import importlib.metadata
import importlib.util
from collections.abc import Callable
from typing import Any

import pytest

from support.framework_functions import FUNCTIONS
from toollens.frameworks import Status, adapt, names


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def _openai_agents(func: Callable[..., Any]) -> dict[str, Any]:
    from agents import function_tool
    from agents.models.chatcmpl_converter import Converter

    tool = function_tool(func)
    return {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.params_json_schema,
        "payload": dict(Converter.tool_to_openai(tool)),
    }


def _pydantic_ai(func: Callable[..., Any]) -> dict[str, Any]:
    from pydantic_ai import Tool

    definition = Tool(func).tool_def
    return {
        "name": definition.name,
        "description": definition.description,
        "parameters": definition.parameters_json_schema,
        "payload": None,
    }


def _openai_payload(payload: dict[str, Any]) -> dict[str, Any]:
    function = payload["function"]
    return {
        "name": function["name"],
        "description": function.get("description"),
        "parameters": function.get("parameters", {}),
        "payload": payload,
    }


def _langchain(func: Callable[..., Any]) -> dict[str, Any]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    return _openai_payload(convert_to_openai_tool(func))


def _langchain_tool(func: Callable[..., Any]) -> dict[str, Any]:
    from langchain_core.tools import tool
    from langchain_core.utils.function_calling import convert_to_openai_tool

    return _openai_payload(convert_to_openai_tool(tool(func, parse_docstring=True)))


def _mcp_payload(payload: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": payload["name"],
        "description": payload.get("description"),
        "parameters": payload["inputSchema"],
        "payload": payload,
    }


def _mcp(func: Callable[..., Any]) -> dict[str, Any]:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("test")
    server.add_tool(func)
    (tool,) = asyncio.run(server.list_tools())
    return _mcp_payload(tool.model_dump(mode="json", by_alias=True, exclude_none=True))


def _fastmcp(func: Callable[..., Any]) -> dict[str, Any]:
    from fastmcp import FastMCP

    server = FastMCP("test")
    server.tool(func)
    (tool,) = asyncio.run(server.list_tools())
    return _mcp_payload(
        tool.to_mcp_tool().model_dump(mode="json", by_alias=True, exclude_none=True)
    )


def _anthropic(func: Callable[..., Any]) -> dict[str, Any]:
    from anthropic import beta_tool

    payload = dict(beta_tool(func).to_dict())
    return {
        "name": payload["name"],
        "description": payload.get("description"),
        "parameters": payload["input_schema"],
        "payload": payload,
    }


def _google_genai(func: Callable[..., Any]) -> dict[str, Any]:
    from google.genai import types

    declaration = types.FunctionDeclaration.from_callable_with_api_option(
        callable=func, api_option="GEMINI_API", use_json_schema=True
    )
    payload = declaration.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {
        "name": payload["name"],
        "description": payload.get("description"),
        "parameters": payload.get("parametersJsonSchema", {"type": "object", "properties": {}}),
        "payload": payload,
    }


# framework key -> (module that must be importable, the framework's own API called directly)
DIRECT: dict[str, tuple[str, Callable[[Callable[..., Any]], dict[str, Any]]]] = {
    "openai-agents": ("agents", _openai_agents),
    "pydantic-ai": ("pydantic_ai", _pydantic_ai),
    "langchain": ("langchain_core", _langchain),
    "langchain-tool": ("langchain_core", _langchain_tool),
    "mcp": ("mcp", _mcp),
    "fastmcp": ("fastmcp", _fastmcp),
    "anthropic": ("anthropic", _anthropic),
    "google-genai": ("google.genai", _google_genai),
}


def test_every_framework_has_a_direct_check() -> None:
    assert set(DIRECT) == set(names())


def test_the_function_table_is_large_enough() -> None:
    assert len(FUNCTIONS) >= 30


@pytest.mark.parametrize("framework", list(DIRECT))
@pytest.mark.parametrize("func", FUNCTIONS, ids=lambda f: f.__name__)
def test_adapter_returns_what_the_framework_returns(
    framework: str, func: Callable[..., Any]
) -> None:
    module, direct = DIRECT[framework]
    if not _installed(module):
        pytest.skip(f"{framework} is not installed")
    result = adapt(func, framework)
    assert result.version == importlib.metadata.version(
        {
            "pydantic-ai": "pydantic-ai-slim",
            "langchain": "langchain-core",
            "langchain-tool": "langchain-core",
        }.get(framework, framework)
    )
    refusal: Exception | None = None
    try:
        expected = direct(func)
    except Exception as exc:  # the framework refused: the adapter must say so, in its words
        refusal = exc
    if refusal is not None:
        assert result.status is Status.REFUSED
        assert result.sent is None
        assert result.message is not None
        assert result.message.startswith(type(refusal).__name__ + ": ")
        assert " ".join(str(refusal).split())[:200] in result.message
        assert result.finding is not None
        assert result.finding.rule == "framework.refused"
        return
    assert result.status is Status.ACCEPTED, result.message
    assert result.sent is not None
    got = {
        "name": result.sent.name,
        "description": result.sent.description,
        "parameters": result.sent.parameters,
        "payload": result.sent.payload,
    }
    assert got == expected


def test_results_do_not_share_objects_with_the_framework() -> None:
    if not _installed("anthropic"):
        pytest.skip("anthropic is not installed")
    first = adapt(FUNCTIONS[0], "anthropic")
    assert first.sent is not None
    first.sent.parameters["properties"].clear()
    second = adapt(FUNCTIONS[0], "anthropic")
    assert second.sent is not None
    assert second.sent.parameters["properties"]
