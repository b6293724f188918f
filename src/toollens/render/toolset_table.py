"""The toolset table as data: one model that the text table, the static page and the widget draw.

A :class:`ToolsetTable` holds one :class:`ToolRowView` per tool (its name, where it came from,
each provider's verdict with its counts, lint, parameters, tokens), the columns (each turns
a row into a :class:`Cell`: the text shown, the key it sorts by, the verdict that colours it),
the sources its rows share, named once above the table instead of in every row (an MCP
server's command, a payload file), and the filter: :func:`row_matches` over a row's
``search`` text and ``rank``. The browser's table (``frontend/src/toolset_table.js``, the
same code in the static page and the widget) filters the same two fields the same way.

Pure: no UI import; the rows come from the toolset's reports, or from check results computed
elsewhere (the command line reads a module's tools in several processes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from toollens.assess import AssessRequest, assess_toolset
from toollens.assess.verdicts import RANKS, ToolVerdicts
from toollens.consumers import Verdict
from toollens.core.choices import DEFAULT_PROVIDER
from toollens.core.records import SEVERITY_ORDER
from toollens.core.schema.types import JsonObject

if TYPE_CHECKING:
    from toollens.toolsets import Tool, Toolset

__all__ = [
    "LEVELS",
    "PAGE_ROWS",
    "Cell",
    "Column",
    "Level",
    "ToolRowView",
    "ToolsetTable",
    "row_matches",
    "table_text",
    "toolset_table",
]

PAGE_ROWS = 100
"""How many rows the browser's table shows a page (1,000 tools stay quick to draw)."""


@dataclass(frozen=True)
class Level:
    """One choice of the "worst finding" filter: rows ranked at most ``rank`` (all: None)."""

    value: str
    label: str
    rank: int | None


LEVELS: tuple[Level, ...] = (
    Level("", "every tool", None),
    *(Level(str(i), f"{s.value} or worse", i) for i, s in enumerate(SEVERITY_ORDER)),
)


@dataclass(frozen=True)
class ToolRowView:
    """One row of the toolset table.

    Attributes:
        index: the tool's position in the toolset (rows keep it when sorted).
        name, kind, role: the tool's name, its source's kind, what it is when not a tool.
        source: where it came from, less the part its group names (``[3]`` of a payload).
        group: which of the table's ``groups`` it came from (an MCP server), else ``None``.
        parameters: how many top-level parameters it has (``None`` when not read).
        providers: per provider, its verdict: the worst severity of its findings, ``"ok"``,
            ``"error"`` when that provider's view failed, ``"not read"``/``"not checked"``.
        provider_text: per provider, what the verdict counts (``"2 warnings"``, ``"ok"``).
        clients: per client shown, its verdict on the tool (absent: the list lacks it).
        strict: ``"strict"``, ``"off"``, ``"cannot be strict"`` (``"-"`` when not read).
        lint, lint_text, lint_state: how many lint findings; their counts (with the views no
            provider owns) and their verdict.
        findings: every finding of the tool (its own, then the cross-tool ones about it).
        rank: the worst state's position (:data:`RANKS`), for sorting and filtering.
        error: why the tool could not be read.
        tokens: what its definition costs on the table's model (``None``: not counted).
        search: the lower-case text the filter's query is looked for in.
    """

    index: int
    name: str
    source: str
    kind: str
    role: str | None
    parameters: int | None
    providers: dict[str, str]
    strict: str
    lint: int
    findings: int
    rank: int
    error: str | None
    tokens: int | None = None
    group: int | None = None
    provider_text: dict[str, str] = field(default_factory=dict)
    clients: dict[str, str] = field(default_factory=dict)
    lint_text: str = "-"
    lint_state: str = "ok"
    search: str = ""


@dataclass(frozen=True)
class Cell:
    """What one column shows for one row: text, the key it sorts by, the verdict colouring it."""

    text: str
    key: str | int
    state: str | None = None

    def to_json(self) -> list[str | int]:
        return [self.text, self.key] if self.state is None else [self.text, self.key, self.state]


@dataclass(frozen=True)
class Column:
    """A column: its id, heading, how it is drawn (``text``, ``verdict``, ``tokens``), its cells."""

    id: str
    title: str
    cell: Callable[[ToolRowView], Cell]
    kind: Literal["text", "number", "verdict", "tokens", "client"] = "text"


