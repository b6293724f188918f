"""``toollens tokens`` and the token budget of ``toollens check``.

``tokens TARGET... --model M`` prints what the tools cost and where the tokens go;
``check --max-tokens N`` (per tool) and ``--max-total-tokens N`` (all the tools together)
turn a budget into error findings. ``toollens.cli`` registers both with a few lines; this module
never imports ``toollens.cli``.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from toollens.core.errors import ToolLensError
from toollens.core.records import Finding, Severity

if TYPE_CHECKING:
    from toollens.tokens.result import TokenCount

__all__ = [
    "TOKENS_EPILOG",
    "add_budget_arguments",
    "add_tokens_command",
    "budget_findings",
    "format_tokens_text",
    "with_budget",
]

TOKENS_EPILOG = """\
Counts the tokens the tool definitions add to a request, per tool and per part (name and
description, each parameter's name, type, description, enum members, defaults). Exact for
OpenAI chat models (their own encoding on the tools block they read) and gpt-oss
(openai-harmony); for claude-* and gemini-* a labelled estimate plus the documented
tool-use overhead, or the provider's own count with --online (needs an API key). Never
uses the network otherwise.

examples:
  toollens tokens tools.py:search
  toollens tokens tools.py:search tools.py:fetch --model gpt-4.1
  toollens tokens payload.json --model gpt-oss-20b --format json
  toollens tokens tools:search --model claude-sonnet-4-5 --online
  toollens tokens                     # every tool under [tool.toollens]"""

BUDGET_TOOL = "tokens.tool-over-budget"
BUDGET_TOTAL = "tokens.total-over-budget"
Handler = Callable[[argparse.Namespace], "tuple[str, int]"]


def add_tokens_command(command: Callable[[str, str, str], argparse.ArgumentParser]) -> None:
    """Register ``toollens tokens``."""
    from toollens.tokens import DEFAULT_MODEL

    p = command(
        "tokens", "count the tokens tool definitions cost, and where they go", TOKENS_EPILOG
    )
    p.add_argument(
        "targets",
        metavar="TARGET",
        nargs="*",
        help="tools to count together (default: the project's tool list)",
    )
    p.add_argument(
        "--model",
        default=DEFAULT_MODEL,
        metavar="M",
        help=f"the model to count for (default: {DEFAULT_MODEL})",
    )
    p.add_argument(
        "--online",
        action="store_true",
        help="claude-*/gemini-*: ask the provider's count-tokens endpoint",
    )
    p.add_argument(
        "--tool-choice",
        default="auto",
        choices=("auto", "none", "any", "tool"),
        help="Anthropic's documented overhead depends on it (default: auto)",
    )
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (default: text)"
    )
    from toollens.cli.mcp import add_mcp_arguments

    add_mcp_arguments(p)  # --env/--timeout for mcp: targets
    p.set_defaults(handler=run_tokens)


def add_budget_arguments(check: argparse.ArgumentParser) -> None:
    """``--max-tokens``, ``--max-total-tokens`` and ``--tokens-model`` for ``check``."""
    from toollens.tokens import DEFAULT_MODEL

    check.add_argument(
        "--max-tokens",
        type=int,
        metavar="N",
        help="error finding for a tool costing more than N tokens",
    )
    check.add_argument(
        "--max-total-tokens",
        type=int,
        metavar="N",
        help="error finding when the tools together cost more than N tokens",
    )
    check.add_argument(
        "--tokens-model",
        default=DEFAULT_MODEL,
        metavar="M",
        help=f"model the budgets are counted for (default: {DEFAULT_MODEL})",
    )


def _targets(args: argparse.Namespace, texts: Sequence[str]) -> list[Any]:
    """What the command line names: tools, toolset sources (a module, ``--agent``, a JSON
    tool list), or with nothing named the project's tool list."""
    return [obj for obj, _ in _named_targets(args, texts)]


def _named_targets(args: argparse.Namespace, texts: Sequence[str]) -> list[tuple[Any, str]]:
    """:func:`_targets`, each with the text naming it (a project tool's own target)."""
    agent = getattr(args, "agent", None)
    if texts or agent:
        from toollens.cli.toolset import is_toolset_source
        from toollens.targets import resolve_target
        from toollens.toolsets import toolset

        named = [agent] if agent else list(texts)
        return [
            (toolset(t) if t == agent or is_toolset_source(t) else resolve_target(t), t)
            for t in named
        ]
    from toollens.cli.project import project_tools

    tools, _ = project_tools(args)
    return [(_countable(obj), target) for target, obj in tools]


def _countable(obj: Any) -> Any:
    """A project tool as ``tokens()`` reads it: an MCP server's tool as the model gets it."""
    from toollens.mcp.records import McpTool

    if isinstance(obj, McpTool):
        from toollens.tokens import ToolDef

        return ToolDef(obj.name, obj.description, obj.input_schema)
    return obj


