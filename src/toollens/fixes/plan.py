"""What ``toollens fix`` does to a target: every finding with a mechanical remedy as an
:class:`~toollens.fixes.model.Edit`, grouped by the file it changes, applied in memory.

The findings are the ones ``check`` shows for each tool (its lint and provider findings,
the MCP specification's, the cross-tool ones), each chosen provider's rules on the schema
as written, and, for an MCP tool list, what each default client's rules say of the tool.
Nothing is written here: :func:`fix_files` returns each file's text before and after.
"""

from __future__ import annotations

import inspect
import json
import os
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toollens.consumers import default_clients, judge_consumers
from toollens.core.choices import is_provider_id
from toollens.core.errors import TargetError
from toollens.core.providers import check_provider
from toollens.core.records import Finding
from toollens.fixes.json_file import apply_json_edits, tool_objects
from toollens.fixes.json_remedies import JsonSubject, json_edit
from toollens.fixes.model import Edit, FileFix, JsonOp, Safety
from toollens.fixes.python_remedies import python_edits

if TYPE_CHECKING:
    from toollens.consumers.model import ConsumerReport, ToolList
    from toollens.toolsets import Tool, Toolset

__all__ = ["FixRequest", "fix_files", "tool_findings"]


@dataclass(frozen=True)
class FixRequest:
    """What to fix: the rules chosen (empty: all), whether unsafe edits apply, the
    providers whose rules judge the tools, and the clients whose rules judge an MCP tool
    list (empty: the default clients)."""

    select: tuple[str, ...] = ()
    unsafe: bool = False
    providers: tuple[str, ...] = ("openai-chat",)
    clients: tuple[str, ...] = ()

    def chosen(self, edit: Edit) -> bool:
        return not self.select or any(
            edit.rule == s or edit.rule.startswith(s + ".") for s in self.select
        )


def tool_findings(
    ts: Toolset, tool: Tool, providers: Sequence[str], clients: Sequence[str] = ()
) -> Iterator[Finding]:
    """The findings of ``tool`` a fix may remove, each once."""
    seen: set[tuple[str, str | None]] = set()
    for finding in _all(ts, tool, providers, clients):
        if (finding.rule, finding.pointer) not in seen:
            seen.add((finding.rule, finding.pointer))
            yield finding


def _all(
    ts: Toolset, tool: Tool, providers: Sequence[str], clients: Sequence[str]
) -> Iterator[Finding]:
    yield from tool.findings
    yield from tool.payload_findings
    yield from ts.findings_for(tool.name)
    schema = tool.input_schema
    if tool.function is None and isinstance(schema, dict):
        for provider in providers:
            if is_provider_id(provider):
                strict = bool(tool.strict)
                yield from check_provider(schema, provider, name=tool.name, strict=strict)
    given = tool.report.given if tool.report is not None else None
    if given is not None:  # a payload's fields and layout, as each provider reads them
        for provider in providers:
            yield from given.findings_for(provider)
    if ts.listing is not None:
        yield from _client_findings(ts, tool, clients)


# The clients' judgement of a listing, made once per listing and clients however many of
# its tools are fixed (each judgement covers every tool); dropped with the listing.
_JUDGED: dict[int, dict[tuple[str, ...], ConsumerReport]] = {}


def _judged(listing: ToolList, clients: Sequence[str]) -> ConsumerReport:
    chosen = tuple(clients) or tuple(default_clients())
    if id(listing) not in _JUDGED:
        _JUDGED[id(listing)] = {}
        weakref.finalize(listing, _JUDGED.pop, id(listing), None)
    reports = _JUDGED[id(listing)]
    if chosen not in reports:
        reports[chosen] = judge_consumers(listing, list(chosen))
    return reports[chosen]


def _client_findings(ts: Toolset, tool: Tool, clients: Sequence[str]) -> Iterator[Finding]:
    assert ts.listing is not None
    for verdict in _judged(ts.listing, clients).verdicts_for(tool.name):
        yield from (hit.finding() for hit in verdict.hits)
        if verdict.provider is not None:
            yield from verdict.provider.findings


