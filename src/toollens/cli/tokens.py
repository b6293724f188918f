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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toollens.core.errors import TargetError, ToolLensError
from toollens.core.records import Finding, Severity

if TYPE_CHECKING:
    from toollens.core.schema.types import JsonObject
    from toollens.tokens.result import TokenCount
    from toollens.tokens.tooldefs import ToolDef

__all__ = [
    "TOKENS_EPILOG",
    "Budget",
    "add_budget_arguments",
    "add_tokens_command",
    "budget",
    "budget_findings",
    "format_tokens_text",
    "with_budget",
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
            (
                _json_tool_list(t)
                if t.endswith(".json") and t != agent
                else toolset(t)
                if t == agent or is_toolset_source(t)
                else resolve_target(t),
                t,
            )
            for t in named
        ]
    from toollens.cli.project import project_tools

    tools, _ = project_tools(args)
    return [(_countable(obj), target) for target, obj in tools]


def _json_tool_list(text: str) -> Any:
    """A ``.json`` target: a tool list (``{"tools": [...]}`` or a bare list, as a request's
    ``tools`` holds it) is read as its tools, each keeping its ``defer_loading`` mark;
    anything else as the toolset or tool the file holds."""
    from pathlib import Path

    from toollens.cli.toolset import is_toolset_source
    from toollens.targets import resolve_target
    from toollens.toolsets import toolset

    path = Path(text)
    try:
        data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    except (OSError, ValueError, RecursionError):
        data = None  # the readers below report it in their own words
    items = data.get("tools") if isinstance(data, dict) else data
    if isinstance(items, list):
        return _payload_items(items, text)
    return toolset(text) if is_toolset_source(text) else resolve_target(text)


def _payload_items(items: list[Any], label: str) -> Any:
    """A payload list as ``tokens()`` counts it: its toolset (an unreadable item is an entry
    with its error), with the items it marks ``defer_loading``."""
    from toollens.tokens.tooldefs import DeferredMarks
    from toollens.toolsets import Toolset
    from toollens.toolsets.payloads import payload_entries

    entries = payload_entries(items, label=label)
    ts = Toolset.from_entries(entries, label=label)
    if len(entries) != len(items):  # a Gemini Tool holds several declarations: no marks
        return ts
    return DeferredMarks(ts, frozenset(i for i, item in enumerate(items) if _deferred(item)))


def _deferred(item: Any) -> bool:
    if not isinstance(item, dict):
        return False
    inner = item.get("function")
    marked = inner.get("defer_loading") if isinstance(inner, dict) else None
    return (marked if marked is not None else item.get("defer_loading")) is True


def _countable(obj: Any) -> Any:
    """A project tool as ``tokens()`` reads it: an MCP server's tool as the model gets it."""
    from toollens.mcp.records import McpTool

    if isinstance(obj, McpTool):
        from toollens.tokens import ToolDef

        return ToolDef(obj.name, obj.description, obj.input_schema)
    return obj


def run_tokens(args: argparse.Namespace) -> tuple[str, int]:
    """The ``tokens`` command: the count as text or JSON.

    Exit 0 when every tool was read and counted; 1 when some could not be read (the count
    covers the others and names them); 3 (``TargetError``) when no tool could be read or
    the targets hold no tools.
    """
    from toollens.tokens import tokens

    targets = _targets(args, args.targets)
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
    if max_total is not None and counted.up_front > max_total:
        deferred = (
            f" up front ({counted.deferred} more in deferred tools, paid once loaded)"
            if counted.deferred
            else ""
        )
        total = Finding(
            BUDGET_TOTAL,
            Severity.ERROR,
            None,
            f"the {len(counted.tools)} tools cost {counted.up_front} tokens together"
            f"{deferred} on {counted.model} ({counted.method}), over the budget of {max_total}.",
            "send fewer tools per request, defer the ones rarely used (defer_loading), or "
            "shorten the largest ones",
        )
        found.append((total, None))
    return found


