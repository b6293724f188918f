"""Precedence merge of parameter metadata, recording every candidate and why one won.

For each parameter the sources are the docstring, the first string in ``Annotated``,
``Field(...)`` objects in ``Annotated``, bare constraint objects in ``Annotated``
(``annotated_types.Ge`` and friends), a ``= Field(...)`` default, and a plain default. Which
source wins is data, stated once in ``toollens.core.metadata.precedence`` (``DESCRIPTION``,
``DEFAULT``, ``MERGE_ORDER``); both the merge here and the candidates' reasons are driven
by those tables.

Every candidate carries the span of the source text it came from (``Candidate.span``),
located only when read.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic.fields import FieldInfo

from toollens.core.annotation_text import annotation_text
from toollens.core.metadata.candidates import parameter_candidates
from toollens.core.metadata.precedence import (
    DEFAULT,
    DESCRIPTION,
    ParameterSources,
    constraint_sources,
    dataclass_field_names,
    field_sources,
    winner,
)
from toollens.core.metadata.provenance import MISSING, Candidate, Source
from toollens.core.signature import (
    EMPTY,
    InspectedParameter,
    ParameterKind,
    annotate,
    strip_annotated,
)

if TYPE_CHECKING:
    from toollens.core.spans.locator import SourceLocator

__all__ = ["MISSING", "Candidate", "ParameterMetadata", "Source", "merge_parameter"]


class _LazyCandidates:
    """``ParameterMetadata.candidates``, built on first read from the parameter's sources.

    The model needs only the winners, which ``merge_parameter`` computes directly; the
    ``Candidate`` records and their reasons are for the views, and building them for every
    parameter on every call made provenance the engine's largest cost of its own. The field
    stays an ordinary dataclass field (``__init__``, ``==``, ``repr``, ``replace`` all read
    it through this descriptor), so nothing outside sees the difference.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            raise AttributeError(self.name)  # a required field: no class-level default
        value = obj.__dict__[self.name]
        if type(value) is ParameterSources:
            value = parameter_candidates(value, obj.default)
            obj.__dict__[self.name] = value
        return value

    def __set__(self, obj: Any, value: Any) -> None:
        obj.__dict__[self.name] = value


@dataclass(frozen=True)
class ParameterMetadata:
    """A parameter after the merge: what the model sees, and where each value came from.

    Attributes:
        name: the Python parameter name.
        kind: how it binds.
        annotation: the bare type (``Annotated`` stripped; ``Any`` when unannotated).
        schema_name: the property name in the schema (the alias when there is one).
        description: the winning description, or ``None``.
        default: the default value, or ``MISSING`` when the parameter is required.
        constraints: merged constraints, e.g. ``{"ge": 0, "max_length": 10}``.
        alias: the alias, when one is set.
        is_context: the injected run context, left out of the schema.
        candidates: every value from every source, the winners marked.
    """

    name: str
    kind: ParameterKind
    annotation: Any
    schema_name: str
    description: str | None
    default: Any
    constraints: dict[str, Any]
    alias: str | None
    is_context: bool
    candidates: tuple[Candidate, ...] = _LazyCandidates()  # type: ignore[assignment]

    @property
    def required(self) -> bool:
        return self.default is MISSING

    @property
    def annotation_text(self) -> str:
        return annotation_text(self.annotation)

    def candidates_for(self, attribute: str) -> tuple[Candidate, ...]:
        return tuple(c for c in self.candidates if c.attribute == attribute)

    def winner(self, attribute: str) -> Candidate | None:
        return next((c for c in self.candidates_for(attribute) if c.won), None)


