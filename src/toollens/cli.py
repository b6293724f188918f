"""The ``toollens`` command line: show, diff and check tool schemas from a terminal or CI.

Every subcommand builds :func:`toollens.core.report.report` objects and formats them; no
schema is computed here. Formatters return strings; :func:`main` writes them and returns
the exit code, so tests call ``main([...], stdout=..., stderr=...)``.

Importing this module stays light: the engine, the renderers and the provider table are
imported when a command runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import IO, TYPE_CHECKING, Any, NoReturn

from toollens.core.checks import ToolCheck
from toollens.core.choices import DEFAULT_PROVIDER, DOCSTRING_STYLES, provider_id
from toollens.core.errors import one_line
from toollens.core.records import SEVERITY_ORDER, Finding

if TYPE_CHECKING:
    from _typeshed import SupportsWrite
    from typing_extensions import Unpack

    from toollens.core.diff import SchemaDiff
    from toollens.core.providers import ProviderVerdict
    from toollens.core.report import OptionOverrides, Report, ReportOptions
    from toollens.core.schema.types import JsonObject, SchemaInput
    from toollens.frameworks.compare import Comparison

__all__ = [
    "EXIT_BREAKING",
    "EXIT_CHANGED",
    "EXIT_ERROR",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "build_parser",
    "main",
]

EXIT_OK = 0  # success; diff: no change; check: no error finding
EXIT_CHANGED = 1  # diff: only compatible or description-only changes
EXIT_FINDINGS = 1  # check: at least one error finding
EXIT_BREAKING = 2  # diff: at least one breaking change
EXIT_ERROR = 3  # the command could not run: usage error, bad target, unreadable file

ALL_PROVIDERS = "all"  # `check --provider all`: every provider in the table

_EXIT_CODES = """\
exit codes:
  0  success (diff: no changes; check: no error findings)
  1  diff: only compatible or description-only changes; check: an error finding
  2  diff: at least one breaking change
  3  the command could not run (usage error, bad target, unreadable file)"""

_TARGETS = """\
targets:
  MODULE:FUNC          import MODULE (the working directory is importable) and take
                       FUNC; dotted paths work: pkg.tools:Search.lookup for a
                       static or class method (an instance method needs an
                       instance: name one, e.g. search = Search().run)
  path/to/file.py:FUNC load the file as a module and take FUNC
  path/to/file.json    a JSON Schema, or a provider tool payload
  mcp:COMMAND ARGS...  every tool of an MCP server started over stdio; mcp:URL for a
                       streamable-HTTP server; #TOOL at the end for one tool"""

_TARGET_HELP = (
    "MODULE:FUNC, file.py:FUNC or file.json; without it, every tool under "
    "[tool.toollens] in pyproject.toml"
)

_MAIN_EPILOG = f"""\
examples:
  toollens show tools:search
  toollens show tools.py:search --view strict --format json
  toollens diff old/tools.py:search tools.py:search
  toollens check tools:search --provider openai-chat --provider gemini
  toollens compare tools:search --framework mcp --framework pydantic-ai

{_TARGETS}

{_EXIT_CODES}"""

_SHOW_EPILOG = f"""\
Prints the views the explorer shows, from one report: the signature, each parameter's
merged metadata and where it came from, the schema before (raw) and after strict
conversion, the output schema, and the provider's tool payload.

examples:
  toollens show tools:search
  toollens show tools.py:search --view strict
  toollens show tools.py:search --view provider --provider anthropic --format json
  toollens show schema.json --no-strict --view raw

{_TARGETS}

{_EXIT_CODES}"""

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

{_TARGETS}

{_EXIT_CODES}"""

_CHECK_EPILOG = f"""\
Prints lint findings (pitfalls in the tool) and, for each provider, what that provider
would reject or mishandle. Exits 1 when any finding is an error, or a view cannot be
built (e.g. the schema cannot be made strict), so CI can gate on it.

