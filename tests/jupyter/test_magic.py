"""``%toolschema`` / ``%%toolschema`` through IPython's own shell: options and error paths."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from IPython.core.interactiveshell import InteractiveShell
from IPython.testing import globalipapp
from IPython.testing.globalipapp import start_ipython

import toollens.jupyter.magic as magic_module
from toollens.core.report import Report
from toollens.jupyter.diff_widget import DiffWidget
from toollens.jupyter.explorer import Explorer
from toollens.jupyter.magic import ToolSchemaMagics

WEATHER_CELL = '''\
from typing import Literal

def helper(x: int) -> int:
    """Not the tool."""
    return x

def get_weather(city: str, unit: Literal["c", "f"] = "c") -> str:
    """Get the weather.

    Args:
        city: The city to forecast.
        unit: Temperature unit.
    """
    return city
'''


@pytest.fixture(scope="module")
def ipython() -> InteractiveShell:
    start_ipython()  # once a process: a second call returns None
    shell = globalipapp.get_ipython()
    shell.run_line_magic("load_ext", "toollens.jupyter")
    return shell


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What the magic passed to ``display`` (a terminal shell would only print text)."""
    seen: list[Any] = []
    monkeypatch.setattr(magic_module, "display", seen.append)
    return seen


@pytest.fixture
def shell(ipython: InteractiveShell, shown: list[Any]) -> Iterator[InteractiveShell]:
    result = ipython.run_cell(WEATHER_CELL, store_history=False)
    assert result.success
    ipython.user_ns["NOT_A_TOOL"] = 42
    yield ipython
    for name in ("get_weather", "helper", "NOT_A_TOOL", "other", "payload", "from_cell"):
        ipython.user_ns.pop(name, None)


def one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("toolschema: ")
    return lines[0]


def test_extension_registers_line_and_cell_magic(ipython: InteractiveShell) -> None:
    magics = ipython.magics_manager.magics
    assert "toolschema" in magics["line"]
    assert "toolschema" in magics["cell"]


def test_load_ext_toollens_works(ipython: InteractiveShell) -> None:
    ipython.run_line_magic("load_ext", "toollens")
    assert "toollens" in ipython.extension_manager.loaded
    assert "toolschema" in ipython.magics_manager.magics["cell"]


def test_help_lists_every_option() -> None:
    doc = ToolSchemaMagics.toolschema.__doc__
    assert doc is not None
    for option in (
        "--no-strict",
        "--provider",
        "--output-type",
        "--name",
        "--description",
        "--style",
        "--static",
        "--json",
        "--diff",
    ):
        assert option in doc


def test_line_magic_opens_the_explorer(shell: InteractiveShell, shown: list[Any]) -> None:
    assert shell.run_line_magic("toolschema", "get_weather") is None
    (explorer,) = shown
    assert isinstance(explorer, Explorer)
    assert explorer.report.title == "get_weather"
    assert explorer.report.options.strict is True
    assert explorer.report.options.provider == "openai-chat"
    assert explorer.editor.value.startswith("def get_weather(")
    explorer.editor.value = explorer.editor.value.replace("Get the weather", "Edited")
    assert shell.user_ns["get_weather"].__doc__.startswith("Get the weather")
    assert explorer.apply()
    assert shell.user_ns["get_weather"].__doc__.startswith("Edited")


def test_library_function_edits_resolve_in_its_module_and_apply_to_the_notebook(
    shell: InteractiveShell, shown: list[Any]
) -> None:
    from toollens import examples

    shell.run_cell("from toollens.examples import EXAMPLES", store_history=False)
    shell.run_line_magic("toolschema", 'EXAMPLES["get_weather"]')
    (explorer,) = shown
    explorer.editor.value = explorer.editor.value.replace("City name", "Town name")
    explorer.flush()
    assert explorer.error is None  # Annotated/Field resolve in toollens.examples' globals
    assert explorer.apply()
    assert shell.user_ns["get_weather"] is not examples.get_weather
    assert shell.user_ns["get_weather"].__module__ == "toollens.examples"
    assert examples.EXAMPLES["get_weather"] is examples.get_weather  # library untouched
    assert "City name" in str(examples.get_weather.__annotations__["city"])


def test_pydantic_model_defined_in_a_cell_is_editable(
    shell: InteractiveShell, shown: list[Any]
) -> None:
    shell.run_cell(
        "from pydantic import BaseModel, Field\n\n"
        "class CellBooking(BaseModel):\n"
        "    room: str = Field(description='Room name')\n",
        store_history=False,
    )
    shell.run_line_magic("toolschema", "CellBooking")
    (explorer,) = shown
    assert explorer.editor.value.startswith("class CellBooking(BaseModel):")
    explorer.editor.value = explorer.editor.value.replace("Room name", "Meeting room")
    explorer.flush()
    assert explorer.error is None
    assert "Meeting room" in explorer.panels["strict"]
    shell.user_ns.pop("CellBooking")


