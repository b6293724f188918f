"""``toollens check``: lint a tool and check it against providers; exit 1 on an error.

:func:`check_request` turns the command line into an
:class:`~toollens.assess.AssessRequest`; :func:`toollens.assess.assess` computes everything
the command says once (each tool's checks and verdicts per column, the findings across
tools, the clients' verdicts and costs, the token rules, the exit code);
:func:`toollens.render.check_emit.format_result` renders it as text, JSON or annotations.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from toollens.cli.common import (
    ALL_PROVIDERS,
    EXIT_CODES_HELP,
    EXIT_OK,
    TARGET_HELP,
    TARGETS_HELP,
    Command,
    add_context_types,
    add_format,
    add_strictness,
    context_types,
)
from toollens.cli.connect import add_mcp_arguments, cli_connect
from toollens.core.choices import DEFAULT_PROVIDER
from toollens.render.check_tool import format_check

if TYPE_CHECKING:
    from collections.abc import Sequence

    from toollens.assess import AssessRequest
    from toollens.assess.rules import Rule

__all__ = ["add_check_command", "check_request", "format_check", "format_rules", "run_check"]


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
    # lazy: cli.toolset brings toollens.consumers (~180 ms); `import toollens.cli` skips it
    import toollens.cli.toolset as cli_toolset

    check = command("check", "lint a tool and check it against providers", _CHECK_EPILOG)
    check.add_argument("target", metavar="TARGET", nargs="?", help=TARGET_HELP)
    # lazy: cli.check_clients brings toollens.consumers (~215 ms); not at `import toollens.cli`
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
        help="list every rule (lint, strict, provider, request, MCP, client, budget) with its "
        "source, the date it was read and its evidence level, and exit",
    )
    add_context_types(check)
    add_format(check, "text", "github")
    cli_toolset.add_check_arguments(check)
    add_mcp_arguments(check)
    add_client_arguments(check)
    # lazy: cli.tokens brings toollens.tokens (~165 ms); `import toollens.cli` skips it
    import toollens.cli.tokens as cli_tokens

    cli_tokens.add_budget_arguments(check)
    check.set_defaults(handler=run_check)


def run_check(args: argparse.Namespace) -> tuple[str, int]:
    """``check``: the request built from the command line, assessed once, rendered once."""
    if args.rules:
        # lazy: the rule registry (assess, ~65 ms over `--help`), for `check --rules` only
        from toollens.assess.rules import rule_registry

        return format_rules(rule_registry(), args.format), EXIT_OK
    # lazy: toollens.assess (~50 ms over `--help`) loads when a check runs
    from toollens.assess import assess
    from toollens.render.check_emit import format_result

    result = assess(check_request(args))
    return format_result(result, args.format), result.exit_code


def check_request(args: argparse.Namespace) -> AssessRequest:
    """What ``check``'s command line asks for, as the assessment's request.

    Raises:
        TargetError: a ``--context-type`` that names no class.
    """
    # lazy: toollens.assess (~50 ms over `--help`) loads when a check runs
    from toollens.assess import AssessRequest

    return AssessRequest(
        target=args.agent or args.target,
        providers=tuple(args.providers or ()),
        clients=tuple(getattr(args, "clients", None) or ()),
        strict=args.strict,
        context_types=context_types(args),
        mcp_revision=getattr(args, "mcp_revision", None),
        server_name=getattr(args, "server_name", None),
        toolset=bool(args.agent),
        jobs=args.jobs,
        max_tokens=args.max_tokens,
        max_total_tokens=args.max_total_tokens,
        tokens_model=args.tokens_model,
        connect=cli_connect(args),
    )


def format_rules(rules: Sequence[Rule], fmt: str) -> str:
    """Every rule, family by family, as text (a block each) or JSON (``{"reviewed", "rules"}``)."""
    # lazy: the provider rules (~135 ms); `import toollens.cli` does not load them
    from toollens.core.providers.rules import RULES_REVIEWED

    if fmt == "json":
        payload = {"reviewed": RULES_REVIEWED, "rules": [r.to_json() for r in rules]}
        return json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
    width = max(len(r.id) for r in rules)
    lines = [f"{len(rules)} rules; sources last reviewed {RULES_REVIEWED}"]
    for family in dict.fromkeys(r.family for r in rules):
        lines += ["", f"{family}:"]
        for rule in (r for r in rules if r.family == family):
            lines.append(f"{rule.id.ljust(width)}  {rule.severity:<7}  {rule.when}: {rule.summary}")
            if rule.source:
                lines.append(f"{'':{width}}  source: {rule.source} <{rule.url}>")
            if rule.date:
                lines.append(f"{'':{width}}  read {rule.date}; evidence: {rule.evidence}")
    return "\n".join(lines) + "\n"