examples:
  toollens check tools:search
  toollens check tools.py:search --provider openai-chat --provider anthropic
  toollens check schema.json --no-strict --format json
  toollens check --format github    # every tool under [tool.toollens], as PR annotations

{_TARGETS}

{_EXIT_CODES}"""


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
    from toollens import (
        __version__,
        cli_mcp,
        cli_project,
        cli_roundtrip,
        cli_static,
        cli_tokens,
        cli_toolset,
    )

    streams = (stdout, stderr)
    providers = _provider_names()

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

    _add_show_command(command, providers)
    _add_diff_command(command, providers)
    _add_check_command(command, providers)
    snapshot = cli_project.add_snapshot_command(command, _add_strictness, _run_snapshot)
    cli_toolset.add_lock_arguments(snapshot)
    cli_toolset.add_report_command(command, providers, _add_strictness)
    cli_mcp.add_mcp_arguments(snapshot)
    _add_compare_command(command, _add_format)  # the frameworks lens (block at the end)
    cli_static.add_static_command(command)
    cli_roundtrip.add_roundtrip_commands(command, _add_format, providers)  # try, fuzz
    cli_tokens.add_tokens_command(command)
    return parser


_Command = Callable[[str, str, str], argparse.ArgumentParser]


def _add_strictness(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="skip strict conversion (OpenAI strict mode)",
    )


def _add_format(p: argparse.ArgumentParser, default: str, *more: str) -> None:
    p.add_argument(
        "--format",
        choices=("text", "json", *more),
        default=default,
        help=f"output format (default: {default})",
    )


def _add_show_command(command: _Command, providers: tuple[str, ...]) -> None:
    from toollens import cli_mcp
    from toollens.render.text import VIEWS as views

    show = command("show", "print the views of one tool (what the model receives)", _SHOW_EPILOG)
    show.add_argument("target", metavar="TARGET", nargs="?", help=_TARGET_HELP)
    show.add_argument(
        "--view",
        choices=(*(str(v) for v in views), "all"),
        default="all",
        help="which view to print (default: all)",
    )
    show.add_argument(
        "--provider",
        choices=providers,
        default=DEFAULT_PROVIDER,
        metavar="P",
        help=f"provider for the payload and findings: {', '.join(providers)} "
        f"(default: {DEFAULT_PROVIDER})",
    )
    _add_strictness(show)
    show.add_argument(
        "--style",
        choices=DOCSTRING_STYLES,
        metavar="S",
        help="docstring style: google, numpy or sphinx (default: detected)",
    )
    show.add_argument("--name", metavar="N", help="override the tool name")
    show.add_argument("--description", metavar="D", help="override the tool description")
    _add_format(show, "text")
    cli_mcp.add_mcp_arguments(show)
    show.set_defaults(handler=_run_show)


def _add_diff_command(command: _Command, providers: tuple[str, ...]) -> None:
    from toollens import cli_mcp, cli_project, cli_toolset

    dif = command(
        "diff", "compare two versions of a tool; exit 2 on a breaking change", _DIFF_EPILOG
    )
    dif.add_argument("old", metavar="OLD", nargs="?", help="the old tool")
    dif.add_argument("new", metavar="NEW", nargs="?", help="the new tool")
    _add_strictness(dif)
    dif.add_argument(
        "--provider",
        choices=providers,
        metavar="P",
        help="compare Python targets as this provider's payload: " + ", ".join(providers),
    )
    _add_format(dif, "text", "github")
    cli_project.add_project_arguments(dif)
    cli_toolset.add_lock_arguments(dif)
    cli_mcp.add_mcp_arguments(dif)
    dif.set_defaults(handler=_run_diff)


def _add_check_command(command: _Command, providers: tuple[str, ...]) -> None:
    from toollens import cli_mcp, cli_toolset

    check = command("check", "lint a tool and check it against providers", _CHECK_EPILOG)
    check.add_argument("target", metavar="TARGET", nargs="?", help=_TARGET_HELP)
    check.add_argument(
        "--provider",
        dest="providers",
        action="append",
        choices=(*providers, ALL_PROVIDERS),
        metavar="P",
        help=f"a provider to check against; repeat for several: {', '.join(providers)}, "
        f"or {ALL_PROVIDERS} for every one (default: {DEFAULT_PROVIDER})",
    )
    _add_strictness(check)
    _add_format(check, "text", "github")
    cli_toolset.add_check_arguments(check)
    cli_mcp.add_mcp_arguments(check)
    from toollens import cli_tokens

    cli_tokens.add_budget_arguments(check)
    check.set_defaults(handler=cli_tokens.with_budget(_run_check))


def _provider_names() -> tuple[str, ...]:
    from toollens.core.providers import PROVIDERS

    return tuple(PROVIDERS)


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
        from toollens.cli_mcp import connection

        with connection(args):  # --env/--timeout for every mcp: server the command starts
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
    from toollens.core.errors import ToolLensError

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


# -- shared -------------------------------------------------------------------------------


def _dump(value: Any) -> str:
    return json.dumps(value, indent=2) + "\n"


def _load(text: str) -> Any:
    """The object a target names; a provider payload in a JSON file becomes its schema."""
    from toollens.targets import resolve_target

    return resolve_target(text)


def _options(
    args: argparse.Namespace, asked: str | None, **overrides: Unpack[OptionOverrides]
) -> ReportOptions:
    """The report options a command line asks for: ``--strict``, a provider, and the
    other ``overrides`` (name, description, docstring style)."""
    from toollens.core.report import ReportOptions

    chosen = provider_id(asked) if asked else DEFAULT_PROVIDER
    return dataclasses.replace(ReportOptions(strict=args.strict, provider=chosen), **overrides)


def _report(target_text: str, options: ReportOptions) -> Any:
    """The report of a target; a provider payload in a JSON file gives its name and description."""
    from toollens.core.report import report
    from toollens.targets import unwrap_payload

    target = _load(target_text)
    if isinstance(target, dict):
        payload = unwrap_payload(target)
        if payload is not None:
            target = payload.schema
            options = dataclasses.replace(
                options,
                name=options.name or payload.name,
                description=options.description or payload.description,
            )
    return report(target, options)


def _mcp_parts() -> Any:
    """The formatters ``mcp:`` targets are shown with (see ``toollens.cli_mcp``)."""
    from toollens.cli_mcp import CliParts

    return CliParts(format_show, _diff_side, format_diff)


# -- show -----------------------------------------------------------------------------------


def _run_show(args: argparse.Namespace) -> tuple[str, int]:
    from toollens import cli_mcp, cli_toolset

    if cli_mcp.is_mcp(args.target):
        return cli_mcp.run_show(args, _mcp_parts())
    if args.target is not None and cli_toolset.is_toolset_source(args.target):
        from toollens.cli_project import join_shown

        options = _options(args, args.provider, docstring_style=args.style)
        reports = cli_toolset.toolset_reports(args.target, options)
        return join_shown([format_show(r, args.view, args.format) for r in reports], args.format), 0
    if args.target is None:  # every tool of the project
        from toollens.cli_project import join_shown, project_reports

        items = project_reports(args, [args.provider], style=args.style)
        shown = [format_show(reports[0], args.view, args.format) for reports, _ in items]
        return join_shown(shown, args.format), EXIT_OK
    options = _options(
        args,
        args.provider,
        name=args.name,
        description=args.description,
        docstring_style=args.style,
    )
    rep = _report(args.target, options)
    return format_show(rep, args.view, args.format), EXIT_OK


def format_show(rep: Report, view: str, fmt: str) -> str:
    """One view (or all of them) of a report, as the explorer shows it."""
    from toollens.render.text import render_text, render_view

    if view != "all":
        return _ensure_newline(render_view(rep, view, fmt))
    if fmt == "text":
        return _ensure_newline(render_text(rep))
    return _dump(show_all_data(rep))


def show_all_data(rep: Report) -> JsonObject:
    """Every view that applies to the report, each exactly as the library returns it.

    A view that does not apply to the target (``signature`` of a JSON schema) or that
    failed (``strict`` of an open mapping) is left out of ``views`` and its message is
    under ``view_errors``, so one bad view does not hide the others.
    """
    from toollens.core.errors import ToolLensError
    from toollens.render.text import VIEWS as views
    from toollens.render.text import view_data

    data: dict[str, Any] = {}
    errors: dict[str, str] = dict(rep.view_errors)
    for view in views:
        try:
            data[view] = view_data(rep, view)
        except ToolLensError as exc:
            errors.setdefault(view, str(exc))
    return {
        "title": rep.title,
        "target_kind": rep.target_kind,
        "strict": rep.options.strict,
        "provider": rep.provider,
        "views": data,
        "lint": [f.to_json() for f in rep.lint],
        "provider_findings": [f.to_json() for f in rep.provider_findings],
        "view_errors": errors,
    }


def _ensure_newline(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


# -- diff -----------------------------------------------------------------------------------


def _run_diff(args: argparse.Namespace) -> tuple[str, int]:
    from toollens import cli_project
    from toollens.core.diff import diff

    if args.lock or args.update or args.old is None:  # no targets: the project's lock
        lock = cli_project.diff_lock(args, _toolset_lock(args))
        if args.update or not lock.diff.changed:
            return lock.text, EXIT_OK
        return lock.text, EXIT_BREAKING if lock.diff.breaking else EXIT_CHANGED

    from toollens import cli_mcp

    if cli_mcp.is_mcp(args.old) or cli_mcp.is_mcp(args.new):
        return cli_mcp.run_diff(args, _mcp_parts())
    old = _diff_side(args.old, args, "OLD")
    new = _diff_side(args.new, args, "NEW")
    result = diff(old, new)
    code = EXIT_BREAKING if result.breaking else EXIT_CHANGED if result.changes else EXIT_OK
    if args.format == "json":
        return _dump(result.to_json()), code
    if args.format == "github":
        return cli_project.format_diff_github(result, args.new), code
    return format_diff(result, args.old, args.new), code


def _diff_side(text: str, args: argparse.Namespace, label: str) -> SchemaInput:
    """What one side of a diff compares: a JSON file as written, else only the schema (or
    the provider's payload) of the target, computed alone."""
    from toollens.core.diff.sides import diff_side

    target = _load(text)
    if isinstance(target, dict):
        return target
    options = _options(args, args.provider)
    return diff_side(target, options, label=f"{label} {text!r}", payload=args.provider is not None)


def format_diff(result: SchemaDiff, old: str, new: str) -> str:
    """The change list under a header naming both sides."""
    return f"{old} -> {new}\n{result}\n"


# -- check ----------------------------------------------------------------------------------


def _run_check(args: argparse.Namespace) -> tuple[str, int]:
    asked = args.providers or [DEFAULT_PROVIDER]
    if ALL_PROVIDERS in asked:
        asked = [p for p in asked if p != ALL_PROVIDERS] + list(_provider_names())
    providers = list(dict.fromkeys(asked))
    from toollens import cli_toolset

    if cli_toolset.wants_toolset(args):  # a module, an agent, a tool list: the whole toolset
        hooks = cli_toolset.CheckHooks(ToolCheck.from_reports, finding_to_dict, _options)
        return cli_toolset.run_toolset_check(args, providers, hooks)
    if args.target is None or args.format == "github":  # project list, or annotations
        return _run_checks(args, providers)
    reports = [_report(args.target, _options(args, p)) for p in providers]
    result = ToolCheck.from_reports(reports)
    code = EXIT_FINDINGS if result.errors else EXIT_OK
    if args.format == "json":
        return _dump(result.to_json()), code
    return format_check(result), code


def _run_checks(args: argparse.Namespace, providers: list[str]) -> tuple[str, int]:
    """``check`` over the project's tools (no target), or any check as GitHub annotations."""
    from toollens import cli_project

    if args.target is None:
        items = cli_project.project_reports(args, providers if args.providers else None)
    else:
        reports = tuple(_report(args.target, _options(args, p)) for p in providers)
        items = ((reports, reports[0].target),)
    results = [
        (ToolCheck.from_reports(reports), obj, reports[0].function) for reports, obj in items
    ]
    code = EXIT_FINDINGS if any(r.errors for r, _, _ in results) else EXIT_OK
    if args.format == "json":
        return _dump({"tools": [r.to_json() for r, _, _ in results]}), code
    if args.format == "text":
        return "".join(format_check(r) for r, _, _ in results), code
    return cli_project.format_checks_github(results, args.target), code


def _run_snapshot(args: argparse.Namespace) -> tuple[str, int]:
    from toollens.cli_project import write_snapshot

    return write_snapshot(args, _toolset_lock(args)), EXIT_OK


def _toolset_lock(args: argparse.Namespace) -> tuple[Any, Any] | None:
    """(settings, tools) of ``--toolset SOURCE``; ``None`` for the project's table."""
    from toollens.cli_toolset import lock_collection

    return lock_collection(args)


def finding_to_dict(finding: Finding) -> JsonObject:
    """A Finding as JSON data (``Finding.to_json``; the former name, kept for callers)."""
    return finding.to_json()


def verdict_to_dict(verdict: ProviderVerdict) -> JsonObject:
    """A provider's verdict as JSON data (``ProviderVerdict.to_json``; the former name)."""
    return verdict.to_json()


def format_check(result: ToolCheck) -> str:
    """Findings grouped by checker, worst first within each group, then a summary."""
    lines = [f"{result.title}: {_check_summary(result)}"]
    for view, message in result.view_errors.items():
        lines.append(f"  error[view.{view}]: {message}")
    groups = [("lint", result.lint), *result.providers.items()]
    for label, findings in groups:
        lines.append(f"{label}:")
        verdict = result.verdicts.get(label) if label != "lint" else None
        if verdict is not None:
            from toollens.render.verdict import verdict_lines

            lines.extend("  " + line for line in verdict_lines(verdict))
        if label in result.unchecked:  # no payload to check: say so, not "no findings"
            lines.append(f"  not checked: {result.unchecked[label]}")
        elif not findings:
            lines.append("  no findings")
        same = _explained(result.lint, findings) if label != "lint" else {}
        for f in sorted(findings, key=_severity_rank):
            lines.append(_finding_lines(f))
            if id(f) in same:
                lines.append(f"      same problem as {same[id(f)]} above (counted once)")
    return "\n".join(lines) + "\n"


def _explained(lint: Sequence[Any], findings: Sequence[Any]) -> dict[int, str]:
    """Provider findings that explain a lint finding: ``{id(finding): lint rule}``."""
    from toollens.core.problems import group_findings

    angles, _ = group_findings(lint, findings)
    return {id(f): str(lint[i].rule) for i, found in angles.items() for f in found}


def _finding_lines(finding: Finding) -> str:
    head = f"  {finding.headline}"
    return f"{head}\n      fix: {finding.fix}" if finding.fix else head


def _severity_rank(finding: Finding) -> int:
    return SEVERITY_ORDER.index(finding.severity)


def _check_summary(result: ToolCheck) -> str:
    parts = [
        f"{n} {severity.value}{'' if n == 1 else 's'}"
        for severity, n in result.counts().items()
        if n
    ]
    if result.view_errors:
        n = len(result.view_errors)
        parts.append(f"{n} view error{'' if n == 1 else 's'}")
    return ", ".join(parts) if parts else "no findings"


# -- compare (the frameworks lens) ----------------------------------------------------------

_COMPARE_EPILOG = """\
Hands the function to each framework's own API (OpenAI Agents SDK, pydantic-ai, LangChain,
the MCP SDK, FastMCP, the Anthropic and Google GenAI SDKs; whichever are installed: pip
install toollens[frameworks]) and shows what each would send, a per-parameter matrix of
where they disagree, and each schema's diff against toollens's reference view. The exit
code gates on the frameworks agreeing with each other (title keys are ignored; with one
framework, it is compared with toollens's reference view).

examples:
  toollens compare tools:search
  toollens compare tools.py:search --framework mcp --framework openai-agents
  toollens compare tools:search --format json

exit codes:
  0  every framework sends the same schema
  1  only compatible or description-only differences
  2  a breaking difference between two frameworks, or a framework refuses the function
  3  the command could not run (bad target, a requested framework not installed)"""


def _add_compare_command(command: Callable[..., Any], output_format: Callable[..., Any]) -> None:
    from toollens.frameworks import names

    frameworks = names()
    cmp = command(
        "compare",
        "what each framework sends for one function, and where they differ",
        _COMPARE_EPILOG,
    )
    cmp.add_argument(
        "target",
        metavar="TARGET",
        nargs="?",
        help="MODULE:FUNC or file.py:FUNC; without it, every tool under [tool.toollens], "
        "with its frameworks list",
    )
    cmp.add_argument(
        "--framework",
        dest="frameworks",
        action="append",
        choices=frameworks,
        metavar="NAME",
        help=f"a framework to compare; repeat for several: {', '.join(frameworks)} "
        "(default: every installed one)",
    )
    output_format(cmp, "text")
    cmp.set_defaults(handler=_run_compare)


def _run_compare(args: argparse.Namespace) -> tuple[str, int]:
    frameworks: Sequence[str] = ()
    if args.target is None:  # every tool of the project, with the table's frameworks
        from toollens.cli_project import project_tools

        items, frameworks = project_tools(args)
    else:
        items = ((args.target, _load(args.target)),)
    outcomes = [_compare_one(label, obj, args.frameworks or frameworks) for label, obj in items]
    code = max(code for _, code in outcomes)  # 0 < 1 < 2: the worst disagreement
    if args.format == "json":
        data = [result.to_json() for result, _ in outcomes]
        return _dump(data if args.target is None else data[0]), code
    return "\n".join(format_compare(result) for result, _ in outcomes), code


def _compare_one(label: str, target: Any, frameworks: Sequence[str]) -> tuple[Any, int]:
    from toollens.core.diff import DiffSeverity
    from toollens.core.errors import TargetError
    from toollens.frameworks import installed
    from toollens.frameworks.compare import compare

    if not callable(target) or isinstance(target, type):
        raise TargetError(
            f"{label} is a {type(target).__name__}, not a function",
            hint="compare takes MODULE:FUNC or file.py:FUNC",
        )
    wanted = list(frameworks) or installed()
    missing = [name for name in wanted if name not in installed(wanted)]
    if missing:
        raise TargetError(
            f"framework not installed: {', '.join(missing)}",
            hint="pip install 'toollens[frameworks]', or leave it out",
        )
    if not wanted:
        raise TargetError("no framework is installed", hint="pip install 'toollens[frameworks]'")
    result = compare(target, wanted)
    if len(result.gate_pairs()) < 2 and not result.refused:
        # One framework and no reference view (toollens refuses the function): nothing to
        # gate on, and "0: they agree" would be a claim nobody checked.
        raise TargetError(
            f"nothing to compare {wanted[0]} with: {result.reference_error}",
            hint="name a second framework with --framework",
        )
    agreement = result.agreement
    code = (
        EXIT_OK
        if agreement is None
        else EXIT_BREAKING
        if agreement is DiffSeverity.BREAKING
        else EXIT_CHANGED
    )
    return result, code


def format_compare(result: Comparison) -> str:
    """The comparison as text, then the breaking differences that set the exit code."""
    from toollens.core.diff import DiffSeverity
    from toollens.render.frameworks import comparison_text

    text = comparison_text(result)
    breaking = [
        f"  {a} -> {b}: {c.where} {c.keyword}: {c.message}"
        for a, b, c in result.iter_pair_changes()
        if c.severity is DiffSeverity.BREAKING
    ]
    if breaking:
        text += "\nbreaking differences between frameworks\n" + "\n".join(breaking) + "\n"
    return text
