"""Edits applied to a Python tool's source with libcst: formatting and comments survive.

A docstring entry is found with the same code that gives the explorer its spans
(:func:`toollens.core.spans.docstrings.parameter_entries`), on the literal as written; an
annotation is added to a parameter; a pydantic model is closed with ``extra="forbid"``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import libcst as cst

from toollens.core.docstrings import parse_docstring
from toollens.core.errors import ToolLensError
from toollens.core.spans.docstrings import DocLine, parameter_entries
from toollens.fixes.model import Edit, PyOp

__all__ = ["apply_python_edits"]

_LITERAL = re.compile(r"^(?P<prefix>[rRuU]?)(?P<quote>\"\"\"|''')(?P<body>.*)(?P=quote)$", re.S)
_HEADER = re.compile(r"^\s*(Args|Arguments|Parameters|Params)\s*:?\s*$")


def _docstring_node(body: Sequence[cst.BaseStatement]) -> cst.SimpleString | None:
    first = body[0] if body else None
    if isinstance(first, cst.SimpleStatementLine) and len(first.body) == 1:
        expr = first.body[0]
        if isinstance(expr, cst.Expr) and isinstance(expr.value, cst.SimpleString):
            return expr.value
    return None


def without_entries(raw: str, names: Sequence[str]) -> str:
    """The docstring literal ``raw`` without the entries of ``names`` (and without a section
    header left with no entry)."""
    found = _LITERAL.match(raw)
    if found is None:
        return raw  # a one-quote or f-string docstring: left as written
    lines = found.group("body").split("\n")
    doc = parse_docstring(found.group("body"))
    style = doc.guess.style if doc.guess is not None else None
    if style is None:
        return raw
    spans = parameter_entries([DocLine(n + 1, 0, t) for n, t in enumerate(lines)], style)
    drop: set[int] = set()
    for name in names:
        span = spans.get(name)
        if span is not None:
            drop.update(range(span.start_line - 1, span.end_line))
    kept = [line for n, line in enumerate(lines) if n not in drop]
    body = "\n".join(_without_empty_sections(kept))
    return f"{found.group('prefix')}{found.group('quote')}{body}{found.group('quote')}"


def _without_empty_sections(lines: list[str]) -> list[str]:
    out: list[str] = []
    for n, line in enumerate(lines):
        if _HEADER.match(line):
            indent = len(line) - len(line.lstrip())
            rest = next((t for t in lines[n + 1 :] if t.strip()), None)
            if rest is None or len(rest) - len(rest.lstrip()) <= indent:
                while out and not out[-1].strip() and len(out) > 1:
                    out.pop()  # the blank line that set the empty section apart
                continue
        out.append(line)
    return out


class _FieldDescription(cst.CSTTransformer):
    """Removes ``description=...`` from the ``Field(...)`` calls of an annotation."""

    def __init__(self) -> None:
        super().__init__()
        self.removed = False

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.Call:
        func = updated.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", None)
        if name != "Field":
            return updated
        kept = [a for a in updated.args if not (a.keyword and a.keyword.value == "description")]
        if len(kept) == len(updated.args):
            return updated
        self.removed = True
        if kept:  # the last argument keeps no trailing comma it did not have
            kept[-1] = kept[-1].with_changes(comma=updated.args[-1].comma)
        return updated.with_changes(args=kept)


class _Transformer(cst.CSTTransformer):
    def __init__(self, ops: Sequence[PyOp]) -> None:
        super().__init__()
        self.ops = ops
        self.done: set[int] = set()

    def _mine(self, name: str, kind: str) -> list[tuple[int, PyOp]]:
        return [(i, op) for i, op in enumerate(self.ops) if op.function == name and op.kind == kind]

    def leave_FunctionDef(
        self, original: cst.FunctionDef, updated: cst.FunctionDef
    ) -> cst.FunctionDef:
        name = updated.name.value
        removals = self._mine(name, "remove-doc-entry")
        body = updated.body
        doc = _docstring_node(body.body) if isinstance(body, cst.IndentedBlock) else None
        if removals and doc is not None:
            names = [op.parameter for _, op in removals if op.parameter is not None]
            new_doc = doc.with_changes(value=without_entries(doc.value, names))
            replaced = updated.deep_replace(doc, new_doc)
            assert isinstance(replaced, cst.FunctionDef)
            updated = replaced
            self.done.update(i for i, _ in removals)
        annotations = self._mine(name, "annotate")
        if annotations:
            updated = updated.with_changes(params=self._annotated(updated.params, annotations))
        optional = self._mine(name, "make-optional")
        if optional:
            updated = updated.with_changes(params=self._made_optional(updated.params, optional))
        fields = self._mine(name, "remove-field-description")
        if fields:
            updated = updated.with_changes(
                params=self._without_field_descriptions(updated.params, fields)
            )
        return updated

    def _without_field_descriptions(
        self, params: cst.Parameters, ops: list[tuple[int, PyOp]]
    ) -> cst.Parameters:
        wanted = {op.parameter: i for i, op in ops}

        def strip(param: cst.Param) -> cst.Param:
            index = wanted.get(param.name.value)
            if index is None or param.annotation is None:
                return param
            remover = _FieldDescription()
            annotation = param.annotation.visit(remover)
            if remover.removed:
                self.done.add(index)
            return param.with_changes(annotation=annotation)

        return params.with_changes(
            params=[strip(p) for p in params.params],
            kwonly_params=[strip(p) for p in params.kwonly_params],
            posonly_params=[strip(p) for p in params.posonly_params],
        )

    def _annotated(self, params: cst.Parameters, ops: list[tuple[int, PyOp]]) -> cst.Parameters:
        wanted = {op.parameter: (i, op) for i, op in ops}

        def annotate(param: cst.Param) -> cst.Param:
            hit = wanted.get(param.name.value)
            if hit is None or param.annotation is not None or hit[1].annotation is None:
                return param
            self.done.add(hit[0])
            space = cst.SimpleWhitespace(" ")
            changes: dict[str, object] = {
                "annotation": cst.Annotation(cst.parse_expression(hit[1].annotation))
            }
            if param.default is not None:
                changes["equal"] = cst.AssignEqual(whitespace_before=space, whitespace_after=space)
            return param.with_changes(**changes)

        return params.with_changes(
            params=[annotate(p) for p in params.params],
            kwonly_params=[annotate(p) for p in params.kwonly_params],
            posonly_params=[annotate(p) for p in params.posonly_params],
        )

    def _made_optional(self, params: cst.Parameters, ops: list[tuple[int, PyOp]]) -> cst.Parameters:
        wanted = {op.parameter: i for i, op in ops}

        def widen(param: cst.Param) -> cst.Param:
            index = wanted.get(param.name.value)
            if index is None or param.annotation is None:
                return param
            if isinstance(param.annotation.annotation, cst.SimpleString):
                return param  # a string annotation: the author writes the union in it
            self.done.add(index)
            union = cst.BinaryOperation(
                left=param.annotation.annotation,
                operator=cst.BitOr(),
                right=cst.Name("None"),
            )
            return param.with_changes(annotation=param.annotation.with_changes(annotation=union))

        return params.with_changes(
            params=[widen(p) for p in params.params],
            kwonly_params=[widen(p) for p in params.kwonly_params],
            posonly_params=[widen(p) for p in params.posonly_params],
        )

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        mine = self._mine(updated.name.value, "forbid-extra")
        if not mine or not isinstance(updated.body, cst.IndentedBlock):
            return updated
        if "model_config" in cst.Module(body=[updated]).code:
            return updated  # a config is already there: the author merges the key
        body = list(updated.body.body)
        at = 1 if _docstring_node(body) is not None else 0
        line = cst.parse_statement('model_config = {"extra": "forbid"}\n')
        body.insert(at, line)
        self.done.update(i for i, _ in mine)
        return updated.with_changes(body=updated.body.with_changes(body=body))


def apply_python_edits(text: str, edits: Sequence[Edit]) -> tuple[str, tuple[Edit, ...]]:
    """``text`` (a module's source) with ``edits`` made, and the edits that were made.

    Raises:
        ToolLensError: the source does not parse.
    """
    mine = [e for e in edits if isinstance(e.op, PyOp)]
    ops = [e.op for e in mine if isinstance(e.op, PyOp)]
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError as exc:
        raise ToolLensError(f"the file does not parse: {exc.message}", hint="fix it first") from exc
    transformer = _Transformer(ops)
    after = module.visit(transformer).code
    done = tuple(e for i, e in enumerate(mine) if i in transformer.done)
    return after, done
