"""``toollens fix``: edits as data, applied to Python sources (libcst) and to JSON tool files
(key order and indentation kept); on real ``tools/list`` captures and tool modules, the safe
fixes leave no safe-fixable finding, the file parses, signatures stay and nothing gets worse."""

from __future__ import annotations

import importlib.util
import inspect
import io
import json
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toollens.cli.app import main
from toollens.core.records import Severity
from toollens.fixes import FixRequest, Safety, fix_files, tool_findings
from toollens.fixes.json_text import rewrite
from toollens.fixes.python_source import without_entries
from toollens.toolsets import toolset

HERE = Path(__file__).parent
CORPUS = HERE.parents[1].parent / "shared" / "corpora" / "mcp"
CAPTURES = sorted(CORPUS.glob("*.tools.json")) if CORPUS.is_dir() else []
ALL = ("openai-chat", "openai-responses", "anthropic", "gemini", "gemini-openapi")


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return main(list(argv), stdout=out, stderr=err), out.getvalue(), err.getvalue()


def _findings(target: str) -> Iterator[tuple[str, str, str | None, Severity]]:
    ts = toolset(target)
    for tool in ts.tools:
        for f in tool_findings(ts, tool, ALL):
            yield tool.name, f.rule, f.pointer, f.severity


def _counts(found: list[tuple[str, str, str | None, Severity]]) -> Counter[tuple[str, Severity]]:
    return Counter((tool, severity) for tool, _, _, severity in found)


def _assert_safe_fix_holds(target: str, path: Path) -> None:
    before = list(_findings(target))
    fixes = fix_files(toolset(target), FixRequest(providers=ALL))
    applied = [e for f in fixes for e in f.applied]
    assert all(e.safety is Safety.SAFE for e in applied)
    for item in fixes:
        Path(item.path).write_text(item.after, encoding="utf-8")
    after = list(_findings(target))
    fixed = {(e.tool, e.rule, e.pointer) for e in applied}
    assert not fixed & {(t, r, p) for t, r, p, _ in after}, "a safe-fixed finding is still there"
    # no finding worse: per tool, no more errors, and no more errors + warnings, than before
    was, now = _counts(before), _counts(after)
    for tool in {t for t, _, _, _ in after}:
        assert now[(tool, Severity.ERROR)] <= was[(tool, Severity.ERROR)]
        worse = now[(tool, Severity.ERROR)] + now[(tool, Severity.WARNING)]
        assert worse <= was[(tool, Severity.ERROR)] + was[(tool, Severity.WARNING)]
    again = fix_files(toolset(target), FixRequest(providers=ALL))
    assert not [e for f in again for e in f.applied], "a second run still finds safe fixes"


@pytest.mark.skipif(not CAPTURES, reason="../shared/corpora/mcp is absent")
@pytest.mark.parametrize("capture", CAPTURES, ids=[p.name for p in CAPTURES])
def test_safe_fixes_on_real_tools_list_captures(capture: Path, tmp_path: Path) -> None:
    copy = tmp_path / capture.name
    shutil.copy(capture, copy)
    _assert_safe_fix_holds(str(copy), copy)
    json.loads(copy.read_text(encoding="utf-8"))
    # key order and indentation: every line the fix did not touch is as it was
    before = capture.read_text(encoding="utf-8").splitlines()
    after = copy.read_text(encoding="utf-8").splitlines()
    assert len(set(after) - set(before)) <= len(before)  # no reformatting of the whole file
    assert (
        json.loads(capture.read_text())["tools"][0].keys()
        == json.loads(copy.read_text())["tools"][0].keys() | set()
    )


