"""The mechanical remedies for a Python tool: one row per lint rule, each reading the tool's
function (its signature, its docstring, the metadata candidates with their sources)."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from toollens.core.docstrings import parse_docstring
from toollens.core.metadata.provenance import Source
from toollens.core.records import Finding
from toollens.core.schema.pointer import split_pointer
from toollens.core.schema.types import ToolFunction
from toollens.fixes.model import Edit, PyOp, PyOpKind, Safety

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema

__all__ = ["PYTHON_REMEDIES", "python_edits"]

Remedy = Callable[[Finding, str, ToolFunction, "FunctionSchema"], Iterator[Edit]]


def _signature_names(function: ToolFunction) -> set[str]:
    try:
        return set(inspect.signature(function).parameters)
    except (TypeError, ValueError):  # no signature to read: nothing is known to be unknown
        return set()


def unknown_entries(
    finding: Finding, tool: str, function: ToolFunction, fs: FunctionSchema
) -> Iterator[Edit]:
    """A docstring entry for a parameter the function does not have, removed."""
    names = _signature_names(function)
    documented = parse_docstring(inspect.getdoc(function)).params
    for name in documented:
        if names and name not in names:
            op = PyOp("remove-doc-entry", function.__name__, parameter=name)
            summary = f"remove the docstring entry for {name!r}, which is not a parameter"
            yield Edit(finding.rule, tool, None, Safety.SAFE, summary, op)


def losing_entry(
    finding: Finding, tool: str, function: ToolFunction, fs: FunctionSchema
) -> Iterator[Edit]:
    """Of two descriptions, the one that loses removed (the docstring entry, or the
    description of an ``Annotated`` ``Field``): the model saw only the winner already."""
    for parameter in fs.parameters:
        if parameter.name != finding.parameter:
            continue
        lost = {
            c.source
            for c in parameter.candidates
            if c.attribute == "description" and not c.won and not c.ignored
        }
        kind: PyOpKind | None = None
        if Source.DOCSTRING in lost:
            kind = "remove-doc-entry"
        elif lost & {Source.ANNOTATED_FIELD}:
            kind = "remove-field-description"
        if kind is not None:
            op = PyOp(kind, function.__name__, parameter=parameter.name)
            where = "docstring entry" if kind == "remove-doc-entry" else "Field description"
            summary = f"remove the {where} of {parameter.name!r}, which is not sent"
            yield Edit(finding.rule, tool, finding.pointer, Safety.SAFE, summary, op)


_LITERAL_TYPES = (bool, int, float, str)


def annotation_from_default(
    finding: Finding, tool: str, function: ToolFunction, fs: FunctionSchema
) -> Iterator[Edit]:
    """An unannotated parameter with a literal default annotated with the default's type:
    the schema then refuses other values (unsafe)."""
    try:
        parameter = inspect.signature(function).parameters.get(finding.parameter or "")
    except (TypeError, ValueError):  # no signature: nothing to annotate
        return
    if parameter is None or parameter.default is inspect.Parameter.empty:
        return
    kind = type(parameter.default)
    if kind not in _LITERAL_TYPES:
        return
    op = PyOp("annotate", function.__name__, parameter=parameter.name, annotation=kind.__name__)
    summary = f"annotate {parameter.name!r} as {kind.__name__}, the type of its default"
    yield Edit(finding.rule, tool, finding.pointer, Safety.UNSAFE, summary, op)


def forbid_extra(
    finding: Finding, tool: str, function: ToolFunction, fs: FunctionSchema
) -> Iterator[Edit]:
    """An open pydantic model closed with ``extra="forbid"``: extra keys are then refused."""
    tokens = split_pointer(finding.pointer or "")
    if len(tokens) < 2 or tokens[0] not in ("$defs", "definitions"):
        return
    model = getattr(inspect.getmodule(function), tokens[1], None)
    if not inspect.isclass(model) or inspect.getsourcefile(model) != inspect.getsourcefile(
        function
    ):
        return
    op = PyOp("forbid-extra", tokens[1])
    summary = f"set extra='forbid' on {tokens[1]}"
    yield Edit(finding.rule, tool, finding.pointer, Safety.UNSAFE, summary, op)


def optional_annotation(
    finding: Finding, tool: str, function: ToolFunction, fs: FunctionSchema
) -> Iterator[Edit]:
    """``x: str = None`` annotated ``x: str | None = None``: the function already takes None
    (its default), and the schema now lets the model send null for it (the schema accepts
    more than before: unsafe)."""
    name = finding.parameter or ""
    try:
        parameter = inspect.signature(function).parameters.get(name)
    except (TypeError, ValueError):  # no signature: nothing to annotate
        return
    if parameter is None or parameter.default is not None:
        return
    op = PyOp("make-optional", function.__name__, parameter=name)
    yield Edit(
        finding.rule, tool, finding.pointer, Safety.UNSAFE, f"annotate {name!r} Optional", op
    )


PYTHON_REMEDIES: dict[str, Remedy] = {
    "lint.unknown-documented-parameter": unknown_entries,
    "lint.conflicting-descriptions": losing_entry,
    "lint.unannotated-parameter": annotation_from_default,
    "lint.none-default-not-nullable": optional_annotation,
    "lint.open-nested-object": forbid_extra,
}
"""Rule id -> the remedy of its findings on a Python tool."""


def python_edits(
    finding: Finding, tool: str, function: ToolFunction, fs: FunctionSchema
) -> Iterator[Edit]:
    """The edits that remove ``finding`` from a Python tool (none: no remedy)."""
    remedy = PYTHON_REMEDIES.get(finding.rule)
    if remedy is not None:
        yield from remedy(finding, tool, function, fs)
