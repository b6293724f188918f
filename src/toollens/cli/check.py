"""``toollens check``: lint a tool and check it against providers; exit 1 on an error.

:func:`check_result` reads what the command line names once and computes everything the
command says (:class:`toollens.cli.check_result.CheckResult`: each tool's
:class:`toollens.core.checks.ToolCheck`, the findings across tools, the clients' verdicts
and costs, the token budgets and description limits); :func:`run_check` formats it once.
One tool's text is :func:`format_check`, its JSON the records' own ``to_json()``.
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from toollens.cli.check_text import format_check
from toollens.cli.common import (
    ALL_PROVIDERS,
    EXIT_CODES_HELP,
    EXIT_FINDINGS,
    EXIT_OK,
    TARGET_HELP,
    TARGETS_HELP,
    Command,
    add_context_types,
    add_format,
    add_strictness,
    cli_options,
    default_provider,
    provider_names,
    report_of,
)
from toollens.cli.connect import cli_connect
from toollens.core.checks import ToolCheck
from toollens.core.choices import DEFAULT_PROVIDER
from toollens.core.records import Finding

if TYPE_CHECKING:
    from toollens.cli.check_result import CheckResult, Counted
    from toollens.cli.tokens import Budget
    from toollens.core.providers import ProviderVerdict
    from toollens.core.schema.types import JsonObject
    from toollens.tokens.tooldefs import CountableTool
    from toollens.toolsets import Toolset

__all__ = [
    "add_check_command",
    "check_result",
    "finding_to_dict",
    "format_check",
    "run_check",
    "verdict_to_dict",
]


_CHECK_EPILOG = f"""\
Prints lint findings (pitfalls in the tool) and, for each provider, what that provider
would reject or mishandle. Exits 1 when any finding is an error, or a view cannot be
built (e.g. the schema cannot be made strict), so CI can gate on it.

examples:
  toollens check tools:search
  toollens check tools.py:search --provider openai-chat --provider anthropic
  toollens check schema.json --no-strict --format json
  toollens check --format github    # every tool under [tool.toollens], as PR annotations
  toollens check "mcp:python server.py" --client cursor --client vscode-copilot
  toollens check tools-list.json --client all --server-name github
  toollens check pkg.tools --max-tokens 300 --max-total-tokens 4000

An MCP server's tools (mcp:..., or a saved tools/list JSON file) are judged as its clients
send them: non-strict, unless --client openai-agents-strict is chosen. Without --client the
default clients' verdicts are shown (the applications and the SDK clients: claude-code,
claude-desktop, cursor, vscode-copilot, gemini-cli, mcp-python, openai-agents,
openai-agents-strict); the framework consumers (pydantic-ai:*, langchain-mcp-adapters,
google-genai, anthropic-sdk) run their framework's code and are judged when named, or with
--client all. Only the clients named with --client can fail the check, and each of them
gets what the tools it sends cost, up front and deferred; the provider columns (the tools
as if sent raw) fail it only for a provider named with --provider. Token budgets and the
documented description limits are findings of the check (exit 1 on an error).

{TARGETS_HELP}

