"""The project's settings as a command reads them, below the command line.

:func:`toollens.project.config.command_config` (the table under ``--no-strict``),
:func:`toollens.project.config.toolset_lock_config` (the lock of ``--toolset SOURCE``: the
table's settings without its tools, or the defaults) and
:func:`toollens.project.source.project_functions` (``compare`` with no target) take plain
values; ``toollens.cli`` only reads its flags into them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toollens.core.errors import TargetError
from toollens.project.config import ProjectError, command_config, toolset_lock_config
from toollens.project.source import project_functions

TOOLS = '''\
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


class Box:
    """Not a function."""
'''


def _project(root: Path, table: str) -> Path:
    (root / "pyproject.toml").write_text(f"[tool.toollens]\n{table}\n", encoding="utf-8")
    (root / "settings_tools.py").write_text(TOOLS, encoding="utf-8")
    return root


def test_command_config_lets_no_strict_win_over_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_project(tmp_path, 'tools = ["settings_tools:add"]'))
    assert command_config().strict is True
    assert command_config(strict=False).strict is False
    (tmp_path / "pyproject.toml").write_text(
        '[tool.toollens]\ntools = ["settings_tools:add"]\nstrict = false\n', encoding="utf-8"
    )
    assert command_config(strict=True).strict is False  # the table's false wins the default


def test_command_config_needs_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProjectError, match=r"no \[tool.toollens\] table"):
        command_config()


def test_a_toolset_lock_keeps_the_tables_settings_but_none_of_its_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = 'tools = ["settings_tools:add"]\nproviders = ["anthropic"]\nstrict = false'
    monkeypatch.chdir(_project(tmp_path, table))
    config = toolset_lock_config()
    assert config.tools == ()
    assert config.providers == ("anthropic",)
    assert config.strict is False
    assert config.lock_path == tmp_path / "toollens.lock.json"


def test_a_toolset_lock_without_a_project_uses_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no pyproject.toml here (tmp_path has none above it)
    config = toolset_lock_config(strict=False)
    assert config.root == tmp_path
    assert config.tools == ()
    assert config.strict is False
    assert config.providers == ("openai-chat",)


def test_project_functions_gives_each_function_with_the_target_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_project(tmp_path, 'tools = ["settings_tools:add"]'))
    ((target, function),) = project_functions(command_config())
    assert target == "settings_tools:add"
    assert callable(function)
    assert function.__name__ == "add"


def test_project_functions_refuses_a_table_without_a_function(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_project(tmp_path, 'tools = ["settings_tools:Box"]'))
    with pytest.raises(TargetError, match="tools list no Python function to compare"):
        project_functions(command_config())


def test_project_functions_names_the_entry_that_cannot_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(_project(tmp_path, 'tools = ["settings_tools:missing"]'))
    with pytest.raises(TargetError, match="tool 'settings_tools:missing' cannot be read"):
        project_functions(command_config())
