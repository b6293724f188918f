"""The README's commands work as written, in order, from a clean clone: what one command
does (JupyterLab saving the notebook it opened) does not break the next (the test suite).
"""

from __future__ import annotations

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


def test_every_toollens_command_runs_from_the_venv_the_readme_makes() -> None:
    """No bare ``toollens``: the README never activates the venv."""
    runs = [argv for argv in _commands() if Path(argv[0]).name == "toollens"]
    assert runs, "the README no longer runs toollens: update this test"
    assert all(argv[0] == ".venv/bin/toollens" for argv in runs), runs


# Each command's extras: tests/test_doc_commands.py (every page, the README included).
