"""Precedence merge of parameter metadata, recording every candidate and why one won.

For each parameter the sources are the docstring, the first string in ``Annotated``,
``Field(...)`` objects in ``Annotated``, bare constraint objects in ``Annotated``
(``annotated_types.Ge`` and friends), a ``= Field(...)`` default, and a plain default. Which
source wins is data, stated once: :data:`DESCRIPTION` and :data:`DEFAULT` rank the sources
of a description and of a default; :data:`MERGE_ORDER` is the order constraints and aliases
merge in, later sources winning, exactly as pydantic merges ``FieldInfo`` objects. Both the
merge and the candidates' reasons are driven by these tables.

Every candidate carries the span of the source text it came from (``Candidate.span``),
located only when read.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

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
from toollens.core.spans import LazySpan

if TYPE_CHECKING:
    from toollens.core.source_locator import SourceLocator


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
        ignored: the source was turned off (docstring information off), so the value
            never competed; ``reason`` says so in words.
        span: where the value is written in the tool's source (see ``SourceSpan``: the
            text ``inspect.getsource`` returns), or ``None`` when there is no source text
            (builtins, JSON schemas, explicit overrides, a name from an alias). Located on
            first read.
    """

    attribute: str
    source: Source
    value: Any
    won: bool
    reason: str
    ignored: bool = False
    # A descriptor, not a shared default: reads give a SourceSpan or None; a PendingSpan
    # given to __init__ is located on first read.
    span: LazySpan = LazySpan()  # noqa: RUF009


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
            # candidates imports this module; by the first read both are loaded
            from toollens.core.candidates import parameter_candidates

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


class ParameterSources(NamedTuple):
    """The raw material of one parameter, split by source (kept for lazy provenance)."""

    name: str
    kind: ParameterKind
    use_docstring: bool
    bare: Any
    metadata: tuple[Any, ...]  # the flattened Annotated metadata, in order
    docstring: str | None
    annotated_str: str | None
    annotated_fields: tuple[FieldInfo, ...]
    annotated_constraints: FieldInfo | None
    default_field: FieldInfo | None
    plain_default: Any
    locator: SourceLocator | None


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


# -- The precedence tables ---------------------------------------------------------------
# An offer is (value, origin): origin is the Annotated element that holds the value (a
# FieldInfo, the string), or None when the source is not an Annotated element.
_Offer = tuple[Any, Any]
_OfferOf = Callable[[ParameterSources], "_Offer | None"]


def _docstring_offer(src: ParameterSources) -> _Offer | None:
    return (src.docstring, None) if src.docstring is not None and src.use_docstring else None


def _annotated_str_offer(src: ParameterSources) -> _Offer | None:
    return None if src.annotated_str is None else (src.annotated_str, src.annotated_str)


def _field_default_description(src: ParameterSources) -> _Offer | None:
    info = src.default_field
    return (info.description, None) if info is not None and info.description else None


def _annotated_field_description(src: ParameterSources) -> _Offer | None:
    for info in reversed(src.annotated_fields):  # a later Field overrides an earlier one
        if info.description:
            return info.description, info
    return None


def _plain_default_offer(src: ParameterSources) -> _Offer | None:
    return None if src.plain_default is MISSING else (src.plain_default, None)


def _field_default_offer(src: ParameterSources) -> _Offer | None:
    if src.default_field is None:
        return None
    value = _field_default(src.default_field)
    return None if value is MISSING else (value, None)


def _annotated_field_default(src: ParameterSources) -> _Offer | None:
    for info in reversed(src.annotated_fields):
        value = _field_default(info)
        if value is not MISSING:
            return value, info
    return None


@dataclass(frozen=True)
class Precedence:
    """How one attribute is chosen: its sources, highest first, and why the first wins.

    Attributes:
        attribute: ``"description"`` or ``"default"``.
        order: ``(source, offer)`` pairs, highest precedence first; ``offer`` reads that
            source's value (and the ``Annotated`` element holding it) from a parameter.
        why: what a winner says when it beats other sources.
    """

    attribute: str
    order: tuple[tuple[Source, _OfferOf], ...]
    why: str


