"""``toollens diff``: compare two versions of a tool, or the project's tools with the lock.

Only what is compared is computed (:func:`toollens.core.diff.sides.diff_side`); the lock
diff and its annotations come complete from :mod:`toollens.project.lock_report`.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from toollens.cli.common import (
    EXIT_BREAKING,
    EXIT_CHANGED,
    EXIT_CODES_HELP,
    EXIT_OK,
    TARGETS_HELP,
    Command,
    add_format,
    add_strictness,
    cli_options,
    diff_side_of,
    mcp_options,
    toolset_lock,
)
from toollens.cli.connect import add_mcp_arguments, cli_connect
from toollens.render.formats import dump, format_diff

if TYPE_CHECKING:
    from toollens.core.schema.types import SchemaInput
    from toollens.toolsets import Tool

__all__ = [
    "add_diff_command",
    "run_diff",
]


_DIFF_EPILOG = f"""\
Compares an old tool with a new one and lists each change with its JSON pointer and
severity: breaking (a call that used to be valid may be rejected), compatible, or
description-only. Python targets are built with the same options on both sides; JSON
files are compared as written. With --provider, Python targets are compared as that
provider's tool payload; otherwise as toollens's function schema.

examples:
  toollens diff tools_v1:search tools_v2:search
  toollens diff old/tools.py:search tools.py:search --format json
  toollens diff search.tool.json tools:search --provider openai-chat
  # in CI: fail on a breaking change (2) or an error (3), let the rest pass
  git show main:tools.py > old_tools.py
  toollens diff old_tools.py:search tools.py:search || [ $? -eq 1 ]
  # the project's tools ([tool.toollens]) against toollens.lock.json, as PR annotations
  toollens diff --lock --format github

{TARGETS_HELP}

{EXIT_CODES_HELP}"""


def add_diff_command(command: Command, providers: tuple[str, ...]) -> None:
    # lazy: these commands' modules (~180 ms); `import toollens.cli` does not load them
    import toollens.cli.project as cli_project
    import toollens.cli.toolset as cli_toolset

    dif = command(
        "diff", "compare two versions of a tool; exit 2 on a breaking change", _DIFF_EPILOG
    )
    dif.add_argument("old", metavar="OLD", nargs="?", help="the old tool")
    dif.add_argument("new", metavar="NEW", nargs="?", help="the new tool")
    add_strictness(dif)
    dif.add_argument(
        "--provider",
        choices=providers,
        metavar="P",
        help="compare Python targets as this provider's payload: " + ", ".join(providers),
    )
    add_format(dif, "text", "github")
    cli_project.add_project_arguments(dif)
    cli_toolset.add_lock_arguments(dif)
    add_mcp_arguments(dif)
    dif.set_defaults(handler=run_diff)


def run_diff(args: argparse.Namespace) -> tuple[str, int]:
    # lazy: cli.project and core.diff (~140 ms); `import toollens.cli` does not load them
    import toollens.cli.project as cli_project
    from toollens.core.diff import diff

    if args.lock or args.update or args.old is None:  # no targets: the project's lock
        lock = cli_project.diff_lock(args, toolset_lock(args))
        if args.update or not lock.diff.changed:
            return lock.text, EXIT_OK
        return lock.text, EXIT_BREAKING if lock.diff.breaking else EXIT_CHANGED

    old_tool, new_tool = _source_tool(args.old, args, "OLD"), _source_tool(args.new, args, "NEW")
    result = diff(_side(args.old, old_tool, args, "OLD"), _side(args.new, new_tool, args, "NEW"))
    code = EXIT_BREAKING if result.breaking else EXIT_CHANGED if result.changes else EXIT_OK
    if args.format == "json":
        return dump(result.to_json()), code
    if args.format == "github":
        # lazy: the engine and the target resolver load only for --format github
        from toollens.render.diff_github import format_diff_github

        return format_diff_github(result, args.new, new_tool), code
    return format_diff(result, args.old, args.new), code


def _source_tool(text: str, args: argparse.Namespace, label: str) -> Tool | None:
    """The one tool a prefixed source names, read as ``check`` judges it."""
    # lazy: assess.diff_sides (~45 ms over `--help`), for a toolset side only
    from toollens.assess.diff_sides import source_tool

    options = mcp_options(args, cli_options(args, args.provider), text)
    return source_tool(text, options, label, cli_connect(args))


def _side(text: str, tool: Tool | None, args: argparse.Namespace, label: str) -> SchemaInput:
    """What one side compares: a source's tool as sent (or as ``--provider``'s payload of
    it), else the target's schema or payload (:func:`~toollens.cli.common.diff_side_of`)."""
    # lazy: assess.diff_sides (~45 ms over `--help`), for a toolset side only
    from toollens.assess.diff_sides import tool_side

    return diff_side_of(text, args, label) if tool is None else tool_side(tool, args.provider)
