"""Explorer pages in each front end, for the browser tests: the tools written as notebooks and
marimo apps, a server per front end, a browser, a page with the explorer on it, and a way
to select text in one of its editors.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import nbformat
from scenario import VIEW_JS
from servers import Server, launch_browser, make_tmp, start_lab, start_marimo, start_voila, stop

FRONT_ENDS = ("voila", "jupyterlab", "notebook7", "marimo")

# The small tool the explorer tests edit (written to ``trip.py`` next to the notebooks).
TRIP_SOURCE = '''from typing import Annotated
from pydantic import Field

def plan_trip(
    city: str,
    days: Annotated[int, Field(ge=1, le=7)] = 1,
) -> str:
    """Plan a trip.

    Args:
        city: The city to visit.
        days: How many days.
    """
    return f"{days} days in {city}"
'''

# A marimo app showing one explorer (marimo's default, narrow column: the app's default width).
MARIMO_APP = """
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    import toollens
    from {module} import {name}

    explorer = mo.ui.anywidget(toollens.Explorer({name}))
    explorer
    return


if __name__ == "__main__":
    app.run()
"""

KERNEL_READY_JS = """() => {
  const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
}"""

# Select `text` in the editor whose box matches `box` (each editor hangs its CodeMirror view
# on its box; in marimo it sits in a shadow root, which VIEW_JS's tlFind searches too).
SELECT_JS = (
    "([box, text, caretAfter]) => {"
    + VIEW_JS
    + """
  const view = tlFind(box).tlView;
  const at = view.state.doc.toString().indexOf(text);
  if (at < 0) return -1;
  view.focus();
  const range = caretAfter ? {anchor: at + text.length} : {anchor: at, head: at + text.length};
  view.dispatch({selection: range, scrollIntoView: true});
  return at;
}"""
)


def marimo_app_name(notebook: str) -> str:
    return notebook.replace(".ipynb", "_app.py")


def write_explorer_notebook(folder: Path, notebook: str, module: str, name: str) -> None:
    """``folder/notebook`` and its marimo twin, each showing ``Explorer(module.name)``."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [
        nbformat.v4.new_code_cell(f"import toollens\nfrom {module} import {name}"),
        nbformat.v4.new_code_cell(f"toollens.Explorer({name})"),
    ]
    nbformat.write(nb, folder / notebook)
    app = MARIMO_APP.format(module=module, name=name).lstrip()
    (folder / marimo_app_name(notebook)).write_text(app)


@contextmanager
def chromium(sync_api: Any, prefix: str) -> Iterator[Any]:
    """A Chromium browser context with a private profile, closed and removed afterwards."""
    tmp = make_tmp(prefix)
    try:
        with sync_api.sync_playwright() as pw:
            context = launch_browser(pw, tmp)
            context.set_default_timeout(60_000)
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextmanager
def serving(kind: str, workdir: Path, prefix: str) -> Iterator[Server]:
    """A server of front end ``kind`` on ``workdir`` (marimo serves the folder's apps)."""
    tmp = make_tmp(f"{prefix}{kind}-")
    if kind == "marimo":
        server = start_marimo(tmp, workdir, ".")
    else:
        start = start_voila if kind == "voila" else start_lab
        server = start(tmp, workdir)
    try:
        server.wait_ready()
        yield server
    finally:
        stop(server)
        shutil.rmtree(tmp, ignore_errors=True)


def open_notebook(browser: Any, kind: str, server: Server, notebook: str) -> Any:
    """A page on ``notebook`` in front end ``kind``, its cells run (the caller waits for what
    it needs to see)."""
    page = browser.new_page()
    if kind == "voila":
        page.goto(server.url(f"/voila/render/{notebook}"), wait_until="domcontentloaded")
    elif kind == "marimo":
        page.goto(server.url(f"/?file={marimo_app_name(notebook)}"), wait_until="domcontentloaded")
    else:
        path = f"/lab/tree/{notebook}?reset" if kind == "jupyterlab" else f"/notebooks/{notebook}"
        page.goto(server.url(path), wait_until="domcontentloaded")
        page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
        page.wait_for_function(KERNEL_READY_JS, timeout=120_000, polling=250)
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
        # The file browser takes a quarter of a 1,000 px window: give the notebook the width
        # (in ~550 px of output the views stack in one column, as in a narrow notebook).
        page.evaluate(
            "() => { const s = window.jupyterapp.shell; if (s.collapseLeft) s.collapseLeft(); }"
        )
    return page


def select_text(page: Any, box: str, text: str, *, caret_after: bool = False) -> None:
    """Select ``text`` in the editor in ``box`` (or put the caret after it)."""
    assert page.evaluate(SELECT_JS, [box, text, caret_after]) >= 0, text
