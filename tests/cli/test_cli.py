"""The ``toollens`` command line: show, diff, check, exit codes, errors and help.

Every case runs ``main([...])`` in-process with string streams; one runs
``python -m toollens`` in a subprocess. Targets come from ``tests/cli_fixtures``:
``tools_v2.search`` adds a required parameter to ``tools_v1.search`` (breaking) and
``tools_v2.weather`` only rewords ``tools_v1.weather`` (description-only).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from support import CLI_FIXTURES
from toollens.cli import (
    EXIT_BREAKING,
    EXIT_CHANGED,
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    main,
)
from toollens.core.diff import diff
from toollens.core.report import report
from toollens.render.text import VIEWS, render_text, render_view, view_data
from toollens.targets import load_json_file, parse_target, resolve_target, unwrap_payload

FIXTURES = CLI_FIXTURES


class Run:
    """The outcome of one ``main`` call."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.code, self.out, self.err = code, out, err

    def json(self) -> Any:
        return json.loads(self.out)

    def __repr__(self) -> str:
        return f"Run(code={self.code}, out={self.out[:300]!r}, err={self.err!r})"


def run(*argv: str) -> Run:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return Run(code, out.getvalue(), err.getvalue())


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Run from the fixtures directory, so MODULE:FUNC targets import from there."""
    monkeypatch.chdir(FIXTURES)


def fixture_callable(spec: str) -> Any:
    return resolve_target(spec, cwd=FIXTURES)


def assert_one_error_line(result: Run, *fragments: str) -> None:
    assert result.code == EXIT_ERROR, result
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("toollens: error: ")
    assert "Traceback" not in result.err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# -- show ---------------------------------------------------------------------------------


def test_show_prints_every_view_as_the_library_renders_it() -> None:
    result = run("show", "tools_v1:search")
    assert result.code == EXIT_OK, result
    assert result.err == ""
    assert result.out == render_text(report(fixture_callable("tools_v1:search")))
    for section in ("Signature", "Metadata", "Strict schema", "Output", "Lint", "Provider"):
        assert f"== {section} " in result.out


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_show_one_view_is_byte_for_byte_the_library_output(view: str, fmt: str) -> None:
    result = run("show", "tools_v1:search", "--view", view, "--format", fmt)
    assert result.code == EXIT_OK, result
    rep = report(fixture_callable("tools_v1:search"))
    assert result.out == render_view(rep, view, fmt)
    if fmt == "json":
        assert result.json() == view_data(rep, view)
        assert result.out == json.dumps(view_data(rep, view), indent=2) + "\n"


def test_show_all_as_json_holds_every_view_and_the_findings() -> None:
    rep = report(fixture_callable("tools_v1:search"))
    data = run("show", "tools_v1:search", "--format", "json").json()
    assert data["title"] == "search"
    assert data["views"] == {view: view_data(rep, view) for view in VIEWS}
    assert data["lint"] == [f.to_json() for f in rep.lint]
    assert data["provider_findings"] == [f.to_json() for f in rep.provider_findings]
    assert data["view_errors"] == {}


def test_show_all_as_json_lists_failed_views_instead_of_failing() -> None:
    result = run("show", "tools_v1:score", "--format", "json")
    assert result.code == EXIT_OK, result
    data = result.json()
    assert "strict" not in data["views"]
    assert "raw" in data["views"]
    assert "additionalProperties" in data["view_errors"]["strict"]


def test_show_passes_every_option_to_one_report() -> None:
    argv = ["show", "tools_v1:search", "--provider", "anthropic", "--no-strict", "--style",
            "google", "--name", "find", "--description", "Find products.", "--view",
            "provider", "--format", "json"]  # fmt: skip
    rep = report(
        fixture_callable("tools_v1:search"),
        provider="anthropic",
        strict=False,
        docstring_style="google",
        name="find",
        description="Find products.",
    )
    data = run(*argv).json()
    assert data == rep.provider_payload
    assert data["name"] == "find"
    assert data["description"] == "Find products."
    assert "input_schema" in data  # the anthropic shape


def test_show_no_strict_leaves_the_schema_open() -> None:
    strict = run("show", "tools_v1:search", "--view", "strict", "--format", "json").json()
    lax = run("show", "tools_v1:search", "--view", "strict", "--format", "json", "--no-strict")
    assert strict["additionalProperties"] is False
    assert "additionalProperties" not in lax.json()


@pytest.mark.parametrize(
    "target",
    [
        "tools_v1.py:search",  # a file path
        str(FIXTURES / "tools_v1.py") + ":search",  # an absolute file path
        "tools_v1:Catalogue.lookup",  # a dotted attribute path
    ],
)
def test_show_accepts_every_python_target_form(target: str) -> None:
    result = run("show", target, "--view", "signature", "--format", "json")
    assert result.code == EXIT_OK, result
    assert result.json()[0]["name"] in ("query", "sku")


def test_show_a_json_schema_file() -> None:
    result = run("show", "search_v1.schema.json", "--view", "strict", "--format", "json")
    assert result.code == EXIT_OK, result
    assert result.json() == load_json_file(FIXTURES / "search_v1.schema.json")


def test_show_a_provider_payload_file_uses_its_schema_name_and_description() -> None:
    result = run("show", "weather.tool.json", "--view", "provider", "--format", "json")
    assert result.code == EXIT_OK, result
    assert result.json() == load_json_file(FIXTURES / "weather.tool.json")


def test_show_a_view_that_does_not_apply_is_an_error_in_json() -> None:
    result = run("show", "search_v1.schema.json", "--view", "signature", "--format", "json")
    assert_one_error_line(result, "signature view does not apply")


# -- diff ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "code", "severity"),
    [
        ("tools_v1:search", "tools_v2:search", EXIT_BREAKING, "breaking"),  # new required param
        ("tools_v1:weather", "tools_v2:weather", EXIT_CHANGED, "description-only"),
        ("search_v1.schema.json", "search_v2.schema.json", EXIT_CHANGED, "compatible"),
        ("tools_v1:search", "tools_v1.py:search", EXIT_OK, None),  # same tool, two forms
        ("search_v2.schema.json", "search_v1.schema.json", EXIT_BREAKING, "breaking"),
    ],
)
def test_diff_exit_code_follows_the_worst_change(
    old: str, new: str, code: int, severity: str | None
) -> None:
    result = run("diff", old, new)
    assert result.code == code, result
    assert result.err == ""
    data = run("diff", old, new, "--format", "json").json()
    assert data["severity"] == severity
    assert data["breaking"] is (code == EXIT_BREAKING)


def test_diff_text_names_both_sides_and_lists_each_change() -> None:
    result = run("diff", "tools_v1:search", "tools_v2:search")
    lines = result.out.splitlines()
    assert lines[0] == "tools_v1:search -> tools_v2:search"
    assert lines[1] == "1 breaking change"
    assert lines[2].startswith("BREAKING")
    assert "/properties/category" in lines[2]


def test_diff_without_changes_says_so() -> None:
    result = run("diff", "tools_v1:weather", "tools_v1:weather")
    assert result.code == EXIT_OK
    assert result.out.splitlines()[1] == "no changes"


def test_diff_json_is_the_library_diff() -> None:
    result = run("diff", "tools_v1:weather", "tools_v2:weather", "--format", "json")
    expected = diff(
        report(fixture_callable("tools_v1:weather")).function,
        report(fixture_callable("tools_v2:weather")).function,
    )
    assert result.out == json.dumps(expected.to_dict(), indent=2) + "\n"
    keywords = {c["keyword"] for c in result.json()["changes"]}
    assert keywords == {"tool.description", "description"}


def test_diff_with_a_provider_compares_payloads() -> None:
    # The saved payload is what openai-chat received for v1; v2 rewords the descriptions.
    result = run("diff", "weather.tool.json", "tools_v2:weather", "--provider", "openai-chat")
    assert result.code == EXIT_CHANGED, result
    severities = {c["severity"] for c in run(
        "diff", "weather.tool.json", "tools_v2:weather", "--provider", "openai-chat",
        "--format", "json").json()["changes"]}  # fmt: skip
    assert severities == {"description-only"}


def test_diff_no_strict_builds_both_sides_lax() -> None:
    # Lax, a new required parameter is still breaking, and the open mapping is comparable.
    assert run("diff", "tools_v1:search", "tools_v2:search", "--no-strict").code == EXIT_BREAKING
    assert run("diff", "tools_v1:score", "tools_v1:score", "--no-strict").code == EXIT_OK


def test_diff_of_a_tool_that_cannot_be_strict_is_an_error() -> None:
    result = run("diff", "tools_v1:score", "tools_v1:score")
    assert_one_error_line(result, "OLD 'tools_v1:score' cannot be made strict", "--no-strict")


def test_diff_of_two_files_with_the_same_name_loads_both(tmp_path: Path) -> None:
    for version in ("v1", "v2"):
        (tmp_path / version).mkdir()
        source = FIXTURES / f"tools_{version}.py"
        (tmp_path / version / "tools.py").write_text(source.read_text(encoding="utf-8"))
    result = run("diff", f"{tmp_path}/v1/tools.py:search", f"{tmp_path}/v2/tools.py:search")
    assert result.code == EXIT_BREAKING, result


# -- check --------------------------------------------------------------------------------


def test_check_a_clean_tool_exits_0_and_prints_warnings() -> None:
    result = run("check", "tools_v1:search")
    assert result.code == EXIT_OK, result
    assert result.out.startswith("search: ")
    assert "lint:" in result.out
    assert "openai-chat:" in result.out
    assert "warning[" in result.out


def test_check_an_error_finding_exits_1() -> None:
    result = run("check", "tools_v1:tag")
    assert result.code == EXIT_FINDINGS, result
    assert "error[openai.unsupported-keyword]" in result.out


def test_check_several_providers() -> None:
    result = run("check", "tools_v1:tag", "--provider", "gemini", "--provider", "anthropic")
    assert result.code == EXIT_FINDINGS
    assert "gemini:" in result.out
    assert "anthropic:" in result.out
    assert "openai-chat:" not in result.out  # the default applies only when none is given


def test_check_json_is_the_library_findings() -> None:
    result = run("check", "tools_v1:tag", "--provider", "openai-chat", "--provider", "gemini",
                 "--format", "json")  # fmt: skip
    data = result.json()
    tag = fixture_callable("tools_v1:tag")
    for provider in ("openai-chat", "gemini"):
        rep = report(tag, provider=provider)
        assert data["providers"][provider] == [f.to_json() for f in rep.provider_findings]
        assert data["lint"] == [f.to_json() for f in rep.lint]
    assert data["ok"] is False
    assert data["counts"]["error"] == 2


def test_check_a_view_that_cannot_be_built_exits_1() -> None:
    result = run("check", "tools_v1:score")
    assert result.code == EXIT_FINDINGS, result
    assert "error[view.strict]" in result.out
    assert result.out.count("strict mode cannot express an open object") == 1
    assert run("check", "tools_v1:score", "--no-strict").code == EXIT_OK


def test_strict_refusal_of_kwargs_is_a_finding_not_a_failure() -> None:
    # Issue 13: **kwargs in strict mode refuses the strict view only; show still shows every
    # other view and check reports an error finding (exit 1), never "could not run" (3).
    shown = run("show", "tools_v1:configure")
    assert shown.code == EXIT_OK, shown
    assert "**options cannot be expressed in a strict schema" in shown.out
    assert "options" in run("show", "tools_v1:configure", "--view", "raw").out
    checked = run("check", "tools_v1:configure")
    assert checked.code == EXIT_FINDINGS, checked
    assert "error[view.strict]" in checked.out
    assert run("check", "tools_v1:configure", "--no-strict").code == EXIT_OK


def test_check_a_provider_payload_file() -> None:
    result = run("check", "weather.tool.json", "--format", "json")
    assert result.code == EXIT_OK, result
    assert result.json()["target"] == "weather"


# -- errors: one line on stderr, exit 3 --------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["show", "no_such_module:f"], ["no module named 'no_such_module'"]),
        (["show", "raises_on_import:f"], ["RuntimeError", "the database is not configured"]),
        (["show", "tools_v1:serch"], ["has no attribute 'serch'", "did you mean 'search'"]),
        (["show", "tools_v1:Catalogue.lokup"], ["'tools_v1:Catalogue' has no attribute"]),
        (["show", "malformed.json"], ["malformed.json", "line 5 column 5"]),
        (["show", "missing.json"], ["'missing.json' does not exist"]),
        (["show", "missing.py:f"], ["'missing.py' does not exist"]),
        (["show", "tools_v1.py"], ["names a Python file but no function"]),
        (["show", "tools_v1:NOT_A_TOOL"], ["int object 42 is not a callable"]),
        (["diff", "tools_v1:search", "malformed.json"], ["line 5 column 5"]),
        (["check", "no_such_module:f"], ["no module named"]),
        (["show", "what is this"], ["cannot tell what 'what is this' names"]),
    ],
)
def test_errors_are_one_line_and_exit_3(argv: list[str], fragments: list[str]) -> None:
    assert_one_error_line(run(*argv), *fragments)


def test_a_syntax_error_names_the_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    assert_one_error_line(run("show", f"{tmp_path}/broken.py:f"), "SyntaxError", "line 1")


def test_a_schema_that_is_not_an_object_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "list.json").write_text("[1, 2]\n")
    assert_one_error_line(run("show", str(tmp_path / "list.json")), "must be an object")


def test_an_unexpected_exception_is_still_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def explode(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("boom\nsecond line")

    monkeypatch.setattr("toollens.core.report.report", explode)
    assert_one_error_line(run("show", "tools_v1:search"), "ValueError: boom second line", "--debug")


@pytest.mark.parametrize(
    "argv",
    [
        ["--debug", "show", "tools_v1:serch"],  # before the subcommand
        ["show", "tools_v1:serch", "--debug"],  # after it
    ],
)
def test_debug_shows_the_traceback(argv: list[str]) -> None:
    result = run(*argv)
    assert result.code == EXIT_ERROR
    assert "Traceback (most recent call last)" in result.err
    assert "AttributeError" in result.err  # the chained cause
    assert result.err.splitlines()[-1].startswith("toollens: error: ")


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        ([], "the following arguments are required: COMMAND"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["show", "tools_v1:search", "--view", "everything"], "invalid choice: 'everything'"),
        (["check", "tools_v1:search", "--provider", "bogus"], "invalid choice: 'bogus'"),
        (["diff", "tools_v1:search"], "required: NEW"),
        (["diff", "tools_v1:search", "tools_v2:search", "--lock"], "give no OLD or NEW"),
        (["diff", "--lock", "--provider", "anthropic"], "the lock holds the providers"),
        (["show", "tools_v1:search", "--format", "yaml"], "invalid choice: 'yaml'"),
        (["show", "tools_v1:search", "--unknown"], "unrecognized arguments: --unknown"),
    ],
)
def test_usage_errors_exit_3_not_2(argv: list[str], fragment: str) -> None:
    # argparse's own status 2 would read as "breaking change" to a CI gate.
    result = run(*argv)
    assert result.code == EXIT_ERROR, result
    assert result.out == ""
    assert result.err.startswith("usage: toollens")
    assert fragment in result.err


def test_a_failed_import_leaves_sys_path_and_modules_clean(tmp_path: Path) -> None:
    path_before, modules_before = list(sys.path), set(sys.modules)
    (tmp_path / "broken.py").write_text("raise ImportError('nope')\n")
    assert run("show", f"{tmp_path}/broken.py:f").code == EXIT_ERROR
    assert run("show", "no_such_module:f").code == EXIT_ERROR
    assert sys.path == path_before
    assert {m for m in set(sys.modules) - modules_before if m.startswith("_toollens")} == set()


# -- help and version ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["show", "diff", "check"])
def test_each_subcommand_help_shows_examples_and_exit_codes(command: str) -> None:
    result = run(command, "--help")
    assert result.code == EXIT_OK
    assert result.err == ""
    assert result.out.startswith(f"usage: toollens {command}")
    assert f"  toollens {command} " in result.out  # an example
    assert "exit codes:" in result.out
    assert "3  the command could not run" in result.out


def test_main_help_lists_commands_targets_and_exit_codes() -> None:
    result = run("--help")
    assert result.code == EXIT_OK
    for text in ("show", "diff", "check", "MODULE:FUNC", "exit codes:", "--debug"):
        assert text in result.out


def test_version() -> None:
    import toollens

    result = run("--version")
    assert result.code == EXIT_OK
    assert result.out == f"toollens {toollens.__version__}\n"


def test_python_dash_m_toollens_help() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "toollens", "--help"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "COLUMNS": "100"},
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("usage: toollens")
    assert "exit codes:" in proc.stdout


def test_python_dash_m_toollens_exit_code_reaches_the_shell() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "toollens", "diff", "tools_v1:search", "tools_v2:search"],
        capture_output=True,
        text=True,
        check=False,
        cwd=FIXTURES,
    )
    assert proc.returncode == EXIT_BREAKING, proc.stderr


def test_importing_the_cli_stays_light() -> None:
    code = textwrap.dedent(
        """
        import sys, toollens.cli
        heavy = ("IPython", "ipywidgets", "traitlets", "pydantic", "toollens.core.report")
        print(",".join(m for m in heavy if m in sys.modules))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == ""


