"""What the front ends read through ``toollens.assess``, taking plain values (no argparse).

The tool list a target names for the Clients view (:mod:`toollens.assess.listing`), the
lock of a toolset (:mod:`toollens.assess.lock`), one side of a diff of a source's tool
(:mod:`toollens.assess.diff_sides`), what ``tokens`` counts
(:mod:`toollens.assess.token_sources`) and the functions ``fuzz`` calls
(:func:`toollens.assess.reading.target_functions`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from support.two_tools import ADD_AND_SCALE
from toollens.assess.diff_sides import source_tool, tool_side
from toollens.assess.listing import listed_tools
from toollens.assess.lock import lock_tools
from toollens.assess.reading import target_functions
from toollens.assess.token_sources import token_targets
from toollens.core.errors import TargetError
from toollens.core.report import ReportOptions
from toollens.project.config import toolset_lock_config
from toollens.tokens.tooldefs import DeferredMarks

LISTING = {
    "tools": [
        {
            "name": "echo",
            "description": "Echo the text.",
            "inputSchema": {
                "type": "object",
                "properties": {"text": {"type": "string", "description": "The text."}},
                "required": ["text"],
            },
        },
        {
            "name": "ping",
            "description": "Ping.",
            "inputSchema": {"type": "object", "properties": {}},
        },
    ]
}

TOOLS = ADD_AND_SCALE


@pytest.fixture
def listing_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tools-list.json").write_text(json.dumps(LISTING), encoding="utf-8")
    return "tools-list.json"


@pytest.fixture
def module_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reader_tools.py").write_text(TOOLS, encoding="utf-8")
    return "reader_tools.py"


# -- the Clients view's tool list ------------------------------------------------------------


def test_a_saved_tool_list_is_listed_whole_or_for_one_tool(listing_file: str) -> None:
    listed = listed_tools(listing_file, server_name="acme")
    assert listed is not None
    assert listed.file == listing_file
    assert listed.tools == ("echo", "ping")
    assert listed.listing.server_name == "acme"
    one = listed_tools(f"{listing_file}#ping")
    assert one is not None
    assert one.tools == ("ping",)
    assert one.file == listing_file


def test_a_tool_the_list_does_not_hold_is_named(listing_file: str) -> None:
    with pytest.raises(TargetError, match=r"tools-list\.json has no tool 'nope'"):
        listed_tools(f"{listing_file}#nope")


def test_a_json_file_without_mcp_tools_is_refused(tmp_path: Path, listing_file: str) -> None:
    (tmp_path / "schema.json").write_text('{"type": "object"}', encoding="utf-8")
    with pytest.raises(TargetError, match="holds no MCP tool list"):
        listed_tools("schema.json")


def test_a_python_function_is_not_a_tool_list(module_file: str) -> None:
    assert listed_tools(f"{module_file}:add") is None
    with pytest.raises(TargetError):  # names nothing: says so, as the other views do
        listed_tools(f"{module_file}:missing")


# -- the lock of a toolset -------------------------------------------------------------------


def test_a_tool_lists_lock_carries_each_clients_verdict(listing_file: str) -> None:
    tools = lock_tools(listing_file, toolset_lock_config())
    assert [t.name for t in tools] == ["echo", "ping"]
    assert all(t.entry.get("clients") for t in tools)


def test_a_modules_lock_has_no_client_verdicts(module_file: str) -> None:
    tools = lock_tools(module_file.removesuffix(".py"), toolset_lock_config())
    assert [t.name for t in tools] == ["add", "scale"]
    assert not any(t.entry.get("clients") for t in tools)


# -- a diff of a source's tool ---------------------------------------------------------------


def test_a_target_naming_one_object_is_not_a_sources_tool(module_file: str) -> None:
    assert source_tool(f"{module_file}:add", ReportOptions(), "OLD") is None


def test_a_source_of_several_tools_is_refused_and_one_tool_is_compared_as_sent(
    tmp_path: Path, module_file: str
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toollens]\ntools = ["reader_tools:add"]\n', encoding="utf-8"
    )
    tool = source_tool("project:.", ReportOptions(), "NEW")
    assert tool is not None
    side = tool_side(tool)
    assert isinstance(side, dict)
    assert side["name"] == "add"
    assert set(side["parameters"]["properties"]) == {"a", "b"}
    assert tool_side(tool, "openai-chat") != side  # the provider's payload of it
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toollens]\ntools = ["reader_tools:*"]\n', encoding="utf-8"
    )
    with pytest.raises(TargetError, match="names a source with 2 tools; diff compares one"):
        source_tool("project:.", ReportOptions(), "NEW")


# -- what tokens counts, what fuzz calls -----------------------------------------------------


def test_tokens_reads_a_toolset_with_its_deferred_marks_and_a_tool_as_it_resolves(
    listing_file: str, module_file: str
) -> None:
    toolset, tool = token_targets([listing_file, f"{module_file}:add"])
    assert isinstance(toolset, DeferredMarks)
    assert callable(tool)
    assert tool.__name__ == "add"


def test_fuzz_calls_each_function_of_a_module_in_order(module_file: str) -> None:
    assert [f.__name__ for f in target_functions(module_file)] == ["add", "scale"]
    assert [f.__name__ for f in target_functions(f"{module_file}:scale")] == ["scale"]


def test_fuzz_refuses_a_schema_and_an_attribute_that_does_not_resolve(
    tmp_path: Path, module_file: str
) -> None:
    (tmp_path / "schema.json").write_text('{"type": "object"}', encoding="utf-8")
    with pytest.raises(TargetError, match="is a JSON schema, which has no function to call"):
        target_functions("schema.json")
    with pytest.raises(TargetError, match="missing"):
        target_functions(f"{module_file}:missing")
