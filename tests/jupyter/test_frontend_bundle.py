"""The committed front-end bundle: built from the sources in the repo, current, self-contained."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from support import REPO_ROOT
from toollens.jupyter.widget_base import BUNDLE, FRONTEND, bundle_hash, sources_hash

REBUILD = "rebuild it: cd src/toollens/jupyter/frontend && npm ci && npm run build"


def test_bundle_is_built_from_the_current_sources() -> None:
    recorded = bundle_hash()
    assert recorded is not None, f"{BUNDLE.name} has no sources hash banner; {REBUILD}"
    assert recorded == sources_hash(), f"{BUNDLE.name} is stale against frontend/; {REBUILD}"


def test_hash_covers_every_source_and_the_lockfile(tmp_path: Path) -> None:
    copy = tmp_path / "frontend"
    shutil.copytree(FRONTEND, copy, ignore=shutil.ignore_patterns("node_modules"))
    before = sources_hash(copy)
    for name in ("src/editor.js", "package-lock.json", "build.mjs"):
        path = copy / name
        original = path.read_text(encoding="utf-8")
        path.write_text(original + "\n// touched\n", encoding="utf-8")
        assert sources_hash(copy) != before, name
        path.write_text(original, encoding="utf-8")
    assert sources_hash(copy) == before


def test_bundle_fetches_nothing_at_run_time() -> None:
    text = BUNDLE.read_text(encoding="utf-8")
    # An ESM that imports from a URL would need a CDN; the bundle inlines every module.
    assert not re.search(r"""\bimport\s*(\(|[^;]*?\bfrom)\s*["'](https?:)?//""", text)
    assert "esm.sh" not in text
    assert "unpkg" not in text
    assert "jsdelivr" not in text
    assert "export{" in text.replace(" ", "")  # an ES module: anywidget imports its default


def test_bundle_is_small_enough() -> None:
    size = BUNDLE.stat().st_size
    assert size < 500 * 1024, f"{BUNDLE.name} is {size / 1024:.0f} KB minified"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_build_script_and_python_agree_on_the_hash() -> None:
    out = subprocess.run(
        ["node", "build.mjs", "--hash"], cwd=FRONTEND, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == sources_hash()


def test_wheel_ships_the_bundle_not_the_sources(tmp_path: Path) -> None:
    wheel_builder = pytest.importorskip("hatchling.builders.wheel")
    root = REPO_ROOT
    (wheel,) = wheel_builder.WheelBuilder(str(root)).build(directory=str(tmp_path))
    names = zipfile.ZipFile(wheel).namelist()
    assert "toollens/jupyter/static/explorer.js" in names
    assert not [n for n in names if "/frontend/" in n or "node_modules" in n]