def _split_sources(
    param: InspectedParameter,
    doc_description: str | None,
    use_docstring: bool,
    locator: SourceLocator | None,
) -> ParameterSources:
    bare, metadata = strip_annotated(param.hint)
    annotated_str = None
    fields: tuple[FieldInfo, ...] = ()
    constraints = None
    if metadata:
        found = []
        others = []
        for m in metadata:
            if isinstance(m, str):
                if annotated_str is None:
                    annotated_str = m
            elif isinstance(m, FieldInfo):
                found.append(m)
            else:
                others.append(m)
        if found:
            fields = tuple(found)
        if others:
            constraints = FieldInfo.from_annotation(annotate(bare, tuple(others)))
    default = param.default
    default_field = default if isinstance(default, FieldInfo) else None
    plain = MISSING if default is EMPTY or default_field is not None else default
    return ParameterSources(
        param.name,
        param.kind,
        use_docstring,
        bare,
        metadata,
        doc_description,
        annotated_str,
        fields,
        constraints,
        default_field,
        plain,
        locator,
    )


def _add_constraints(info: FieldInfo, into: dict[str, Any]) -> None:
    """``into.update(constraint_items(info))`` without a generator (the eager merge)."""
    for item in info.metadata:
        cls: type = type(item)
        if hasattr(cls, "__dataclass_fields__") and not isinstance(item, type):
            for name in dataclass_field_names(cls):
                into[name] = getattr(item, name)
        elif hasattr(item, "__dict__") and not callable(item):
            for key, value in vars(item).items():
                if value is not None and not key.startswith("_"):
                    into[key] = value


def merge_parameter(
    param: InspectedParameter,
    doc_description: str | None,
    *,
    use_docstring: bool = True,
    locator: SourceLocator | None = None,
) -> ParameterMetadata:
    """Merge one parameter's sources into its final metadata, with provenance.

    The winners are computed here from the precedence tables (``DESCRIPTION``, ``DEFAULT``,
    ``MERGE_ORDER``); the candidates themselves (and their spans, found through
    ``locator``) are built on first read of ``candidates``.
    """
    src = _split_sources(param, doc_description, use_docstring, locator)
    if param.is_context:
        return ParameterMetadata(
            param.name, param.kind, src.bare, param.name, None, MISSING, {}, None, True, ()
        )
    description = winner(DESCRIPTION, src, None)
    kind = param.kind
    default: Any
    if kind is ParameterKind.VAR_POSITIONAL:
        default = []
    elif kind is ParameterKind.VAR_KEYWORD:
        default = {}
    else:
        default = winner(DEFAULT, src, MISSING)

    # Constraints and alias: a key keeps the place where it first appeared.
    constraints: dict[str, Any] = {}
    alias = None
    if (
        src.annotated_fields
        or src.default_field is not None
        or src.annotated_constraints is not None
    ):
        for _source, info in constraint_sources(src):
            _add_constraints(info, constraints)
        for _source, info in field_sources(src):
            if info.alias is not None:
                alias = info.alias
        if "alias" in constraints:  # a constraint object's own "alias" attribute
            offered = constraints.pop("alias")
            if alias is None:
                alias = offered
    return _new_metadata(
        param.name,
        kind,
        src.bare,
        alias or param.name,
        description,
        default,
        constraints,
        alias,
        src,
    )


_PARAMETER_FIELDS = (
    "name",
    "kind",
    "annotation",
    "schema_name",
    "description",
    "default",
    "constraints",
    "alias",
    "is_context",
    "candidates",
)
# ``_new_metadata`` fills the instance dict directly; it must stay in step with the fields.
if tuple(f.name for f in dataclasses.fields(ParameterMetadata)) != _PARAMETER_FIELDS or hasattr(
    ParameterMetadata, "__post_init__"
):
    raise RuntimeError("_new_metadata is out of date with ParameterMetadata's fields")


def _new_metadata(
    name: str,
    kind: ParameterKind,
    annotation: Any,
    schema_name: str,
    description: str | None,
    default: Any,
    constraints: dict[str, Any],
    alias: str | None,
    sources: ParameterSources,
) -> ParameterMetadata:
    # What the generated frozen ``__init__`` does (one object.__setattr__ per field, the
    # last through ``_LazyCandidates.__set__``), at under half the cost; this runs once per
    # parameter on every schema build.
    meta = object.__new__(ParameterMetadata)
    meta.__dict__.update(
        name=name,
        kind=kind,
        annotation=annotation,
        schema_name=schema_name,
        description=description,
        default=default,
        constraints=constraints,
        alias=alias,
        is_context=False,
        candidates=sources,
    )
    return meta