def test_every_option_reaches_the_report(shell: InteractiveShell, shown: list[Any]) -> None:
    shell.run_line_magic(
        "toolschema",
        'get_weather --no-strict --provider anthropic --output-type "list[int]" '
        '--name "weather tool" --description "Weather, now" --style google',
    )
    (explorer,) = shown
    options = explorer.report.options
    assert options.strict is False
    assert options.provider == "anthropic"
    assert options.output_type == list[int]
    assert options.name == "weather tool"
    assert options.description == "Weather, now"
    assert options.docstring_style == "google"
    assert explorer.strict is False
    assert explorer.provider == "anthropic"


def test_optional_defaults_option_reaches_the_explorer(
    shell: InteractiveShell, shown: list[Any]
) -> None:
    shell.run_line_magic("toolschema", "get_weather --optional-defaults nullable")
    (explorer,) = shown
    assert explorer.report.options.optional_defaults == "nullable"
    assert explorer.optional_defaults == "nullable"  # the toolbar shows it
    explorer.optional_defaults = "keep"
    assert explorer.report.options.optional_defaults is None


def test_expression_targets(shell: InteractiveShell, shown: list[Any]) -> None:
    shell.run_line_magic("toolschema", '{"get_weather": get_weather}[ "get_weather" ]')
    assert shown[0].report.title == "get_weather"
    shell.run_line_magic("toolschema", 'dict(type="object", properties={})')
    assert shown[1].report.target_kind == "json-schema"


def test_static_displays_the_report(shell: InteractiveShell, shown: list[Any]) -> None:
    shell.run_line_magic("toolschema", "get_weather --static --provider gemini")
    (rep,) = shown
    assert isinstance(rep, Report)
    assert rep.provider == "gemini"
    assert "The city to forecast." in rep._repr_mimebundle_()["text/html"]


def test_json_returns_the_provider_payload(shell: InteractiveShell, shown: list[Any]) -> None:
    payload = shell.run_line_magic("toolschema", "get_weather --json --name weather_now")
    assert shown == []
    assert isinstance(payload, dict)
    assert payload["type"] == "function"
    assert payload["function"]["name"] == "weather_now"
    assert payload["function"]["strict"] is True
    anthropic = shell.run_line_magic("toolschema", "get_weather --json --provider anthropic")
    assert "input_schema" in anthropic


def test_json_result_is_the_cell_value(shell: InteractiveShell) -> None:
    shell.run_cell("payload = %toolschema get_weather --json", store_history=False)
    assert shell.user_ns["payload"]["function"]["name"] == "get_weather"


def test_diff_opens_a_diff_widget(shell: InteractiveShell, shown: list[Any]) -> None:
    shell.run_cell(
        "def other(city: str, unit: str = 'c', days: int = 1) -> str:\n"
        "    '''Get the weather.'''\n    return city\n",
        store_history=False,
    )
    shell.run_line_magic("toolschema", "get_weather --diff other --no-strict")
    (widget,) = shown
    assert isinstance(widget, DiffWidget)
    assert widget.strict is False
    assert widget.diff is not None
    assert len(widget.diff) > 0


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        pytest.param("missing_name", "name 'missing_name' is not defined", id="unknown name"),
        pytest.param("1/0", "evaluating '1/0' raised ZeroDivisionError", id="raising expression"),
        pytest.param("get_weather(", "is not a Python expression", id="syntax error"),
        pytest.param("NOT_A_TOOL", "int object 42", id="unsupported object"),
        pytest.param("", "give a name or expression", id="no target"),
        pytest.param(
            "get_weather --output-type Nope", "name 'Nope' is not defined", id="bad output type"
        ),
        pytest.param("get_weather --diff nope", "name 'nope' is not defined", id="bad diff"),
        pytest.param("list[int] --json", "no provider payload", id="json of an output type"),
    ],
)
def test_errors_print_one_line(
    shell: InteractiveShell,
    shown: list[Any],
    capsys: pytest.CaptureFixture[str],
    line: str,
    expected: str,
) -> None:
    assert shell.run_line_magic("toolschema", line) is None
    assert expected in one_line_error(capsys)
    assert shown == []


def test_unknown_option_value_is_a_usage_error(
    shell: InteractiveShell, capsys: pytest.CaptureFixture[str]
) -> None:
    shell.run_cell("%toolschema get_weather --provider nobody", store_history=False)
    captured = capsys.readouterr()
    assert "UsageError" in captured.err + captured.out
    assert "Traceback" not in captured.err + captured.out


