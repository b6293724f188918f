"""Shared by the typing and opening benchmarks: notebooks that show an empty anywidget (the
floor: a trait round trip and a DOM write, nothing else) beside the explorer, in one page.

The floor widget is an ``<input>`` whose value Python echoes back into a ``<div>``: typing
one key there costs exactly one comm round trip plus one DOM patch, what the explorer adds
on top of it is the engine and its views.
"""

from __future__ import annotations

from pathlib import Path

import corpus

KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}

# The empty anywidget, defined in the notebook itself (as an author would).
FLOOR_CELL = '''import time, anywidget, traitlets
from IPython.display import HTML, display

class Floor(anywidget.AnyWidget):
    _esm = """
    export default { render({ model, el }) {
      const input = document.createElement("input");
      input.className = "tl-floor-in";
      const out = document.createElement("div");
      out.className = "tl-floor-out";
      out.textContent = model.get("echo") || "floor";
      input.addEventListener("input", () => {
        model.set("value", input.value);
        model.save_changes();
      });
      model.on("change:echo", () => { out.textContent = model.get("echo"); });
      el.append(input, out);
    } };
    """
    value = traitlets.Unicode("").tag(sync=True)
    echo = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.observe(lambda change: setattr(self, "echo", change["new"]), names="value")

def born(name):
    """A mark with the time now (epoch ms, the machine's clock): when the cell started, when
    the widget was built."""
    t = time.time() * 1000
    display(HTML(f'<span class="tl-born" data-name="{name}" data-t="{t:.1f}"></span>'))
'''


def _write(work: Path, name: str, cells: list[str]) -> str:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = KERNELSPEC
    nb.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
    nbformat.write(nb, work / name)
    return name


def write_opening_notebooks(work: Path, n: int) -> tuple[str, str]:
    """Two notebooks with the same setup cell: one showing the floor widget, one the
    explorer of an n-parameter tool, each after a mark of when its cell started."""
    (work / f"benchtool_{n}.py").write_text(corpus.tool_source(n))
    setup = "import sys; sys.path.insert(0, '.')\nimport toollens\n"
    setup += f"from benchtool_{n} import tool_{n}\n{FLOOR_CELL}"
    floor = _write(work, f"open_floor_{n}.ipynb", [setup, 'born("floor")\nFloor()'])
    explorer = _write(
        work,
        f"open_explorer_{n}.ipynb",
        [setup, f'born("explorer")\nx = toollens.Explorer(tool_{n})\nborn("built")\nx'],
    )
    return floor, explorer


def write_notebook(work: Path, n: int) -> str:
    """``bench_<n>.ipynb`` in ``work``: the floor widget, then the explorer of an n-parameter
    tool, each after a mark of when its cell started. Returns the notebook's name."""
    import nbformat

    (work / f"benchtool_{n}.py").write_text(corpus.tool_source(n))
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = KERNELSPEC
    setup = "import sys; sys.path.insert(0, '.')\nimport toollens\n"
    nb.cells = [
        nbformat.v4.new_code_cell(f"{setup}from benchtool_{n} import tool_{n}\n{FLOOR_CELL}"),
        nbformat.v4.new_code_cell('born("floor")\nFloor()'),
        nbformat.v4.new_code_cell(f'born("explorer")\ntoollens.Explorer(tool_{n})'),
    ]
    name = f"bench_{n}.ipynb"
    nbformat.write(nb, work / name)
    return name
