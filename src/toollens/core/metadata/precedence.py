"""Precedence as data: which source's value wins, stated once and driving everything.

:data:`DESCRIPTION` and :data:`DEFAULT` rank the sources of a parameter's description and
default (the first source that offers a value wins); :data:`MERGE_ORDER` is the order in
which constraints and aliases merge, a later source overriding an earlier one, exactly as
pydantic merges ``FieldInfo`` objects. ``merge_parameter`` computes the winners from these
tables and the candidates' reasons are written from them.
"""

from __future__ import annotations

import dataclasses
import functools
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from toollens.core.metadata.provenance import MISSING, Source
from toollens.core.signature import ParameterKind

if TYPE_CHECKING:
    from toollens.core.spans.locator import SourceLocator


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
# one (pydantic's merge order; see constraint_sources for where constraints differ).
MERGE_ORDER: tuple[tuple[Source, Callable[[ParameterSources], tuple[FieldInfo, ...]]], ...] = (
    (
        Source.ANNOTATED_CONSTRAINT,
        lambda src: () if src.annotated_constraints is None else (src.annotated_constraints,),
    ),
    (Source.ANNOTATED_FIELD, lambda src: src.annotated_fields),
    (Source.FIELD_DEFAULT, lambda src: () if src.default_field is None else (src.default_field,)),
)

IGNORED_DOCSTRING = "ignored: docstring information is turned off"


# Any: a winning value is whatever its source offers (a string, a default, an alias...),
# and the caller knows which attribute it asked for.
def winner(rule: Precedence, src: ParameterSources, nothing: Any) -> Any:
    for _source, offer_of in rule.order:
        offer = offer_of(src)
        if offer is not None:
            return offer[0]
    return nothing


def field_sources(src: ParameterSources) -> list[tuple[Source, FieldInfo]]:
    """The ``FieldInfo`` objects in the order their attributes (``alias``) merge."""
    return [(source, info) for source, infos_of in MERGE_ORDER for info in infos_of(src)]


def constraint_sources(src: ParameterSources) -> list[tuple[Source, FieldInfo]]:
    """The ``FieldInfo`` objects in the order their constraints merge (a later one wins).

    Attributes and constraints do not merge alike: pydantic 2.12 and later put a
    ``= Field(...)`` default's constraints *before* the ``Annotated`` ones, so on a clash
    the ``Annotated`` value reaches the schema, while the default's ``alias`` still wins.
    """
    ordered = field_sources(src)
    if default_constraints_first():
        ordered.sort(key=lambda pair: pair[0] is not Source.FIELD_DEFAULT)  # stable
    return ordered


@functools.cache
def default_constraints_first() -> bool:
    """Ask the installed pydantic, once, where a ``= Field(...)`` default's constraints go."""
    from typing import Annotated

    from pydantic import Field

    annotated: Any = Annotated[int, Field(le=1)]
    probe = FieldInfo.from_annotated_attribute(annotated, Field(le=2))
    return [getattr(m, "le", None) for m in probe.metadata] == [2, 1]


# dataclasses.fields() rebuilds its tuple on every call; a class's fields do not change.
# Held weakly, so a class defined while live editing goes when the author's code drops it.
_FIELD_NAMES: weakref.WeakKeyDictionary[type, tuple[str, ...]] = weakref.WeakKeyDictionary()


def dataclass_field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def constraint_items(info: FieldInfo) -> Iterator[tuple[str, object]]:
    for item in info.metadata:
        # dataclasses.is_dataclass(item) for an instance, without the function call.
        cls: type = type(item)
        if hasattr(cls, "__dataclass_fields__") and not isinstance(item, type):
            for name in dataclass_field_names(cls):
                yield name, getattr(item, name)
        elif hasattr(item, "__dict__") and not callable(item):
            for key, value in vars(item).items():
                if value is not None and not key.startswith("_"):
                    yield key, value


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