@dataclass(frozen=True)
class Budget:
    """What the token budgets and the description limits say about tools already read.

    Attributes:
        found: each finding with the index of the definition it is about (``None``: the
            tools together).
        counted: the count the budgets were held against (``None``: no budget asked).
    """

    found: tuple[tuple[Finding, int | None], ...]
    counted: TokenCount | None = None

    @property
    def findings(self) -> list[Finding]:
        return [f for f, _ in self.found]

    @property
    def failed(self) -> bool:
        """Whether a finding is an error (``check`` then exits 1)."""
        return any(f.severity is Severity.ERROR for f, _ in self.found)

    def to_json(self) -> JsonObject:
        """The ``tokens`` object of ``check --format json``."""
        data: JsonObject = {}
        if self.counted is not None:
            data = {
                "total": self.counted.total,
                "up_front": self.counted.up_front,
                "model": self.counted.model,
                "method": self.counted.method,
                "tools": {t.name: t.tokens for t in self.counted.tools},
            }
        data["findings"] = [_finding_data(f) for f in self.findings]
        return data

    def to_text(self) -> str:
        """The lines ``check`` prints after its own."""
        counted = self.counted
        if counted is None:
            summary = "description limits:"
        elif counted.deferred:
            summary = (
                f"tokens ({counted.model}, {counted.method}): {counted.up_front} up front, "
                f"{counted.total} with every deferred tool loaded"
            )
        else:
            summary = f"tokens ({counted.model}, {counted.method}): {counted.total} in total"
        return summary + "\n" + "".join(f"  {f}\n" for f in self.findings)


def budget(
    defs: Sequence[ToolDef], max_tokens: int | None, max_total: int | None, model: str
) -> Budget:
    """The budgets (when asked) and the description limits over definitions already read.

    Counts nothing when neither budget is asked; never reads a target.
    """
    from toollens.tokens.limits import iter_limit_findings

    found: list[tuple[Finding, int | None]] = [
        (f, i) for i, d in enumerate(defs) for f in iter_limit_findings([d])
    ]
    if max_tokens is None and max_total is None:
        return Budget(tuple(found))
    from toollens.tokens import tokens

    counted = tokens(list(defs), model)
    if len(counted.tools) == len(defs):
        found += _budget_by_tool(counted, max_tokens, max_total)
    else:  # not one count per definition: the findings point at the whole run
        found += [(f, None) for f in budget_findings(counted, max_tokens, max_total)]
    return Budget(tuple(found), counted)


def with_budget(run_check: Handler) -> Handler:
    """``check`` plus the token budgets and the documented description limits.

    Their findings are added to the output; an error among them makes the exit code 1.
    ``check`` hands back only its text, so its tools are read once more here and its JSON
    is extended with the budget's data (one home for both would be ``check`` returning its
    result record).
    """

    def run(args: argparse.Namespace) -> tuple[str, int]:
        text, code = run_check(args)
        from toollens.tokens import tool_defs

        asked = args.max_tokens is not None or args.max_total_tokens is not None
        if not asked and not _cheap_to_read_again(args):
            return text, code
        try:
            named = _named_targets(args, [args.target] if args.target else [])
            defs = tool_defs([obj for obj, _ in named])
        except ToolLensError:
            if asked:
                raise
            return text, code  # not a tool (a model or output type): no description limit
        result = budget(defs, args.max_tokens, args.max_total_tokens, args.tokens_model)
        if not result.found and result.counted is None:
            return text, code
        if result.failed:
            code = max(code, 1)
        if args.format == "github":
            from toollens.cli.budget_github import budget_annotations

            given = bool(args.target or args.agent)
            return text + budget_annotations(result.found, named, given), code
        if args.format == "json":
            data = json.loads(text)
            data["tokens"] = result.to_json()
            return json.dumps(data, indent=2) + "\n", code
        return text + result.to_text(), code

    return run


def _cheap_to_read_again(args: argparse.Namespace) -> bool:
    # The description limits are checked on every `check`, which reads its tools a second
    # time; a project's list or an MCP server (a process started again) is read twice only
    # when a token budget asks for it.
    from toollens.targets import is_mcp_target

    target = args.target or ""
    return bool(target) and not is_mcp_target(target) and not getattr(args, "agent", None)


def _finding_data(finding: Finding) -> dict[str, Any]:
    return {
        "rule": finding.rule,
        "severity": finding.severity.value,
        "message": finding.message,
        "fix": finding.fix,
    }
