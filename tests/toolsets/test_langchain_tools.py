"""LangChain ``BaseTool`` subclasses and instances are read as LangChain sends them, and a
module's tools follow one rule whatever spelling names them.

The oracle is LangChain's own ``convert_to_openai_tool`` (what ``bind_tools`` sends).
"""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import toollens
from toollens.cli import main

SLEEP = '''
from langchain_core.tools import BaseTool, tool
from pydantic import BaseModel, Field


class SleepInput(BaseModel):
    sleep_time: int = Field(1, description="Time to sleep in seconds")


class SleepTool(BaseTool):
    name: str = "sleep"
    description: str = "Make the agent sleep for a number of seconds."
    args_schema: type[BaseModel] = SleepInput

    def __init__(self, **kwargs):
        raise RuntimeError("user code must not run to read the tool")

    def _run(self, sleep_time: int = 1) -> str:
        return "done"


class WakeTool(BaseTool):
    name: str = "wake"
    description: str = "Wake the agent up."

    def _run(self) -> str:
        return "awake"


@tool
def shout(text: str) -> str:
    """Shout the text."""
    return text.upper()


wake = WakeTool()
'''

MODELS = '''
from pydantic import BaseModel, Field


class Weather(BaseModel):
    """Get the weather for a city."""

    city: str = Field(description="The city")


class Reply(BaseModel):
    text: str
'''

