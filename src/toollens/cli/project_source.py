"""The project's ``[tool.toollens]`` table as the source of ``check``, ``show`` and ``tokens``.

``toollens check`` with no target is ``toollens check project``: one reader of the table
(:func:`toollens.project.source.project_toolset`, the same tools in the same order as
``toollens.toolset("project")`` and the lock), judged with the table's options under what
the command line names, as ``snapshot`` and ``diff --lock`` judge them: ``--no-strict``
wins over the table, the table's ``strict = false`` over the default, and ``--provider``
replaces the table's ``providers``.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from toollens.core.choices import DocstringStyleName
    from toollens.core.report import ReportOptions

__all__ = ["PROJECT", "project_options"]

PROJECT = "project"
"""The source a command reads when it is given no target."""


def project_options(
    args: argparse.Namespace, source: str, named: Sequence[str] = (), style: str | None = None
) -> tuple[ReportOptions, tuple[str, ...]]:
    """The options the project's tools are read with, and the providers to judge them for.

    Args:
        args: the command line (``--no-strict``, ``--context-type``, ``--mcp-revision``).
        source: ``project`` or ``project:DIR``.
        named: the providers the command line names (``--provider``); none: the table's.
        style: a docstring style the command line names (``--style``); none: the table's.

    Raises:
        ProjectError: no ``pyproject.toml``, or a malformed ``[tool.toollens]`` table.
    """
    from toollens.cli.common import cli_options
    from toollens.project.config import load_config

    config = load_config(source.partition(":")[2] or None)
    providers = tuple(dict.fromkeys(named)) or config.providers
    table = config.report_options(providers[0])
    options = dataclasses.replace(
        cli_options(args, providers[0]),
        strict=table.strict and bool(getattr(args, "strict", True)),
        docstring_style=cast("DocstringStyleName | None", style) or table.docstring_style,
        optional_defaults=table.optional_defaults,
    )
    return options, providers