def _signatures(path: Path) -> dict[str, list[tuple[str, object, str]]]:
    """Each function's parameters as a call sees them: name, kind, default."""
    spec = importlib.util.spec_from_file_location(f"_fixed_{path.stem}", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while defined
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return {
        name: [
            (p.name, p.kind, repr(p.default)) for p in inspect.signature(obj).parameters.values()
        ]
        for name, obj in vars(module).items()
        if inspect.isfunction(obj) and obj.__module__ == module.__name__
    }


@pytest.mark.parametrize(
    "source",
    [HERE / "messy_tools.py", HERE.parents[1] / "src" / "toollens" / "examples.py"],
    ids=["messy", "examples"],
)
def test_safe_fixes_on_python_tool_modules(source: Path, tmp_path: Path) -> None:
    copy = tmp_path / f"copy_{source.name}"
    shutil.copy(source, copy)
    signatures = _signatures(copy)
    _assert_safe_fix_holds(str(copy), copy)
    assert _signatures(copy) == signatures
    text = copy.read_text(encoding="utf-8")
    if source.name == "messy_tools.py":
        assert "page:" not in text
        assert "reason:" not in text
        assert "# a comment the fix keeps" in text
        assert "# the customer's account id" in text
        assert "limit=20" in text  # unannotated: an unsafe fix, not applied
        assert "Field()" in text  # the losing Field description went, the winner stays
        assert "status: the status." in text


def test_messy_module_diff_lists_safe_and_unsafe(tmp_path: Path) -> None:
    copy = tmp_path / "messy.py"
    shutil.copy(HERE / "messy_tools.py", copy)
    code, out, _ = _run("fix", str(copy), "--diff")
    assert code == 1
    assert "-        page: which page of results to return." in out
    assert "left [lint.unannotated-parameter]" in out
    assert "(unsafe; --unsafe applies it)" in out
    assert copy.read_text() == (HERE / "messy_tools.py").read_text()  # --diff writes nothing
    # 3.10's typing.get_type_hints makes `country: str = None` Optional itself: no finding
    implicit_optional_found = sys.version_info >= (3, 11)
    assert ("left [lint.none-default-not-nullable]" in out) is implicit_optional_found
    code, out, _ = _run("fix", str(copy), "--write", "--unsafe")
    assert code == 0
    assert "limit: int = 20" in copy.read_text()
    # the implicit Optional spelled out, the comment kept
    spelled_out = "country: str | None = None) -> str:  # noqa: RUF013" in copy.read_text()
    assert spelled_out is implicit_optional_found
    assert _run("fix", str(copy), "--write")[0:2] == (0, "nothing to fix\n")


def test_select_limits_the_rules(tmp_path: Path) -> None:
    copy = tmp_path / "messy.py"
    shutil.copy(HERE / "messy_tools.py", copy)
    _code, out, _ = _run("fix", str(copy), "--diff", "--select", "lint.unannotated-parameter")
    assert "page:" not in out
    assert "left [lint.unannotated-parameter]" in out


LISTING = """\
{
  "tools": [
    {
      "name": "list.ids",
      "inputSchema": {
        "properties": {"tags": {"type": "array", "description": "tags"}},
        "required": ["tags"]
      }
    }
  ]
}
"""


def test_json_fixes_keep_the_files_style(tmp_path: Path) -> None:
    path = tmp_path / "acme.tools.json"
    path.write_text(LISTING, encoding="utf-8")
    code, _out, _ = _run("fix", str(path), "--write")
    assert code == 1  # the rename is unsafe: left
    text = path.read_text(encoding="utf-8")
    assert '"properties": {"tags": {"type": "array", "description": "tags", "items": {}}}' in text
    assert '"required": ["tags"]' in text
    assert '"name": "list.ids"' in text
    _run("fix", str(path), "--write", "--unsafe")
    assert '"name": "list_ids"' in path.read_text(encoding="utf-8")


def test_a_vague_description_is_never_fixed(tmp_path: Path) -> None:
    path = tmp_path / "vague.py"
    path.write_text(
        'def get(x: str) -> str:\n    """Get.\n\n    Args:\n        x: x.\n    """\n    return x\n'
    )
    assert _run("fix", str(path), "--write", "--unsafe")[1] == "nothing to fix\n"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["fix", "missing.json", "--diff"], "missing.json"),
        (["fix", "x.json"], "one of the arguments --diff --write is required"),
    ],
)
def test_fix_errors_exit_3(argv: list[str], says: str) -> None:
    code, out, err = _run(*argv)
    assert (code, out) == (3, "")
    assert says in err


def test_removing_a_docstring_entry_keeps_the_rest() -> None:
    raw = (
        '"""Do it.\n\n    Args:\n        a: one.\n        b: two,\n            on two lines.\n'
        '    """'
    )
    assert without_entries(raw, ["b"]) == '"""Do it.\n\n    Args:\n        a: one.\n    """'
    assert without_entries(raw, ["a", "b"]) == '"""Do it.\n    """'


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@given(old=_JSON, new=_JSON, indent=st.sampled_from([None, 1, 2, 4]))
def test_rewrite_gives_the_new_value_and_keeps_an_unchanged_document(
    old: object, new: object, indent: int | None
) -> None:
    text = json.dumps(old, indent=indent)
    assert rewrite(text, old) == text
    assert json.loads(rewrite(text, new)) == new
