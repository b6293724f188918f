"""The README's commands work as written, in order, from a clean clone: what one command
does (JupyterLab saving the notebook it opened) does not break the next (the test suite).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMITTED_NOTEBOOKS = {p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("*.ipynb")}


def _ignored_folders() -> set[str]:
    lines = (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    return {line.strip().rstrip("/") for line in lines if line.strip().endswith("/")}


def _commands() -> list[list[str]]:
    """Each simple command of the README's bash blocks, split as the shell splits it."""
    blocks = re.findall(r"```bash\n(.*?)```", README, re.DOTALL)
    commands = []
    for block in blocks:
        for line in block.splitlines():
            for part in re.split(r"\s*&&\s*", line.strip()):
                if part:
                    commands.append(shlex.split(part))
    return commands


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
        assert "-n" in argv, "a second run must keep the user's copy"
        for source in sources:
            assert source in COMMITTED_NOTEBOOKS, source
            made.add(f"{target.rstrip('/')}/{Path(source).name}")
    assert opened <= made, (opened, made)
