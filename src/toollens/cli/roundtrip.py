"""``toollens try`` and ``toollens fuzz``: a model's call through a function, from a terminal.

``toollens.cli`` registers both through :func:`add_roundtrip_commands`; this module never imports
``toollens.cli``, so the two do not form an import cycle. Errors raised here (a bad target, a
schema the generator cannot use) reach ``cli.main``, which prints them in one line, exit 3.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from toollens.cli.connect import connect_options
from toollens.mcp.target import is_mcp_target
from toollens.roundtrip.calling import DEFAULT_TIMEOUT
from toollens.roundtrip.fuzzing import DEFAULT_FUZZ_TIMEOUT, FuzzPlan, fuzz

if TYPE_CHECKING:
    from toollens.roundtrip.records import FuzzReport

__all__ = [
    "EXIT_FUZZ",
    "EXIT_TRY",
    "FUZZ_EPILOG",
    "TRY_EPILOG",
    "add_roundtrip_commands",
    "run_fuzz",
    "run_try",
]

TRY_EPILOG = """\
Sends JSON arguments through the function as the OpenAI Agents SDK does for a model's call:
parse, validate (the SDK's error text and the JSON pointer), build the Python call, call it
(sync or async, with a timeout), and show what the model reads next.

examples:
  toollens try tools:get_weather '{"city": "Oslo", "days": 3}'
  toollens try tools.py:get_weather '{"days": 9}'            # rejected: exit 1
  toollens try tools:get_weather '{"city": "Oslo"}' --dry-run
  toollens try 'mcp:python server.py#get_weather' '{"city": "Oslo"}'   # a real tools/call

exit codes:
  0  the function returned (or, with --dry-run, the arguments were accepted)
  1  the arguments were rejected (not JSON, not an object, or not valid)
  2  the function raised, or ran past --timeout (an MCP tool: an isError result or a
     JSON-RPC error)
  3  the command could not run (usage error, bad target, an MCP server that fails)"""

FUZZ_EPILOG = """\
Generates arguments from the schema the model sees (Hypothesis; seeded), calls the function
with each, and reports one shrunk example per distinct failure: arguments the schema admits
that make the function raise or hang; arguments the schema admits that the function's own
validation rejects; with --invalid, arguments the schema forbids that the function accepts.

examples:
  toollens fuzz tools:get_weather
  toollens fuzz tools.py:get_weather -n 500 --seed 7 --provider gemini-openapi
  toollens fuzz tools:get_weather --invalid --dry-run --format json
  toollens fuzz 'mcp:python server.py#get_weather' -n 50   # real tools/call requests

An MCP tool is fuzzed over one server session, from its inputSchema as listed (--provider
and --no-strict apply to Python functions); an isError result or a JSON-RPC error is a
finding. --timeout bounds each call; start-up and tools/list get at least the MCP default.

exit codes:
  0  nothing found
  1  at least one finding
  3  the command could not run (usage error, bad target, a schema the generator cannot use)"""

EXIT_TRY = {"returned": 0, "not-run": 0, "rejected": 1, "raised": 2, "timed-out": 2}
EXIT_FUZZ = {False: 0, True: 1}

_Command = Callable[[str, str, str], argparse.ArgumentParser]


def add_roundtrip_commands(
    command: _Command,
    add_format: Callable[..., None],
    providers: tuple[str, ...],
) -> None:
    """Register ``toollens try`` and ``toollens fuzz``."""
    tried = command(
        "try", "call a tool with a model's JSON arguments; see what comes back", TRY_EPILOG
    )
    _add_call_target(tried)
    tried.add_argument("arguments", metavar="JSON", help="the arguments the model sent")
    _add_call_options(tried, DEFAULT_TIMEOUT, "validate and build the call without making it")
    add_format(tried, "text")
    tried.set_defaults(handler=run_try)

    fuzzed = command(
        "fuzz", "call a tool with generated arguments; report what breaks", FUZZ_EPILOG
    )
    fuzzed.add_argument(
        "target",
        metavar="TARGET",
        help="MODULE:FUNC, file.py:FUNC, MODULE or file.py (each of its functions, as check "
        "reads them) or mcp:COMMAND ARGS...#TOOL",
    )
    fuzzed.add_argument(
        "-n",
        type=_positive,
        default=100,
        metavar="N",
        help="arguments to draw (default: 100); the edge cases (each enum member, bound, "
        "null, empty and long string) are tried first, on top of them",
    )
    fuzzed.add_argument("--seed", type=int, default=0, metavar="S", help="seed (default: 0)")
    fuzzed.add_argument(
        "--provider",
        choices=providers,
        metavar="P",
        help="generate from this provider's schema: " + ", ".join(providers),
    )
    fuzzed.add_argument(
        "--invalid", action="store_true", help="also try arguments the schema forbids"
    )
    fuzzed.add_argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="generate from the non-strict schema",
    )
    _add_call_options(
        fuzzed, DEFAULT_FUZZ_TIMEOUT, "validate and build each call without making it"
    )
    add_format(fuzzed, "text")
    fuzzed.set_defaults(handler=run_fuzz)


def _add_call_target(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target", metavar="TARGET", help="MODULE:FUNC, file.py:FUNC or mcp:COMMAND ARGS...#TOOL"
    )


def _add_call_options(
    parser: argparse.ArgumentParser, default_timeout: float, dry_run_help: str
) -> None:
    """What both commands that call a tool take: each call's timeout, an ``mcp:`` server's
    environment, and a dry run."""
    parser.add_argument(
        "--timeout",
        type=_positive_float,
        default=default_timeout,
        metavar="S",
        help=f"seconds to wait for each call (default: {default_timeout:g})",
    )
    parser.add_argument(
        "--env", action="append", default=[], metavar="K=V", help="a variable for an mcp: server"
    )
    parser.add_argument("--dry-run", action="store_true", help=dry_run_help)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def run_try(args: argparse.Namespace) -> tuple[str, int]:
    # lazy: the round trip's formatting and targets (~5 ms over `--help`), for `try` only
    from toollens.roundtrip import formatting, try_call
    from toollens.targets import callable_target

    if is_mcp_target(args.target):  # a real tools/call; --timeout bounds start-up and tools/list
        # lazy: mcp.calling (~2 ms over `--help`), for an mcp: target only
        from toollens.mcp.calling import call_mcp_tool, one_tool

        spec = one_tool(args.target)
        options = connect_options(args)
        result = call_mcp_tool(
            spec, spec.tool or "", args.arguments, options=options, dry_run=args.dry_run
        )
    else:
        result = try_call(
            callable_target(args.target),
            args.arguments,
            timeout=args.timeout,
            dry_run=args.dry_run,
        )
    code = EXIT_TRY[result.status.value]
    if args.format == "json":
        return json.dumps(formatting.call_data(result), indent=2) + "\n", code
    return formatting.format_call(result), code


def run_fuzz(args: argparse.Namespace) -> tuple[str, int]:
    # lazy: assess.reading (~50 ms over `--help`), for `fuzz` only
    from toollens.assess.reading import target_functions
    from toollens.roundtrip import formatting

    if is_mcp_target(args.target):
        reports = [_fuzz_mcp(args)]
    else:
        reports = [_fuzz_function(func, args) for func in target_functions(args.target)]
    code = EXIT_FUZZ[any(report.findings for report in reports)]
    if args.format == "json":
        data = [formatting.fuzz_data(report) for report in reports]
        return json.dumps(data[0] if len(data) == 1 else data, indent=2) + "\n", code
    return "\n".join(formatting.format_fuzz(report) for report in reports), code


def _fuzz_function(func: object, args: argparse.Namespace) -> FuzzReport:
    return fuzz(
        func,
        n=args.n,
        seed=args.seed,
        provider=args.provider,
        invalid=args.invalid,
        timeout=args.timeout,
        dry_run=args.dry_run,
        strict=args.strict,
    )


def _fuzz_mcp(args: argparse.Namespace) -> FuzzReport:
    import dataclasses

    # lazy: mcp.fuzzing (~3 ms over `--help`), for an mcp: target only
    from toollens.mcp.fuzzing import fuzz_mcp_tool

    plan = FuzzPlan(
        n=args.n, seed=args.seed, invalid=args.invalid, timeout=args.timeout, dry_run=args.dry_run
    )
    # --timeout is each call's; a server's start-up gets at least the usual time.
    # per call, not hoisted: tests set toollens.mcp.DEFAULT_TIMEOUT (test_failure_policy.py)
    from toollens.mcp import DEFAULT_TIMEOUT as MCP_DEFAULT_TIMEOUT

    startup = max(args.timeout, MCP_DEFAULT_TIMEOUT)
    options = dataclasses.replace(connect_options(args), timeout=startup)
    return fuzz_mcp_tool(args.target, plan, options=options, provider=args.provider)
