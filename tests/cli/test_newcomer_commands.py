"""Commands that used to do less than asked without saying so: ``compare`` names the
frameworks it could not run, ``fuzz`` takes a module as ``check`` does and says that the
edge cases come on top of ``-n``."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from support import fake_framework_adapter
from toollens.cli import main
from toollens.frameworks import ADAPTERS

pytest.importorskip("hypothesis_jsonschema")

TOOLS = '''
def first(a: int) -> int:
    """One.

    Args:
        a: a number.
    """
    return a


def second(kind: str = "plain") -> str:
    """Two.

    Args:
        kind: which one.
    """
    return kind
'''


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def tools(tmp_path: Path) -> Path:
    path = tmp_path / "newcomer_tools.py"
    path.write_text(TOOLS, encoding="utf-8")
    return path


def test_compare_names_the_frameworks_it_could_not_run(
    tools: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(ADAPTERS, "nowhere", fake_framework_adapter.ENTRY)
    code, out, err = run("compare", f"{tools}:first")
    assert code in (0, 1, 2), err
    listed = [line.split()[0] for line in out.splitlines()[2:] if line.strip()]
    assert "nowhere" in listed[: len(ADAPTERS)]  # a row of the status table
    # nowhere, and on Python 3.10 the frameworks that need 3.11
    pattern = rf"(\d+) of {len(ADAPTERS)} not installed, so not compared: ([^(\n]*?) \("
    said = re.search(pattern, out)
    assert said is not None, out
    assert "nowhere" in said.group(2).split(", ")
    assert int(said.group(1)) == len(said.group(2).split(", "))


def test_compare_still_refuses_a_named_framework_that_is_not_installed(
    tools: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(ADAPTERS, "nowhere", fake_framework_adapter.ENTRY)
    code, _, err = run("compare", f"{tools}:first", "--framework", "nowhere")
    assert code == 3
    assert "framework not installed: nowhere" in err


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_fuzz_takes_a_module_as_check_does_each_function_in_turn(
    tools: Path, fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tools.parent))
    code, _, err = run("check", tools.stem)  # the target check reads
    assert code in (0, 1), err
    code, out, err = run("fuzz", tools.stem, "-n", "5", "--format", fmt)
    assert code == 0, err
    if fmt == "json":
        assert [report["tool"] for report in json.loads(out)] == ["first", "second"]
    else:
        assert [line.split()[1] for line in out.splitlines() if line.startswith("fuzz ")] == [
            "first:",
            "second:",
        ]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["fuzz", "{tools}:nowhere"], "has no attribute 'nowhere'"),
        (["fuzz", "no_such_module_anywhere"], "cannot tell what 'no_such_module_anywhere'"),
    ],
    ids=["missing-function", "missing-module"],
)
def test_fuzz_of_what_is_not_there_is_one_line(tools: Path, argv: list[str], said: str) -> None:
    code, out, err = run(*(a.format(tools=tools) for a in argv))
    assert code == 3
    assert out == ""
    assert said in err


def test_fuzz_says_the_edge_cases_come_on_top_of_n(tools: Path) -> None:
    _, out, _ = run("fuzz", f"{tools}:second", "-n", "7")
    head = out.splitlines()[0]
    tried, _, split = head.partition(" arguments (")
    edges, _, drawn = split.partition(" edge cases, then ")
    assert int(drawn.split()[0]) == 7
    assert int(tried.split()[-1]) == int(edges) + 7


def test_fuzz_help_says_what_n_counts_and_that_a_module_is_taken() -> None:
    code, out, _ = run("fuzz", "--help")
    text = " ".join(out.split())
    assert code == 0
    assert (
        "the edge cases (each enum member, bound, null, empty and long string) are tried "
        "first, on top of them" in text
    )
    assert "MODULE or file.py (each of its functions" in text
