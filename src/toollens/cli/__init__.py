"""The ``toollens`` command line: show, diff and check tool schemas from a terminal or CI.

One module per command, each registering its own arguments and returning its text and exit
code; no schema is computed and nothing is decided here (every command reads its flags into
plain values, asks the layers below, ``toollens.assess`` first, and formats):

- ``app``: the parser and :func:`main` (``toollens.cli:main`` is the console script;
  ``python -m toollens`` runs the same);
- ``common``: exit codes, shared help and arguments, loading a target and its report;
- ``toollens.render.formats`` and ``toollens.render.check_*``: how results are written
  (JSON, a report's views, a diff; the check's text, JSON and annotations);
- ``show``, ``diff``, ``check``, ``snapshot``, ``compare``: the commands. The project's
  side (the lock, GitHub annotations) is ``toollens.cli.project``, the toolset's
  ``toollens.cli.toolset``, the static notebook's ``toollens.cli.static``.

Formatters return strings; :func:`main` writes them and returns the exit code, so tests call
``main([...], stdout=..., stderr=...)``. Importing this package stays light: the engine,
the renderers and the provider table are imported when a command runs.
"""

from toollens.cli.app import build_parser, main
from toollens.cli.check import format_check
from toollens.cli.common import (
    ALL_PROVIDERS,
    EXIT_BREAKING,
    EXIT_CHANGED,
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
)
from toollens.cli.compare import format_compare
from toollens.render.formats import format_diff, format_show, show_all_data

__all__ = [
    "ALL_PROVIDERS",
    "EXIT_BREAKING",
    "EXIT_CHANGED",
    "EXIT_ERROR",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "build_parser",
    "format_check",
    "format_compare",
    "format_diff",
    "format_show",
    "main",
    "show_all_data",
]
