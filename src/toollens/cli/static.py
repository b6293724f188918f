"""``toollens static NOTEBOOK``: save an executed notebook's toollens views as static HTML.

See :mod:`toollens.static_notebook` for why: nbconvert shows an empty box where a live
widget was, and every toollens widget already carries a static copy of its views.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["add_static_command"]

STATIC_EPILOG = """\
Keeps the static HTML copy every toollens widget writes next to its live view and drops
the live view (and widget state no other view needs), so the notebook reads without a
kernel: on GitHub, in `jupyter nbconvert --to html`, in a documentation site. Other
widgets are left as they are. `jupyter nbconvert --to toollens_html NOTEBOOK` does the
same on the way to HTML.

examples:
  toollens static executed.ipynb                 # rewrite in place
  toollens static executed.ipynb -o readable.ipynb"""


def add_static_command(command: Callable[[str, str, str], argparse.ArgumentParser]) -> None:
    """Register ``toollens static``."""
    static = command(
        "static", "save an executed notebook's toollens views as static HTML", STATIC_EPILOG
    )
    static.add_argument("notebook", metavar="NOTEBOOK", help="an .ipynb file")
    static.add_argument(
        "-o", "--output", metavar="OUT", help="write here instead of rewriting NOTEBOOK"
    )
    static.set_defaults(handler=_run_static)


def _run_static(args: argparse.Namespace) -> tuple[str, int]:
    # lazy: toollens.static_notebook (~1 ms), for `static` only (not at `--help`)
    from toollens.static_notebook import write_static

    written = write_static(args.notebook, args.output)
    return f"wrote {written}\n", 0
