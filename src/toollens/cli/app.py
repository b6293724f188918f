"""The ``toollens`` program: the parser, :func:`main`, and how an error is reported.

:func:`build_parser` puts every command's arguments together (each command module
registers its own); :func:`main` parses, runs the command's handler, writes its text and
returns its exit code, reporting any error in one line (``--debug``: the traceback).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, NoReturn

from toollens import __version__
from toollens.cli.check import add_check_command
from toollens.cli.common import (
    EXIT_CODES_HELP,
    EXIT_ERROR,
    EXIT_OK,
    TARGETS_HELP,
    add_format,
    add_strictness,
    provider_names,
)
from toollens.cli.compare import add_compare_command
from toollens.cli.connect import add_mcp_arguments, cli_connect
from toollens.cli.diff import add_diff_command
from toollens.cli.explain import add_explain_command
from toollens.cli.fix import add_fix_command
from toollens.cli.show import add_show_command
from toollens.cli.snapshot import run_snapshot
from toollens.core.errors import ToolLensError, one_line

if TYPE_CHECKING:
    from _typeshed import SupportsWrite


__all__ = [
    "build_parser",
    "main",
]


_MAIN_EPILOG = f"""\
examples:
  toollens show tools:search
  toollens show tools.py:search --view strict --format json
  toollens diff old/tools.py:search tools.py:search
  toollens check tools:search --provider openai-chat --provider gemini
  toollens compare tools:search --framework mcp --framework pydantic-ai

{TARGETS_HELP}

{EXIT_CODES_HELP}"""


class _Stop(Exception):
    """Raised by the parser instead of ``SystemExit``; carries the exit code."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that writes to the given streams and never exits the process.

    argparse's own usage-error status (2) would collide with diff's "breaking change", so
    usage errors exit with ``EXIT_ERROR``.
    """

    def __init__(self, *args: Any, streams: tuple[IO[str], IO[str]], **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)
        self._out, self._err = streams

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if message:
            (self._out if file is sys.stdout else self._err).write(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if message:
            self._err.write(message)
        raise _Stop(EXIT_OK if status == 0 else EXIT_ERROR)

    def error(self, message: str) -> NoReturn:
        self.print_usage(self._err)
        self.exit(EXIT_ERROR, f"{self.prog}: error: {message}\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed = super().parse_args(args, namespace)
        # A subcommand may check combinations argparse cannot express (diff: OLD without
        # NEW); its check reports through that subcommand's usage, exit 3.
        check: Callable[[argparse.Namespace], None] | None = getattr(parsed, "check", None)
        if check is not None:
            check(parsed)
        return parsed


def build_parser(stdout: IO[str], stderr: IO[str]) -> argparse.ArgumentParser:
    """The argument parser; help and usage errors go to ``stdout``/``stderr``."""
    # lazy: these commands' modules (~220 ms with what they import) load at parse, not at import
    import toollens.cli.project as cli_project
    import toollens.cli.roundtrip as cli_roundtrip
    import toollens.cli.static as cli_static
    import toollens.cli.tokens as cli_tokens
    import toollens.cli.toolset as cli_toolset

    streams = (stdout, stderr)
    providers = provider_names()

    # --debug is accepted before or after the subcommand; SUPPRESS keeps a subcommand's
    # absent flag from overwriting one given before it.
    debug = _Parser(add_help=False, streams=streams)
    debug.add_argument(
        "--debug",
        action="store_true",
        default=argparse.SUPPRESS,
        help="show the full traceback when something goes wrong",
    )

    parser = _Parser(
        prog="toollens",
        description="See what a model receives when a Python function becomes an LLM tool.",
        epilog=_MAIN_EPILOG,
        streams=streams,
        parents=[debug],
    )
    parser.add_argument("--version", action="version", version=f"toollens {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name: str, summary: str, epilog: str) -> argparse.ArgumentParser:
        return sub.add_parser(
            name,
            help=summary,
            description=summary,
            epilog=epilog,
            parents=[debug],
            streams=streams,
        )

    add_show_command(command, providers)
    add_diff_command(command, providers)
    add_check_command(command, providers)
    snapshot = cli_project.add_snapshot_command(command, add_strictness, run_snapshot)
    cli_toolset.add_lock_arguments(snapshot)
    cli_toolset.add_report_command(command, providers, add_strictness)
    add_mcp_arguments(snapshot)
    add_compare_command(command, add_format)  # the frameworks lens (block at the end)
    cli_static.add_static_command(command)
    cli_roundtrip.add_roundtrip_commands(command, add_format, providers)  # try, fuzz
    cli_tokens.add_tokens_command(command)
    add_explain_command(command)
    add_fix_command(command)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
) -> int:
    """Run the ``toollens`` command line and return its exit code.

    Args:
        argv: the arguments, without the program name; ``sys.argv[1:]`` when ``None``.
        stdout: where results and help go (``sys.stdout`` when ``None``).
        stderr: where errors go (``sys.stderr`` when ``None``).

    Returns:
        0, 1 or 2 as documented per command, or 3 when the command could not run.
    """
    out = sys.stdout if stdout is None else stdout
    err = sys.stderr if stderr is None else stderr
    args_list = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser(out, err).parse_args(args_list)
    except _Stop as stop:
        return stop.code
    debug = bool(getattr(args, "debug", False))
    handler: Callable[[argparse.Namespace], tuple[str, int]] = args.handler
    try:
        cli_connect(args)  # a bad --env/--timeout fails before the command starts anything
        text, code = handler(args)
    except Exception as exc:
        return _fail(exc, err, debug)
    try:
        out.write(text)
        out.flush()
    except BrokenPipeError:
        _silence_stdout(out)
    return code


def _fail(exc: Exception, err: IO[str], debug: bool) -> int:
    if debug:
        err.write("".join(traceback.format_exception(exc)))
    if isinstance(exc, ToolLensError):
        err.write(f"toollens: error: {one_line(exc)}\n")
    else:
        # A bug in toollens or an exception from user code the engine did not expect:
        # still one line, with the way to get the traceback.
        hint = "" if debug else " (rerun with --debug for the traceback)"
        err.write(f"toollens: error: {type(exc).__name__}: {one_line(exc)}{hint}\n")
    return EXIT_ERROR


def _silence_stdout(out: IO[str]) -> None:
    # The reader went away (`toollens show ... | head`): point stdout at devnull so the
    # interpreter's final flush does not print a second error.
    if out is sys.stdout:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