def run_tokens(args: argparse.Namespace) -> tuple[str, int]:
    """The ``tokens`` command: the count as text or JSON; exit 0."""
    from toollens.tokens import tokens

    counted = tokens(
        _targets(args, args.targets), args.model, online=args.online, tool_choice=args.tool_choice
    )
    if args.format == "json":
        return json.dumps(counted.to_json(), indent=2) + "\n", 0
    return format_tokens_text(counted), 0


def format_tokens_text(counted: TokenCount) -> str:
    """A count as lines: the total, then each tool and its parts with bars."""
    from toollens.render.tokens import tokens_text

    return tokens_text(counted)


def budget_findings(
    counted: TokenCount, max_tokens: int | None, max_total: int | None
) -> list[Finding]:
    """Error findings for tools over ``max_tokens`` and a total over ``max_total``."""
    return [f for f, _ in _budget_by_tool(counted, max_tokens, max_total)]


def _budget_by_tool(
    counted: TokenCount, max_tokens: int | None, max_total: int | None
) -> list[tuple[Finding, int | None]]:
    """:func:`budget_findings`, each with the index of its tool (``None``: all of them)."""
    found: list[tuple[Finding, int | None]] = []
    for index, tool in enumerate(counted.tools):
        if max_tokens is not None and tool.tokens > max_tokens:
            finding = Finding(
                BUDGET_TOOL,
                Severity.ERROR,
                None,
                f"tool {tool.name!r} costs {tool.tokens} tokens on {counted.model} "
                f"({counted.method}), over the budget of {max_tokens}.",
                "shorten its descriptions or drop parameters; "
                "`toollens tokens` shows where the tokens go",
            )
            found.append((finding, index))
    if max_total is not None and counted.total > max_total:
        total = Finding(
            BUDGET_TOTAL,
            Severity.ERROR,
            None,
            f"the {len(counted.tools)} tools cost {counted.total} tokens together on "
            f"{counted.model} ({counted.method}), over the budget of {max_total}.",
            "send fewer tools per request or shorten the largest ones",
        )
        found.append((total, None))
    return found


def with_budget(run_check: Handler) -> Handler:
    """``check`` plus the token budgets and the documented description limits.

    Their findings are added to the output; an error among them makes the exit code 1.
    """

    def run(args: argparse.Namespace) -> tuple[str, int]:
        text, code = run_check(args)
        from toollens.tokens import tool_defs
        from toollens.tokens.limits import iter_limit_findings

        budget = args.max_tokens is not None or args.max_total_tokens is not None
        if not budget and not _cheap_to_read_again(args):
            return text, code
        try:
            named = _named_targets(args, [args.target] if args.target else [])
            defs = tool_defs([obj for obj, _ in named])
        except ToolLensError:
            if budget:
                raise
            return text, code  # not a tool (a model or output type): no description limit
        # Each finding with the index of the tool it is about (None: the tools together).
        found: list[tuple[Finding, int | None]] = [
            (f, i) for i, d in enumerate(defs) for f in iter_limit_findings([d])
        ]
        counted = None
        if budget:
            from toollens.tokens import tokens

            counted = tokens(defs, args.tokens_model)
            if len(counted.tools) == len(defs):
                found += _budget_by_tool(counted, args.max_tokens, args.max_total_tokens)
            else:  # not one count per definition: the findings point at the whole run
                found += [
                    (f, None)
                    for f in budget_findings(counted, args.max_tokens, args.max_total_tokens)
                ]
        if not found and counted is None:
            return text, code
        if any(f.severity is Severity.ERROR for f, _ in found):
            code = max(code, 1)
        if args.format == "github":
            from toollens.cli.budget_github import budget_annotations

            return text + budget_annotations(found, named, bool(args.target or args.agent)), code
        return _merge(text, args.format, counted, [f for f, _ in found]), code

    return run


def _cheap_to_read_again(args: argparse.Namespace) -> bool:
    # The description limits are checked on every `check`, which reads its tools a second
    # time; a project's list or an MCP server (a process started again) is read twice only
    # when a token budget asks for it.
    target = args.target or ""
    return bool(target) and not target.startswith("mcp:") and not getattr(args, "agent", None)


def _finding_data(finding: Finding) -> dict[str, Any]:
    return {
        "rule": finding.rule,
        "severity": finding.severity.value,
        "message": finding.message,
        "fix": finding.fix,
    }


def _merge(text: str, fmt: str, counted: TokenCount | None, found: list[Finding]) -> str:
    if fmt == "json":
        data = json.loads(text)
        data["tokens"] = {
            **(
                {
                    "total": counted.total,
                    "model": counted.model,
                    "method": counted.method,
                    "tools": {t.name: t.tokens for t in counted.tools},
                }
                if counted is not None
                else {}
            ),
            "findings": [_finding_data(f) for f in found],
        }
        return json.dumps(data, indent=2) + "\n"
    summary = (
        f"tokens ({counted.model}, {counted.method}): {counted.total} in total\n"
        if counted is not None
        else "description limits:\n"
    )
    return text + summary + "".join(f"  {f}\n" for f in found)
