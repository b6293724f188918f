"""Toolsets read from the real frameworks: OpenAI Agents, pydantic-ai, LangChain."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from typing import Any

import pytest

import toollens

RunContext: Any = None  # set by the pydantic-ai test once the framework is imported


def _weather_tool() -> Any:
    agents = pytest.importorskip("agents")

    @agents.function_tool
    def get_weather(city: str, days: int = 1) -> str:
        """Weather for a city.

        Args:
            city: the city.
            days: how many days ahead.
        """
        return city

    return get_weather


def test_agents_agent_tools_hosted_tools_and_handoffs() -> None:
    agents = pytest.importorskip("agents")
    weather = _weather_tool()
    billing = agents.Agent(name="Billing agent", instructions="Bills.")
    refunds = agents.handoff(
        agents.Agent(name="Refunds", instructions="R."), tool_name_override="refund_desk"
    )
    triage = agents.Agent(
        name="Triage", tools=[weather, agents.WebSearchTool()], handoffs=[billing, refunds]
    )
    ts = toollens.toolset(triage)
    assert ts.label == "Triage"
    assert ts.names == ("get_weather", "web_search", "transfer_to_billing_agent", "refund_desk")
    assert [e.origin.role for e in ts] == [None, "hosted", "handoff", "handoff"]
    assert [e.origin.index for e in ts] == [0, 1, 2, 3]
    assert all(e.origin.kind == "agents" for e in ts)
    hosted = ts["web_search"]
    assert hosted.report is None
    assert hosted.error is None
    # The schema is the SDK's own, as it sends it.
    entry = ts["get_weather"]
    assert entry.report is not None
    assert entry.report.raw_schema == weather.params_json_schema
    assert entry.description == "Weather for a city."
    handoff = ts["transfer_to_billing_agent"]
    made = agents.handoff(billing)
    assert handoff.report is not None
    assert handoff.report.raw_schema == made.input_json_schema
    assert handoff.description == made.tool_description


def test_agents_function_tool_strictness_is_the_sdks() -> None:
    agents = pytest.importorskip("agents")

    def lax(x: int) -> int:
        """Lax."""
        return x

    tool = agents.function_tool(lax, strict_mode=False)
    ts = toollens.toolset([tool, _weather_tool()])
    assert ts.names == ("lax", "get_weather")
    first = ts["lax"].report
    assert first is not None
    assert first.options.strict is False
    assert first.raw_schema == tool.params_json_schema
    second = ts["get_weather"].report
    assert second is not None
    assert second.options.strict is True


def test_pydantic_ai_agent_function_tools() -> None:
    pydantic_ai = pytest.importorskip("pydantic_ai")
    # pydantic-ai resolves the string annotations below in this module's globals.
    globals()["RunContext"] = pydantic_ai.RunContext
    agent = pydantic_ai.Agent("test", name="support")

    @agent.tool_plain
    def lookup(order_id: int) -> str:
        """Look up an order.

        Args:
            order_id: the order number.
        """
        return ""

    @agent.tool
    def refund(ctx: RunContext[None], order_id: str, amount: float) -> str:
        """Refund an order."""
        return ""

    ts = toollens.toolset(agent)
    assert ts.names == ("lookup", "refund")
    assert all(e.origin.kind == "pydantic-ai" for e in ts)
    assert ts["lookup"].origin.module == __name__
    assert ts["lookup"].origin.line is not None
    definition = agent.toolsets[0].tools["refund"].tool_def
    refund_report = ts["refund"].report
    assert refund_report is not None
    assert refund_report.raw_schema == definition.parameters_json_schema
    assert "ctx" not in refund_report.raw_schema["properties"]
    conflict = [f for f in ts.findings if f.rule == "toolset.parameter-type-conflict"]
    assert len(conflict) == 1
    assert conflict[0].parameter == "order_id"


def test_langchain_tools() -> None:
    langchain_tools = pytest.importorskip("langchain_core.tools")
    from langchain_core.utils.function_calling import convert_to_openai_tool

    @langchain_tools.tool
    def multiply(a: int, b: int) -> int:
        """Multiply two numbers."""
        return a * b

    @langchain_tools.tool("Multiply")
    def multiply_again(a: int, b: int) -> int:
        """Multiply two numbers, again."""
        return a * b

    ts = toollens.toolset([multiply, multiply_again])
    assert ts.names == ("multiply", "Multiply")
    assert ts["multiply"].origin.kind == "langchain"
    assert ts["multiply"].origin.index == 0
    sent = convert_to_openai_tool(multiply)["function"]
    report = ts["multiply"].report
    assert report is not None
    assert report.raw_schema == sent["parameters"]
    if importlib.util.find_spec("agents") is not None:  # the rule asks the Agents SDK
        rules = {f.rule for f in ts.findings}
        assert "toolset.sanitised-name-collision" in rules


def test_framework_object_raising_is_one_row() -> None:
    agents = pytest.importorskip("agents")

    class Exploding(agents.FunctionTool):  # type: ignore[misc]
        @property
        def params_json_schema(self) -> Any:
            raise RuntimeError("schema unavailable")

        @params_json_schema.setter
        def params_json_schema(self, value: Any) -> None:
            pass

    weather = _weather_tool()
    broken = Exploding(
        name="broken",
        description="B.",
        params_json_schema={},
        on_invoke_tool=weather.on_invoke_tool,
        strict_json_schema=False,
    )
    ts = toollens.toolset([weather, broken])
    assert ts.names == ("get_weather", "broken")
    assert ts["broken"].error is not None
    assert "schema unavailable" in ts["broken"].error


def test_reading_functions_imports_no_framework() -> None:
    code = (
        "import sys, toollens\n"
        "def f(x: int) -> int:\n    return x\n"
        "toollens.toolset([f])\n"
        "print(sorted(m for m in ('agents', 'pydantic_ai', 'langchain_core') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"
