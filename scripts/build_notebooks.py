"""Build the teaching notebooks: ``notebooks/NN_name.py`` -> ``notebooks/NN_name.ipynb``.

Each lesson's source is a jupytext percent-format ``.py`` file (markdown cells are
``# %% [markdown]``). This script reads every ``notebooks/NN_*.py`` with jupytext, executes
it top to bottom with nbclient in a fresh kernel (widget state stored, so the explorer and
its static HTML copy show on GitHub), and writes the ``.ipynb`` next to it with its outputs.

The written files are deterministic: cell ids numbered in order, a fixed kernel name, no
execution timestamps, no Python or jupytext version, widget model ids renumbered in order
of appearance. The build fails when a cell raises, writes to stderr, or prints a machine
path or a memory address.

    python scripts/build_notebooks.py            # build every notebook
    python scripts/build_notebooks.py 03 06      # only those whose name contains "03" or "06"
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from toollens.static_notebook import static_copies

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
KERNEL_NAME = "python3"
TIMEOUT = 180

# Pairing, so that Jupyter with jupytext installed saves edits back into the .py source.
JUPYTEXT = {"formats": "ipynb,py:percent"}
KERNELSPEC = {"name": KERNEL_NAME, "display_name": "Python 3 (ipykernel)", "language": "python"}
LANGUAGE_INFO = {
    "name": "python",
    "codemirror_mode": {"name": "ipython", "version": 3},
    "file_extension": ".py",
    "mimetype": "text/x-python",
    "nbconvert_exporter": "python",
    "pygments_lexer": "ipython3",
}

# Text that must never reach a committed output: machine paths and memory addresses.
FORBIDDEN_OUTPUT = re.compile(r"/work/|/tmp/|/root/|/home/|site-packages| at 0x[0-9a-f]+")


def sources() -> list[Path]:
    """Every lesson source, in lesson order: ``notebooks/NN_name.py``."""
    return sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.py"))


def make_notebook(source: Path) -> Any:
    """The unexecuted notebook of one source, with deterministic ids and metadata."""
    import jupytext

    nb = jupytext.read(source, fmt="py:percent")
    nb.metadata = {
        "jupytext": dict(JUPYTEXT),
        "kernelspec": dict(KERNELSPEC),
        "language_info": dict(LANGUAGE_INFO),
    }
    stem = source.name.split("_", 1)[0]
    for index, cell in enumerate(nb.cells, start=1):
        cell.id = f"nb{stem}-{index:02d}"
    return nb


def execute(nb: Any) -> None:
    """Run every cell in a fresh kernel, storing widget state; raises on any error."""
    from nbclient import NotebookClient

    client = NotebookClient(
        nb,
        timeout=TIMEOUT,
        startup_timeout=TIMEOUT,
        kernel_name=KERNEL_NAME,
        store_widget_state=True,
        resources={"metadata": {"path": str(NOTEBOOK_DIR)}},
    )
    client.execute()


def problems(nb: Any) -> list[str]:
    """Error outputs, stderr text, and machine paths or addresses in outputs."""
    found = []
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if output.output_type == "error":
                found.append(f"{cell.id}: {output.ename}: {output.evalue}")
            elif output.output_type == "stream" and output.name == "stderr":
                found.append(f"{cell.id}: stderr: {output.text[:300]}")
            match = FORBIDDEN_OUTPUT.search(json.dumps(output))
            if match:
                found.append(f"{cell.id}: output contains {match.group(0)!r}")
    return found


def normalize(nb: Any) -> Any:
    """Strip run-dependent metadata, join split streams, renumber widget model ids."""
    import nbformat

    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = dict(LANGUAGE_INFO)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs = _join_streams(cell.outputs)
    text = json.dumps(nb, sort_keys=True)
    mapping = {old: f"{n:032x}" for n, old in enumerate(_widget_order(nb), 1)}
    if mapping:
        pattern = re.compile("|".join(map(re.escape, mapping)))
        text = pattern.sub(lambda m: mapping[m.group(0)], text)
    return nbformat.reads(text, as_version=4)


def _join_streams(outputs: list[Any]) -> list[Any]:
    """One output per run of stdout (or stderr) text: the kernel splits them by timing."""
    joined: list[Any] = []
    for output in outputs:
        last = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and last is not None
            and last.output_type == "stream"
            and last.name == output.name
        ):
            last.text += output.text
        else:
            joined.append(output)
    return joined


_MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


def _widget_order(nb: Any) -> list[str]:
    """Widget model ids in an order that does not depend on the ids themselves.

    The ids are random uuids. Walk from the displayed views, in cell order, through the
    references each model's state holds; models no view reaches come last, sorted by their
    state with the ids masked.
    """
    state = (
        nb.metadata.get("widgets", {})
        .get("application/vnd.jupyter.widget-state+json", {})
        .get("state", {})
    )
    order: list[str] = []

    def visit(model_id: str) -> None:
        if model_id in state and model_id not in order:
            order.append(model_id)
            for ref in _MODEL_REF.findall(json.dumps(state[model_id], sort_keys=True)):
                visit(ref)

    for cell in nb.cells:
        for output in cell.get("outputs", []):
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view:
                visit(view["model_id"])

    def masked(model_id: str) -> str:
        return _MODEL_REF.sub("IPY_MODEL_", json.dumps(state[model_id], sort_keys=True))

    order.extend(sorted((m for m in state if m not in order), key=masked))
    return order


def executed(source: Path) -> tuple[Any, list[str]]:
    """The executed, normalized notebook of one source, and the problems in its outputs."""
    nb = make_notebook(source)
    execute(nb)
    found = problems(nb)
    return normalize(static_copies(nb)), found


def to_text(nb: Any) -> str:
    """The bytes written to disk: validated, nbformat's layout, one final newline."""
    import nbformat

    nbformat.validate(nb)
    return str(nbformat.writes(nb, version=4)) + "\n"


def main(argv: list[str]) -> int:
    wanted = [p for p in sources() if not argv or any(a in p.name for a in argv)]
    if not wanted:
        known = ", ".join(p.name for p in sources())
        print(f"no notebook source matches {argv}; known: {known}", file=sys.stderr)
        return 2
    for source in wanted:
        nb, found = executed(source)
        if found:
            print(f"{source.name}: problems in outputs:", *found, sep="\n  ", file=sys.stderr)
            return 1
        path = source.with_suffix(".ipynb")
        path.write_text(to_text(nb), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
