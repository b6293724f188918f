"""The pre-commit hooks of .pre-commit-hooks.yaml, run by pre-commit itself, offline.

The hooks are `language: system` (they must import the project's own modules, so they run
in the project's environment): pre-commit builds no environment and downloads nothing.
Both ways a project uses them are exercised: `pre-commit try-repo` against a local clone of
this repository, and a .pre-commit-config.yaml that names the clone at a commit.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import toollens

pytest.importorskip("pre_commit", reason="pre-commit is in the test extra")

REPO_ROOT = Path(toollens.__file__).resolve().parents[2]
HOOKS = REPO_ROOT / ".pre-commit-hooks.yaml"
GIT = ("git", "-c", "user.name=t", "-c", "user.email=t@example.invalid")

TOOLS = '''\
def search(query: str) -> str:
    """Search the catalogue.

    Args:
        query: words to look for.
    """
    return query
'''


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    bin_dir = Path(sys.executable).parent  # where `toollens` and `pre-commit` are installed
    if not (bin_dir / "pre-commit").exists() and not (bin_dir / "pre-commit.exe").exists():
        pytest.skip("the pre-commit script is not next to this interpreter")
    return {
        **os.environ,
        "PATH": os.pathsep.join([str(bin_dir), os.environ.get("PATH", "")]),
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PYTHONDONTWRITEBYTECODE": "1",
        # Anything that tried the network would fail loudly: no index, a dead proxy.
        "PIP_NO_INDEX": "1",
        "http_proxy": "http://127.0.0.1:9",
        "https_proxy": "http://127.0.0.1:9",
        "HTTP_PROXY": "http://127.0.0.1:9",
        "HTTPS_PROXY": "http://127.0.0.1:9",
        "GIT_ALLOW_PROTOCOL": "file",
    }


@pytest.fixture
def hooks_clone(tmp_path: Path, env: dict[str, str]) -> tuple[Path, str]:
    """A local clone of this repository with the working tree's hooks file committed."""
    if not (REPO_ROOT / ".git").exists() or not HOOKS.is_file():
        pytest.skip("not running from a git checkout of toollens")
    clone = tmp_path / "toollens-clone"
    done = _run(["git", "clone", "-q", str(REPO_ROOT), str(clone)], tmp_path, env)
    assert done.returncode == 0, done.stderr
    shutil.copyfile(HOOKS, clone / ".pre-commit-hooks.yaml")
    _run([*GIT, "add", ".pre-commit-hooks.yaml"], clone, env)
    _run([*GIT, "commit", "-qm", "hooks under test", "--allow-empty"], clone, env)
    rev = _run(["git", "rev-parse", "HEAD"], clone, env).stdout.strip()
    return clone, rev


@pytest.fixture
def project(tmp_path: Path, env: dict[str, str]) -> Path:
    root = tmp_path / "project"
    (root / "agent").mkdir(parents=True)
    (root / "agent" / "__init__.py").write_text("")
    (root / "agent" / "tools.py").write_text(TOOLS)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "agent"\nversion = "0"\n\n[tool.toollens]\ntools = ["agent.tools:*"]\n'
    )
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "tools"]):
        assert _run([*GIT, *args], root, env).returncode == 0
    done = _run([sys.executable, "-m", "toollens", "snapshot"], root, env)
    assert done.returncode == 0, done.stderr
    _run([*GIT, "add", "-A"], root, env)
    _run([*GIT, "commit", "-qm", "lock"], root, env)
    return root


def _edit_description(project: Path, env: dict[str, str]) -> None:
    path = project / "agent" / "tools.py"
    path.write_text(path.read_text().replace("Search the catalogue.", "Search everything."))
    _run([*GIT, "add", "-A"], project, env)


def test_try_repo_against_a_local_clone(
    project: Path, hooks_clone: tuple[Path, str], env: dict[str, str]
) -> None:
    clone, _ = hooks_clone
    for hook in ("toollens-check", "toollens-lock"):
        done = _run(["pre-commit", "try-repo", str(clone), hook, "--all-files"], project, env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Passed" in done.stdout
    _edit_description(project, env)
    done = _run(
        ["pre-commit", "try-repo", str(clone), "toollens-lock", "--all-files"], project, env
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Failed" in done.stdout
    assert "toollens.lock.json: 1 changed (not breaking)" in done.stdout
    assert "DESCRIPTION  (tool)  tool.description: changed" in done.stdout


def test_config_that_names_the_repository(
    project: Path, hooks_clone: tuple[Path, str], env: dict[str, str]
) -> None:
    clone, rev = hooks_clone
    (project / ".pre-commit-config.yaml").write_text(
        f"repos:\n  - repo: {clone.as_posix()}\n    rev: {rev}\n    hooks:\n"
        "      - id: toollens-check\n      - id: toollens-lock\n"
    )
    _run([*GIT, "add", "-A"], project, env)
    done = _run(["pre-commit", "run", "--all-files"], project, env)
    assert done.returncode == 0, done.stdout + done.stderr
    _edit_description(project, env)
    done = _run(["pre-commit", "run", "--all-files"], project, env)
    assert done.returncode == 1, done.stdout + done.stderr
    # The lock hook fails; the check hook (no error finding) still passes.
    assert "toollens lock (toollens.lock.json matches the tools)" in done.stdout
    assert done.stdout.count("Failed") == 1
    # Updating the lock in the same change makes it pass again.
    assert _run(["toollens", "diff", "--lock", "--update"], project, env).returncode == 0
    _run([*GIT, "add", "-A"], project, env)
    done = _run(["pre-commit", "run", "--all-files"], project, env)
    assert done.returncode == 0, done.stdout + done.stderr