# -- targets ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "origin", "location", "attribute"),
    [
        ("tools:search", "module", "tools", "search"),
        ("pkg.mod:Class.method", "module", "pkg.mod", "Class.method"),
        ("tools.py:search", "file", "tools.py", "search"),
        ("src/pkg/tools.py:Tools.search", "file", "src/pkg/tools.py", "Tools.search"),
        ("schema.json", "json", "schema.json", None),
        ("old/search.tool.json", "json", "old/search.tool.json", None),
        ("C:\\tools\\schema.json", "json", "C:\\tools\\schema.json", None),  # a drive letter
        ("C:\\tools\\tools.py:search", "file", "C:\\tools\\tools.py", "search"),
    ],
)
def test_parse_target(text: str, origin: str, location: str, attribute: str | None) -> None:
    spec = parse_target(text)
    assert (spec.origin, spec.location, spec.attribute) == (origin, location, attribute)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("tools", "cannot tell what"),
        ("tools.py", "names a Python file but no function"),
        ("tools.py:", "names a Python file but no function"),
        ("tools:class", "is not an attribute path"),
        ("", "cannot tell what"),
    ],
)
def test_parse_target_rejects(text: str, fragment: str) -> None:
    from toollens import TargetError

    with pytest.raises(TargetError, match=fragment):
        parse_target(text)


