"""``toollens check``: lint a tool and check it against providers; exit 1 on an error.

The result of one tool is a :class:`toollens.core.checks.ToolCheck`; its JSON is the
records' own ``to_json()``, its text is :func:`format_check`.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

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
from toollens.cli.formats import dump
from toollens.core.checks import ToolCheck
from toollens.core.choices import DEFAULT_PROVIDER
from toollens.core.records import SEVERITY_ORDER, Finding

if TYPE_CHECKING:
    from toollens.core.providers import ProviderVerdict
    from toollens.core.report import ReportOptions
    from toollens.core.schema.types import JsonObject

__all__ = [
    "add_check_command",
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

An MCP server's tools (mcp:..., or a saved tools/list JSON file) are judged as its clients
send them: non-strict, unless --client openai-agents-strict is chosen. Every client's
verdicts are shown; only the clients named with --client can fail the check.

{TARGETS_HELP}

{EXIT_CODES_HELP}"""


def add_check_command(command: Command, providers: tuple[str, ...]) -> None:
    from toollens.cli import mcp as cli_mcp
    from toollens.cli import toolset as cli_toolset

    check = command("check", "lint a tool and check it against providers", _CHECK_EPILOG)
    check.add_argument("target", metavar="TARGET", nargs="?", help=TARGET_HELP)
    check.add_argument(
        "--provider",
        dest="providers",
        action="append",
        choices=(*providers, ALL_PROVIDERS),
        metavar="P",
        help=f"a provider to check against; repeat for several: {', '.join(providers)}, "
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
    cli_mcp.add_mcp_arguments(check)
    from toollens.cli.check_clients import add_client_arguments

    add_client_arguments(check)
    from toollens.cli import tokens as cli_tokens

    cli_tokens.add_budget_arguments(check)
    check.set_defaults(handler=cli_tokens.with_budget(run_check))


def run_check(args: argparse.Namespace) -> tuple[str, int]:
    if args.rules:
        from toollens.toolsets.catalogue import format_rules, rule_rows

        return format_rules(rule_rows(), "json" if args.format == "json" else "text"), EXIT_OK
    asked = args.providers or [default_provider(args)]  # a payload: its own provider
    if ALL_PROVIDERS in asked:
        asked = [p for p in asked if p != ALL_PROVIDERS] + list(provider_names())
    providers = list(dict.fromkeys(asked))
    from toollens.cli import toolset as cli_toolset

    if cli_toolset.wants_toolset(args):  # a module, an agent, a tool list: the whole toolset
        from toollens.cli.check_clients import clients_check

        hooks = cli_toolset.CheckHooks(
            ToolCheck.from_reports, finding_to_dict, _toolset_options, clients_check
        )
        return cli_toolset.run_toolset_check(args, providers, hooks)
    if getattr(args, "clients", None):
        from toollens.core.errors import TargetError

        raise TargetError(
            "--client judges an MCP server's tools list",
            hint="name an mcp: target or a saved tools/list JSON file",
        )
    if args.target is None or args.format == "github":  # project list, or annotations
        return _run_checks(args, providers)
    reports = [report_of(args.target, cli_options(args, p)) for p in providers]
    result = ToolCheck.from_reports(reports)
    code = EXIT_FINDINGS if result.errors else EXIT_OK
    if args.format == "json":
        return dump(result.to_json()), code
    return format_check(result), code


def _toolset_options(args: argparse.Namespace, provider: str | None) -> ReportOptions:
    """The options of a toolset's tools: an MCP tool list is non-strict unless a chosen
    client sends strict (:func:`toollens.cli.check_clients.mcp_options`)."""
    from toollens.cli.check_clients import mcp_options

    return mcp_options(args, cli_options(args, provider))


def _run_checks(args: argparse.Namespace, providers: list[str]) -> tuple[str, int]:
    """``check`` over the project's tools (no target), or any check as GitHub annotations."""
    from toollens.cli import project as cli_project

    if args.target is None:
        items = cli_project.project_reports(args, providers if args.providers else None)
    else:
        reports = tuple(report_of(args.target, cli_options(args, p)) for p in providers)
        items = ((reports, reports[0].target),)
    results = [
        (ToolCheck.from_reports(reports), obj, reports[0].function) for reports, obj in items
    ]
    code = EXIT_FINDINGS if any(r.errors for r, _, _ in results) else EXIT_OK
    if args.format == "json":
        return dump({"tools": [r.to_json() for r, _, _ in results]}), code
    if args.format == "text":
        return "".join(format_check(r) for r, _, _ in results), code
    return cli_project.format_checks_github(results, args.target), code


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
    from toollens.core.problems import providers_by_finding

    # A finding two providers share (OpenAI Chat and Responses) is listed once, under the
    # first, with every provider it concerns; the later sections point back to it.
    concerns = providers_by_finding(result.providers)
    listed: dict[Finding, str] = {}
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
        earlier = [f for f in findings if f in listed] if label != "lint" else []
        for f in sorted(findings, key=_severity_rank):
            if f in earlier:
                continue
            shared = concerns.get(f, ()) if label != "lint" else ()
            lines.append(_finding_lines(f, shared if len(shared) > 1 else ()))
            if id(f) in same:
                lines.append(f"      same problem as {same[id(f)]} above (counted once)")
            listed.setdefault(f, label)
        if earlier:
            n = len(earlier)
            where = ", ".join(dict.fromkeys(listed[f] for f in earlier))
            lines.append(f"  {n} finding{'' if n == 1 else 's'} listed under {where} above")
    return "\n".join(lines) + "\n"


def _explained(lint: Sequence[Any], findings: Sequence[Any]) -> dict[int, str]:
    """Provider findings that explain a lint finding: ``{id(finding): lint rule}``."""
    from toollens.core.problems import group_findings

    angles, _ = group_findings(lint, findings)
    return {id(f): str(lint[i].rule) for i, found in angles.items() for f in found}


def _finding_lines(finding: Finding, providers: Sequence[str] = ()) -> str:
    head = f"  {finding.headline}"
    if providers:
        head += f"  [{', '.join(providers)}]"
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
