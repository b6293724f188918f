"""``toollens show``: print the views of one tool, as the explorer shows them."""

from __future__ import annotations

import argparse
import dataclasses

from toollens.cli.common import (
    EXIT_CODES_HELP,
    EXIT_OK,
    TARGET_HELP,
    TARGETS_HELP,
    Command,
    add_context_types,
    add_format,
    add_strictness,
    cli_options,
    context_types,
    default_provider,
    mcp_options,
    report_of,
)
from toollens.cli.connect import add_mcp_arguments, cli_connect
from toollens.cli.show_clients import add_clients_arguments, run_show_clients
from toollens.core.choices import DEFAULT_PROVIDER, DOCSTRING_STYLES
from toollens.core.errors import TargetError
from toollens.render.formats import format_show

__all__ = [
    "add_show_command",
    "run_show",
]


_SHOW_EPILOG = f"""\
Prints the views the explorer shows, from one report: the signature, each parameter's
merged metadata and where it came from, the schema before (raw) and after strict
conversion, the output schema, and the provider's tool payload.

examples:
  toollens show tools:search
  toollens show tools.py:search --view strict
  toollens show tools.py:search --view provider --provider anthropic --format json
  toollens show schema.json --no-strict --view raw
  toollens show "mcp:python server.py#search" --view clients --client cursor
  toollens show tools-list.json --view clients --server-name github --format json

--view clients (MCP tools only): per client, its verdict, the rules behind it (source,
date, evidence) and the name and JSON it sends, as a diff against what the server sent.

{TARGETS_HELP}

{EXIT_CODES_HELP}"""


def add_show_command(command: Command, providers: tuple[str, ...]) -> None:
    # lazy: render.text brings pydantic (~90 ms); `import toollens.cli` does not load it
    from toollens.render.text import VIEWS as views

    show = command("show", "print the views of one tool (what the model receives)", _SHOW_EPILOG)
    show.add_argument("target", metavar="TARGET", nargs="?", help=TARGET_HELP)
    show.add_argument(
        "--view",
        choices=(*(str(v) for v in views), "clients", "all"),
        default="all",
        help="which view to print (default: all; clients: what each client does with an MCP tool)",
    )
    show.add_argument(
        "--provider",
        choices=providers,
        metavar="P",
        help=f"provider for the payload and findings: {', '.join(providers)} "
        f"(default: the one a payload file is written for, else {DEFAULT_PROVIDER})",
    )
    add_strictness(show)
    add_context_types(show)
    show.add_argument(
        "--style",
        choices=DOCSTRING_STYLES,
        metavar="S",
        help="docstring style: google, numpy or sphinx (default: detected)",
    )
    show.add_argument("--name", metavar="N", help="override the tool name")
    show.add_argument("--description", metavar="D", help="override the tool description")
    add_format(show, "text")
    add_mcp_arguments(show)
    add_clients_arguments(show)
    show.set_defaults(handler=run_show)


def run_show(args: argparse.Namespace) -> tuple[str, int]:
    # lazy: assess, targets and cli.show_tools (~50 ms over `--help`), for `show` only
    from toollens.assess import AssessRequest
    from toollens.assess.options import project_options
    from toollens.assess.reading import is_toolset_source
    from toollens.assess.request import PROJECT
    from toollens.cli.show_tools import show_source
    from toollens.targets import is_project_source

    if args.view == "clients":
        return run_show_clients(args)
    if args.clients or args.server_name:
        raise TargetError(
            "--client and --server-name apply to --view clients",
            hint="add --view clients to see what each client does with the tools",
        )
    named = {"name": args.name, "description": args.description}
    source = args.target or PROJECT  # no target: every tool of the project, as `check`
    if is_project_source(source):  # the table's options under the command line's
        request = AssessRequest(
            target=source,
            providers=(args.provider,) if args.provider else (),
            strict=args.strict,
            context_types=context_types(args),
            mcp_revision=args.mcp_revision,
        )
        options, _ = project_options(request, source, style=args.style)
        options = dataclasses.replace(options, **named)
        return show_source(source, options, args.view, args.format, cli_connect(args))
    # the same defaults as check: a payload's own provider; an MCP tool list non-strict
    args.provider = args.provider or default_provider(args)
    if is_toolset_source(source):  # modules, payloads, mcp: servers, agents
        options = cli_options(args, args.provider, docstring_style=args.style, **named)
        options = mcp_options(args, options)
        return show_source(source, options, args.view, args.format, cli_connect(args))
    options = cli_options(
        args,
        args.provider,
        name=args.name,
        description=args.description,
        docstring_style=args.style,
    )
    rep = report_of(args.target, mcp_options(args, options))
    return format_show(rep, args.view, args.format), EXIT_OK
