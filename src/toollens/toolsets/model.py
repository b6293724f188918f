"""The Toolset record: many tools as one object, and the findings only the set has."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, overload

from toollens.core.display_hooks import mimebundle
from toollens.core.problems import set_counts
from toollens.core.records import Finding, Severity, severity_counts
from toollens.core.schema.types import JsonMapping
from toollens.toolsets.definitions import Definition, definition_entry
from toollens.toolsets.entries import Tool
from toollens.toolsets.rules import ToolsetFinding, iter_toolset_findings

if TYPE_CHECKING:
    from toollens.consumers import ToolList
    from toollens.core.report import ReportOptions
    from toollens.mcp.records import ServerTools

__all__ = ["Toolset"]


@dataclass(frozen=True)
class Toolset:
    """Many tools given to a model together.

    Attributes:
        tools: one entry per tool, in the order the source lists them (an entry that could
            not be read keeps its place, with its ``error``).
        cross_findings: the findings only the set has (duplicate names, too many tools,
            near-duplicate descriptions, ...), each with the tools it concerns.
        label: the source as given (``pkg.tools``, ``tools.json``, ``3 callables``).
        options: the report options every tool was read with.
        listing: the tool list exactly as a server sent it (an ``mcp:`` source, or a JSON
            file holding a saved ``tools/list`` answer), which the consumers judge
            (:mod:`toollens.consumers`); ``None`` for other sources.
        served: what the server answered (``initialize`` and ``tools/list``, as sent), for
            an ``mcp:`` source; ``None`` for other sources. Its tools are in :attr:`tools`
            as :class:`~toollens.toolsets.entries.Tool` records.
    """

    tools: tuple[Tool, ...]
    cross_findings: tuple[ToolsetFinding, ...] = ()
    label: str = "toolset"
    options: ReportOptions | None = field(default=None, compare=False)
    listing: ToolList | None = field(default=None, compare=False)
    served: ServerTools | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        # Each tool of a listing knows it, so one tool handed on alone keeps its Clients view.
        if self.listing is not None:
            listed = set(self.listing.names)
            tools = tuple(
                dataclasses.replace(t, listing=self.listing)
                if t.listing is None and t.name in listed
                else t
                for t in self.tools
            )
            object.__setattr__(self, "tools", tools)

    @classmethod
    def from_entries(
        cls,
        entries: Iterable[Tool],
        *,
        label: str,
        options: ReportOptions | None = None,
        listing: ToolList | None = None,
    ) -> Toolset:
        """A toolset of ready entries; the cross-tool rules run here, once."""
        tools = tuple(entries)
        return cls(tools, tuple(iter_toolset_findings(tools)), label, options, listing)

    @classmethod
    def from_definitions(
        cls,
        definitions: Iterable[Definition | JsonMapping],
        *,
        label: str = "definitions",
        kind: str = "json",
        options: ReportOptions | None = None,
    ) -> Toolset:
        """A toolset of tools known by their definitions.

        Each item is a :class:`Definition` or a mapping with ``name``, ``description``,
        ``input_schema`` (or ``inputSchema``) and optionally ``output_schema``
        (``outputSchema``), the shape of an MCP ``tools/list`` result.
        """
        entries = [
            definition_entry(item, index, label=label, kind=kind, options=options)
            for index, item in enumerate(definitions)
        ]
        return cls.from_entries(entries, label=label, options=options)

    @property
    def findings(self) -> tuple[Finding, ...]:
        """The cross-tool findings (each tool's own findings are on its entry)."""
        return tuple(item.finding for item in self.cross_findings)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(entry.name for entry in self.tools)

    @property
    def errors(self) -> tuple[Tool, ...]:
        """The entries that could not be read."""
        return tuple(entry for entry in self.tools if entry.error is not None)

    def findings_for(self, name: str) -> tuple[Finding, ...]:
        """The cross-tool findings that concern the tool named ``name``."""
        return tuple(item.finding for item in self.cross_findings if name in item.tools)

    @functools.cached_property
    def finding_counts(self) -> dict[Severity, int]:
        """The set's problems per severity: each tool's as its own check counts them (a
        provider finding explaining a lint finding once), and the cross-tool findings."""
        each = (
            e.report.finding_counts if e.report is not None else severity_counts(e.findings)
            for e in self.tools
        )
        return set_counts(each, self.findings)

    def __len__(self) -> int:
        return len(self.tools)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.tools)

    @overload
    def __getitem__(self, key: int) -> Tool: ...
    @overload
    def __getitem__(self, key: str) -> Tool: ...
    def __getitem__(self, key: int | str) -> Tool:
        """An entry by position, or the first entry of that name."""
        if isinstance(key, int):
            return self.tools[key]
        for entry in self.tools:
            if entry.name == key:
                return entry
        raise KeyError(key)

    def _repr_mimebundle_(
        self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
    ) -> dict[str, str]:
        # The renderer is registered by the front end that displays toolsets.
        return mimebundle(self, include, exclude)
