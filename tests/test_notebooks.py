"""The teaching notebooks match their sources, run top to bottom, and show their views offline.

Each lesson's source is ``notebooks/NN_name.py`` (jupytext percent format);
``scripts/build_notebooks.py`` executes it and writes ``notebooks/NN_name.ipynb`` with its
outputs. These tests check that every committed notebook has the cells of its source, its
outputs saved and no run-dependent metadata; that each source still executes in a fresh
kernel without an error or stderr output and gives the same kinds of output as the committed
file; that the build is deterministic; and that an nbconvert HTML export, which runs no
JavaScript and loads nothing, shows each lesson's views.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
pytest.importorskip("nbclient")
pytest.importorskip("jupytext")
nbconvert = pytest.importorskip("nbconvert")

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
BUILD_SCRIPT = ROOT / "scripts" / "build_notebooks.py"


def _build_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_notebooks", BUILD_SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("build_notebooks", module)
    spec.loader.exec_module(module)
    return module


BUILD = _build_module()
SOURCES = BUILD.sources()
IDS = [source.stem for source in SOURCES]

# Text each lesson's saved HTML must show without a kernel: the views it teaches with.
VIEWS_SHOWN = {
    "01_quickstart": ['data-view="strict"', 'data-view="metadata"', 'data-view="output"'],
    "02_metadata_precedence": ['data-view="metadata"'],
    "03_strict_mode": [
        'data-view="strict"',
        "What strict conversion changed",
        "strict conversion failed",
        "nullable-default",
    ],
    "04_output_schemas": ['data-view="output"', "plain text", "direct", "wrapped"],
    "05_schema_diffing": ["Schema diff", "Before", "After", "breaking"],
    "06_debugging_a_rejected_tool": [
        'data-view="findings"',
        "openai.unsupported-keyword",
        "anthropic.numeric-constraint",
        "gemini.enum-not-string",
    ],
    "07_one_function_seven_frameworks": [
        'data-view="frameworks"',
        "tl-fw-disagree",
        "open object",
        "refused the function",
    ],
}

_WIDGET_STATE = re.compile(
    r'<script type="application/vnd\.jupyter\.widget-state\+json">.*?</script>', re.DOTALL
)


def _committed(source: Path) -> Any:
    return nbformat.read(source.with_suffix(".ipynb"), as_version=4)


def _cells(nb: Any) -> list[tuple[str, str, str, Any]]:
    return [(c.id, c.cell_type, c.source, c.metadata.get("jupyter")) for c in nb.cells]


def _output_kinds(nb: Any) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """Per code cell, each output's type and mime types: stable across library versions."""
    return [
        (c.id, [(o.output_type, sorted(o.get("data", {}))) for o in c.outputs])
        for c in nb.cells
        if c.cell_type == "code"
    ]


def test_every_source_has_its_notebook_and_every_notebook_its_source() -> None:
    notebooks = sorted(p.stem for p in NOTEBOOK_DIR.glob("*.ipynb"))
    assert notebooks == IDS
    assert len(IDS) >= 6


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_committed_notebook_matches_its_source(source: Path) -> None:
    nb = _committed(source)
    expected = BUILD.make_notebook(source)
    # A notebook saved by Jupyter (it autosaves what it opened) fails here: say how to undo it.
    saved = (
        f"{source.stem}.ipynb was saved by a front end: restore it with "
        f"`git checkout -- notebooks/{source.stem}.ipynb` or rebuild it with "
        f"`python scripts/{BUILD_SCRIPT.name} {source.stem[:2]}` (the README opens a copy)"
    )
    assert _cells(nb) == _cells(expected), f"{source.stem} is stale: run {BUILD_SCRIPT.name}"
    assert nb.metadata["jupytext"] == {"formats": "ipynb,py:percent"}, saved
    assert nb.metadata["kernelspec"]["name"] == "python3", saved
    assert "version" not in nb.metadata["language_info"], saved
    for cell in nb.cells:
        assert "execution" not in cell.metadata, f"{cell.id}: timestamps kept; {saved}"
        if cell.cell_type == "code" and cell.source:
            assert cell.execution_count is not None, f"{cell.id}: not executed; {saved}"
    assert BUILD.problems(nb) == []


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_a_lesson_reads_as_a_lesson(source: Path) -> None:
    """A title first, prose in markdown cells, and no markdown hidden in code strings."""
    nb = BUILD.make_notebook(source)
    assert nb.cells[0].cell_type == "markdown"
    assert nb.cells[0].source.startswith("# ")
    prose = sum(len(c.source) for c in nb.cells if c.cell_type == "markdown")
    assert prose > 1500, f"{source.stem}: {prose} characters of prose"


