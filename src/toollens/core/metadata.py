"""Precedence merge of parameter metadata, recording every candidate and why one won.

For each parameter the sources are the docstring, the first string in ``Annotated``,
``Field(...)`` objects in ``Annotated``, bare constraint objects in ``Annotated``
(``annotated_types.Ge`` and friends), a ``= Field(...)`` default, and a plain default.
Description precedence: docstring > ``Annotated`` string > ``= Field(...)`` default >
``Annotated[..., Field(...)]``. Defaults: the ``=`` value wins over an ``Annotated``
``Field`` default. Constraints and aliases merge in source order, later sources winning,
exactly as pydantic merges ``FieldInfo`` objects.
"""

from __future__ import annotations

import dataclasses
import enum
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple

from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from toollens.core.annotation_text import annotation_text
from toollens.core.signature import (
    EMPTY,
    InspectedParameter,
    ParameterKind,
    annotate,
    strip_annotated,
)


class Source(str, enum.Enum):
    """Where a metadata value came from."""

    OVERRIDE = "override"
    CALLABLE = "callable"
    DOCSTRING = "docstring"
    ANNOTATED_STR = "annotated-str"
    ANNOTATED_FIELD = "annotated-field"
    ANNOTATED_CONSTRAINT = "annotated-constraint"
    FIELD_DEFAULT = "field-default"
    DEFAULT = "default"
    TYPE = "type"

    @property
    def label(self) -> str:
        return _SOURCE_LABELS[self._value_]


# Keyed by value: a str lookup avoids Enum.__hash__, a Python-level call, on a hot path.
_SOURCE_LABELS = {
    Source.OVERRIDE.value: "explicit override",
    Source.CALLABLE.value: "callable",
    Source.DOCSTRING.value: "docstring",
    Source.ANNOTATED_STR.value: "Annotated string",
    Source.ANNOTATED_FIELD.value: "Annotated Field(...)",
    Source.ANNOTATED_CONSTRAINT.value: "Annotated constraint",
    Source.FIELD_DEFAULT.value: "= Field(...) default",
    Source.DEFAULT.value: "= default",
    Source.TYPE.value: "type",
}

DESCRIPTION_PRECEDENCE = (
    Source.DOCSTRING,
    Source.ANNOTATED_STR,
    Source.FIELD_DEFAULT,
    Source.ANNOTATED_FIELD,
)


class _Missing(enum.Enum):
    MISSING = "MISSING"

    def __repr__(self) -> str:
        return "MISSING"


MISSING = _Missing.MISSING


@dataclass(frozen=True)
class Candidate:
    """One value offered by one source for one attribute of a parameter or tool.

    Attributes:
        attribute: ``"description"``, ``"default"``, ``"alias"``, ``"name"`` or a constraint
            such as ``"ge"``.
        source: where the value came from.
        value: the value offered.
        won: whether this value is the one the model sees.
        reason: one line saying why it won or lost.
    """

    attribute: str
    source: Source
    value: Any
    won: bool
    reason: str


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
        if type(value) is _Sources:
            value = _candidates(value, obj.default)
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


class _Sources(NamedTuple):
    """The raw material of one parameter, split by source (kept for lazy provenance)."""

    kind: ParameterKind
    use_docstring: bool
    bare: Any
    docstring: str | None
    annotated_str: str | None
    annotated_fields: tuple[FieldInfo, ...]
    annotated_constraints: FieldInfo | None
    default_field: FieldInfo | None
    plain_default: Any


def _split_sources(
    param: InspectedParameter, doc_description: str | None, use_docstring: bool
) -> _Sources:
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
    return _Sources(
        param.kind,
        use_docstring,
        bare,
        doc_description,
        annotated_str,
        fields,
        constraints,
        default_field,
        plain,
    )


# dataclasses.fields() rebuilds its tuple on every call; a class's fields do not change.
# Held weakly, so a class defined while live editing goes when the author's code drops it.
_FIELD_NAMES: weakref.WeakKeyDictionary[type, tuple[str, ...]] = weakref.WeakKeyDictionary()


def _dataclass_field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _constraint_items(info: FieldInfo) -> Iterator[tuple[str, Any]]:
    for item in info.metadata:
        # dataclasses.is_dataclass(item) for an instance, without the function call.
        cls: type = type(item)
        if hasattr(cls, "__dataclass_fields__") and not isinstance(item, type):
            for name in _dataclass_field_names(cls):
                yield name, getattr(item, name)
        elif hasattr(item, "__dict__") and not callable(item):
            for key, value in vars(item).items():
                if value is not None and not key.startswith("_"):
                    yield key, value


