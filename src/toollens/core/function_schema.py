"""Callable -> pydantic model -> JSON schema, plus argument validation and call rebuilding.

The model and schema follow the OpenAI Agents SDK's ``function_schema`` (the reference
implementation of the seed's rules); descriptions follow toollens's documented precedence,
and every value carries its provenance (see ``toollens.core.metadata``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, cast, get_args, get_origin

import pydantic
from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic.fields import FieldInfo
from pydantic.json_schema import PydanticJsonSchemaWarning

from toollens.core.answers import load_arguments
from toollens.core.binding import route_call
from toollens.core.choices import OPTIONAL_DEFAULTS, DocstringStyleName, OptionalDefaults
from toollens.core.docstrings import (
    DocstringStyle,
    ParsedDocstring,
    parse_docstring,
)
from toollens.core.errors import (
    STRICT_OFF,
    ModelBehaviorError,
    SchemaConstructionError,
    StrictSchemaError,
    ToolLensError,
)
from toollens.core.metadata import (
    MISSING,
    Candidate,
    ParameterMetadata,
    Source,
    merge_parameter,
)
from toollens.core.metadata.candidates import tool_candidates
from toollens.core.records import Change
from toollens.core.schema.pointer import join_pointer, unescape_token
from toollens.core.schema.toolkit import PLAIN_COPY_DEPTH, NotPlainJSON, plain_json
from toollens.core.schema.types import JsonMapping, JsonSchema, ToolFunction
from toollens.core.schema_generator import schema_generator
from toollens.core.signature import (
    EMPTY,
    InspectedCallable,
    InspectedParameter,
    ParameterKind,
    annotate,
    inspect_callable,
    strip_annotated,
)
from toollens.core.spans import SpanOf
from toollens.core.spans.locator import SourceLocator
from toollens.core.validation import pointer_from_loc, pydantic_reason, validation_message

if TYPE_CHECKING:
    from toollens.core.output import OutputSchema


@dataclass(frozen=True)
class FunctionSchema:
    """Everything a model receives for one callable, and where each value came from.

    Attributes:
        name: the tool name (override, else the callable's name).
        description: the tool description (override, else the docstring's summary).
        strict: whether ``json_schema`` went through strict conversion.
        parameters: every signature parameter after the merge, context included.
        context_parameter: the injected run-context parameter's name, or ``None``.
        model: the generated pydantic model of the arguments.
        raw_json_schema: the model's JSON schema before strict conversion.
        json_schema: what a provider receives (strict when ``strict``).
        strict_changes: every rewrite strict conversion made, with pointer and reason.
        provenance: candidates for the tool's name and description.
        docstring: the parsed docstring.
        callable_info: the inspected callable.
        output_type: the declared output type (the return annotation unless overridden).
        nullable_defaults: schema name -> Python default restored when the model sends null.
        schema_warnings: what pydantic left out of the schema, and why (e.g. a default that
            is not JSON serialisable); the linter reports them.
    """

    name: str
    description: str | None
    strict: bool
    parameters: tuple[ParameterMetadata, ...]
    context_parameter: str | None
    model: type[BaseModel]
    raw_json_schema: JsonSchema
    json_schema: JsonSchema
    strict_changes: tuple[Change, ...]
    provenance: tuple[Candidate, ...]
    docstring: ParsedDocstring
    callable_info: InspectedCallable
    output_type: Any = None
    nullable_defaults: Mapping[str, Any] = field(default_factory=dict)
    schema_warnings: tuple[str, ...] = ()

    @functools.cached_property
    def output(self) -> OutputSchema:
        """The ``OutputSchema`` of ``output_type`` (computed on first use)."""
        # lazy: toollens.core.output (~3 ms) loads when .output is first read
        from toollens.core.output import output_schema

        return output_schema(self.output_type, strict=self.strict)

    @property
    def schema_parameters(self) -> tuple[ParameterMetadata, ...]:
        """The parameters the model sees (the run context left out)."""
        return tuple(p for p in self.parameters if not p.is_context)

    def parameter(self, name: str) -> ParameterMetadata:
        for param in self.parameters:
            if param.name == name:
                return param
        raise KeyError(name)

    def validate_arguments(self, arguments: str | bytes | JsonMapping | None) -> BaseModel:
        """Validate model-produced arguments (JSON text or a mapping) into a model instance.

        Raises:
            ModelBehaviorError: the text is not a JSON object, or it does not validate;
                the error names the JSON pointer of the first problem.
        """
        data = load_arguments(self.name, arguments)
        for key in self.nullable_defaults:
            if key in data and data[key] is None:  # null means "use the Python default"
                del data[key]
        try:
            return self.model.model_validate(data)
        except pydantic.ValidationError as exc:
            first = exc.errors()[0]
            raise ModelBehaviorError(
                f"invalid arguments for tool {self.name!r}: {validation_message(first)}",
                pointer=pointer_from_loc(first["loc"], data, missing=first["type"] == "missing"),
                hint="the model must send a JSON object matching the tool's parameters schema",
            ) from exc

    def to_call_args(
        self, data: BaseModel, *, context: object = MISSING
    ) -> tuple[list[object], dict[str, object]]:
        """Rebuild ``(args, kwargs)`` so that ``func(*args, **kwargs)`` binds what the model said.

        The run context, when the callable takes one, is put back in first position if
        ``context`` is given; otherwise it is left for the caller to supply.
        """
        values = object.__getattribute__(data, "__dict__")

        def value_of(name: str) -> Any:
            return values[name] if name in values else getattr(data, name)

        for param in self.parameters:
            if param.kind is ParameterKind.VAR_KEYWORD:
                self._check_kwargs_collisions(param.name, dict(value_of(param.name) or {}))
        # the routing the engine's binding guard probed at construction (core.binding)
        return route_call(self.parameters, value_of, context, skip_context=context is MISSING)

    def _check_kwargs_collisions(self, var_name: str, extra: Mapping[str, Any]) -> None:
        named = {
            p.name
            for p in self.parameters
            if p.kind in (ParameterKind.POSITIONAL_OR_KEYWORD, ParameterKind.KEYWORD_ONLY)
        }
        clashes = sorted(named.intersection(extra))
        if clashes:
            listed = ", ".join(repr(c) for c in clashes)
            verb = "is" if len(clashes) == 1 else "are"
            raise ModelBehaviorError(
                f"invalid arguments for tool {self.name!r}: {listed} {verb} both a named "
                f"parameter and a key in {var_name!r}",
                pointer=f"/{var_name}",
                hint="pass each argument once, as a named parameter",
            )


def _variadic_value_type(param: InspectedParameter) -> Any:
    """The item type of ``*args`` or value type of ``**kwargs``, with per-item constraints."""
    bare, metadata = strip_annotated(param.hint)
    item: Any = bare
    constraints = [m for m in metadata if not isinstance(m, str)]
    if constraints:
        info = FieldInfo.from_annotation(param.hint)
        if info.metadata:
            item = annotate(bare, tuple(info.metadata))
    if param.kind is ParameterKind.VAR_POSITIONAL and get_origin(bare) is tuple:
        args = get_args(bare)
        if len(args) == 2 and args[1] is Ellipsis:
            return item
        if hasattr(bare, "__args__"):
            raise SchemaConstructionError(
                f"*{param.name} is annotated with the fixed-length tuple {bare!r}, but a "
                "variadic annotation describes each positional argument",
                parameter=param.name,
                hint="use tuple[T, ...] or list[T] instead",
            )
        return Any
    return item


def _field_for(param: InspectedParameter, meta: ParameterMetadata) -> Any:
    """The ``(type, FieldInfo)`` pair pydantic's ``create_model`` takes."""
    # The merge already stripped ``Annotated``: the hint has metadata exactly when the bare
    # type differs from it (``Annotated`` needs at least one extra and never nests).
    bare = meta.annotation
    metadata = bare is not param.hint
    description = meta.description
    if param.kind is ParameterKind.VAR_POSITIONAL:
        item = _variadic_value_type(param)
        return (list[item], Field(default_factory=list, description=description))  # type: ignore[valid-type]
    if param.kind is ParameterKind.VAR_KEYWORD:
        item = _variadic_value_type(param)
        return (dict[str, item], Field(default_factory=dict, description=description))  # type: ignore[valid-type]
    default = param.default
    if metadata:
        # from_annotation returns a fresh FieldInfo, and a one-info merge applies its
        # overrides in keyword order: one merge gives the same field as merging the default
        # and then the description, with one copy instead of three.
        annotated = FieldInfo.from_annotation(param.hint)
        if isinstance(default, FieldInfo):
            merged = FieldInfo.from_annotated_attribute(
                cast(Any, Annotated[bare, annotated]), default
            )
            return (bare, FieldInfo.merge_field_infos(merged, description=description))
        if default is not EMPTY:
            return (
                bare,
                FieldInfo.merge_field_infos(annotated, default=default, description=description),
            )
        return (bare, FieldInfo.merge_field_infos(annotated, description=description))
    if isinstance(default, FieldInfo):
        return (bare, FieldInfo.merge_field_infos(default, description=description))
    if default is EMPTY:
        return (bare, Field(..., description=description))
    return (bare, Field(default=default, description=description))


def _parse_docs(info: InspectedCallable, style: DocstringStyle | str | None) -> ParsedDocstring:
    """The docstring; a callable object's class summary wins over its ``__call__`` summary."""
    doc = parse_docstring(info.doc, style)
    if info.summary_doc is None:
        return doc
    summary = parse_docstring(info.summary_doc, style).description
    return dataclasses.replace(doc, description=summary)


def _build_model(
    name: str, fields: dict[str, Any], config: ConfigDict
) -> tuple[type[BaseModel], dict[str, Any], tuple[str, ...]]:
    """The model, its JSON schema, and pydantic's schema warnings (kept, not printed)."""
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", PydanticJsonSchemaWarning)
            model = create_model(f"{name}_args", __base__=BaseModel, __config__=config, **fields)
            schema = model.model_json_schema(schema_generator=schema_generator())
        notes = tuple(str(w.message) for w in caught if w.category is PydanticJsonSchemaWarning)
        for w in caught:  # anything else goes on to the user as usual
            if w.category is not PydanticJsonSchemaWarning:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        return model, schema, notes
    except Exception as exc:  # pydantic raises several error types for unsupported annotations
        culprit = _find_unsupported_field(fields, config)
        raise SchemaConstructionError(
            f"pydantic cannot build a schema for this type ({pydantic_reason(exc)})",
            parameter=culprit,
            hint="use a JSON-serialisable type (str, int, a pydantic model, ...); if it is an "
            "injected run context, put it first and name its class as a context type "
            "(Python: context_types=[Class]; command line: --context-type MODULE:CLASS)",
        ) from exc


def _find_unsupported_field(fields: dict[str, Any], config: ConfigDict) -> str | None:
    for fname, spec in fields.items():
        try:
            create_model("probe", __config__=config, **{fname: spec}).model_json_schema()
        except Exception:  # probing: the first field pydantic rejects is the culprit
            return fname
    return None


def function_schema(
    func: ToolFunction,
    *,
    name: str | None = None,
    description: str | None = None,
    docstring_style: DocstringStyle | DocstringStyleName | None = None,
    use_docstring_info: bool = True,
    strict: bool = True,
    context_types: Iterable[object] | None = None,
    optional_defaults: OptionalDefaults | None = None,
    output_type: object = MISSING,
) -> FunctionSchema:
    """Build the schema a model receives for ``func``, recording where every value came from.

    Args:
        func: a function, method, ``functools.partial``, or callable object.
        name: explicit tool name; an empty string counts as not given.
        description: explicit tool description; an empty string counts as not given.
        docstring_style: ``"google"``, ``"numpy"`` or ``"sphinx"``; detected when ``None``.
        use_docstring_info: read the summary and parameter docs from the docstring.
        strict: run strict conversion on the schema (OpenAI strict mode).
        context_types: extra types recognised as the injected run context (first parameter).
        optional_defaults: ``"nullable"`` makes parameters with non-None defaults nullable in
            the strict schema and restores the Python default when the model sends ``null``;
            ``"keep"``/``None`` keeps the default in the schema (the reference behaviour).
        output_type: the output type to show; the return annotation when not given.

    Raises:
        SchemaConstructionError: the callable cannot become a tool (named parameter).
        StrictSchemaError: strict mode cannot express the schema (JSON pointer).
    """
    if optional_defaults is not None and optional_defaults not in OPTIONAL_DEFAULTS:
        raise SchemaConstructionError(
            f"unknown optional_defaults {optional_defaults!r}", hint="use 'keep' or 'nullable'"
        )
    info = inspect_callable(
        func, context_types=context_types or (), docstring_required=use_docstring_info
    )
    doc = _parse_docs(info, docstring_style)
    tool_name = name or info.name
    tool_description = description or (doc.description if use_docstring_info else None)
    locator = SourceLocator(func, doc)
    provenance = _tool_provenance(info, doc, locator, name, description, use_docstring_info)
    params, fields, config = _parameters(info, doc, locator, use_docstring_info, strict)
    model, raw, schema_warnings = _build_model(tool_name, fields, config)
    nullable = _nullable_defaults(params) if optional_defaults == "nullable" and strict else {}
    if strict:
        # lazy: the strict converter (~7 ms) loads for strict=True only (not at `--help`)
        from toollens.core.strict import explain_strict

        try:
            schema, changes = explain_strict(raw, nullable_defaults=tuple(nullable))
        except ToolLensError as exc:
            _name_parameter(exc, params)
            raise
    else:
        schema, changes = _json_copy(raw), []
    return FunctionSchema(
        name=tool_name,
        description=tool_description,
        strict=strict,
        parameters=tuple(params),
        context_parameter=info.context_parameter,
        model=model,
        raw_json_schema=raw,
        json_schema=schema,
        strict_changes=tuple(changes),
        provenance=provenance,
        docstring=doc,
        callable_info=info,
        output_type=info.return_hint if output_type is MISSING else output_type,
        nullable_defaults=nullable,
        schema_warnings=schema_warnings,
    )


def _tool_provenance(
    info: InspectedCallable,
    doc: ParsedDocstring,
    locator: SourceLocator,
    name: str | None,
    description: str | None,
    use_docstring_info: bool,
) -> tuple[Candidate, ...]:
    return (
        *tool_candidates(
            attribute="name",
            override=name,
            inferred=info.name,
            inferred_source=Source.CALLABLE,
            span=locator.pending(SpanOf.NAME),
        ),
        *tool_candidates(
            attribute="description",
            override=description,
            inferred=doc.description,
            inferred_source=Source.DOCSTRING,
            use_inferred=use_docstring_info or bool(description),
            span=locator.pending(SpanOf.SUMMARY),
        ),
    )


def _parameters(
    info: InspectedCallable,
    doc: ParsedDocstring,
    locator: SourceLocator,
    use_docstring_info: bool,
    strict: bool,
) -> tuple[list[ParameterMetadata], dict[str, Any], ConfigDict]:
    """Every parameter's merged metadata, and the model fields of those the model fills."""
    params: list[ParameterMetadata] = []
    fields: dict[str, Any] = {}
    config = ConfigDict()
    for param in info.parameters:
        meta = merge_parameter(
            param, doc.params.get(param.name), use_docstring=use_docstring_info, locator=locator
        )
        params.append(meta)
        if param.is_context:
            continue
        if param.kind is ParameterKind.VAR_KEYWORD:
            if strict:
                raise _var_keyword_refusal(param.name, meta.schema_name)
            config["extra"] = "forbid"
        fields[param.name] = _field_for(param, meta)
    return params, fields, config


def _var_keyword_refusal(parameter: str, schema_name: str) -> StrictSchemaError:
    # lazy: the strict converter (~7 ms); importing this module does not load it
    from toollens.core.strict import StrictRule

    # A refusal of the strict view only (StrictSchemaError): the report still shows every
    # other view of the non-strict schema.
    return StrictSchemaError(
        f"**{parameter} cannot be expressed in a strict schema (strict objects are closed)",
        parameter=parameter,
        pointer=join_pointer("", "properties", schema_name),
        rule=StrictRule.OPEN_OBJECT.value,
        hint=f"{STRICT_OFF} and send keywords nested under {parameter!r}, "
        "or declare explicit parameters",
    )


def _nullable_defaults(params: list[ParameterMetadata]) -> dict[str, Any]:
    """``optional_defaults="nullable"``: the parameters whose non-None default becomes null."""
    return {
        p.schema_name: p.default
        for p in params
        if not p.is_context
        and p.default is not MISSING
        and p.default is not None
        and p.kind not in (ParameterKind.VAR_POSITIONAL, ParameterKind.VAR_KEYWORD)
    }


def _json_copy(raw: JsonSchema) -> JsonSchema:
    """``json.loads(json.dumps(raw))``, by a plain deep copy when that gives the same value.

    pydantic's schemas are plain JSON (dicts with str keys, lists, str, numbers, bool,
    None), for which the copy is the round trip at a fraction of the cost; anything else
    (a custom object from ``json_schema_extra``, a non-string key, NaN, very deep nesting)
    takes the round trip itself, with its conversions and its errors.
    """
    try:
        return cast("JsonSchema", plain_json(raw, PLAIN_COPY_DEPTH))
    except NotPlainJSON:
        return cast("JsonSchema", json.loads(json.dumps(raw)))


def _name_parameter(exc: ToolLensError, params: list[ParameterMetadata]) -> None:
    """Point a strict-conversion error at the parameter whose property it is in."""
    if exc.parameter is not None or not exc.pointer:
        return
    parts = exc.pointer.split("/")
    if len(parts) >= 3 and parts[1] == "properties":
        prop = unescape_token(parts[2])
        for p in params:
            if p.schema_name == prop:
                exc.parameter = p.name
                exc.args = (exc._compose(),)
                return


__all__ = ["FunctionSchema", "OptionalDefaults", "function_schema"]
