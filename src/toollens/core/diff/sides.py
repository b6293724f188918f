"""One side of ``toollens diff``, computed alone: only what the diff compares.

A callable becomes its ``FunctionSchema`` (or, for a provider, that provider's payload), a
pydantic model its (strict) schema; nothing else of a report (lint, provider checks, the
output schema) is computed. Any other target goes through :func:`toollens.core.report.report`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel

from toollens.core.errors import StrictSchemaError, TargetError, ToolLensError
from toollens.core.function_schema import function_schema
from toollens.core.providers import provider_payload
from toollens.core.report import model_schema, report
from toollens.core.schema.types import JsonObject, JsonSchema, ToolFunction
from toollens.core.target_kinds import target_kind

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema
    from toollens.core.report import ReportOptions

__all__ = ["diff_side"]


def diff_side(
    target: object, options: ReportOptions, *, label: str, payload: bool = False
) -> FunctionSchema | JsonSchema | JsonObject:
    """What a diff compares for ``target`` (named ``label`` in messages).

    Args:
        target: a callable, a pydantic model class or a JSON Schema.
        options: how to build the schema; ``options.provider`` when ``payload``.
        label: the side as the user wrote it, e.g. ``"NEW 'app:search'"``.
        payload: compare the provider's payload instead of the schema (callables only).

    Raises:
        TargetError: the target cannot be strict, has no parameters (an output type), or
            has no payload for the provider.
    """
    kind = target_kind(target)
    if kind == "callable" and callable(target):
        return _callable_side(target, options, label, payload)
    if kind == "model" and isinstance(target, type) and issubclass(target, BaseModel):
        raw = model_schema(target)
        return _strict(raw, label) if options.strict else raw
    if kind == "output-type":  # list[int] and the like: no parameters to compare
        raise TargetError(
            f"{label} is a {kind}, which has no parameters to compare",
            hint="name a function, a pydantic model or a JSON schema file",
        )
    rep = report(target, options)
    if rep.schema is None:
        raise _not_strict(label, rep.view_errors.get("strict", "strict conversion failed"))
    return rep.schema


def _callable_side(
    target: ToolFunction, options: ReportOptions, label: str, payload: bool
) -> FunctionSchema | JsonObject:
    try:
        fs = function_schema(target, **options.schema_options())
    except StrictSchemaError as exc:
        raise _not_strict(label, str(exc)) from exc
    if not payload:
        return fs
    try:
        return provider_payload(fs, options.provider).payload
    except ToolLensError as exc:
        raise TargetError(f"{label} has no {options.provider} payload: {exc}") from exc


def _strict(raw: JsonSchema, label: str) -> JsonSchema:
    # lazy: the strict converter (~9 ms) is for a model side; a JSON diff never loads it
    from toollens.core.strict import explain_strict

    try:
        return explain_strict(raw)[0]
    except ToolLensError as exc:  # as the report's strict view: any of our errors
        raise _not_strict(label, str(exc)) from exc


def _not_strict(label: str, why: str) -> TargetError:
    return TargetError(
        f"{label} cannot be made strict: {why}",
        hint="fix the tool, or compare without strict conversion (--no-strict)",
    )
