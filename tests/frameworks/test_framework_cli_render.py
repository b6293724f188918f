"""``toollens compare``: exit codes and formats; the Frameworks view's HTML and text."""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from support import fake_framework_adapter
from support.framework_functions import google_style, html_in_docstring
from toollens.cli import EXIT_BREAKING, EXIT_CHANGED, EXIT_ERROR, EXIT_OK, main
from toollens.frameworks import ADAPTERS, installed
from toollens.frameworks.compare import REFERENCE, compare
from toollens.render.frameworks import (
    comparison_html,
    comparison_text,
    default_pair,
    frameworks_panel_html,
    pair_diff_text,
)

TOOLS = textwrap.dedent(
    '''
    from typing import Annotated
    from pydantic import Field

    def plain(query: str) -> str:
        """Search.

        Args:
            query: What to look for.
        """
        return query

    def described(query: Annotated[str, Field(description="From Field")], limit: int = 3) -> str:
        """Search.

        Args:
            query: From the docstring.
            limit: At most this many.
        """
        return query

    def numpy_doc(query: str) -> str:
        """Search.

        Parameters
        ----------
        query : str
            What to look for.
        """
        return query

    def headers(values: dict[str, str]) -> str:
        """Send headers."""
        return ""

    LIMIT = 3
    '''
)


def _need(*frameworks: str) -> None:
    missing = [f for f in frameworks if f not in installed([f])]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)}")