def test_the_build_script_holds_no_lesson() -> None:
    """Cells come from the sources only: the script makes none and stays short."""
    text = BUILD_SCRIPT.read_text(encoding="utf-8")
    assert "new_markdown_cell" not in text
    assert "new_code_cell" not in text
    assert len(text.splitlines()) < 250


def test_widget_notebooks_save_static_copies_of_the_views() -> None:
    """Saved views read without a kernel: GitHub, nbconvert offline, JupyterLab before a run.

    toollens widgets are saved as their static HTML copy (the build script's
    ``static_copies``), not as live views whose state would carry the widget's bundle.
    """
    for stem in ("01_quickstart", "05_schema_diffing"):
        nb = _committed(NOTEBOOK_DIR / f"{stem}.py")
        outputs = [o for cell in nb.cells for o in cell.get("outputs", [])]
        copies = [o for o in outputs if "tl-root" in o.get("data", {}).get("text/html", "")]
        assert copies, stem
        view = "application/vnd.jupyter.widget-view+json"
        views = [o for o in outputs if view in o.get("data", {})]
        assert views == [], stem
        assert "widgets" not in nb.metadata, stem


def test_exercise_answers_start_collapsed() -> None:
    nb = _committed(NOTEBOOK_DIR / "03_strict_mode.py")
    hidden = [c for c in nb.cells if c.metadata.get("jupyter", {}).get("source_hidden")]
    assert len(hidden) >= 3
    for cell in hidden:
        assert cell.source.startswith("# Show answer:")


@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_html_export_shows_the_views_without_a_kernel(source: Path) -> None:
    """nbconvert's HTML runs no widget JavaScript offline: views must be saved as HTML."""
    nb = _committed(source)
    html, _ = nbconvert.HTMLExporter().from_notebook_node(nb)
    outside_widget_state = _WIDGET_STATE.sub("", html)
    wanted = list(VIEWS_SHOWN.get(source.stem, []))
    if any(
        "application/vnd.jupyter.widget-view+json" in output.get("data", {})
        for cell in nb.cells
        for output in cell.get("outputs", [])
    ):
        wanted.append('class="tl-root"')  # a lesson with a widget also saves a static view
    missing = [text for text in wanted if text not in outside_widget_state]
    assert missing == [], f"{source.stem}: the HTML export does not show {missing}"


@pytest.mark.network_ok  # the kernel talks to nbclient over loopback
@pytest.mark.parametrize("source", SOURCES, ids=IDS)
def test_notebook_executes_without_errors(source: Path) -> None:
    nb, problems = BUILD.executed(source)
    assert problems == [], json.dumps(problems, indent=2)
    assert _output_kinds(nb) == _output_kinds(_committed(source)), (
        f"{source.stem}: outputs differ in kind from the committed notebook; rebuild it"
    )


@pytest.mark.network_ok
def test_the_build_is_deterministic() -> None:
    """Two builds give the same bytes: widget ids renumbered, no timestamps or versions."""
    source = NOTEBOOK_DIR / "01_quickstart.py"  # the one with the most widget models
    first, _ = BUILD.executed(source)
    second, _ = BUILD.executed(source)
    assert BUILD.to_text(first) == BUILD.to_text(second)
