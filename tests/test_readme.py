"""The README's commands work as written, in order, from a clean clone: what one command
does (JupyterLab saving the notebook it opened) does not break the next (the test suite).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from support.doc_commands import page_commands

ROOT = Path(__file__).resolve().parent.parent
COMMITTED_NOTEBOOKS = {p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("*.ipynb")}


def _ignored_folders() -> set[str]:
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    return {line.strip().rstrip("/") for line in lines if line.strip().endswith("/")}


def _blocks() -> list[list[list[str]]]:
    """Each bash block of the README as its simple commands (the parser all the
    documentation's command tests share: ``support.doc_commands``)."""
    blocks: dict[int, list[list[str]]] = {}
    for command in page_commands(ROOT / "README.md"):
        if command.block >= 0:  # not an inline span
            blocks.setdefault(command.block, []).extend(command.simple)
    return [blocks[index] for index in sorted(blocks)]


def _commands() -> list[list[str]]:
    return [argv for block in _blocks() for argv in block]


def _opened_by_jupyter() -> list[str]:
    return [
        argv[-1]
        for argv in _commands()
        if Path(argv[0]).name in {"jupyter", "jupyter-lab"} and argv[1:2] == ["lab"]
    ]


def test_the_readme_opens_jupyterlab_on_a_copy_git_ignores() -> None:
    """JupyterLab autosaves what it opens: a committed notebook it saved fails the suite."""
    opened = _opened_by_jupyter()
    assert opened, "the README no longer opens JupyterLab: update this test"
    for path in opened:
        assert path not in COMMITTED_NOTEBOOKS, f"the README opens committed {path}"
        assert path.split("/")[0] in _ignored_folders(), f"{path} is not under an ignored folder"


def test_the_copy_the_readme_opens_is_made_from_a_committed_notebook() -> None:
    copies = [argv for argv in _commands() if argv[0] == "cp"]
    opened = set(_opened_by_jupyter())
    made = set()
    for argv in copies:
        *sources, target = [a for a in argv[1:] if not a.startswith("-")]
        for source in sources:
            assert source in COMMITTED_NOTEBOOKS, source
            copy = f"{target.rstrip('/')}/{Path(source).name}"
            kept = "-n" in argv or ["[", "-e", copy, "]"] in _commands()
            assert kept, "a second run must keep the user's copy"
            made.add(copy)
    assert opened <= made, (opened, made)


# What a command needs beyond the core install: the extra that provides it.
NEEDS = {"tokens": "tokens", "fuzz": "fuzz"}


def _installed_extras(commands: list[list[str]]) -> set[str]:
    extras: set[str] = set()
    for argv in commands:
        if Path(argv[0]).name == "pip" and "install" in argv:
            for arg in argv:
                found = re.fullmatch(r"\.\[([a-z,]+)\]", arg)
                if found:
                    extras.update(found.group(1).split(","))
    return extras


def test_every_toollens_command_runs_from_the_venv_the_readme_makes() -> None:
    """No bare ``toollens``: the README never activates the venv."""
    runs = [argv for argv in _commands() if Path(argv[0]).name == "toollens"]
    assert runs, "the README no longer runs toollens: update this test"
    assert all(argv[0] == ".venv/bin/toollens" for argv in runs), runs


def test_the_readme_installs_the_extras_its_commands_need() -> None:
    """Each block works after the first (the venv made with the lab extra) as written: it
    installs the extras its own commands need."""
    first, *rest = _blocks()
    for block in rest:
        extras = _installed_extras(first) | _installed_extras(block)
        for argv in block:
            if Path(argv[0]).name != "toollens" or len(argv) < 2:
                continue
            needed = NEEDS.get(argv[1])
            if needed is not None:
                assert needed in extras, f"{shlex.join(argv)} needs the {needed} extra"
            if any(arg.startswith("mcp:") for arg in argv):
                assert "mcp" in extras, f"{shlex.join(argv)} needs the mcp extra"
