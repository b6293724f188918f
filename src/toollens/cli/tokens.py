"""``toollens tokens`` and the token budget arguments of ``toollens check``.

``tokens TARGET... --model M`` prints what the tools cost and where the tokens go;
``check --max-tokens N`` (per tool) and ``--max-total-tokens N`` (all the tools together)
are rules of the assessment (:func:`toollens.assess.budget.budget`). ``toollens.cli``
registers both with a few lines.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TYPE_CHECKING

from toollens.cli.connect import add_mcp_arguments, cli_connect
from toollens.core.errors import TargetError
from toollens.tokens import DEFAULT_MODEL, tokens

if TYPE_CHECKING:
    from toollens.tokens.result import TokenCount

__all__ = [
    "TOKENS_EPILOG",
    "add_budget_arguments",
    "add_tokens_command",
    "format_tokens_text",
]

TOKENS_EPILOG = """\
Counts the tokens the tool definitions add to a request, per tool and per part (name and
description, each parameter's name, type, description, enum members, defaults). Exact for
OpenAI chat models where published figures cover every construct ("rendered" otherwise:
the exact tokens of toollens' rendering, with what is not covered named) and gpt-oss
(openai-harmony); for claude-* and gemini-* a labelled estimate plus the documented
tool-use overhead, or the provider's own count with --online (needs an API key). Never
uses the network otherwise. Exit 0; 1 when some tools could not be read (the others are
counted and the unread named); 3 when none could be read or there are no tools.

examples:
  toollens tokens tools.py:search
  toollens tokens tools.py:search tools.py:fetch --model gpt-4.1
  toollens tokens payload.json --model gpt-oss-20b --format json
  toollens tokens tools:search --model claude-sonnet-4-5 --online
  toollens tokens tools.json --model claude-opus-4 --message "What's the weather?"
  toollens tokens                     # every tool under [tool.toollens]"""


def add_tokens_command(command: Callable[[str, str, str], argparse.ArgumentParser]) -> None:
    """Register ``toollens tokens``."""
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
        help="ask the provider's count endpoint (Anthropic count_tokens, Gemini "
        "count_tokens, OpenAI responses.input_tokens.count; needs an API key)",
    )
    p.add_argument(
        "--message",
        action="append",
        metavar="TEXT",
        dest="messages",
        help="a user message of the request (repeatable): the whole request is counted, "
        "as the count endpoints count it",
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

    add_mcp_arguments(p)  # --env/--timeout for mcp: targets
    p.set_defaults(handler=run_tokens)


def add_budget_arguments(check: argparse.ArgumentParser) -> None:
    """``--max-tokens``, ``--max-total-tokens`` and ``--tokens-model`` for ``check``."""
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
        metavar="M",
        help=f"model the budgets and the chosen clients' costs are counted for (default: "
        f"{DEFAULT_MODEL}; a client's cost: the model family it sends to, e.g. claude-* for "
        "Claude Code)",
    )


def run_tokens(args: argparse.Namespace) -> tuple[str, int]:
    """The ``tokens`` command: the count as text or JSON.

    Exit 0 when every tool was read and counted; 1 when some could not be read (the count
    covers the others and names them); 3 (``TargetError``) when no tool could be read or
    the targets hold no tools.
    """
    # lazy: assess.token_sources (~47 ms over `--help`), for `tokens` only
    from toollens.assess.token_sources import token_targets

    targets = token_targets(args.targets, cli_connect(args))
    counted = tokens(
        targets,
        args.model,
        online=args.online,
        tool_choice=args.tool_choice,
        messages=getattr(args, "messages", None),
    )
    if not counted.tools:
        named = ", ".join(args.targets) if args.targets else "the project's tool list"
        raise TargetError(
            f"{named} holds no tools to count",
            hint="name a tool (FILE.py:FUNC, MODULE:ATTR), a module of tools, a JSON tool "
            "list or an mcp: server",
        )
    code = 0 if counted.complete else 1
    if args.format == "json":
        return json.dumps(counted.to_json(), indent=2) + "\n", code
    return format_tokens_text(counted), code


def format_tokens_text(counted: TokenCount) -> str:
    """A count as lines: the total, then each tool and its parts with bars."""
    # lazy: render.tokens (~1 ms); `toollens --help` imports this module, not it
    from toollens.render.tokens import tokens_text

    return tokens_text(counted)
