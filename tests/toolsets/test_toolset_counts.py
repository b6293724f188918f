"""A toolset's totals are the sum of its tools' own checks: every spelling counts alike.

``check MODULE`` and ``check MODULE:TOOL`` once per tool must count the same problems: a
provider finding that explains a lint finding (``openai.default`` under
``lint.default-not-applied``) is one problem in both, and the set's own findings (names,
parameter types across tools) come on top, once each.
"""

from __future__ import annotations

import io
import json
import sys
import textwrap
from pathlib import Path

import pytest

from toollens.cli import main

# every shape of counting: a default strict drops (lint + provider, one problem), a finding
# only a provider raises, a lint-only warning, and a type conflict across tools
TOOLS = '''
def search(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue for products matching a query.

    Args:
        query: Words to look for in product titles.
        limit: At most this many results.
    """
    return []


def search_all(query: str, limit: str = "10") -> list[str]:
    """Search every catalogue, including archived ones, for a query.

    Args:
        query: Words to look for in product titles.
        limit: At most this many results, as text.
    """
    return []


def stamp(when: str, zone) -> str:
    """Stamp."""
    return when
'''

PROVIDER_SETS = [
    ("openai-chat",),
    ("openai-chat", "openai-responses"),
    ("openai-chat", "gemini", "anthropic"),
]


def run(*argv: str) -> dict:
    out, err = io.StringIO(), io.StringIO()
    main(list(argv), stdout=out, stderr=err)
    assert not err.getvalue(), err.getvalue()
    return json.loads(out.getvalue())


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "counted_tools.py").write_text(textwrap.dedent(TOOLS), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "counted_tools"
    sys.modules.pop("counted_tools", None)


@pytest.mark.parametrize("providers", PROVIDER_SETS, ids="+".join)
def test_the_set_counts_what_its_tools_count_plus_its_own(
    module: str, providers: tuple[str, ...]
) -> None:
    flags = [arg for p in providers for arg in ("--provider", p)]
    whole = run("check", module, "--format", "json", *flags)
    expected = {"error": 0, "warning": 0, "info": 0}
    for tool in whole["tools"]:
        one = run("check", f"{module}:{tool['name']}", "--format", "json", *flags)
        assert tool["check"]["counts"] == one["counts"]
        for severity in expected:
            expected[severity] += one["counts"][severity]
    for finding in whole["findings"]:
        expected[finding["severity"]] += 1
    assert whole["findings"], "the fixture has a finding across tools"
    assert whole["counts"] == expected