@dataclass(frozen=True)
class ToolsetTable:
    """Every row and column of a toolset's table, and the sources its rows share.

    Attributes:
        label: the toolset as named.
        providers: the provider columns, in order.
        rows: one per tool, in toolset order.
        columns: what the table shows, left to right (:meth:`with_columns` adds some).
        groups: the sources rows share (an MCP server's command), each named once.
    """

    label: str
    providers: tuple[str, ...]
    rows: tuple[ToolRowView, ...]
    columns: tuple[Column, ...]
    groups: tuple[str, ...] = ()

    def column(self, column_id: str) -> Column:
        return next(c for c in self.columns if c.id == column_id)

    def with_columns(self, extra: Sequence[Column]) -> ToolsetTable:
        """The table with ``extra`` columns after its own (a front end's per-client columns)."""
        return replace(self, columns=(*self.columns, *extra))

    @property
    def clients(self) -> tuple[str, ...]:
        """The clients with a verdict column (:func:`client_columns`), in order."""
        return tuple(c.title for c in self.columns if c.kind == "client")

    def drawn(self, client: str | None = None) -> tuple[Column, ...]:
        """The columns a browser draws: every one but the client columns, of which only
        ``client``'s (default: the first); the client picker switches it."""
        shown = client if client in self.clients else next(iter(self.clients), None)
        return tuple(c for c in self.columns if c.kind != "client" or c.title == shown)

    def visible(self, query: str = "", level: str = "") -> list[ToolRowView]:
        """The rows the filter keeps, in toolset order (the front ends then sort and page)."""
        return [row for row in self.rows if row_matches(row, query, level)]

    @property
    def numbered(self) -> bool:
        """Whether rows mark their group (``[2]``): several groups, or rows outside the one."""
        return len(self.groups) > 1 or any(row.group is None for row in self.rows)

    def group_lines(self) -> list[str]:
        """The shared sources as lines: ``source: mcp:...``, or one numbered line each."""
        if not self.groups:
            return []
        if not self.numbered:
            return [f"source: {self.groups[0]}"]
        return [f"source [{i + 1}]: {g}" for i, g in enumerate(self.groups)]

    def to_json(self) -> JsonObject:
        """What the browser's table draws: columns, rows with their cells, groups, levels."""
        return {
            "label": self.label,
            "columns": [{"id": c.id, "title": c.title, "kind": c.kind} for c in self.columns],
            "rows": [
                {
                    "index": row.index,
                    "name": row.name,
                    "rank": row.rank,
                    "search": row.search,
                    "tokens": row.tokens,
                    "parameters": row.parameters,
                    "providers": dict(row.providers),
                    "error": row.error,
                    "cells": [c.cell(row).to_json() for c in self.columns],
                }
                for row in self.rows
            ],
            "groups": self.group_lines(),
            "levels": [[lv.value, lv.label, lv.rank] for lv in LEVELS],
            "page": PAGE_ROWS,
        }


def row_matches(row: ToolRowView, query: str, level: str) -> bool:
    """The filter: ``query`` is in the row's search text (any case), and its worst state is at
    least as bad as ``level`` (a :data:`LEVELS` value; ``""`` keeps every row)."""
    wanted = next((lv.rank for lv in LEVELS if lv.value == level), None)
    return (wanted is None or row.rank <= wanted) and query.lower() in row.search


# -- building the rows ----------------------------------------------------------------------


def _grouped(entries: Sequence[Tool]) -> list[tuple[str | None, str]]:
    """Per entry, the shared source it names and the rest of its source.

    An MCP server's tools share its command; a payload file's tools share its path when the
    whole table comes from that one file (``[3]`` is left). Others share nothing.
    """
    found: list[tuple[str | None, str]] = []
    for entry in entries:
        origin = entry.origin
        whole = str(origin)
        if origin.server is not None and origin.label == f"{origin.server}#{entry.name}":
            found.append((origin.server, ""))
        else:
            found.append((None, "" if whole == entry.name else whole))
    labels = {e.origin.label for e in entries}
    if entries and len(labels) == 1 and all(_indexed_json(e) for e in entries):
        return [(e.origin.label, f"[{e.origin.index}]") for e in entries]
    return found


def _indexed_json(entry: Tool) -> bool:
    origin = entry.origin
    return origin.kind == "json" and origin.index is not None and origin.module is None


def _row(base: ToolRowView, entry: Tool, verdicts: ToolVerdicts) -> ToolRowView:
    """``base`` with the assessment's verdicts on ``entry`` (drawn, not decided, here)."""
    lint = verdicts.lint
    row = replace(
        base,
        providers={p: v.state for p, v in verdicts.providers.items()},
        provider_text={p: v.text for p, v in verdicts.providers.items()},
        clients={c: v.state for c, v in verdicts.clients.items() if v is not None},
        lint_text=lint.text,
        lint_state=lint.state,
        findings=verdicts.findings,
        rank=verdicts.rank,
    )
    rep = entry.report
    if rep is None:
        return row
    props = (entry.parameters_schema or {}).get("properties")
    return replace(
        row,
        parameters=len(props) if isinstance(props, dict) else 0,
        strict=_strict_state(rep.options.strict, rep.schema is not None),
        lint=verdicts.lint_count,
    )


def _strict_state(asked: bool, converted: bool) -> str:
    if not asked:
        return "off"
    return "strict" if converted else "cannot be strict"


