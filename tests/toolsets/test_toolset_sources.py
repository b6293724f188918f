"""toolset(source): every kind of source, the origins kept, bad tools as rows, and a source
that cannot be read at all as one TargetError."""

from __future__ import annotations

import json
import sys
import textwrap
import types
from pathlib import Path
from typing import Any

import pytest

import toollens
from toollens.toolsets import Definition, Tool, Toolset, register_source, registered_prefixes

TOOLS_PY = '''
"""Tools for the tests."""
import functools
from os.path import join  # imported: not a tool of this module

LIMIT = 10


def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue.

    Args:
        query: what to look for.
    """
    return []


def _helper() -> None:
    pass


def _deco(f):
    @functools.wraps(f)
    def wrapper(*a, **k):
        return f(*a, **k)
    return wrapper


@_deco
def fetch(url: str) -> str:
    """Fetch one page."""
    return url


class Page:
    pass
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "tlpkg").mkdir()
    (tmp_path / "tlpkg" / "__init__.py").write_text("")
    (tmp_path / "tlpkg" / "tools.py").write_text(textwrap.dedent(TOOLS_PY))
    (tmp_path / "tlpkg" / "listed.py").write_text(
        "__all__ = ['second', 'first', 'LIMIT', 'missing']\nLIMIT = 3\n"
        "def first(a: int) -> int:\n    return a\n"
        "def second(b: str) -> str:\n    return b\n"
    )
    (tmp_path / "tlpkg" / "broken.py").write_text("raise RuntimeError('no config')\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in [m for m in sys.modules if m == "tlpkg" or m.startswith("tlpkg.")]:
        del sys.modules[name]


def test_public_api() -> None:
    from toollens.toolsets import toolset

    assert toollens.toolset is toolset
    assert {"toolset", "Toolset", "Tool"} <= set(toollens.__all__)


def test_module_by_name_lists_public_functions_defined_there(project: Path) -> None:
    ts = toollens.toolset("tlpkg.tools")
    assert ts.names == ("search", "fetch")
    first = ts["search"]
    assert first.origin.kind == "module"
    assert first.origin.module == "tlpkg.tools"
    assert first.origin.line == 9
    assert first.report is not None
    assert first.error is None
    assert ts["fetch"].origin.line == 30  # the def line, under its decorator
    assert ts.label == "tlpkg.tools"


def test_module_object_and_file_path(project: Path) -> None:
    import tlpkg.tools

    assert toollens.toolset(tlpkg.tools).names == ("search", "fetch")
    assert toollens.toolset("tlpkg/tools.py").names == ("search", "fetch")


def test_module_all_is_honoured(project: Path) -> None:
    ts = toollens.toolset("tlpkg.listed")
    assert ts.names == ("second", "first", "missing")
    assert ts["missing"].error == "__all__ in tlpkg.listed lists 'missing', not defined"
    assert ts["second"].ok
    assert ts["first"].ok


def test_module_that_fails_to_import_raises_one_line(project: Path) -> None:
    with pytest.raises(toollens.TargetError) as info:
        toollens.toolset("tlpkg.broken")
    assert "importing 'tlpkg.broken' raised RuntimeError: no config" in str(info.value)
    assert "\n" not in str(info.value)
    with pytest.raises(toollens.TargetError, match=r"^no module named 'tlpkg\.absent'"):
        toollens.toolset("tlpkg.absent")


def test_attribute_target_naming_a_list(project: Path) -> None:
    (project / "tlpkg" / "app.py").write_text(
        "from tlpkg.tools import search, fetch\nTOOLS = [search, fetch]\n"
    )
    ts = toollens.toolset("tlpkg.app:TOOLS")
    assert ts.names == ("search", "fetch")
    assert [e.origin.index for e in ts] == [0, 1]
    assert ts["fetch"].origin.module == "tlpkg.tools"


def test_list_of_callables_keeps_order_and_index() -> None:
    def b(x: int) -> int:
        """B."""
        return x

    def a(y: str) -> str:
        """A."""
        return y

    ts = toollens.toolset([b, a])
    assert ts.names == ("b", "a")
    assert [e.origin.index for e in ts] == [0, 1]
    assert all(e.origin.kind == "callable" for e in ts)
    assert ts["a"].description == "A."


def test_tool_raising_while_inspected_is_one_row() -> None:
    class Hostile:
        __name__ = "hostile"

        @property
        def __signature__(self) -> Any:
            raise RuntimeError("signature exploded")

        def __call__(self) -> None:
            pass

    def ok(x: int) -> int:
        return x

    ts = toollens.toolset([ok, Hostile()])
    assert ts.names == ("ok", "hostile")
    assert ts["ok"].ok
    assert ts["hostile"].error is not None
    assert "signature exploded" in ts["hostile"].error


def test_unknown_object_kind_raises_and_in_a_list_is_one_row() -> None:
    with pytest.raises(toollens.TargetError, match="cannot read tools from a int object"):
        toollens.toolset(42)
    ts = toollens.toolset([print, object()])
    assert ts[1].error is not None
    assert ts[1].origin.index == 1


OPENAI_CHAT = {
    "tools": [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather for a city.",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
                "strict": False,
            },
        },
        {"type": "web_search"},
        "not a tool",
        {"type": "function", "function": {"description": "no name", "parameters": {}}},
    ]
}


def test_openai_chat_payload_with_malformed_entries() -> None:
    ts = toollens.toolset(OPENAI_CHAT)
    assert [e.origin.index for e in ts] == [0, 1, 2, 3]
    weather = ts[0]
    assert weather.name == "get_weather"
    assert weather.description == "Weather for a city."
    assert weather.report is not None
    assert weather.report.options.strict is False
    assert weather.origin.kind == "json"
    assert ts[1].error == "tool 1 is a built-in tool of type 'web_search', with no schema"
    assert ts[2].error == "tool 2 is a str, not an object"
    assert ts[3].error == "tool 3 has no string 'name'"


def test_responses_anthropic_and_gemini_payloads() -> None:
    responses = {"tools": [{"type": "function", "name": "a", "parameters": {"type": "object"}}]}
    anthropic = {"tools": [{"name": "b", "description": "B.", "input_schema": {"type": "object"}}]}
    gemini = {
        "tools": [
            {
                "functionDeclarations": [
                    {"name": "c", "parametersJsonSchema": {"type": "object"}},
                    {"name": "d", "description": "No parameters."},
                ]
            }
        ]
    }
    assert toollens.toolset(responses).names == ("a",)
    assert toollens.toolset(anthropic).names == ("b",)
    ts = toollens.toolset(gemini)
    assert ts.names == ("c", "d")
    assert all(e.ok for e in ts)
    assert ts["d"].report is not None
    assert ts["d"].report.raw_schema == {
        "type": "object",
        "properties": {},
    }


def test_json_file_source(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(OPENAI_CHAT))
    ts = toollens.toolset(str(path))
    assert ts.names[0] == "get_weather"
    assert len(ts) == 4
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(toollens.TargetError, match="line 1 column 2"):
        toollens.toolset(str(bad))


def test_from_definitions_with_mcp_shape_and_output_schema() -> None:
    ts = Toolset.from_definitions(
        [
            {
                "name": "add",
                "description": "Add two numbers.",
                "inputSchema": {
                    "type": "object",
                    "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                    "required": ["a", "b"],
                },
                "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}},
            },
            Definition("noop", None, {"type": "object", "properties": {}}),
            {"name": "bad", "inputSchema": {"type": "nonsense"}},
        ],
        label="server",
        kind="mcp",
    )
    add = ts["add"]
    assert add.origin.kind == "mcp"
    assert add.origin.index == 0
    assert add.output_schema == {"type": "object", "properties": {"sum": {"type": "number"}}}
    assert add.report is not None
    assert add.report.schema is not None
    assert add.report.schema["additionalProperties"] is False  # strict conversion ran
    assert ts["noop"].ok
    assert ts["bad"].error is not None
    assert "type 'nonsense'" in ts["bad"].error


def test_from_definition_does_not_mutate_the_schema() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    before = json.dumps(schema)
    Tool.from_definition("t", "T.", schema)
    assert json.dumps(schema) == before


def test_registered_prefix_dispatch() -> None:
    def loader(rest: str, options: Any) -> Toolset:
        return Toolset.from_definitions([{"name": rest, "inputSchema": {"type": "object"}}])

    register_source("fake-src", loader)
    assert "fake-src" in registered_prefixes()
    assert toollens.toolset("fake-src:hello").names == ("hello",)
    assert "project" in registered_prefixes()  # toollens.toolset loads the project layer's


def test_registered_loader_raising_raises_its_error() -> None:
    def loader(rest: str, options: Any) -> Toolset:
        raise toollens.TargetError("server did not start")

    register_source("fake-broken", loader)
    with pytest.raises(toollens.TargetError, match=r"^server did not start$"):
        toollens.toolset("fake-broken:x")


@pytest.mark.parametrize("prefix", ["c", "Mcp", "a b", ""])
def test_bad_prefix_is_refused(prefix: str) -> None:
    with pytest.raises(toollens.TargetError):
        register_source(prefix, lambda rest, options: Toolset(()))


def test_project_table(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.toollens]\ntools = ["tlpkg.tools:*", "tlpkg.tools:search", "tlpkg.broken:x"]\n'
        "strict = false\n"
    )
    ts = toollens.toolset("project")
    assert ts.names == ("search", "fetch", "tlpkg.broken:x")
    assert ts["search"].origin.kind == "project"
    assert ts["search"].report is not None
    assert ts["search"].report.options.strict is False
    assert "RuntimeError" in (ts["tlpkg.broken:x"].error or "")
    assert toollens.toolset(f"project:{project}").names == ts.names


def test_options_reach_every_tool() -> None:
    def f(x: int) -> int:
        return x

    options = toollens.ReportOptions(strict=False, provider="anthropic")
    ts = toollens.toolset([f, {"name": "g", "input_schema": {"type": "object"}}], options)
    assert all(e.report is not None and e.report.provider == "anthropic" for e in ts)
    assert ts.options is options


def test_toolset_of_a_toolset_is_itself() -> None:
    ts = toollens.toolset([])
    assert toollens.toolset(ts) is ts
    assert len(ts) == 0


def test_module_without_tools_says_what_was_looked_for(project: Path) -> None:
    module = types.ModuleType("empty_mod")
    with pytest.raises(toollens.TargetError) as info:
        toollens.toolset(module)
    assert str(info.value).startswith("module 'empty_mod' has no tools (looked for public ")


def test_loader_raising_anything_is_one_target_error() -> None:
    def loader(rest: str, options: Any) -> Toolset:
        raise RuntimeError("connection refused")

    register_source("fake-crash", loader)
    with pytest.raises(toollens.TargetError) as info:
        toollens.toolset("fake-crash:x")
    assert str(info.value) == "reading 'fake-crash:x' raised RuntimeError: connection refused"


def test_iterable_raising_is_one_target_error() -> None:
    def tools() -> Any:
        yield print
        raise ValueError("generator broke")

    with pytest.raises(toollens.TargetError, match="ValueError: generator broke"):
        toollens.toolset(tools())
