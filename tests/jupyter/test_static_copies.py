"""Saved notebooks read without a kernel or a network: the explorer's static HTML copy.

A notebook is executed headless (as ``scripts/build_notebooks.py`` does, widget state
stored), saved the way the build script saves it, and converted with nbconvert's HTML
exporter: the views' text must be in the page, with nothing that needs a widget renderer
from a CDN.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any

import pytest

from support import REPO_ROOT

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
nbconvert = pytest.importorskip("nbconvert")

ROOT = REPO_ROOT
CELLS = [
    "%load_ext toollens\nimport toollens\nfrom toollens.examples import EXAMPLES\n"
    'get_weather = EXAMPLES["get_weather"]',
    "%toolschema get_weather",
    "def other(city: str) -> str:\n    '''Weather.'''\n    return city\n\n"
    "toollens.DiffWidget(get_weather, other)",
]


def _build_module() -> ModuleType:
    path = ROOT / "scripts" / "build_notebooks.py"
    spec = importlib.util.spec_from_file_location("build_notebooks", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_notebooks", module)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> Any:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    client = nbclient.NotebookClient(
        nb,
        timeout=600,
        startup_timeout=600,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(tmp_path_factory.mktemp("nb"))}},
    )
    client.execute()
    return nb


def _html(nb: Any) -> str:
    exporter = nbconvert.HTMLExporter(template_name="lab")
    body, _resources = exporter.from_notebook_node(nb)
    return str(body)


@pytest.mark.network_ok  # the kernel talks to nbclient over loopback
def test_outputs_carry_the_static_copy_next_to_the_live_view(executed: Any) -> None:
    explorer, diff = (cell.outputs[-1] for cell in executed.cells[1:])
    for output in (explorer, diff):
        assert "application/vnd.jupyter.widget-view+json" in output.data
        assert 'class="tl-root"' in output.data["text/html"]
    assert "How many days to forecast" in explorer.data["text/html"]
    assert "Schema diff" in diff.data["text/html"]


@pytest.mark.network_ok
def test_saved_notebook_converts_to_html_that_shows_the_views_offline(executed: Any) -> None:
    build = _build_module()
    saved = build.normalize(build.static_copies(nbformat.from_dict(executed)))
    nbformat.validate(saved)
    html = _html(saved)
    for text in ("How many days to forecast", "additionalProperties", "require-all-properties"):
        assert text in html, text
    assert "Schema diff" in html
    # nothing left for a widget renderer (which nbconvert would fetch from a CDN)
    assert "application/vnd.jupyter.widget-view+json" not in html
    assert "widgets" not in saved.metadata  # no bundle copied into the notebook's state
    for cell in saved.cells:
        for output in cell.get("outputs", []):
            assert "application/vnd.jupyter.widget-view+json" not in output.get("data", {})


@pytest.mark.network_ok
def test_without_static_copies_nbconvert_would_show_an_empty_widget(executed: Any) -> None:
    """Why the build script saves the copies: stored state makes nbconvert pick the view."""
    html = _html(executed)
    assert "application/vnd.jupyter.widget-view+json" in html