def _edits_of(ts: Toolset, tool: Tool, request: FixRequest) -> Iterator[Edit]:
    findings = list(tool_findings(ts, tool, request.providers, request.clients))
    function = tool.function
    fs = tool.report.function if tool.report is not None else None
    if callable(function) and fs is not None:
        for finding in findings:
            yield from python_edits(finding, tool.name, function, fs)
        return
    schema = tool.input_schema
    if tool.origin.kind == "json" and isinstance(schema, dict):  # only a JSON file is edited
        subject = JsonSubject(tool.name, schema, ts.names)
        for finding in findings:
            edit = json_edit(finding, subject)
            if edit is not None:
                yield edit


def _file_of(tool: Tool) -> str | None:
    function = tool.function
    if function is not None:
        try:
            return inspect.getsourcefile(function)  # type: ignore[arg-type]
        except TypeError:  # a builtin or a C extension: no file to edit
            return None
    if tool.origin.kind == "json" and os.path.isfile(tool.origin.label):
        return tool.origin.label
    return None


def _once(edits: Sequence[Edit]) -> list[Edit]:
    """Each change once: two rules with one remedy (``openai.default``, ``gemini.default``)
    make it once, credited to the first. An edit that only removes keys another edit of the
    same object removes too is left to that one (``anyOf`` made the only keyword takes its
    siblings into the branches, and says their ``default`` in words there)."""
    seen: set[tuple[str, str]] = set()
    kept = []
    for edit in edits:
        key = (edit.tool, repr(edit.op))  # an op may hold a dict: compared by its repr
        if key not in seen:
            seen.add(key)
            kept.append(edit)
    return [e for e in kept if not any(_superseded(e, other) for other in kept)]


def _superseded(edit: Edit, by: Edit) -> bool:
    a, b = edit.op, by.op
    if edit is by or not isinstance(a, JsonOp) or not isinstance(b, JsonOp):
        return False
    if a.path is None or a.path != b.path:
        return False
    # only removes (and says in words) keys the other edit takes away already
    return edit.tool == by.tool and not a.set and bool(a.remove) and set(a.remove) <= set(b.remove)


def fix_files(ts: Toolset, request: FixRequest) -> tuple[FileFix, ...]:
    """Each file the target's tools come from, with the chosen edits made in memory.

    Raises:
        TargetError: a tool to fix has no file (a server's tool, a builtin).
    """
    by_file: dict[str, list[tuple[Tool, Edit]]] = {}
    for tool in ts.tools:
        edits = [e for e in _once(list(_edits_of(ts, tool, request))) if request.chosen(e)]
        if not edits:
            continue
        path = _file_of(tool)
        if path is None:
            raise TargetError(
                f"tool {tool.name!r} has fixes but no file to write them to",
                hint="save the server's tools/list to a file and fix that, or fix its source",
            )
        by_file.setdefault(path, []).extend((tool, e) for e in edits)
    return tuple(_fix_file(path, pairs, ts, request) for path, pairs in by_file.items())


def _fix_file(
    path: str, pairs: list[tuple[Tool, Edit]], ts: Toolset, request: FixRequest
) -> FileFix:
    with open(path, encoding="utf-8") as handle:
        before = handle.read()
    wanted = [e for _, e in pairs if e.safety is Safety.SAFE or request.unsafe]
    skipped = tuple(e for _, e in pairs if e not in wanted)
    if path.endswith(".py"):
        try:
            # lazy: libcst (~110 ms) is the fix extra's; its absence is reported below
            from toollens.fixes.python_source import apply_python_edits
        except ImportError as exc:  # libcst is the fix extra's
            raise TargetError(
                "fixing a Python source needs libcst", hint="install toollens[fix]"
            ) from exc

        after, applied = apply_python_edits(before, wanted)
        compile(after, path, "exec")  # a fix that breaks the module is a bug: fail loudly
        return FileFix(path, before, after, applied, skipped)
    index_of = _json_positions(before, [t for t, _ in pairs])
    after = apply_json_edits(before, wanted, index_of)
    json.loads(after)
    return FileFix(path, before, after, tuple(wanted), skipped)


def _json_positions(text: str, tools: Sequence[Tool]) -> dict[str, int]:
    """Each tool's position among the file's tool objects: its read position when the names
    agree there, else the first object of its name."""
    objects = list(tool_objects(json.loads(text)))
    names = [o.name for o in objects]
    found = {}
    for tool in tools:
        index = tool.origin.index
        if index is not None and index < len(names) and names[index] == tool.name:
            found[tool.name] = index
        elif tool.name in names:
            found[tool.name] = names.index(tool.name)
    return found
