"""What every command shares: exit codes, help texts, common arguments, loading a target.

The exit codes (``EXIT_*``) and the help text every command repeats, the ``--no-strict``
and ``--format`` arguments, and the steps from a target's text to its report:
:func:`load` (the object a target names), :func:`options` (the ``ReportOptions`` a command
line asks for), :func:`report_of` (the report, a provider payload's name kept).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from toollens.cli.connect import cli_connect
from toollens.cli.defaults import mcp_options  # the one strictness rule, for every command
from toollens.core.choices import DEFAULT_PROVIDER, provider_id

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from toollens.core.report import OptionOverrides, Report, ReportOptions
    from toollens.core.schema.types import SchemaInput
    from toollens.project.config import ProjectConfig
    from toollens.project.tools import ProjectTool

__all__ = [
    "ALL_PROVIDERS",
    "EXIT_BREAKING",
    "EXIT_CHANGED",
    "EXIT_CODES_HELP",
    "EXIT_ERROR",
    "EXIT_FINDINGS",
    "EXIT_OK",
    "TARGETS_HELP",
    "TARGET_HELP",
    "Command",
    "add_context_types",
    "add_format",
    "add_strictness",
    "cli_options",
    "context_types",
    "diff_side_of",
    "load",
    "mcp_options",
    "provider_names",
    "report_of",
    "toolset_lock",
]


EXIT_OK = 0  # success; diff: no change; check: no error finding


EXIT_CHANGED = 1  # diff: only compatible or description-only changes


EXIT_FINDINGS = 1  # check: at least one error finding


EXIT_BREAKING = 2  # diff: at least one breaking change


EXIT_ERROR = 3  # the command could not run: usage error, bad target, unreadable file


ALL_PROVIDERS = "all"  # `check --provider all`: every provider in the table


EXIT_CODES_HELP = """\
exit codes:
  0  success (diff: no changes; check: no error findings)
  1  diff: only compatible or description-only changes; check: an error finding
  2  diff: at least one breaking change
  3  the command could not run (usage error, bad target, unreadable file)"""


TARGETS_HELP = """\
targets:
  MODULE:FUNC          import MODULE (the working directory is importable) and take
                       FUNC; dotted paths work: pkg.tools:Search.lookup for a
                       static or class method (an instance method needs an
                       instance: name one, e.g. search = Search().run)
  path/to/file.py:FUNC load the file as a module and take FUNC
  path/to/file.json    a JSON Schema, or a provider tool payload
  mcp:COMMAND ARGS...  every tool of an MCP server started over stdio; mcp:URL for a
                       streamable-HTTP server; #TOOL at the end for one tool"""


TARGET_HELP = (
    "MODULE:FUNC, file.py:FUNC or file.json; without it, every tool under "
    "[tool.toollens] in pyproject.toml"
)


Command = Callable[[str, str, str], argparse.ArgumentParser]


def add_strictness(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="skip strict conversion (OpenAI strict mode); a provider payload is judged as "
        "strict as its provider sends it (its own strict, else the provider's default)",
    )


def add_context_types(p: argparse.ArgumentParser) -> None:
    """``--context-type MODULE:CLASS``: what ``context_types=`` is in Python."""
    p.add_argument(
        "--context-type",
        dest="context_types",
        action="append",
        default=[],
        metavar="MODULE:CLASS",
        help="a class an agent framework injects as the first parameter (a run context: not "
        "in the schema); repeat for several. The OpenAI Agents SDK's and pydantic-ai's are "
        "known already",
    )


def context_types(args: argparse.Namespace) -> tuple[type, ...]:
    """The classes ``--context-type`` names (:func:`toollens.targets.resolve_context_types`).

    Raises:
        TargetError: one does not import, or is not a class.
    """
    # lazy: toollens.targets (~4 ms over `--help`), for --context-type only
    from toollens.targets import resolve_context_types

    return resolve_context_types(getattr(args, "context_types", None) or ())


def add_format(p: argparse.ArgumentParser, default: str, *more: str) -> None:
    p.add_argument(
        "--format",
        choices=("text", "json", *more),
        default=default,
        help=f"output format (default: {default})",
    )


def provider_names() -> tuple[str, ...]:
    # lazy: the provider table (~115 ms); `import toollens.cli` does not load it
    from toollens.core.providers import PROVIDERS

    return tuple(PROVIDERS)


def load(text: str) -> object:
    """The object a target names; a provider payload in a JSON file becomes its schema."""
    # lazy: toollens.targets (~4 ms over `--help`) loads when a target is read
    from toollens.targets import resolve_target

    return resolve_target(text)


def default_provider(args: argparse.Namespace) -> str:
    """The provider a command judges for when none is asked (a payload file's own)."""
    # lazy: toollens.assess (~45 ms over `--help`) loads when a command runs
    from toollens.assess.options import default_provider as provider_of

    return provider_of(getattr(args, "target", None))


def cli_options(
    args: argparse.Namespace, asked: str | None, **overrides: Unpack[OptionOverrides]
) -> ReportOptions:
    """The report options a command line asks for: ``--strict``, a provider, and the
    other ``overrides`` (name, description, docstring style)."""
    # lazy: core.report brings pydantic (~90 ms); `import toollens.cli` does not load it
    from toollens.core.report import ReportOptions

    chosen = provider_id(asked) if asked else DEFAULT_PROVIDER
    base = ReportOptions(
        strict=args.strict,
        provider=chosen,
        context_types=context_types(args),
        mcp_revision=getattr(args, "mcp_revision", None),
    )
    return dataclasses.replace(base, **overrides)


def report_of(target_text: str, options: ReportOptions) -> Report:
    """The report of a target; a provider payload in a JSON file gives its name and description."""
    # lazy: toollens.assess (~50 ms over `--help`) loads when a command runs
    from toollens.assess.reading import report_of as assessed_report

    return assessed_report(target_text, options)


def diff_side_of(text: str, args: argparse.Namespace, label: str) -> SchemaInput:
    """What one side of a diff compares: a JSON file as written, else only the schema (or
    the provider's payload) of the target, computed alone."""
    # lazy: core.diff.sides (~0.6 ms), for `toollens diff` only (not at `--help`)
    from toollens.core.diff.sides import diff_side

    target = load(text)
    if isinstance(target, dict):
        return target
    options = mcp_options(args, cli_options(args, args.provider), text)
    return diff_side(target, options, label=f"{label} {text!r}", payload=args.provider is not None)


def toolset_lock(
    args: argparse.Namespace,
) -> tuple[ProjectConfig, tuple[ProjectTool, ...]] | None:
    """(settings, tools) of ``--toolset SOURCE``; ``None`` for the project's table."""
    # lazy: assess.lock and project.config (~55 ms over `--help`), for a lock only
    from toollens.assess.lock import lock_tools
    from toollens.project.config import toolset_lock_config

    source = getattr(args, "toolset", None)
    if not source:
        return None
    config = toolset_lock_config(bool(getattr(args, "strict", True)))
    return config, lock_tools(source, config, cli_connect(args))
