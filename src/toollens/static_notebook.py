"""Make an executed notebook's toollens widgets readable without a kernel.

A notebook executed by nbclient or papermill stores each widget's live view and its state.
nbconvert's HTML then shows an empty box where the explorer was: the live view needs the
widget's front end and a kernel. Every toollens widget also puts a static HTML copy of its
views in the same output, so the fix is to keep that copy and drop the live view.

Three ways to do it, all with :func:`static_copies`:

- ``toollens static NOTEBOOK [-o OUT]`` on the command line;
- ``jupyter nbconvert --to toollens_html NOTEBOOK`` (an exporter this package registers);
- ``toollens.nbconvert.StaticCopiesPreprocessor`` in any nbconvert pipeline
  (``--HTMLExporter.preprocessors=toollens.nbconvert.StaticCopiesPreprocessor``).

Only toollens widgets are touched: other widgets keep their live views and state.
This module does not import nbconvert; ``toollens.nbconvert`` holds the classes that do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from toollens.core.errors import TargetError

__all__ = ["static_copies", "write_static"]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
_MODEL_REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")


# Any: an nbformat NotebookNode (nbformat is untyped) or the same structure as plain dicts.
def static_copies(nb: Any) -> Any:
    """Keep the static HTML copy of every toollens widget output, drop its live view.

    ``nb`` is an nbformat notebook (or the same structure as plain dicts); it is changed
    in place and returned. Widget models that no remaining view reaches are dropped from the
    saved state, and the state section goes when it is empty.
    """
    state = _widget_state(nb)
    for output in _outputs(nb):
        data = output.get("data", {})
        view = data.get(WIDGET_VIEW)
        if not isinstance(view, dict) or "text/html" not in data:
            continue
        if _is_toollens(state.get(str(view.get("model_id"))), data["text/html"], state):
            del data[WIDGET_VIEW]
    keep = _reachable(nb, state)
    for model_id in [m for m in state if m not in keep]:
        del state[model_id]
    if not state and "widgets" in nb.get("metadata", {}):
        nb["metadata"].pop("widgets", None)
    return nb


_TOOLLENS_COPY = re.compile(r'^\s*<div class="tl-root[^"]*" data-toollens="')


def _is_toollens(model: Any, html: Any, state: dict[str, Any]) -> bool:
    """A toollens widget's output: by its saved model (a toollens widget, or a box holding
    one: the Toolset view), else (JupyterLab saves no widget state unless asked) by the
    static copy every toollens widget puts beside its live view."""
    if isinstance(model, dict):
        return _toollens_model(model, state, set())
    text = "".join(html) if isinstance(html, list) else str(html)
    return _TOOLLENS_COPY.match(text) is not None


def _toollens_model(model: Any, state: dict[str, Any], seen: set[str]) -> bool:
    own = model.get("state", {}) if isinstance(model, dict) else {}
    if str(own.get("_anywidget_id", "")).startswith("toollens."):
        return True
    children = [c for c in _MODEL_REF.findall(json.dumps(own.get("children", []))) if c not in seen]
    seen.update(children)
    return any(_toollens_model(state.get(c), state, seen) for c in children)


def _widget_state(nb: Any) -> dict[str, Any]:
    state = nb.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    return state if isinstance(state, dict) else {}


def _outputs(nb: Any) -> Iterator[dict[str, Any]]:
    for cell in nb.get("cells", []):
        yield from cell.get("outputs", [])


def _reachable(nb: Any, state: dict[str, Any]) -> set[str]:
    """Model ids reached from the views still displayed, through the references in state."""
    keep: set[str] = set()
    pending = [
        view["model_id"]
        for output in _outputs(nb)
        if isinstance(view := output.get("data", {}).get(WIDGET_VIEW), dict) and "model_id" in view
    ]
    while pending:
        model_id = pending.pop()
        if model_id in state and model_id not in keep:
            keep.add(model_id)
            pending.extend(_MODEL_REF.findall(json.dumps(state[model_id])))
    return keep


def write_static(path: str | Path, output: str | Path | None = None) -> Path:
    """Rewrite the notebook at ``path`` with static copies (into ``output`` when given).

    The file is written in nbformat's own layout (sorted keys, one-space indent).

    Raises:
        TargetError: the file is missing or is not a notebook.
    """
    source = Path(path)
    try:
        nb = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise TargetError(f"{source}: no such notebook", hint="check the path") from exc
    except (OSError, ValueError) as exc:  # unreadable, not UTF-8, not JSON
        raise TargetError(
            f"{source}: not a readable notebook ({type(exc).__name__})", hint=_NOTEBOOK_HINT
        ) from exc
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise TargetError(f"{source}: not a notebook (no list of cells)", hint=_NOTEBOOK_HINT)
    target = Path(output) if output is not None else source
    text = json.dumps(static_copies(nb), sort_keys=True, indent=1, ensure_ascii=False)
    target.write_text(text + "\n", encoding="utf-8")
    return target


_NOTEBOOK_HINT = "pass an .ipynb file saved by Jupyter, nbclient or papermill"
