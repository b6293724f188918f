"""One tool of a toolset: its name, where it came from, its report, or why it could not be read.

An entry is data: a frozen record holding the :class:`~toollens.core.report.Report` the rest
of toollens already computes for one target. An entry that could not be read keeps its
``error`` (one line) instead of a report, so a toolset with one broken tool still builds.
"""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from toollens.core.errors import ToolLensError
from toollens.core.records import Finding
from toollens.core.schema.types import JsonMapping

if TYPE_CHECKING:
    from toollens.core.report import Report, ReportOptions

__all__ = ["OriginKind", "ToolEntry", "ToolOrigin", "callable_origin", "one_line"]

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
    """

    kind: OriginKind
    label: str
    module: str | None = None
    line: int | None = None
    index: int | None = None
    role: str | None = None

    def __str__(self) -> str:
        where = self.module or self.label
        if self.line is not None:
            where += f":{self.line}"
        if self.index is not None:
            where += f"[{self.index}]"
        return where


@dataclass(frozen=True)
class ToolEntry:
    """One tool of a :class:`~toollens.toolsets.Toolset`.

    Attributes:
        name: the name the model sees (the report's title), or the best name known for a
            tool that could not be read.
        origin: where the tool came from.
        report: every view of the tool, or ``None`` when it could not be read.
        error: why the tool could not be read (one line), else ``None``.
        description: the description the model sees, when there is one.
        output_schema: the tool's declared output schema for JSON tools that carry one.
        parameters_schema: the parameters schema as written (before strict conversion).
        findings: the tool's own lint and provider findings (the report's).
        strict: whether the tool is sent strict (the report's options), ``None`` unknown.
        sent_schema: the parameters schema as sent (after strict conversion when strict),
            kept without the report for the request-level rules.
        payload_findings: what the MCP specification says of a tool read from a saved
            ``tools/list`` (a provider payload's own fields are judged in its report).

    An entry with neither a report nor an error is listed but not checked (a hosted tool,
    a toolset known only during a run); ``origin.role`` says what it is. An entry sent to
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

    @property
    def ok(self) -> bool:
        """Whether the tool was read (it has a parameters schema and no error)."""
        return self.error is None and self.parameters_schema is not None

    def report_for(self, provider: str) -> Report | None:
        """The tool's report for ``provider`` (its own when it is for that provider)."""
        if self.report is None or self.report.provider == provider:
            return self.report
        from toollens.core.choices import provider_id
        from toollens.core.report import report

        return report(self.report.target, self.report.options, provider=provider_id(provider))

    def without_report(self) -> ToolEntry:
        """This entry without its report (reports hold classes that cannot be pickled)."""
        return dataclasses.replace(self, report=None)

    # Any: ``more`` are other fields of this record, each with its own type.
    @classmethod
    def from_report(
        cls, rep: Report, origin: ToolOrigin, *, description: str | None = None, **more: Any
    ) -> ToolEntry:
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
    def failed(cls, name: str, origin: ToolOrigin, error: str) -> ToolEntry:
        """An entry for a tool that could not be read."""
        return cls(name=name, origin=origin, error=one_line(error))

    @classmethod
    def from_callable(
        cls,
        func: object,
        *,
        origin: ToolOrigin | None = None,
        options: ReportOptions | None = None,
    ) -> ToolEntry:
        """An entry for a Python function (or class): its report, or the error inspecting it."""
        from toollens.core.report import report

        where = origin or callable_origin(func, kind="callable")
        try:
            rep = report(func, options)
        except ToolLensError as exc:
            return cls.failed(_callable_name(func), where, str(exc))
        except Exception as exc:  # inspecting runs user code (__signature__, properties, ...)
            return cls.failed(_callable_name(func), where, _raised("inspecting", exc))
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
    ) -> ToolEntry:
        """An entry for a tool known only by its definition: a name, a description and the
        JSON Schema of its input (a provider payload, an MCP ``tools/list`` result, ...).

        ``options.strict`` decides whether strict conversion runs on ``input_schema``.
        """
        from toollens.core.report import ReportOptions, report

        where = origin or ToolOrigin(kind="json", label=name)
        given = options or ReportOptions()
        named = dataclasses.replace(given, name=name, description=description)
        try:
            rep = report(dict(input_schema), named)
        except ToolLensError as exc:
            return cls.failed(name, where, str(exc))
        output = dict(output_schema) if output_schema is not None else None
        return cls.from_report(rep, where, description=description, output_schema=output)


def callable_origin(
    func: object, *, kind: OriginKind, label: str | None = None, index: int | None = None
) -> ToolOrigin:
    """The origin of a Python tool: its module and the line of its ``def``."""
    from toollens.project.tools import source_location

    try:
        target = inspect.unwrap(func) if callable(func) else func
        module = getattr(target, "__module__", None)
        location = source_location(func)
    except Exception:  # unwrap and getattr run user code (__wrapped__, __getattr__)
        module, location = None, None
    return ToolOrigin(
        kind=kind,
        label=label or _callable_name(func),
        module=module if isinstance(module, str) else None,
        line=location.line if location is not None else None,
        index=index,
    )


def _callable_name(func: Any) -> str:
    try:
        name = getattr(func, "__name__", None)
    except Exception:  # a hostile __getattr__
        name = None
    return name if isinstance(name, str) and name else type(func).__name__


def _raised(doing: str, exc: BaseException) -> str:
    return f"{doing} raised {type(exc).__name__}: {one_line(str(exc))}"


def one_line(text: str) -> str:
    """``text`` on one line: whitespace runs collapsed, never empty."""
    return " ".join(text.split()) or "(no message)"