def test_cell_magic_runs_the_cell_and_explores_the_last_function(
    shell: InteractiveShell, shown: list[Any]
) -> None:
    cell = WEATHER_CELL.replace("get_weather", "from_cell")
    shell.run_cell_magic("toolschema", "--provider anthropic", cell)
    assert "from_cell" in shell.user_ns  # the author's cell ran in the user namespace
    (explorer,) = shown
    assert explorer.report.title == "from_cell"
    assert explorer.report.provider == "anthropic"
    assert explorer.editor.value == cell  # the explorer edits the cell's source
    explorer.editor.value = cell.replace("The city to forecast.", "Edited in the cell.")
    explorer.flush()
    assert "Edited in the cell." in explorer.panels["strict"]
    assert "Edited" not in shell.user_ns["from_cell"].__doc__


def test_cell_magic_with_ipython_syntax(shell: InteractiveShell, shown: list[Any]) -> None:
    cell = "%config InteractiveShell.ast_node_interactivity='last_expr'\n" + WEATHER_CELL
    shell.run_cell_magic("toolschema", "", cell)
    (explorer,) = shown
    explorer.editor.value = cell.replace("The city to forecast.", "Town.")
    explorer.flush()
    assert not explorer.error, explorer.error
    assert "Town." in explorer.panels["metadata"]


def test_cell_magic_picks_a_named_function(shell: InteractiveShell, shown: list[Any]) -> None:
    shell.run_cell_magic("toolschema", "helper --static", WEATHER_CELL)
    (rep,) = shown
    assert rep.title == "helper"


@pytest.mark.parametrize(
    ("line", "cell", "expected"),
    [
        pytest.param("", "x = 1\n", "defines no function", id="no function"),
        pytest.param("nothere", WEATHER_CELL, "does not define 'nothere'", id="unknown name"),
        pytest.param("", "def f(:\n", "did not run", id="syntax error in the cell"),
        pytest.param("", "raise ValueError('x')\n", "did not run", id="cell raises"),
    ],
)
def test_cell_magic_errors(
    shell: InteractiveShell,
    shown: list[Any],
    capsys: pytest.CaptureFixture[str],
    line: str,
    cell: str,
    expected: str,
) -> None:
    shell.run_cell_magic("toolschema", line, cell)
    captured = capsys.readouterr()
    lines = [x for x in captured.err.splitlines() if x.startswith("toolschema: ")]
    assert len(lines) == 1
    assert expected in lines[0]
    assert shown == []


LANGCHAIN_CELL = """\
from langchain_core.tools import BaseTool
from pydantic import BaseModel, Field

class SleepInput(BaseModel):
    sleep_time: int = Field(1, description="Time to sleep in seconds")

class SleepTool(BaseTool):
    name: str = "sleep"
    description: str = "Make the agent sleep for a number of seconds."
    args_schema: type[BaseModel] = SleepInput

    def _run(self, sleep_time: int = 1) -> str:
        return "done"
"""


@pytest.mark.parametrize("expression", ["SleepTool", "SleepTool()"])
def test_a_langchain_base_tool_shows_what_langchain_sends(
    ipython: InteractiveShell, shown: list[Any], expression: str
) -> None:
    """``%toolschema`` of a ``BaseTool`` class or instance: its ``args_schema``'s fields, as
    LangChain's own ``convert_to_openai_tool`` sends them (not BaseTool's pydantic fields)."""
    pytest.importorskip("langchain_core")
    from langchain_core.utils.function_calling import convert_to_openai_tool

    assert ipython.run_cell(LANGCHAIN_CELL, store_history=False).success
    try:
        ipython.run_line_magic("toolschema", f"{expression} --static --no-strict")
        sent = convert_to_openai_tool(ipython.user_ns["SleepTool"]())["function"]
    finally:
        for name in ("SleepTool", "SleepInput", "BaseTool", "BaseModel", "Field"):
            ipython.user_ns.pop(name, None)
    (rep,) = shown
    assert isinstance(rep, Report)
    assert (rep.title, rep.options.description) == (sent["name"], sent["description"])
    assert rep.raw_schema == sent["parameters"]


TOOL_LIST = Path(__file__).parents[1] / "consumers" / "cases" / "array-no-items.tools.json"


def test_a_tool_target_string_opens_as_toollens_show_takes_it(
    shell: InteractiveShell, shown: list[Any]
) -> None:
    target = f'"{TOOL_LIST}#update_dashboard"'
    shell.run_line_magic("toolschema", target)
    (explorer,) = shown
    assert isinstance(explorer, Explorer)
    assert explorer.report is not None
    assert explorer.report.title == "update_dashboard"
    assert "clients" in explorer.panels  # the tool list came along
    payload = shell.run_line_magic("toolschema", f"{target} --json")
    assert payload["function"]["name"] == "update_dashboard"