def _add_constraints(info: FieldInfo, into: dict[str, Any]) -> None:
    """``into.update(_constraint_items(info))`` without a generator (the eager merge)."""
    for item in info.metadata:
        cls: type = type(item)
        if hasattr(cls, "__dataclass_fields__") and not isinstance(item, type):
            for name in _dataclass_field_names(cls):
                into[name] = getattr(item, name)
        elif hasattr(item, "__dict__") and not callable(item):
            for key, value in vars(item).items():
                if value is not None and not key.startswith("_"):
                    into[key] = value


def _ranked(
    attribute: str, offers: list[tuple[Source, Any]], why_first: str
) -> tuple[Candidate, ...]:
    """Mark the first offer the winner; the rest lose to it."""
    if not offers:
        return ()
    top_source = offers[0][0]
    if len(offers) == 1:
        why_first = f"the only source that sets it is the {top_source.label}"
    else:
        losers = ", ".join(dict.fromkeys(s.label for s, _ in offers[1:]))
        why_first = f"the {top_source.label} wins over the {losers} ({why_first})"
    out = [Candidate(attribute, top_source, offers[0][1], True, why_first)]
    for source, value in offers[1:]:
        out.append(
            Candidate(attribute, source, value, False, f"overridden by the {top_source.label}")
        )
    return tuple(out)


def _description_candidates(src: _Sources, use_docstring: bool) -> tuple[Candidate, ...]:
    # Offers are appended in DESCRIPTION_PRECEDENCE order (a list, not a dict keyed by the
    # enum: hashing a str enum member is a Python-level call on a hot path).
    ordered: list[tuple[Source, Any]] = []
    if src.docstring is not None and use_docstring:
        ordered.append((Source.DOCSTRING, src.docstring))
    if src.annotated_str is not None:
        ordered.append((Source.ANNOTATED_STR, src.annotated_str))
    if src.default_field is not None and src.default_field.description:
        ordered.append((Source.FIELD_DEFAULT, src.default_field.description))
    for info in reversed(src.annotated_fields):  # a later Field overrides an earlier one
        if info.description:
            ordered.append((Source.ANNOTATED_FIELD, info.description))
            break
    result = list(
        _ranked(
            "description",
            ordered,
            "precedence: docstring > Annotated string > = Field default > Annotated Field",
        )
    )
    if src.docstring is not None and not use_docstring:
        result.append(
            Candidate(
                "description",
                Source.DOCSTRING,
                src.docstring,
                False,
                "ignored: docstring information is turned off",
            )
        )
    return tuple(result)


def _default_candidates(src: _Sources, won: Any) -> tuple[Candidate, ...]:
    # ``won`` is the winning value already on the metadata: the winner shows that very object.
    if src.kind is ParameterKind.VAR_POSITIONAL:
        return (Candidate("default", Source.TYPE, won, True, "*args collects into a list"),)
    if src.kind is ParameterKind.VAR_KEYWORD:
        return (Candidate("default", Source.TYPE, won, True, "**kwargs collects into a dict"),)
    offers: list[tuple[Source, Any]] = []
    if src.plain_default is not MISSING:
        offers.append((Source.DEFAULT, src.plain_default))
    if src.default_field is not None:
        value = _field_default(src.default_field)
        if value is not MISSING:
            offers.append((Source.FIELD_DEFAULT, value))
    for info in reversed(src.annotated_fields):
        value = _field_default(info)
        if value is not MISSING:
            offers.append((Source.ANNOTATED_FIELD, value))
            break
    if offers:
        offers[0] = (offers[0][0], won)
    return _ranked("default", offers, "the value after '=' wins")


def _field_default(info: FieldInfo) -> Any:
    if info.default is not PydanticUndefined and info.default is not Ellipsis:
        return info.default
    if info.default_factory is not None:
        return _Factory(info.default_factory)
    return MISSING


@dataclass(frozen=True)
class _Factory:
    """A ``default_factory``, shown as such rather than called."""

    factory: Any

    def __repr__(self) -> str:
        return f"<factory {getattr(self.factory, '__name__', repr(self.factory))}>"


