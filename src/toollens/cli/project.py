"""The project side of the command line: the tool list, the lock, and GitHub annotations.

``toollens snapshot``, ``toollens diff --lock`` and every command run without a target read
the project's ``[tool.toollens]`` table; ``--format github`` turns findings and changes into
workflow-command annotations on the function (or parameter) they are about. ``toollens.cli``
registers the arguments through :func:`add_snapshot_command` and
:func:`add_project_arguments`, calls the functions here, and decides the exit codes; this
module never imports ``toollens.cli``, so the two do not form an import cycle.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from toollens.cli.connect import cli_connect
from toollens.project.config import command_config
from toollens.render.display import plural

if TYPE_CHECKING:
    from toollens.project.config import ProjectConfig
    from toollens.project.lock_report import LockReport
    from toollens.project.tools import ProjectTool

__all__ = [
    "SNAPSHOT_EPILOG",
    "add_project_arguments",
    "add_snapshot_command",
    "diff_lock",
    "write_snapshot",
]

SNAPSHOT_EPILOG = """\
Writes toollens.lock.json next to pyproject.toml: for every tool listed under
[tool.toollens], its name, description, parameters schema, output schema and the payload
of each configured provider. Commit it; `toollens diff --lock` then fails CI when what a
model receives changes without the lock changing in the same pull request.

examples:
  toollens snapshot
  toollens diff --lock                # 0 same, 1 compatible, 2 breaking, 3 error
  toollens diff --lock --update       # after review: rewrite the lock"""


# -- arguments ------------------------------------------------------------------------------


def add_snapshot_command(
    command: Callable[[str, str, str], argparse.ArgumentParser],
    strictness: Callable[[argparse.ArgumentParser], None],
    handler: Callable[[argparse.Namespace], tuple[str, int]],
) -> argparse.ArgumentParser:
    """Register ``toollens snapshot``."""
    snap = command("snapshot", "write toollens.lock.json for the project's tools", SNAPSHOT_EPILOG)
    strictness(snap)
    snap.set_defaults(handler=handler)
    return snap


def add_project_arguments(diff: argparse.ArgumentParser) -> None:
    """``--lock`` and ``--update`` for ``toollens diff``."""
    diff.add_argument(
        "--lock",
        action="store_true",
        help="compare the project's tools with toollens.lock.json (the default with no targets)",
    )
    diff.add_argument(
        "--update",
        action="store_true",
        help="with --lock: rewrite the lock after showing what changed (exit 0)",
    )
    diff.set_defaults(check=lambda args: _check_diff_arguments(diff, args))


def _check_diff_arguments(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.old is not None and args.new is None and not (args.lock or args.update):
        parser.error("the following arguments are required: NEW (or no target, for the lock)")
    if args.old is not None and (args.lock or args.update):
        parser.error("--lock and --update compare with the lock file; give no OLD or NEW")
    if args.old is None and args.provider is not None:
        parser.error(
            "--provider applies to OLD and NEW; the lock holds the providers under [tool.toollens]"
        )


# -- snapshot -------------------------------------------------------------------------------


def write_snapshot(
    args: argparse.Namespace, collected: tuple[ProjectConfig, tuple[ProjectTool, ...]] | None = None
) -> str:
    """Write the lock; say how many tools it holds.

    ``collected`` is (settings, tools) when the tools come from elsewhere than the project's
    table (``--toolset``).
    """
    # lazy: the lock and its report (~34 ms over `--help`), for `snapshot` only
    from toollens.project.lock import build_lock, collect_tools, dump_lock
    from toollens.project.lock_report import write_text

    strict = bool(getattr(args, "strict", True))
    config = command_config(strict) if collected is None else collected[0]
    tools = collect_tools(config, connect=cli_connect(args)) if collected is None else collected[1]
    write_text(config.lock_path, dump_lock(build_lock(tools)))
    names = ", ".join(sorted(t.name for t in tools))

    return f"wrote {config.lock_path.name}: {plural(len(tools), 'tool')} ({names})\n"


# -- diff --lock ------------------------------------------------------------------------------


def diff_lock(
    args: argparse.Namespace, collected: tuple[ProjectConfig, tuple[ProjectTool, ...]] | None = None
) -> LockReport:
    """Compare the tools with the lock (and rewrite it with ``--update``): the comparison
    and its text, made complete in :mod:`toollens.project.lock_report`. ``collected`` as
    for :func:`write_snapshot`."""
    # lazy: project.lock_report (~34 ms over `--help`), for a lock only
    from toollens.project.lock_report import diff_with_lock

    if collected is None:
        connect = cli_connect(args)
        config = command_config(args.strict)
        return diff_with_lock(config, args.format, update=args.update, connect=connect)
    config, tools = collected
    return diff_with_lock(config, args.format, update=args.update, tools=tools)
