"""The :class:`Tool` record: one tool toollens knows, whatever it was read from.

Every reader (a callable, ``MODULE:ATTR``, a file, a module, a framework object, a payload
file, the project table, an ``mcp:`` server) produces a ``Tool``; every command, view and the
lock consume it. A ``Tool`` is data: its name, title, description, input and output schema,
annotations, where it came from (:class:`ToolOrigin`), and the
:class:`~toollens.core.report.Report` the rest of toollens computes for it. A tool that could
not be read keeps its ``error`` (one line) instead of a report, so a toolset with one broken
tool still builds.
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from toollens.core.choices import provider_id
from toollens.core.errors import ToolLensError
from toollens.core.record_json import record_json
from toollens.core.records import Finding
from toollens.core.report import ReportOptions, report
from toollens.core.schema.types import JsonMapping, JsonObject, JsonSchema
from toollens.mcp.records import mcp_fields
from toollens.toolsets.locations import source_location

if TYPE_CHECKING:
    from toollens.consumers import ToolList
    from toollens.core.report import Report

__all__ = ["OriginKind", "Tool", "ToolOrigin", "callable_origin", "one_line"]

OriginKind = Literal[
    "callable", "module", "json", "agents", "pydantic-ai", "langchain", "project", "mcp"
]
"""What kind of source an entry was read from."""


@dataclass(frozen=True)
class ToolOrigin:
    """Where one tool came from.

    Attributes:
        kind: the kind of source (``"callable"``, ``"module"``, ``"json"``, ``"agents"``, ...).
        label: the source as a person names it (``pkg.tools``, ``tools.json``, ``agent``).
        module: the Python module defining the tool, for Python tools.
        line: the line of its ``def`` in that module's file, when the source is on disk.
        index: its position in a JSON payload list (or in the list it was given in).
        role: what the entry is to its source when it is not a plain tool (``"handoff"``).
        server: for a server's tool, the server as written, without ``#TOOL``
            (``mcp:python server.py``); ``label`` is then the target naming the tool.
        command: for a server's tool, how it is reached: its command line (stdio) or URL.
    """

    kind: OriginKind
    label: str
    module: str | None = None
    line: int | None = None
    index: int | None = None
    role: str | None = None
    server: str | None = None
    command: str | None = None

    def to_json(self) -> JsonObject:
        """Where the tool came from, as ``check --format json`` writes it."""
        return record_json(self, "kind", "label", "module", "line", "index", "role")

    def __str__(self) -> str:
        where = self.module or self.label
        if self.line is not None:
            where += f":{self.line}"
        if self.index is not None:
            where += f"[{self.index}]"
        return where


@dataclass(frozen=True)
class Tool:
    """One tool as a model receives it, whatever it was read from.

    Attributes:
        name: the name the model sees (the report's title), or the best name known for a
            tool that could not be read.
        origin: where the tool came from (file and line, server and its command, payload
            file and index).
        report: every view of the tool, or ``None`` when it could not be read.
        error: why the tool could not be read (one line), else ``None``.
        description: the description the model sees, when there is one.
        output_schema: the tool's declared output schema (an MCP ``outputSchema``, a
            payload's), for tools known by their definition.
        parameters_schema: the input (parameters) schema as written, before strict
            conversion; also :attr:`input_schema`.
        findings: the tool's own lint and provider findings (the report's).
        strict: whether the tool is sent strict (the report's options), ``None`` unknown.
        sent_schema: the parameters schema as sent (after strict conversion when strict),
            kept without the report for the request-level rules.
        payload_findings: what the MCP specification says of a tool read from a saved
            ``tools/list`` (a provider payload's own fields are judged in its report).
        title: the tool's human-readable title (MCP ``title``), when it has one.
        annotations: the tool's behaviour hints (MCP ``annotations``: ``readOnlyHint``,
            ``destructiveHint``, ...), when it has some.
        listing: the MCP tool list the tool was listed in (set by its :class:`Toolset`,
            for an ``mcp:`` server or a saved ``tools/list``), so the tool alone opens with
            its Clients view (``toollens.Explorer(ts.tools[0])``).

    A tool with neither a report nor an error is listed but not checked (a hosted tool,
    a toolset known only during a run); ``origin.role`` says what it is. A tool sent to
    another process keeps everything but its report (:meth:`without_report`).
    """

    name: str
    origin: ToolOrigin
    report: Report | None = field(default=None, compare=False)
    error: str | None = None
    description: str | None = None
    output_schema: dict[str, Any] | None = field(default=None, compare=False)
    parameters_schema: dict[str, Any] | None = field(default=None, compare=False)
    findings: tuple[Finding, ...] = ()
    strict: bool | None = None
    sent_schema: dict[str, Any] | None = field(default=None, compare=False)
    payload_findings: tuple[Finding, ...] = ()
    title: str | None = None
    annotations: dict[str, Any] | None = field(default=None, compare=False)
    listing: ToolList | None = field(default=None, compare=False, repr=False)

    @property
    def input_schema(self) -> JsonSchema | None:
        """The input schema as written (the same as :attr:`parameters_schema`)."""
        return self.parameters_schema

    @property
    def function(self) -> object | None:
        """The Python function (or class) the tool was read from, when there is one."""
        if self.report is None or self.report.function is None:
            return None
        return self.report.target

    def definition(self) -> JsonObject:
        """The tool's fields under MCP's own names (``inputSchema``, ``outputSchema``...)."""
        return mcp_fields(self)

    @property
    def ok(self) -> bool:
        """Whether the tool was read (it has a parameters schema and no error)."""
        return self.error is None and self.parameters_schema is not None

    def report_for(self, provider: str) -> Report | None:
        """The tool's report for ``provider`` (its own when it is for that provider)."""
        if self.report is None or self.report.provider == provider:
            return self.report

        return report(self.report.target, self.report.options, provider=provider_id(provider))

    def without_report(self) -> Tool:
        """This entry without its report (reports hold classes that cannot be pickled)."""
        return dataclasses.replace(self, report=None)

    # Any: ``more`` are other fields of this record, each with its own type.
    @classmethod
    def from_report(
        cls, rep: Report, origin: ToolOrigin, *, description: str | None = None, **more: Any
    ) -> Tool:
        """An entry for a report already computed."""
        return cls(
            name=rep.title,
            origin=origin,
            report=rep,
            description=description,
            parameters_schema=rep.raw_schema,
            findings=rep.findings,
            strict=rep.options.strict,
            sent_schema=rep.schema,
            **more,
        )

    @classmethod
    def failed(
        cls,
        name: str,
        origin: ToolOrigin,
        error: str,
        *,
        title: str | None = None,
        annotations: JsonObject | None = None,
        output_schema: JsonSchema | None = None,
    ) -> Tool:
        """An entry for a tool that could not be read, with what its definition declares
        besides the schema that could not be judged (its title, annotations, output)."""
        return cls(
            name=name,
            origin=origin,
            error=one_line(error),
            title=title,
            annotations=annotations,
            output_schema=output_schema,
        )

    @classmethod
    def from_callable(
        cls,
        func: object,
        *,
        origin: ToolOrigin | None = None,
        options: ReportOptions | None = None,
    ) -> Tool:
        """An entry for a Python function (or class): its report, or the error inspecting it."""
        where = origin or callable_origin(func, kind="callable")
        try:
            rep = report(func, options)
        except ToolLensError as exc:
            return cls.failed(name_of(func), where, str(exc))
        except Exception as exc:  # inspecting runs user code (__signature__, properties, ...)
            return cls.failed(name_of(func), where, _raised("inspecting", exc))
        description = rep.function.description if rep.function is not None else None
        return cls.from_report(rep, where, description=description)

    @classmethod
    def from_definition(
        cls,
        name: str,
        description: str | None,
        input_schema: JsonMapping,
        output_schema: JsonMapping | None = None,
        *,
        origin: ToolOrigin | None = None,
        options: ReportOptions | None = None,
        title: str | None = None,
        annotations: JsonMapping | None = None,
    ) -> Tool:
        """An entry for a tool known only by its definition: a name, a description and the
        JSON Schema of its input (a provider payload, an MCP ``tools/list`` result, ...),
        with its output schema, title and annotations when it declares them.

        ``options.strict`` decides whether strict conversion runs on ``input_schema``.
        """
        where = origin or ToolOrigin(kind="json", label=name)
        given = options or ReportOptions()
        named = dataclasses.replace(given, name=name, description=description)
        output = dict(output_schema) if output_schema is not None else None
        hints = dict(annotations) if annotations is not None else None
        try:
            rep = report(dict(input_schema), named)
        except ToolLensError as exc:
            return cls.failed(
                name, where, str(exc), title=title, annotations=hints, output_schema=output
            )
        return cls.from_report(
            rep,
            where,
            description=description,
            output_schema=output,
            title=title,
            annotations=hints,
        )


"""The former name of :class:`Tool` (the same class), kept so existing code keeps working."""


def callable_origin(
    func: object, *, kind: OriginKind, label: str | None = None, index: int | None = None
) -> ToolOrigin:
    """The origin of a Python tool: its module and the line of its ``def``."""
    try:
        target = inspect.unwrap(func) if callable(func) else func
        module = getattr(target, "__module__", None)
        location = source_location(func)
    except Exception:  # unwrap and getattr run user code (__wrapped__, __getattr__)
        module, location = None, None
    return ToolOrigin(
        kind=kind,
        label=label or name_of(func),
        module=module if isinstance(module, str) else None,
        line=location.line if location is not None else None,
        index=index,
    )


def name_of(obj: object, attribute: str = "__name__") -> str:
    """``obj``'s name in ``attribute`` when that is a non-empty string, else its type's name
    (also when reading the attribute raises: a hostile ``__getattr__`` or property)."""
    try:
        name = getattr(obj, attribute, None)
    except Exception:  # a hostile __getattr__
        name = None
    return name if isinstance(name, str) and name else type(obj).__name__


def _raised(doing: str, exc: BaseException) -> str:
    return f"{doing} raised {type(exc).__name__}: {one_line(str(exc))}"


def one_line(text: str) -> str:
    """``text`` on one line: whitespace runs collapsed, never empty."""
    return " ".join(text.split()) or "(no message)"