def toolset_table(
    ts: Toolset,
    providers: Sequence[str] | None = None,
    *,
    verdicts: Sequence[ToolVerdicts] | None = None,
    tokens: Callable[[Tool], int | None] | None = None,
) -> ToolsetTable:
    """The table of ``ts``.

    Args:
        ts: the toolset.
        providers: the provider columns (the toolset's provider when ``None``).
        verdicts: each entry's verdicts, in toolset order, from its assessment
            (:attr:`toollens.assess.Assessment.verdicts`; with client columns when it has
            clients); ``None``: the toolset as read, judged for ``providers`` alone.
        tokens: what one entry's definition costs (no tokens column when ``None``).
    """
    default = ts.options.provider if ts.options is not None else DEFAULT_PROVIDER
    chosen = tuple(dict.fromkeys(providers or [default]))
    if verdicts is None:
        verdicts = assess_toolset(ts, AssessRequest(target=ts), chosen).verdicts
    groups: dict[str, int] = {}
    rows = []
    for index, (entry, (group, rest)) in enumerate(zip(ts.tools, _grouped(ts.tools), strict=True)):
        where = None if group is None else groups.setdefault(group, len(groups))
        base = ToolRowView(
            index=index,
            name=entry.name,
            source=rest,
            kind=entry.origin.kind,
            role=entry.origin.role,
            parameters=None,
            providers={},
            strict="-",
            lint=0,
            findings=0,
            rank=0,
            error=entry.error,
            group=where,
        )
        row = _row(base, entry, verdicts[index])
        if entry.report is not None and tokens is not None:
            row = replace(row, tokens=tokens(entry))
        text = [row.name, row.role or "", row.source, row.error or "", group or ""]
        rows.append(replace(row, search=" ".join(text).lower()))
    table = ToolsetTable(ts.label, chosen, tuple(rows), (), tuple(groups))
    columns = _columns(table, tokens is not None)
    clients = list(verdicts[0].clients) if verdicts else []
    return replace(table, columns=(*columns, *(_client_column(c) for c in clients)))


# -- columns --------------------------------------------------------------------------------


def _source_cell(table: ToolsetTable) -> Callable[[ToolRowView], Cell]:
    numbered = table.numbered

    def cell(row: ToolRowView) -> Cell:
        where = row.source
        if numbered and row.group is not None:
            where = f"[{row.group + 1}]{where}"
        text = f"{where}: {row.error}" if where and row.error else (where or row.error or "")
        return Cell(text, text)

    return cell


def _verdict(provider: str) -> Callable[[ToolRowView], Cell]:
    def cell(row: ToolRowView) -> Cell:
        state = row.providers[provider]
        return Cell(row.provider_text[provider], RANKS[state], state)

    return cell


def _lint_cell(row: ToolRowView) -> Cell:
    return Cell(row.lint_text, row.lint, row.lint_state)


def _columns(table: ToolsetTable, with_tokens: bool) -> list[Column]:
    columns = [
        Column("index", "#", lambda r: Cell(str(r.index + 1), r.index), "number"),
        Column("tool", "tool", lambda r: Cell(r.name + (f" ({r.role})" if r.role else ""), r.name)),
    ]
    if any(row.source or row.error for row in table.rows) or (table.groups and table.numbered):
        columns.append(Column("source", "source", _source_cell(table)))
    params = Column(
        "params",
        "params",
        lambda r: Cell("-" if r.parameters is None else str(r.parameters), r.parameters or 0),
        "number",
    )
    columns.append(params)
    if with_tokens:
        tokens = Column(
            "tokens",
            "tokens",
            lambda r: Cell(
                "-" if r.tokens is None else str(r.tokens), -1 if r.tokens is None else r.tokens
            ),
            "tokens",
        )
        columns.append(tokens)
    columns += [Column(p, p, _verdict(p), "verdict") for p in table.providers]
    columns += [
        Column("strict", "strict", lambda r: Cell(r.strict, r.strict)),
        Column("lint", "lint", _lint_cell, "verdict"),
        Column("findings", "findings", lambda r: Cell(str(r.findings), r.findings), "number"),
    ]
    return columns


def _client_column(client: str) -> Column:
    """A client's verdict column (``client:<id>``, kind ``client``): what it does with each
    row's tool (``accepted``, ``rewritten``, ``tool-dropped``, ...; ``-`` for a row its tool
    list does not hold). A browser shows one at a time (:meth:`ToolsetTable.drawn`)."""
    # lazy: render.clients_view (~3 ms), for client columns only
    from toollens.render.clients_view import verdict_state

    def cell(row: ToolRowView) -> Cell:
        state = row.clients.get(client)
        if state is None:
            return Cell("-", -1)
        verdict = Verdict(state)
        return Cell(verdict.value, verdict.rank, verdict_state(verdict))

    return Column(f"client:{client}", client, cell, "client")


def table_text(table: ToolsetTable, column_ids: Sequence[str] | None = None) -> list[str]:
    """The table as aligned plain-text lines: the header, then one line per row.

    ``column_ids`` picks and orders the columns (every column when ``None``); the sources the
    rows share are :meth:`ToolsetTable.group_lines`, for above the table.
    """
    columns = [table.column(c) for c in column_ids] if column_ids else list(table.columns)
    head = [c.title for c in columns]
    body = [[c.cell(row).text for c in columns] for row in table.rows]
    widths = [max(len(line[i]) for line in [head, *body]) for i in range(len(head))]
    lines = [
        "  ".join(text.ljust(width) for text, width in zip(line, widths, strict=True)).rstrip()
        for line in [head, *body]
    ]
    return lines