{EXIT_CODES_HELP}"""


def add_check_command(command: Command, providers: tuple[str, ...]) -> None:
    from toollens.cli import toolset as cli_toolset
    from toollens.cli.connect import add_mcp_arguments

    check = command("check", "lint a tool and check it against providers", _CHECK_EPILOG)
    check.add_argument("target", metavar="TARGET", nargs="?", help=TARGET_HELP)
    from toollens.cli.check_clients import add_choices, add_client_arguments

    add_choices(
        check,
        "--provider",
        "providers",
        providers,
        ALL_PROVIDERS,
        f"a provider to check against; repeat for several: {', '.join(providers)}, "
        f"or {ALL_PROVIDERS} for every one (default: {DEFAULT_PROVIDER}, or the provider a "
        "payload file is written for)",
    )
    add_strictness(check)
    check.add_argument(
        "--rules",
        action="store_true",
        help="list every provider, request and MCP rule with its source, the date it was "
        "read and its evidence level, and exit",
    )
    add_context_types(check)
    add_format(check, "text", "github")
    cli_toolset.add_check_arguments(check)
    add_mcp_arguments(check)
    add_client_arguments(check)
    from toollens.cli import tokens as cli_tokens

    cli_tokens.add_budget_arguments(check)
    check.set_defaults(handler=run_check)


def run_check(args: argparse.Namespace) -> tuple[str, int]:
    """``check``: the result computed once (:func:`check_result`), formatted once."""
    if args.rules:
        from toollens.toolsets.catalogue import format_rules, rule_rows

        return format_rules(rule_rows(), "json" if args.format == "json" else "text"), EXIT_OK
    from toollens.cli.check_result import format_result

    result = check_result(args)
    return format_result(result, args.format), result.exit_code


def check_result(args: argparse.Namespace) -> CheckResult:
    """Everything ``check`` says about what the command line names, each tool read once:
    a toolset (a module, ``--agent``, a tool list, a server; the project's list when no
    target is given: ``check`` is ``check project``), or one tool.

    Raises:
        TargetError: the target cannot be read, or ``--client`` on a source that is not an
            MCP tool list.
    """
    from toollens.cli import toolset as cli_toolset
    from toollens.cli.check_clients import require_listing
    from toollens.cli.check_result import CheckedTool, CheckResult
    from toollens.cli.project_source import PROJECT

    named = list(args.providers or ())
    if ALL_PROVIDERS in named:
        named = [p for p in named if p != ALL_PROVIDERS] + list(provider_names())
    named_providers = tuple(dict.fromkeys(named))
    source = args.agent or args.target or PROJECT
    if args.agent or args.target is None or cli_toolset.wants_toolset(args):
        return _toolset_result(args, source, named_providers)
    if getattr(args, "clients", None):
        require_listing(None)
    providers = named_providers or (default_provider(args),)  # a payload: its own provider
    reports = [report_of(args.target, cli_options(args, p)) for p in providers]
    checks = (CheckedTool(ToolCheck.from_reports(reports), reports[0].target, reports[0].function),)
    code = EXIT_FINDINGS if checks[0].result.errors else EXIT_OK
    tokens, counted = _token_rules(args, [reports[0].target], [(reports[0].target, args.target)])
    return CheckResult(
        "tool", providers, args.target, checks, tokens=tokens, counted=counted, code=code
    )


def _toolset_result(args: argparse.Namespace, source: str, named: tuple[str, ...]) -> CheckResult:
    from toollens.cli import toolset as cli_toolset
    from toollens.cli.check_clients import clients_check
    from toollens.cli.check_result import CheckResult
    from toollens.cli.common import mcp_options
    from toollens.targets import is_project_source

    if is_project_source(source):  # the table's options under the command line's
        from toollens.cli.project_source import project_options

        options, providers = project_options(args, source, named)
    else:
        providers = named or (default_provider(args),)  # a payload: its own provider
        # An MCP tool list is non-strict unless a chosen client sends strict.
        options = mcp_options(args, cli_options(args, providers[0]))
    ts, rows = cli_toolset.checked_toolset(
        source, options, providers, ToolCheck.from_reports, args.jobs, cli_connect(args)
    )
    clients = clients_check(args, ts)
    if clients is not None:  # an MCP list: judged by the path its tools take
        from toollens.cli.check_clients import mcp_request_findings

        ts = mcp_request_findings(ts, clients, named)
    else:  # judged for the providers of its columns
        ts = _unjudged_providers(ts, providers)
    chosen = bool(clients and clients.chosen)
    # An MCP list's tools reach a model through its clients: a provider judges them raw
    # (its column) and fails the check only when --provider names it.
    gate = clients is None or bool(named)
    code = cli_toolset.exit_code(ts, rows, providers, clients_chosen=chosen, providers_gate=gate)
    if clients is not None:
        code = max(code, clients.exit_code)
    marked = cli_toolset.deferred_marks(ts)
    tokens, counted = _token_rules(args, [marked], [(marked, source)])
    if clients is not None and tokens is not None:  # an MCP tool list: its clients' limits
        from toollens.cli.check_clients import mcp_limits

        tokens = dataclasses.replace(tokens, found=mcp_limits(tokens.found, clients, named))
    return CheckResult(
        "toolset",
        providers,
        source,
        toolset=ts,
        rows=tuple(rows),
        clients=clients,
        tokens=tokens,
        counted=counted,
        code=code,
    )


def _unjudged_providers(ts: Toolset, providers: Sequence[str]) -> Toolset:
    """``ts`` with its cross-tool errors that speak only for providers outside ``providers``
    (Anthropic's strict request limits, when the check judges OpenAI) as warnings
    (:func:`off_path`)."""
    from toollens.toolsets.rules import finding_providers, off_path

    def shown(finding: Finding) -> Finding:
        concerned = finding_providers(finding)
        if not concerned:
            return finding
        where = " or ".join(concerned)
        why = f"No provider judged is {where} (--provider {concerned[0]} judges it)"
        return off_path(finding, concerned, providers, why)

    kept = tuple(dataclasses.replace(i, finding=shown(i.finding)) for i in ts.cross_findings)
    return dataclasses.replace(ts, cross_findings=kept)


def _token_rules(
    args: argparse.Namespace, objs: Sequence[object], named: Sequence[tuple[object, str]]
) -> tuple[Budget | None, Counted | None]:
    """The token budgets (when asked) and the description limits over the definitions of
    the tools already read; ``(None, None)`` when what was read is not a tool (a model or
    an output type) and no budget was asked.

    Args:
        objs: what is counted (tools, or a toolset with its ``defer_loading`` marks).
        named: the same, each as annotations place it (its object and the text naming it).

    Raises:
        ToolLensError: a budget was asked for and the tools cannot be counted.
    """
    from toollens.cli.check_result import Counted
    from toollens.cli.tokens import budget
    from toollens.core.errors import ToolLensError
    from toollens.tokens import DEFAULT_MODEL, tool_defs

    asked = args.max_tokens is not None or args.max_total_tokens is not None
    try:
        defs = tool_defs([cast("CountableTool", obj) for obj in objs])
    except ToolLensError:
        if asked:
            raise
        return None, None
    model = args.tokens_model or DEFAULT_MODEL
    counted = budget(defs, args.max_tokens, args.max_total_tokens, model)
    return counted, Counted(tuple(named), bool(args.target or getattr(args, "agent", None)))


def finding_to_dict(finding: Finding) -> JsonObject:
    """A Finding as JSON data (``Finding.to_json``; the former name, kept for callers)."""
    return finding.to_json()


def verdict_to_dict(verdict: ProviderVerdict) -> JsonObject:
    """A provider's verdict as JSON data (``ProviderVerdict.to_json``; the former name)."""
    return verdict.to_json()
