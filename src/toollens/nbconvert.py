"""nbconvert classes that save toollens widgets as their static copies.

See :mod:`toollens.static_notebook` for why. Kept apart because they subclass nbconvert's
classes: importing this module imports nbconvert, which ``import toollens`` must not.
"""

from __future__ import annotations

from typing import Any

from nbconvert.exporters import HTMLExporter
from nbconvert.preprocessors import Preprocessor

from toollens.static_notebook import static_copies


class StaticCopiesPreprocessor(Preprocessor):
    """Keep each toollens widget's static HTML copy and drop its live view."""

    # Any: nbconvert's own signature (its notebook and resources types are untyped).
    def preprocess(self, nb: Any, resources: Any) -> tuple[Any, Any]:
        return static_copies(nb), resources


class StaticHTMLExporter(HTMLExporter):
    """nbconvert's HTML export with toollens widgets shown as their static copies.

    Registered as ``toollens_html``: ``jupyter nbconvert --to toollens_html NOTEBOOK``.
    """

    export_from_notebook = "HTML (toollens static views)"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.register_preprocessor(StaticCopiesPreprocessor(parent=self), enabled=True)
