"""Target strings to what a command calls or injects: :func:`toollens.targets.callable_target`
(``try``, ``fuzz``) and :func:`toollens.targets.resolve_context_types` (``--context-type``,
the ``context_types=`` of a report)."""

from __future__ import annotations

from pathlib import Path

import pytest

from toollens.core.errors import TargetError
from toollens.targets import callable_target, resolve_context_types

TOOLS = '''\
class Deps:
    """What the agent injects."""


def search(query: str) -> str:
    """Search."""
    return query
'''


@pytest.fixture(autouse=True)
def _in_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "target_tools.py").write_text(TOOLS, encoding="utf-8")
    (tmp_path / "schema.json").write_text('{"type": "object"}', encoding="utf-8")


def test_a_function_is_callable_and_a_schema_is_not() -> None:
    assert callable_target("target_tools.py:search")("x") == "x"
    with pytest.raises(TargetError, match=r"schema\.json is a JSON schema, which has no function"):
        callable_target("schema.json")


def test_context_types_are_the_classes_named_in_order() -> None:
    (deps,) = resolve_context_types(["target_tools.py:Deps"])
    assert isinstance(deps, type)
    assert deps.__name__ == "Deps"
    assert resolve_context_types([]) == ()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("target_tools", "is not MODULE:CLASS"),
        ("mcp:python server.py", "is not MODULE:CLASS"),
        ("target_tools.py:search", "is a function, not a class"),
        ("target_tools.py:Missing", "Missing"),
    ],
)
def test_a_context_type_that_is_not_a_class_is_refused(text: str, says: str) -> None:
    with pytest.raises(TargetError, match=says):
        resolve_context_types([text])
