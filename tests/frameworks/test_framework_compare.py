"""compare(): diffs against the reference view, the per-parameter matrix, the gate."""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import importlib.util
import re
import subprocess
import sys
from typing import Annotated, Any

import pytest
from pydantic import Field

import toollens
from support import fake_framework_adapter, fake_warning_adapter
from support.framework_functions import (
    FUNCTIONS,
    agents_context,
    docstring_and_field,
    google_style,
    optional_none,
)
from toollens.core.diff import DiffSeverity
from toollens.core.errors import TargetError
from toollens.core.providers.walk import is_object_node
from toollens.frameworks import ADAPTERS, Status, adapt, installed, preload, spec
from toollens.frameworks._spec import run_coroutine
from toollens.frameworks.compare import REFERENCE, Comparison, compare
from toollens.frameworks.matrix import TOOL_ROW

ALL = ("openai-agents", "pydantic-ai", "langchain", "mcp", "fastmcp", "anthropic", "google-genai")


def _need(*frameworks: str) -> None:
    missing = [f for f in frameworks if f not in installed([f])]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


@pytest.fixture
def nowhere(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(ADAPTERS, "nowhere", fake_framework_adapter.ENTRY)
    return "nowhere"


@pytest.mark.parametrize(
    ("code", "modules"),
    [
        (
            "import toollens; toollens.compare; toollens.Comparison; import toollens.frameworks",
            "('agents', 'pydantic_ai', 'langchain_core', 'mcp', 'fastmcp', 'anthropic', "
            "'google.genai')",
        ),
        (
            "from toollens.frameworks import ADAPTERS, installed, names, spec; "
            "installed(); [spec(k) for k in names()]",
            "[e.adapter for e in ADAPTERS.values()]",
        ),
    ],
    ids=["import toollens: no framework", "spec and installed: no adapter module"],
)
def test_a_fresh_interpreter_imports_none_of(code: str, modules: str) -> None:
    script = f"import sys; {code}; print(','.join(m for m in {modules} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


def test_compare_is_exported() -> None:
    assert toollens.compare is compare
    assert toollens.Comparison is Comparison


def test_missing_framework_is_reported_not_raised(nowhere: str) -> None:
    result = adapt(google_style, nowhere)
    assert result.status is Status.NOT_INSTALLED
    assert result.version is None
    assert result.message == "cannot import toollens_no_such_framework"
    assert result.finding is not None
    assert result.finding.rule == "framework.not-installed"
    assert installed([nowhere]) == ()
    assert preload([nowhere]) == ()
    comparison = compare(google_style, [nowhere])
    assert comparison.not_installed == (nowhere,)
    assert comparison.matrix.columns == (REFERENCE,)


def test_unknown_framework_is_a_target_error() -> None:
    with pytest.raises(TargetError, match="unknown framework 'nope'; choose from openai-agents"):
        adapt(google_style, "nope")


def test_run_coroutine_works_inside_a_running_loop() -> None:
    async def inner() -> int:
        return 7

    async def outer() -> int:
        return run_coroutine(inner())

    assert asyncio.run(outer()) == 7
    assert run_coroutine(inner()) == 7


def test_mcp_adapter_works_inside_a_running_loop() -> None:
    _need("mcp", "fastmcp")

    async def outer() -> tuple[Any, Any]:
        return adapt(google_style, "mcp"), adapt(google_style, "fastmcp")

    for result in asyncio.run(outer()):
        assert result.status is Status.ACCEPTED, result.message


def test_reference_implementation_agrees_with_toollens_on_every_function() -> None:
    _need("openai-agents")
    for func in FUNCTIONS:
        entry = compare(func, ["openai-agents"]).entry("openai-agents")
        if entry.result.accepted and entry.diff is not None:
            assert entry.material == (), func.__name__


@pytest.mark.parametrize("func", FUNCTIONS, ids=lambda f: f.__name__)
def test_matrix_reads_each_framework_schema(func: Any) -> None:
    comparison = compare(func, installed(ALL))
    matrix = comparison.matrix
    assert matrix.columns == comparison.participants
    for key in matrix.columns[1:]:
        sent = comparison.entry(key).result.sent
        assert sent is not None
        root = sent.parameters
        properties = root.get("properties", {})
        for row in matrix.rows[1:]:
            cell = row.cell(key)
            assert cell.present == (row.parameter in properties)
            if cell.present:
                assert cell.required == (row.parameter in root.get("required", []))
                assert cell.default_sent == ("default" in properties[row.parameter])
        closed = root.get("additionalProperties") is False if is_object_node(root) else None
        assert matrix.row(TOOL_ROW).cell(key).closed == closed
    for row in matrix.rows:
        present = [cell for _, cell in row.cells if cell.present]
        for attribute in ("required", "type", "closed"):
            values = {getattr(cell, attribute) for cell in present}
            assert (attribute in row.disagreements) == (len(values) > 1)


def test_matrix_names_the_disagreements_that_matter() -> None:
    _need("openai-agents", "pydantic-ai", "langchain")
    comparison = compare(docstring_and_field, ["openai-agents", "pydantic-ai", "langchain"])
    city = comparison.matrix.row("city")
    # LangChain and the Agents SDK let the docstring win; pydantic-ai lets Field win.
    assert city.cell(REFERENCE).description == "docstring"
    assert city.cell("openai-agents").description == "docstring"
    assert city.cell("langchain").description == "docstring"
    assert city.cell("pydantic-ai").description == "annotated-field"
    assert "description" in city.disagreements
    assert comparison.entry("openai-agents").material == ()
    material = comparison.entry("pydantic-ai").material
    assert [(c.pointer, c.keyword) for c in material] == [("/properties/city", "description")]


def test_optional_default_is_required_only_in_strict_frameworks() -> None:
    _need("openai-agents", "mcp")
    row = compare(optional_none, ["openai-agents", "mcp"]).matrix.row("unit")
    assert row.cell("openai-agents").required is True
    assert row.cell("mcp").required is False
    assert row.cell("mcp").default_sent
    assert row.cell("mcp").default is None
    assert row.cell("openai-agents").default_sent is False
    assert {"required", "default"} <= set(row.disagreements)


def test_an_exposed_context_is_a_presence_disagreement() -> None:
    _need("openai-agents", "langchain")
    comparison = compare(agents_context, ["openai-agents", "langchain"])
    ctx = comparison.matrix.row("ctx")
    # The Agents SDK injects its run context; LangChain asks the model for it.
    assert ctx.cell("openai-agents").present is False
    assert ctx.cell(REFERENCE).present is False
    assert ctx.cell("langchain").present is True
    assert ctx.disagreements == ("present",)
    assert comparison.pair_diff("openai-agents", "langchain").breaking


def test_refusal_is_breaking_and_carries_the_framework_message() -> None:
    _need("fastmcp", "mcp")

    def greet(*names: str) -> str:
        """Greet."""
        return ""

    comparison = compare(greet, ["mcp", "fastmcp"])
    assert comparison.refused == ("fastmcp",)
    assert comparison.agreement is DiffSeverity.BREAKING
    finding = next(f for f in comparison.findings if f.rule == "framework.refused")
    assert "Functions with *args are not supported as tools" in finding.message


def test_pair_diff_between_two_frameworks_uses_the_diff_engine() -> None:
    _need("mcp", "fastmcp")
    comparison = compare(google_style, ["mcp", "fastmcp"])
    forward = comparison.pair_diff("mcp", "fastmcp")
    assert forward.breaking  # FastMCP closes the object MCP leaves open
    assert any(c.keyword == "additionalProperties" for c in forward)
    assert not comparison.pair_diff("fastmcp", "mcp").breaking
    assert comparison.agreement is DiffSeverity.BREAKING
    with pytest.raises(KeyError):
        comparison.pair_diff("mcp", "anthropic")


def test_toollens_refusal_still_shows_the_frameworks() -> None:
    _need("langchain")

    def send(headers: dict[str, str]) -> str:
        """Send."""
        return ""

    comparison = compare(send, ["langchain"])
    assert comparison.reference is None
    assert comparison.reference_error is not None
    assert comparison.findings[0].rule == "reference.refused"
    assert comparison.entry("langchain").result.accepted
    assert comparison.matrix.columns == ("langchain",)


def test_comparison_is_frozen_and_json_ready() -> None:
    import json

    comparison = compare(google_style, installed(ALL))
    with pytest.raises(AttributeError):
        comparison.target = "x"  # type: ignore[misc]
    data = json.loads(json.dumps(comparison.to_dict()))
    assert data["target"] == "google_style"
    assert [f["framework"] for f in data["frameworks"]] == list(installed(ALL))


def test_annotated_string_is_ignored_by_pydantic_ai() -> None:
    _need("pydantic-ai")

    def find(city: Annotated[str, "The city"], limit: Annotated[int, Field(ge=1)] = 2) -> str:
        """Find."""
        return city

    row = compare(find, ["pydantic-ai"]).matrix.row("city")
    assert row.cell(REFERENCE).description == "annotated-str"
    assert row.cell("pydantic-ai").description == "none"


def test_frameworks_not_in_the_environment_skip_cleanly() -> None:
    # Every key of the table either imports or reports NOT_INSTALLED; none raises.
    for key in ADAPTERS:
        status = adapt(google_style, key).status
        assert status in (Status.ACCEPTED, Status.REFUSED, Status.NOT_INSTALLED)
        top = spec(key).modules[0].split(".")[0]
        assert (status is Status.NOT_INSTALLED) == (importlib.util.find_spec(top) is None)


def test_a_new_framework_is_one_module_and_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(ADAPTERS, "warner", fake_warning_adapter.ENTRY)
    comparison = compare(google_style, ["warner"])
    entry = comparison.entry("warner")
    assert entry.result.accepted
    assert entry.result.warnings == ("UserWarning: google_style looks odd",)
    warned = [f for f in comparison.findings if f.rule == "framework.warning"]
    assert len(warned) == 1
    assert warned[0].message == "Warner warned: UserWarning: google_style looks odd"
    # days is in the reference but not sent by this framework; city sends no description.
    assert comparison.matrix.row("days").cell("warner").present is False
    assert comparison.matrix.row("city").cell("warner").description == "none"
    assert comparison.matrix.columns == (REFERENCE, "warner")


def test_every_entry_is_filed_under_its_own_key_and_names_an_adapter() -> None:
    for key, entry in ADAPTERS.items():
        assert entry.key == key
        assert entry.adapter.startswith("toollens.frameworks.")
        assert callable(importlib.import_module(entry.adapter).build)


_WARNER = fake_warning_adapter.ENTRY


@pytest.mark.parametrize(
    ("key", "entry", "error", "message"),
    [
        # filed under another framework's key: spec() already refuses it
        ("misnamed", _WARNER, RuntimeError, "ADAPTERS['misnamed'] declares framework 'warner'"),
        # an adapter module without build(func)
        (
            "broken",
            dataclasses.replace(_WARNER, key="broken", adapter="toollens.frameworks.records"),
            RuntimeError,
            "adapter toollens.frameworks.records of framework 'broken' has no build",
        ),
        # an adapter module that does not exist: toollens' bug, not the framework's refusal
        (
            "lost",
            dataclasses.replace(_WARNER, key="lost", adapter="support.no_such_adapter"),
            ModuleNotFoundError,
            "support.no_such_adapter",
        ),
    ],
)
def test_a_broken_table_entry_fails_on_first_use(
    monkeypatch: pytest.MonkeyPatch, key: str, entry: Any, error: type[Exception], message: str
) -> None:
    monkeypatch.setitem(ADAPTERS, key, entry)
    with pytest.raises(error, match=re.escape(message)):
        adapt(google_style, key)
