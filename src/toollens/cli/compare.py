"""``toollens compare``: what each framework sends for one function, and where they differ."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from toollens.cli.common import EXIT_BREAKING, EXIT_CHANGED, EXIT_OK, Command, load
from toollens.render.formats import dump

if TYPE_CHECKING:
    from toollens.frameworks.compare import Comparison

__all__ = [
    "add_compare_command",
    "format_compare",
    "run_compare",
]


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


def add_compare_command(
    command: Command, output_format: Callable[[argparse.ArgumentParser, str], None]
) -> None:
    # lazy: toollens.frameworks (~38 ms); `import toollens.cli` does not load it
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
    cmp.set_defaults(handler=run_compare)


def run_compare(args: argparse.Namespace) -> tuple[str, int]:
    frameworks: Sequence[str] = ()
    if args.target is None:  # every tool of the project, with the table's frameworks
        # lazy: the project readers (~20 ms over `--help`), for `compare` only
        from toollens.project.config import command_config
        from toollens.project.source import project_functions

        config = command_config()  # compare has no --no-strict, nor --env/--timeout
        items, frameworks = project_functions(config), config.frameworks
    else:
        items = ((args.target, load(args.target)),)
    outcomes = [_compare_one(label, obj, args.frameworks or frameworks) for label, obj in items]
    code = max(code for _, code in outcomes)  # 0 < 1 < 2: the worst disagreement
    if args.format == "json":
        data = [result.to_json() for result, _ in outcomes]
        return dump(data if args.target is None else data[0]), code
    return "\n".join(format_compare(result) for result, _ in outcomes), code


def _compare_one(label: str, target: object, frameworks: Sequence[str]) -> tuple[Any, int]:
    # lazy: core.diff and frameworks.compare (~7 ms over `--help`), for `compare` only
    from toollens.core.diff import DiffSeverity
    from toollens.frameworks.compare import gated_compare

    result = gated_compare(label, target, frameworks)
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
    # lazy: core.diff and render.frameworks (~2 ms over `--help`), for `compare` only
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
