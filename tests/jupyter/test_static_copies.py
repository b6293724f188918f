"""Saved notebooks read without a kernel or a network: the explorer's static HTML copy.

A notebook is executed headless (as ``scripts/build_notebooks.py`` does, widget state
stored), saved the way the build script saves it, and converted with nbconvert's HTML
exporter: the views' text must be in the page, with nothing that needs a widget renderer
from a CDN.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
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
    # a box holding a toollens widget: the Toolset view (its table, and a tool opened)
    "from toollens.jupyter import ToolsetView\nview = ToolsetView([get_weather, other])\n"
    "view.open_tool(1)\nview",
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
    explorer, diff = (cell.outputs[-1] for cell in executed.cells[1:3])
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
    assert 'data-toollens="toolset"' in html  # the Toolset view's table, then the tool opened
    assert html.index('data-toollens="toolset"') < html.rindex("Weather.")
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


def _visible_views(html: str) -> None:
    for text in ("How many days to forecast", "require-all-properties", "Schema diff"):
        assert text in html, text
    assert "application/vnd.jupyter.widget-view+json" not in html


@pytest.mark.network_ok
def test_toollens_static_command_makes_a_users_executed_notebook_readable(
    executed: Any, tmp_path: Path
) -> None:
    import io

    from toollens.cli import main

    path = tmp_path / "executed.ipynb"
    nbformat.write(nbformat.from_dict(executed), path)
    out = io.StringIO()
    assert main(["static", str(path), "-o", str(tmp_path / "readable.ipynb")], stdout=out) == 0
    assert out.getvalue() == f"wrote {tmp_path / 'readable.ipynb'}\n"
    assert "widget-view" in path.read_text(encoding="utf-8")  # the input is left alone
    readable = nbformat.read(tmp_path / "readable.ipynb", as_version=4)
    nbformat.validate(readable)
    _visible_views(_html(readable))


@pytest.mark.network_ok
def test_nbconvert_exporter_registered_by_the_package_shows_the_views(executed: Any) -> None:
    exporter_class = nbconvert.exporters.get_exporter("toollens_html")
    body, _resources = exporter_class().from_notebook_node(nbformat.from_dict(executed))
    _visible_views(str(body))


def test_static_keeps_widgets_that_are_not_toollens_ones() -> None:
    from toollens.static_notebook import WIDGET_STATE, WIDGET_VIEW, static_copies

    view = {"model_id": "a" * 32, "version_major": 2}
    nb = {
        "metadata": {"widgets": {WIDGET_STATE: {"state": {"a" * 32: {"state": {}}}}}},
        "cells": [{"outputs": [{"data": {WIDGET_VIEW: view, "text/html": "<b>x</b>"}}]}],
    }
    static_copies(nb)
    assert nb["cells"][0]["outputs"][0]["data"][WIDGET_VIEW] == view
    assert "a" * 32 in nb["metadata"]["widgets"][WIDGET_STATE]["state"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such notebook"),
        ("not json", "not a readable notebook"),
        ('{"cells": 3}', "not a notebook"),
        ("[]", "not a notebook"),
    ],
)
def test_toollens_static_on_bad_input_says_what_is_wrong_in_one_line(
    tmp_path: Path, content: str | None, message: str
) -> None:
    import io

    from toollens.cli import main

    path = tmp_path / "nb.ipynb"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    err = io.StringIO()
    assert main(["static", str(path)], stderr=err) == 3
    assert message in err.getvalue()
    assert "Traceback" not in err.getvalue()
    assert err.getvalue().count("\n") <= 2


@pytest.mark.network_ok
def test_a_notebook_saved_without_widget_state_keeps_the_copy_and_goes_static(
    executed: Any, tmp_path: Path
) -> None:
    """JupyterLab saves no widget state by default: reopened after a kernel restart its live
    views have no model. The file keeps each view's HTML copy, and ``static_copies`` keeps
    only that copy (found by the copy itself, as there is no saved model to ask)."""
    saved = nbformat.from_dict(executed)
    saved.metadata.pop("widgets", None)  # what JupyterLab writes unless saveState is on
    path = tmp_path / "saved.ipynb"
    nbformat.write(saved, path)
    reopened = nbformat.read(path, as_version=4)
    explorer = reopened.cells[1].outputs[-1]
    assert "application/vnd.jupyter.widget-view+json" in explorer.data
    assert "How many days to forecast" in explorer.data["text/html"]
    build = _build_module()
    static = build.static_copies(reopened)
    views = [
        o
        for cell in static.cells
        for o in cell.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert views == []
    assert 'data-toollens="diff"' in static.cells[2].outputs[-1].data["text/html"]


def test_without_saved_state_only_a_toollens_copy_replaces_a_live_view() -> None:
    """Another library's widget with an HTML fallback keeps its live view."""
    view = {"model_id": "0" * 32, "version_major": 2, "version_minor": 0}
    outputs = [
        {
            "output_type": "display_data",
            "metadata": {},
            "data": {"application/vnd.jupyter.widget-view+json": view, "text/html": html},
        }
        for html in ('<div class="tl-root" data-toollens="report">x</div>', "<div>other</div>")
    ]
    nb = {"metadata": {}, "cells": [{"cell_type": "code", "outputs": outputs}]}
    build = _build_module()
    first, second = build.static_copies(nb)["cells"][0]["outputs"]
    assert "application/vnd.jupyter.widget-view+json" not in first["data"]
    assert "application/vnd.jupyter.widget-view+json" in second["data"]