def test_resolve_target_uses_the_given_directory_and_restores_sys_path(tmp_path: Path) -> None:
    (tmp_path / "only_here_tools.py").write_text("def ping() -> str:\n    return 'pong'\n")
    before = list(sys.path)
    func = resolve_target("only_here_tools:ping", cwd=tmp_path)
    assert func() == "pong"
    assert sys.path == before


def test_resolve_target_file_can_import_its_siblings(tmp_path: Path) -> None:
    (tmp_path / "helpers_for_cli_test.py").write_text("GREETING = 'hi'\n")
    (tmp_path / "main_tool.py").write_text(
        "from helpers_for_cli_test import GREETING\n\ndef greet() -> str:\n    return GREETING\n"
    )
    assert resolve_target(f"{tmp_path}/main_tool.py:greet")() == "hi"


@pytest.mark.parametrize(
    "payload",
    [
        {"type": "function", "function": {"name": "f", "description": "d", "parameters": {}}},
        {"type": "function", "name": "f", "description": "d", "parameters": {}},  # responses
        {"name": "f", "description": "d", "input_schema": {}},  # anthropic
        {"name": "f", "description": "d", "parameters": {}},  # gemini declaration
        {"name": "f", "description": "d", "parametersJsonSchema": {}},  # gemini, JSON Schema
    ],
)
def test_unwrap_payload(payload: dict[str, Any]) -> None:
    unwrapped = unwrap_payload(payload)
    assert unwrapped is not None
    assert (unwrapped.schema, unwrapped.name, unwrapped.description) == ({}, "f", "d")


def test_unwrap_payload_leaves_a_schema_alone() -> None:
    assert unwrap_payload({"type": "object", "properties": {"name": {"type": "string"}}}) is None
