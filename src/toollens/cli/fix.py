"""``toollens fix``: apply the mechanical remedies of a target's findings (argparse and
printing only; the edits are :mod:`toollens.fixes`)."""

from __future__ import annotations

import argparse
import difflib
import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from toollens.cli.common import (
    ALL_PROVIDERS,
    EXIT_FINDINGS,
    EXIT_OK,
    TARGETS_HELP,
    Command,
    provider_names,
)

if TYPE_CHECKING:  # the edits import the engine; the command line loads them when run
    from toollens.fixes.model import FileFix

__all__ = ["add_fix_command", "run_fix"]

_EPILOG = f"""\
Each finding with a mechanical remedy carries it as an edit, safe (the calls the function
accepts and the values the schema accepts are unchanged) or unsafe (a tool renamed, a
schema that refuses what it accepted). Python tools are edited in their source with libcst
(formatting and comments kept); JSON tool lists and payload files keep their key order and
indentation. Nothing is written without --write; --diff prints a unified diff. A finding
that needs the author's words (a vague description) is never fixed.

Exits 0 when nothing is left to fix, 1 when fixes remain or were shown, 3 when the target
cannot be read.

examples:
  toollens fix tools.py --diff
  toollens fix server.tools.json --write
  toollens fix pkg.tools --select lint.unknown-documented-parameter --write
  toollens fix tools.json --unsafe --diff
  toollens fix server.tools.json --client vscode-copilot --write

{TARGETS_HELP}"""


def add_fix_command(command: Command) -> None:
    fix = command("fix", "apply the mechanical fixes of a tool's findings", _EPILOG)
    fix.add_argument("target", metavar="TARGET", help="a module, file.py, or a JSON tool file")
    fix.add_argument(
        "--select",
        metavar="RULE",
        action="append",
        default=[],
        help="fix only this rule (or rule prefix, e.g. lint); repeat for several",
    )
    fix.add_argument("--unsafe", action="store_true", help="also apply the unsafe fixes")
    fix.add_argument(
        "--provider",
        dest="providers",
        action="append",
        choices=(*provider_names(), ALL_PROVIDERS),
        help="a provider whose rules judge a JSON tool (default: openai-chat)",
    )
    # lazy: cli.check_clients and toollens.consumers (~215 ms); not at `import toollens.cli`
    from toollens.cli.check_clients import add_choices
    from toollens.consumers import ALL_CLIENTS, CONSUMERS, DEFAULT_CLIENTS

    add_choices(
        fix,
        "--client",
        "clients",
        tuple(CONSUMERS),
        ALL_CLIENTS,
        "a client whose rules judge an MCP tool list (its provider's too); repeat for "
        f"several, or {ALL_CLIENTS} (default: {', '.join(DEFAULT_CLIENTS)})",
    )
    mode = fix.add_mutually_exclusive_group(required=True)
    mode.add_argument("--diff", action="store_true", help="print a unified diff, write nothing")
    mode.add_argument("--write", action="store_true", help="write the fixes to the files")
    fix.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    fix.set_defaults(handler=run_fix)


def run_fix(args: argparse.Namespace) -> tuple[str, int]:
    # lazy: consumers, fixes and toolsets (~30 ms over `--help`), for `fix` only
    from toollens.consumers import resolve_clients
    from toollens.fixes import FixRequest, fix_files
    from toollens.toolsets import toolset

    named = list(args.providers or ["openai-chat"])
    if ALL_PROVIDERS in named:
        named = list(provider_names())
    clients = resolve_clients(args.clients) if args.clients else ()
    request = FixRequest(
        tuple(args.select), bool(args.unsafe), tuple(dict.fromkeys(named)), clients
    )
    fixes = fix_files(toolset(args.target), request)
    if args.write:
        for item in fixes:
            if item.changed:
                _write(item)
    left = any(item.skipped for item in fixes) or (args.diff and any(f.changed for f in fixes))
    code = EXIT_FINDINGS if left else EXIT_OK
    if args.format == "json":
        return _json(fixes, bool(args.write)), code
    return _text(fixes, bool(args.diff), bool(args.write)), code


def _write(item: FileFix) -> None:
    temporary = item.path + ".toollens-fix"
    with open(temporary, "w", encoding="utf-8", newline="") as handle:
        handle.write(item.after)
    os.replace(temporary, item.path)


def _diff(item: FileFix) -> str:
    lines = difflib.unified_diff(
        item.before.splitlines(keepends=True),
        item.after.splitlines(keepends=True),
        fromfile=item.path,
        tofile=item.path,
    )
    return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


def _text(fixes: Sequence[FileFix], diff: bool, write: bool) -> str:
    parts: list[str] = []
    for item in fixes:
        if diff:
            parts.append(_diff(item))
        verb = "fixed" if write else "would fix"
        parts.extend(
            f"{item.path}: {verb} [{e.rule}] {e.tool}: {e.summary}\n" for e in item.applied
        )
        parts.extend(
            f"{item.path}: left [{e.rule}] {e.tool}: {e.summary} "
            f"({e.safety.value}; --unsafe applies it)\n"
            for e in item.skipped
        )
    return "".join(parts) or "nothing to fix\n"


def _json(fixes: Sequence[FileFix], write: bool) -> str:
    data = [
        {
            "file": item.path,
            "written": write and item.changed,
            "applied": [e.to_json() for e in item.applied],
            "left": [e.to_json() for e in item.skipped],
        }
        for item in fixes
    ]
    return json.dumps(data, indent=2) + "\n"