DESCRIPTION = Precedence(
    "description",
    (
        (Source.DOCSTRING, _docstring_offer),
        (Source.ANNOTATED_STR, _annotated_str_offer),
        (Source.FIELD_DEFAULT, _field_default_description),
        (Source.ANNOTATED_FIELD, _annotated_field_description),
    ),
    "precedence: docstring > Annotated string > = Field default > Annotated Field",
)
DEFAULT = Precedence(
    "default",
    (
        (Source.DEFAULT, _plain_default_offer),
        (Source.FIELD_DEFAULT, _field_default_offer),
        (Source.ANNOTATED_FIELD, _annotated_field_default),
    ),
    "the value after '=' wins",
)

# Constraints and aliases: every FieldInfo in this order, a later one overriding an earlier
# one (pydantic's merge order).
MERGE_ORDER: tuple[tuple[Source, Callable[[ParameterSources], tuple[FieldInfo, ...]]], ...] = (
    (
        Source.ANNOTATED_CONSTRAINT,
        lambda src: () if src.annotated_constraints is None else (src.annotated_constraints,),
    ),
    (Source.ANNOTATED_FIELD, lambda src: src.annotated_fields),
    (Source.FIELD_DEFAULT, lambda src: () if src.default_field is None else (src.default_field,)),
)

IGNORED_DOCSTRING = "ignored: docstring information is turned off"


def _winner(rule: Precedence, src: ParameterSources, nothing: Any) -> Any:
    for _source, offer_of in rule.order:
        offer = offer_of(src)
        if offer is not None:
            return offer[0]
    return nothing


def field_sources(src: ParameterSources) -> list[tuple[Source, FieldInfo]]:
    return [(source, info) for source, infos_of in MERGE_ORDER for info in infos_of(src)]


@functools.lru_cache(maxsize=512)  # bounded: live editing keeps defining new classes
def _dataclass_field_names(cls: type) -> tuple[str, ...]:
    # dataclasses.fields() rebuilds its tuple on every call; a class's fields do not change.
    return tuple(f.name for f in dataclasses.fields(cls))


def constraint_items(info: FieldInfo) -> Iterator[tuple[str, Any]]:
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
    """``into.update(constraint_items(info))`` without a generator (the eager merge)."""
    for item in info.metadata:
        cls: type = type(item)
        if hasattr(cls, "__dataclass_fields__") and not isinstance(item, type):
            for name in _dataclass_field_names(cls):
                into[name] = getattr(item, name)
        elif hasattr(item, "__dict__") and not callable(item):
            for key, value in vars(item).items():
                if value is not None and not key.startswith("_"):
                    into[key] = value


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


def merge_parameter(
    param: InspectedParameter,
    doc_description: str | None,
    *,
    use_docstring: bool = True,
    locator: SourceLocator | None = None,
) -> ParameterMetadata:
    """Merge one parameter's sources into its final metadata, with provenance.

    The winners are computed here from the tables (:data:`DESCRIPTION`, :data:`DEFAULT`,
    :data:`MERGE_ORDER`); the candidates themselves (and their spans, found through
    ``locator``) are built on first read of ``candidates``.
    """
    src = _split_sources(param, doc_description, use_docstring, locator)
    if param.is_context:
        return ParameterMetadata(
            param.name, param.kind, src.bare, param.name, None, MISSING, {}, None, True, ()
        )
    description = _winner(DESCRIPTION, src, None)
    kind = param.kind
    default: Any
    if kind is ParameterKind.VAR_POSITIONAL:
        default = []
    elif kind is ParameterKind.VAR_KEYWORD:
        default = {}
    else:
        default = _winner(DEFAULT, src, MISSING)

    # Constraints and alias: a key keeps the place where it first appeared.
    constraints: dict[str, Any] = {}
    alias = None
    if (
        src.annotated_fields
        or src.default_field is not None
        or src.annotated_constraints is not None
    ):
        for _source, info in field_sources(src):
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