ORDER = '''
from langchain_core.tools import tool


def first(a: int) -> int:
    """First."""
    return a


@tool
def second(b: str) -> str:
    """Second."""
    return b


def third(c: float) -> float:
    """Third."""
    return c


def _hidden() -> None:
    pass
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    pytest.importorskip("langchain_core")
    package = tmp_path / "lcpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "sleep.py").write_text(textwrap.dedent(SLEEP))
    (package / "models.py").write_text(textwrap.dedent(MODELS))
    (package / "order.py").write_text(textwrap.dedent(ORDER))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m == "lcpkg" or m.startswith("lcpkg.")]:
        del sys.modules[name]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _langchain_sends(obj: Any) -> dict[str, Any]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    sent: dict[str, Any] = convert_to_openai_tool(obj)["function"]
    return sent


def test_show_a_base_tool_subclass_shows_its_args_schema(project: Path) -> None:
    code, out, err = run("show", "lcpkg.sleep:SleepTool", "--view", "raw", "--format", "json")
    assert code == 0, err
    schema = json.loads(out)
    from lcpkg.sleep import SleepTool

    oracle = _langchain_sends(SleepTool.model_construct())
    assert list(schema["properties"]) == ["sleep_time"] == list(oracle["parameters"]["properties"])
    for field in ("callbacks", "tags", "return_direct", "args_schema"):
        assert field not in schema["properties"]
    assert schema["properties"]["sleep_time"] == oracle["parameters"]["properties"]["sleep_time"]


def test_the_payload_is_what_langchain_sends(project: Path) -> None:
    from lcpkg.sleep import SleepTool

    oracle = _langchain_sends(SleepTool.model_construct())
    ts = toollens.toolset("lcpkg.sleep")
    entry = ts["sleep"]
    assert entry.ok
    assert entry.description == oracle["description"]
    assert entry.parameters_schema == oracle["parameters"]


def test_an_instance_and_a_tool_decorator_are_read_too(project: Path) -> None:
    from lcpkg.sleep import shout, wake

    for target, obj in (("lcpkg.sleep:wake", wake), ("lcpkg.sleep:shout", shout)):
        code, out, err = run("show", target, "--view", "raw", "--format", "json")
        assert code == 0, err
        assert json.loads(out)["properties"] == _langchain_sends(obj)["parameters"].get(
            "properties", {}
        )


def test_a_module_of_tool_classes_lists_them(project: Path) -> None:
    ts = toollens.toolset("lcpkg.sleep")
    # binding order; `wake` (an instance) and WakeTool (its class) are both tools named wake
    assert ts.names == ("sleep", "wake", "shout", "wake")
    assert all(entry.ok for entry in ts)


def test_a_module_of_plain_models_has_no_tools_and_says_how_to_name_one(project: Path) -> None:
    code, out, err = run("check", "lcpkg.models")
    assert (code, out) == (3, "")
    (line,) = err.splitlines()
    assert "module 'lcpkg.models' has no tools (looked for public functions" in line
    assert "pydantic models are not tools by default; name one as lcpkg.models:Weather" in line
    code, out, err = run("check", "lcpkg.models:Weather")
    assert code in (0, 1), err
    assert out.startswith("Weather")


def test_a_module_and_its_project_wildcard_list_the_same_tools_in_order(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.toollens]\ntools = ["lcpkg.order:*"]\n')
    module = toollens.toolset("lcpkg.order")
    table = toollens.toolset("project")
    assert module.names == table.names == ("first", "second", "third")
    code, out, _ = run("check", "lcpkg.order", "--format", "json")
    assert [t["name"] for t in json.loads(out)["tools"]] == ["first", "second", "third"]
    assert code in (0, 1)


def test_all_is_honoured_by_the_project_wildcard_too(project: Path) -> None:
    (project / "lcpkg" / "listed.py").write_text(
        "__all__ = ['b', 'a']\n"
        "def a(x: int) -> int:\n    return x\n"
        "def b(y: int) -> int:\n    return y\n"
        "def c(z: int) -> int:\n    return z\n"
    )
    (project / "pyproject.toml").write_text('[tool.toollens]\ntools = ["lcpkg.listed:*"]\n')
    assert toollens.toolset("lcpkg.listed").names == ("b", "a")
    assert toollens.toolset("project").names == ("b", "a")


def test_the_project_lock_reads_framework_tools_of_a_wildcard(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.toollens]\ntools = ["lcpkg.order:*"]\n')
    code, out, err = run("snapshot")
    assert code == 0, err
    assert out == "wrote toollens.lock.json: 3 tools (first, second, third)\n"
    lock = json.loads((project / "toollens.lock.json").read_text())
    from lcpkg.order import second

    sent = _langchain_sends(second)
    assert lock["tools"]["second"]["description"] == sent["description"]
    assert run("diff", "--lock")[0] == 0


# -- the Python API, the explorer and %toolschema: the same rule as the command line ---------

FRONT_DOORS = ["report", "explorer"]  # %toolschema: tests/jupyter/test_magic.py


def _front_door_report(door: str, obj: Any) -> Any:
    """The report a notebook user gets for ``obj`` through ``door``."""
    if door == "report":
        return toollens.report(obj, strict=False)
    pytest.importorskip("ipywidgets")
    from toollens.jupyter.explorer import Explorer

    explorer = Explorer(obj, strict=False, debounce=0)
    try:
        return explorer.report
    finally:
        explorer.close()


@pytest.mark.parametrize("door", FRONT_DOORS)
@pytest.mark.parametrize("attr", ["SleepTool", "wake", "shout"])
def test_every_front_door_shows_what_langchain_sends(project: Path, door: str, attr: str) -> None:
    import lcpkg.sleep

    obj = getattr(lcpkg.sleep, attr)
    oracle = _langchain_sends(obj.model_construct() if isinstance(obj, type) else obj)
    rep = _front_door_report(door, obj)
    assert rep.title == oracle["name"]
    assert rep.options.description == oracle["description"]
    assert rep.raw_schema == oracle["parameters"]
    for field in ("callbacks", "tags", "return_direct", "args_schema"):
        assert field not in rep.raw_schema.get("properties", {})
    # the same answer as the command line and the toolset reader (one rule)
    _, out, _ = run(
        "show", f"lcpkg.sleep:{attr}", "--view", "raw", "--format", "json", "--no-strict"
    )
    assert json.loads(out) == rep.raw_schema


def test_a_model_listed_in_all_is_a_tool_of_the_module_and_of_its_wildcard(
    project: Path,
) -> None:
    (project / "lcpkg" / "bound.py").write_text(
        "from pydantic import BaseModel, Field\n"
        "__all__ = ['Weather', 'lookup']\n"
        "class Weather(BaseModel):\n"
        '    """Get the weather for a city."""\n'
        "    city: str = Field(description='The city')\n"
        "class NotListed(BaseModel):\n    x: int\n"
        "def lookup(q: str) -> str:\n"
        '    """Look something up."""\n'
        "    return q\n"
    )
    (project / "pyproject.toml").write_text('[tool.toollens]\ntools = ["lcpkg.bound:*"]\n')
    assert toollens.toolset("lcpkg.bound").names == ("Weather", "lookup")
    assert toollens.toolset("project").names == ("Weather", "lookup")
    code, out, err = run("check", "lcpkg.bound", "--format", "json")
    assert code in (0, 1), err
    assert [t["name"] for t in json.loads(out)["tools"]] == ["Weather", "lookup"]
    # what bind_tools([Weather]) sends names the same parameters
    weather = toollens.toolset("lcpkg.bound")["Weather"]
    from lcpkg.bound import Weather

    sent = _langchain_sends(Weather)
    assert list(weather.input_schema["properties"]) == list(sent["parameters"]["properties"])


@pytest.mark.parametrize("attr", ["SleepTool", "wake", "shout"])
def test_tokens_of_a_langchain_tool_count_what_langchain_sends(project: Path, attr: str) -> None:
    import lcpkg.sleep

    obj = getattr(lcpkg.sleep, attr)
    oracle = _langchain_sends(obj.model_construct() if isinstance(obj, type) else obj)
    counted = toollens.tokens(obj, "gpt-4o")
    as_sent = toollens.tokens(
        {"type": "function", "function": dict(oracle)},
        "gpt-4o",
    )
    assert [t.name for t in counted.tools] == [oracle["name"]]
    assert counted.total == as_sent.total
    # the tool's own record counts the same (one rule: Tool -> ToolDef)
    (tool,) = toollens.toolset([obj]).tools
    assert toollens.tokens(tool, "gpt-4o").total == counted.total


@pytest.mark.parametrize("attr", ["SleepTool", "wake", "shout"])
def test_no_strict_shows_the_request_bind_tools_sends_by_default(project: Path, attr: str) -> None:
    """LangChain sends a tool non-strict unless ``bind_tools(strict=True)``: its
    ``convert_to_openai_tool`` adds ``strict`` only when asked. ``--no-strict`` shows that
    request (docs/toolsets.md); toollens' payload says ``strict: false`` where LangChain's
    leaves the key out, which the API reads the same."""
    import lcpkg.sleep
    from langchain_core.utils.function_calling import convert_to_openai_tool

    obj = getattr(lcpkg.sleep, attr)
    tool = obj.model_construct() if isinstance(obj, type) else obj
    default, asked = convert_to_openai_tool(tool), convert_to_openai_tool(tool, strict=True)
    assert "strict" not in default["function"]
    assert asked["function"]["strict"] is True
    code, out, err = run(
        "show", f"lcpkg.sleep:{attr}", "--view", "provider", "--format", "json", "--no-strict"
    )
    assert code == 0, err
    shown = json.loads(out)
    assert shown["function"].pop("strict") is False
    assert shown == default