def run(tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    path = tmp_path / "tools.py"
    path.write_text(TOOLS, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    args = [a.replace("TOOLS", str(path)) for a in argv]
    code = main(args, stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_exit_0_when_every_framework_agrees(tmp_path: Path) -> None:
    _need("anthropic", "pydantic-ai")
    code, out, _ = run(
        tmp_path, "compare", "TOOLS:plain", "--framework", "anthropic", "--framework", "pydantic-ai"
    )
    assert code == EXIT_OK, out
    assert "all agree" in out.splitlines()[0]


def test_exit_1_when_only_descriptions_differ(tmp_path: Path) -> None:
    _need("langchain", "google-genai")
    code, out, _ = run(
        tmp_path, "compare", "TOOLS:described", "--framework", "langchain",
        "--framework", "google-genai",
    )  # fmt: skip
    assert code == EXIT_CHANGED, out
    assert "worst difference: description-only" in out


def test_exit_2_on_a_breaking_difference_between_two_frameworks(tmp_path: Path) -> None:
    _need("mcp", "fastmcp")
    code, out, _ = run(
        tmp_path, "compare", "TOOLS:described", "--framework", "mcp", "--framework", "fastmcp"
    )
    assert code == EXIT_BREAKING, out
    assert "breaking differences between frameworks" in out
    assert "mcp -> fastmcp: / additionalProperties" in out


def test_exit_2_when_a_framework_refuses(tmp_path: Path) -> None:
    _need("langchain-tool", "langchain")
    code, out, _ = run(
        tmp_path, "compare", "TOOLS:numpy_doc", "--framework", "langchain",
        "--framework", "langchain-tool",
    )  # fmt: skip
    assert code == EXIT_BREAKING, out
    assert "langchain-tool" in out
    assert "Found invalid Google-Style docstring." in out


def test_one_framework_is_gated_against_the_reference(tmp_path: Path) -> None:
    _need("openai-agents")
    code, out, _ = run(tmp_path, "compare", "TOOLS:described", "--framework", "openai-agents")
    assert code == EXIT_OK, out


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("TOOLS:missing", "missing"),
        ("TOOLS:LIMIT", "is a int, not a function"),
        ("no_such_module_here:func", "no module named 'no_such_module_here'"),
    ],
)
def test_exit_3_when_the_target_cannot_be_compared(
    tmp_path: Path, target: str, message: str
) -> None:
    code, out, err = run(tmp_path, "compare", target)
    assert code == EXIT_ERROR
    assert out == ""
    assert message in err


def test_exit_3_when_a_requested_framework_is_not_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(ADAPTERS, "nowhere", fake_framework_adapter.ENTRY)
    code, _, err = run(tmp_path, "compare", "TOOLS:plain", "--framework", "nowhere")
    assert code == EXIT_ERROR
    assert "framework not installed: nowhere" in err


def test_exit_3_when_one_framework_has_nothing_to_be_compared_with(tmp_path: Path) -> None:
    _need("anthropic")
    code, _, err = run(tmp_path, "compare", "TOOLS:headers", "--framework", "anthropic")
    assert code == EXIT_ERROR
    assert "nothing to compare anthropic with: toollens refused the function" in err


def test_unknown_framework_name_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run(tmp_path, "compare", "TOOLS:plain", "--framework", "nope")
    assert code == EXIT_ERROR
    assert "invalid choice: 'nope'" in err


def test_json_format_carries_schemas_diffs_and_matrix(tmp_path: Path) -> None:
    _need("mcp", "pydantic-ai")
    code, out, _ = run(
        tmp_path, "compare", "TOOLS:described", "--framework", "mcp",
        "--framework", "pydantic-ai", "--format", "json",
    )  # fmt: skip
    data = json.loads(out)
    assert code in (EXIT_CHANGED, EXIT_BREAKING)
    assert data["target"] == "described"
    assert [f["framework"] for f in data["frameworks"]] == ["mcp", "pydantic-ai"]
    mcp = data["frameworks"][0]
    assert mcp["status"] == "accepted"
    assert mcp["parameters"]["properties"]["query"]["description"] == "From Field"
    assert mcp["diff"]["changes"]
    query = next(r for r in data["matrix"]["rows"] if r["parameter"] == "query")
    assert query["cells"]["mcp"]["description"] == "annotated-field"
    assert query["cells"][REFERENCE]["description"] == "docstring"


def test_help_lists_the_exit_codes() -> None:
    out = io.StringIO()
    assert main(["compare", "--help"], stdout=out, stderr=io.StringIO()) == EXIT_OK
    assert "a breaking difference between two frameworks" in out.getvalue()


# -- rendering ------------------------------------------------------------------------------


def _comparison(func: Any) -> Any:
    return compare(func, installed(["openai-agents", "langchain", "mcp", "google-genai"]))


def test_html_escapes_user_text() -> None:
    html = comparison_html(_comparison(html_in_docstring))
    assert "<script>" not in html
    assert "Search &lt;script&gt;alert(1)&lt;/script&gt; &amp; more." in html
    assert 'data-view="frameworks"' in html


def test_panel_contract_for_the_explorer() -> None:
    _need("openai-agents", "mcp")
    comparison = compare(google_style, ["openai-agents", "mcp"])
    assert default_pair(comparison) == (REFERENCE, "openai-agents")
    html = frameworks_panel_html(comparison, pair=("openai-agents", "mcp"))
    assert html.startswith('<div class="tl-fw" data-view="frameworks">')
    assert 'data-pair="openai-agents mcp"' in html
    assert 'data-framework="mcp"' in html
    assert 'data-parameter="days"' in html
    assert "tl-fw-disagree" in html  # days: required in one, optional in the other
    assert "additionalProperties" in html  # the pair's diff is listed
    # A key without a schema is a note, not an exception.
    assert "No schema for anthropic" in frameworks_panel_html(comparison, ("mcp", "anthropic"))


def test_text_marks_disagreements_and_shows_a_pair_diff() -> None:
    _need("openai-agents", "mcp")
    comparison = compare(google_style, ["openai-agents", "mcp"])
    text = comparison_text(comparison, [("openai-agents", "mcp")])
    assert "days  [differs: description, required]" in text
    assert "  mcp            *description: none; *optional; integer; default 3" in text
    assert "  toollens       *description: docstring; object; *closed" in text
    assert pair_diff_text(comparison, "openai-agents", "mcp") in text
    assert "required: no longer required" in text


def test_comparison_displays_in_a_notebook() -> None:
    comparison = _comparison(google_style)
    bundle = comparison._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"] == comparison_text(comparison)
