"""What the explorer and the diff widget share: the anywidget base, the bundled ESM, the CSS.

Both widgets are ``anywidget.AnyWidget`` classes whose ``_esm`` is the one bundle built
from ``frontend/src`` by ``frontend/build.mjs`` and shipped in the wheel under ``static/``:
nothing is fetched from a CDN. The bundle's first line records a hash of its sources, which
a test recomputes, so a committed bundle cannot silently fall behind its sources.
"""

from __future__ import annotations

import hashlib
import pathlib
import re
from typing import Any

import anywidget

__all__ = ["BUNDLE", "FRONTEND", "BaseWidget", "bundle_hash", "sources_hash"]

BUNDLE = pathlib.Path(__file__).with_name("static") / "explorer.js"
FRONTEND = pathlib.Path(__file__).with_name("frontend")
_BANNER = re.compile(r"sources sha256: ([0-9a-f]{64})")


class BaseWidget(anywidget.AnyWidget):
    """An anywidget whose front end is the bundled toollens ESM."""

    _esm = BUNDLE

    def __repr__(self) -> str:
        # The text/plain of a saved output: stable across runs (no memory address).
        return f"<toollens {type(self).__name__}>"

    def _static_html(self) -> str | None:
        """A self-contained HTML copy of what the widget shows, or ``None``."""
        return None

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        # The static copy rides along with the live view: nbconvert, GitHub and any front end
        # without the widget's JavaScript show the views instead of an empty box.
        result = super()._repr_mimebundle_(**kwargs)
        if result is None:
            return None
        data, metadata = result if isinstance(result, tuple) else (result, {})
        static = self._static_html()
        if static is not None:
            # lazy: render.inline (~3 ms), for a static copy of a widget only
            from toollens.render.inline import inline_layout

            # Laid out inline too: a sanitizer that strips the stylesheet keeps the layout.
            data = {**data, "text/html": inline_layout(static)}
        return data, metadata


def sources_hash(frontend: pathlib.Path = FRONTEND) -> str:
    """sha256 over the front-end sources, computed as ``frontend/build.mjs`` computes it."""
    src = frontend / "src"
    names = ["build.mjs", "package.json", "package-lock.json"]
    names += [f"src/{p.name}" for p in src.iterdir() if p.suffix in (".js", ".ts")]
    digest = hashlib.sha256()
    for name in sorted(names):
        text = (frontend / name).read_text(encoding="utf-8").replace("\r\n", "\n")
        digest.update(f"{name}\n".encode())
        digest.update(text.encode())
        digest.update(b"\n")
    return digest.hexdigest()


def bundle_hash(bundle: pathlib.Path = BUNDLE) -> str | None:
    """The sources hash the committed bundle was built from (its banner), if any."""
    with bundle.open(encoding="utf-8") as handle:
        match = _BANNER.search(handle.readline())
    return match.group(1) if match else None
