"""The report options and providers a request's tools are read and judged with.

One rule per decision, for every front end: an MCP tool list (an ``mcp:`` server, a saved
``tools/list`` file, a bare list of MCP tools) is judged as its clients send it, non-strict,
unless a client that sends strict is named (:func:`judged_options`); a payload file is judged
for the provider it is written for (:func:`default_provider`); the project's tools with the
table's options under the request's (:func:`project_options`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, cast

from toollens.consumers import is_mcp_listing, sends_strict
from toollens.core.choices import DEFAULT_PROVIDER, provider_id
from toollens.core.errors import TargetError
from toollens.core.report import ReportOptions
from toollens.json_files import load_json_value
from toollens.project.config import load_config
from toollens.targets import is_mcp_target, is_project_source
from toollens.toolsets.payloads import payload_provider

if TYPE_CHECKING:
    from toollens.assess.request import AssessRequest
    from toollens.core.choices import DocstringStyleName

__all__ = [
    "default_provider",
    "is_mcp_source",
    "judged_options",
    "project_options",
    "read_options",
    "report_options",
]


def judged_options(
    options: ReportOptions, source: object, clients: Sequence[str] = ()
) -> ReportOptions:
    """``options`` for the tools of ``source``: an MCP tool list's are non-strict unless one
    of ``clients`` (named one by one: ``all`` shows every client without turning strict on)
    sends strict."""
    if not options.strict or not is_mcp_source(source) or sends_strict(list(clients)):
        return options
    return dataclasses.replace(options, strict=False)


def is_mcp_source(source: object) -> bool:
    """An ``mcp:`` target, a ``tools/list`` answer (a dict), or a JSON file holding one or
    MCP tools."""
    if isinstance(source, str) and is_mcp_target(source):
        return True
    if isinstance(source, Mapping):
        return is_mcp_listing(source)
    if not isinstance(source, str) or not source.endswith(".json") or not Path(source).is_file():
        return False
    try:
        return is_mcp_listing(load_json_value(source))
    except TargetError:  # the command itself reports an unreadable file
        return False


def default_provider(target: object) -> str:
    """The provider judged for when none is named: the one a JSON payload target is written
    for (an Anthropic tool list is checked as Anthropic), else the default."""
    if isinstance(target, str) and target.endswith(".json") and Path(target).is_file():
        try:
            found = payload_provider(load_json_value(target))
        except TargetError:  # the command itself reports an unreadable file
            found = None
        if found is not None:
            return found
    return DEFAULT_PROVIDER


def report_options(request: AssessRequest, provider: str | None) -> ReportOptions:
    """The report options a request asks for, for ``provider``."""
    if request.options is not None:
        chosen = provider_id(provider or DEFAULT_PROVIDER)
        return dataclasses.replace(request.options, provider=chosen)
    return ReportOptions(
        strict=request.strict,
        provider=provider_id(provider) if provider else DEFAULT_PROVIDER,
        context_types=request.context_types,
        mcp_revision=request.mcp_revision,
    )


def project_options(
    request: AssessRequest, source: str, style: str | None = None
) -> tuple[ReportOptions, tuple[str, ...]]:
    """The options the project's tools are read with, and the providers to judge them for:
    the table's, under what the request names (its providers replace the table's, its
    ``strict=False`` wins over the table, the table's ``strict = false`` over the default).

    Raises:
        ProjectError: no ``pyproject.toml``, or a malformed ``[tool.toollens]`` table.
    """
    config = load_config(source.partition(":")[2] or None)
    providers = request.named_providers or config.providers
    table = config.report_options(providers[0])
    options = dataclasses.replace(
        report_options(request, providers[0]),
        strict=table.strict and request.strict,
        docstring_style=cast("DocstringStyleName | None", style) or table.docstring_style,
        optional_defaults=table.optional_defaults,
    )
    return options, providers


def read_options(request: AssessRequest) -> tuple[ReportOptions, tuple[str, ...]]:
    """The options a request's toolset is read with and the providers of its columns."""
    source = request.source
    if isinstance(source, str) and is_project_source(source):
        return project_options(request, source)
    providers = request.named_providers or (default_provider(source),)
    options = report_options(request, providers[0])
    return judged_options(options, source, request.named_clients), providers
