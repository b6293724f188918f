"""Run contexts on the command line: the bundled examples read with no option, and
``--context-type MODULE:CLASS`` is what ``context_types=`` is in Python."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import toollens
from toollens.cli import main

TOOL = '''
class Deps:
    """What the runtime hands the tool."""


def find(deps: Deps, query: str) -> str:
    """Find a thing.

    Args:
        query: What to look for.
    """
    return query
'''


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_the_bundled_examples_read_cleanly_with_no_option() -> None:
    ts = toollens.toolset("toollens.examples")
    assert [e.name for e in ts.tools if e.error is not None] == []
    assert "lookup_order" in [e.name for e in ts.tools]
    code, out, err = _run("check", "toollens.examples")
    assert code == 0, out + err
    assert "could not be read" not in out


@pytest.fixture
def tool_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "ctxtool.py").write_text(TOOL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_an_unknown_context_names_the_option_each_user_can_use(tool_file: Path) -> None:
    code, _, err = _run("check", "ctxtool.py:find")
    assert code == 3
    assert "--context-type MODULE:CLASS" in err  # the command line's own option
    assert "context_types=" in err  # and, labelled, the Python keyword


@pytest.mark.parametrize(
    "argv",
    [
        ("check", "ctxtool.py:find", "--context-type", "ctxtool.py:Deps"),  # a file, loaded twice
        ("check", "ctxtool:find", "--context-type", "ctxtool:Deps"),  # a module
        ("check", "ctxtool", "--context-type", "ctxtool:Deps"),  # a module's toolset
        ("show", "ctxtool:find", "--context-type", "ctxtool:Deps"),
    ],
    ids=["file", "module", "toolset", "show"],
)
def test_context_type_makes_the_parameter_the_run_context(
    tool_file: Path, argv: tuple[str, ...]
) -> None:
    code, out, err = _run(*argv)
    assert code == 0, out + err
    assert "deps" not in out.split("query", 1)[-1].split("\n", 1)[0]  # not a schema property


@pytest.mark.parametrize(
    ("value", "expected"),
    [("ctxtool", "is not MODULE:CLASS"), ("ctxtool:find", "is a function, not a class")],
    ids=["no-class", "not-a-class"],
)
def test_a_bad_context_type_is_one_line_exit_3(tool_file: Path, value: str, expected: str) -> None:
    code, _, err = _run("check", "ctxtool:find", "--context-type", value)
    assert code == 3
    assert expected in err