def _merged_candidates(
    attribute_values: dict[str, list[tuple[Source, Any]]],
) -> tuple[Candidate, ...]:
    out: list[Candidate] = []
    for attribute, offers in attribute_values.items():
        last = len(offers) - 1
        for index, (source, value) in enumerate(offers):
            won = index == last
            reason = (
                f"set by the {source.label}"
                if won and last == 0
                else "set by the last source that names it (pydantic merge order)"
                if won
                else f"overridden by the later {offers[last][0].label}"
            )
            out.append(Candidate(attribute, source, value, won, reason))
    return tuple(out)


def _field_sources(src: _Sources) -> list[tuple[Source, FieldInfo]]:
    ordered: list[tuple[Source, FieldInfo]] = []
    if src.annotated_constraints is not None:
        ordered.append((Source.ANNOTATED_CONSTRAINT, src.annotated_constraints))
    ordered.extend((Source.ANNOTATED_FIELD, info) for info in src.annotated_fields)
    if src.default_field is not None:
        ordered.append((Source.FIELD_DEFAULT, src.default_field))
    return ordered


def _candidates(src: _Sources, default: Any) -> tuple[Candidate, ...]:
    """Every candidate of one parameter, the winners marked (``merge_parameter``'s winners)."""
    constraint_offers: dict[str, list[tuple[Source, Any]]] = {}
    alias_offers: dict[str, list[tuple[Source, Any]]] = {}
    for source, info in _field_sources(src):
        for key, value in _constraint_items(info):
            constraint_offers.setdefault(key, []).append((source, value))
        if info.alias is not None:
            alias_offers.setdefault("alias", []).append((source, info.alias))
    return (
        *_description_candidates(src, src.use_docstring),
        *_default_candidates(src, default),
        *_merged_candidates({**constraint_offers, **alias_offers}),
    )


def merge_parameter(
    param: InspectedParameter, doc_description: str | None, *, use_docstring: bool = True
) -> ParameterMetadata:
    """Merge one parameter's sources into its final metadata, with provenance.

    The winners are computed here, in the precedence the candidates record; the candidates
    themselves are built on first read of ``candidates``.
    """
    src = _split_sources(param, doc_description, use_docstring)
    if param.is_context:
        return ParameterMetadata(
            param.name, param.kind, src.bare, param.name, None, MISSING, {}, None, True, ()
        )
    fields = src.annotated_fields
    default_field = src.default_field

    # Description: docstring > Annotated string > = Field default > last Annotated Field.
    description = None
    if doc_description is not None and use_docstring:
        description = doc_description
    elif src.annotated_str is not None:
        description = src.annotated_str
    elif default_field is not None and default_field.description:
        description = default_field.description
    else:
        for info in reversed(fields):
            if info.description:
                description = info.description
                break

    # Default: the '=' value > a = Field(...) default > the last Annotated Field default.
    kind = param.kind
    default: Any = MISSING
    if kind is ParameterKind.VAR_POSITIONAL:
        default = []
    elif kind is ParameterKind.VAR_KEYWORD:
        default = {}
    elif src.plain_default is not MISSING:
        default = src.plain_default
    else:
        if default_field is not None:
            default = _field_default(default_field)
        if default is MISSING:
            for info in reversed(fields):
                default = _field_default(info)
                if default is not MISSING:
                    break

    # Constraints and alias: pydantic merge order, a later source overriding an earlier one
    # (a key keeps the place where it first appeared).
    constraints: dict[str, Any] = {}
    alias = None
    if fields or default_field is not None or src.annotated_constraints is not None:
        for info in _field_infos(src):
            _add_constraints(info, constraints)
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


def _field_infos(src: _Sources) -> list[FieldInfo]:
    """``_field_sources`` without the sources: the FieldInfos in pydantic merge order."""
    infos = [] if src.annotated_constraints is None else [src.annotated_constraints]
    infos += src.annotated_fields
    if src.default_field is not None:
        infos.append(src.default_field)
    return infos


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
    sources: _Sources,
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


def tool_candidates(
    *,
    attribute: str,
    override: str | None,
    inferred: str | None,
    inferred_source: Source,
) -> tuple[Candidate, ...]:
    """Candidates for the tool's own name or description (an empty override is not given)."""
    out: list[Candidate] = []
    if override:
        out.append(Candidate(attribute, Source.OVERRIDE, override, True, "explicit override wins"))
    if inferred is not None:
        won = not override
        reason = (
            f"inferred from the {inferred_source.label}"
            if won
            else "overridden by the explicit override"
        )
        out.append(Candidate(attribute, inferred_source, inferred, won, reason))
    return tuple(out)
