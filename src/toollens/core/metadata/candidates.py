"""Candidates: every value each source offers for a parameter or the tool, and why one won.

Built on first read of ``ParameterMetadata.candidates`` (``merge_parameter`` computes only
the winners), from the precedence tables that drive the merge (``DESCRIPTION``, ``DEFAULT``
and ``MERGE_ORDER`` in ``toollens.core.metadata.precedence``); each candidate gets the span of the
source text it was written in, located when read.
"""

from __future__ import annotations

from typing import Any

from pydantic.fields import FieldInfo

from toollens.core.metadata.precedence import (
    DEFAULT,
    DESCRIPTION,
    IGNORED_DOCSTRING,
    ParameterSources,
    Precedence,
    constraint_items,
    constraint_sources,
    field_sources,
)
from toollens.core.metadata.provenance import Candidate, Source
from toollens.core.signature import ParameterKind
from toollens.core.spans.span import PendingSpan, SpanOf

__all__ = ["parameter_candidates", "tool_candidates"]


def _offers(rule: Precedence, src: ParameterSources) -> list[tuple[Source, Any, Any]]:
    out = []
    for source, offer_of in rule.order:
        offer = offer_of(src)
        if offer is not None:
            out.append((source, *offer))
    return out


_SPAN_OF = {
    Source.DOCSTRING: SpanOf.DOC_PARAM,
    Source.ANNOTATED_STR: SpanOf.METADATA,
    Source.ANNOTATED_FIELD: SpanOf.METADATA,
    Source.ANNOTATED_CONSTRAINT: SpanOf.METADATA,
    Source.FIELD_DEFAULT: SpanOf.DEFAULT,
    Source.DEFAULT: SpanOf.DEFAULT,
    Source.TYPE: SpanOf.ANNOTATION,
}


def _span(src: ParameterSources, source: Source, origin: Any = None) -> PendingSpan | None:
    """The span to locate for a value from ``source`` (``origin``: its Annotated element)."""
    if src.locator is None:
        return None
    of = _SPAN_OF[source]
    if of is not SpanOf.METADATA:
        return src.locator.pending(of, src.name)
    index = next((i for i, item in enumerate(src.metadata) if item is origin), None)
    if index is None:  # a constraint no single element offers: point at the annotation
        return src.locator.pending(SpanOf.ANNOTATION, src.name)
    return src.locator.pending(of, src.name, index, len(src.metadata))


def _constraint_origin(src: ParameterSources, key: str) -> Any:
    """The bare ``Annotated`` constraint object that offers ``key`` (``Ge(0)`` for "ge")."""
    for item in src.metadata:
        if not isinstance(item, (str, FieldInfo)) and hasattr(item, key):
            return item
    return None


def _ranked(
    src: ParameterSources, rule: Precedence, offers: list[tuple[Source, Any, Any]]
) -> tuple[Candidate, ...]:
    """Mark the first offer the winner; the rest lose to it."""
    if not offers:
        return ()
    top_source = offers[0][0]
    if len(offers) == 1:
        why_first = f"the only source that sets it is the {top_source.label}"
    else:
        losers = ", ".join(dict.fromkeys(s.label for s, _, _ in offers[1:]))
        why_first = f"the {top_source.label} wins over the {losers} ({rule.why})"
    attribute = rule.attribute
    out = [
        Candidate(
            attribute, top_source, offers[0][1], True, why_first, span=_span(src, *offers[0][::2])
        )
    ]
    for source, value, origin in offers[1:]:
        lost = f"overridden by the {top_source.label}"
        out.append(
            Candidate(attribute, source, value, False, lost, span=_span(src, source, origin))
        )
    return tuple(out)


def _description_candidates(src: ParameterSources) -> tuple[Candidate, ...]:
    result = list(_ranked(src, DESCRIPTION, _offers(DESCRIPTION, src)))
    if src.docstring is not None and not src.use_docstring:
        span = _span(src, Source.DOCSTRING)
        result.append(
            Candidate(
                "description",
                Source.DOCSTRING,
                src.docstring,
                False,
                IGNORED_DOCSTRING,
                ignored=True,
                span=span,
            )
        )
    return tuple(result)


def _default_candidates(src: ParameterSources, won: Any) -> tuple[Candidate, ...]:
    # ``won`` is the winning value already on the metadata: the winner shows that very object.
    collects = _COLLECTS.get(src.kind)
    if collects is not None:
        span = _span(src, Source.TYPE)
        return (Candidate("default", Source.TYPE, won, True, collects, span=span),)
    offers = _offers(DEFAULT, src)
    if offers:
        offers[0] = (offers[0][0], won, offers[0][2])
    return _ranked(src, DEFAULT, offers)


# *args and **kwargs have no default: the type says what they collect into.
_COLLECTS = {
    ParameterKind.VAR_POSITIONAL: "*args collects into a list",
    ParameterKind.VAR_KEYWORD: "**kwargs collects into a dict",
}


def _merged_candidates(
    src: ParameterSources, attribute_values: dict[str, list[tuple[Source, Any, Any]]]
) -> tuple[Candidate, ...]:
    out: list[Candidate] = []
    for attribute, offers in attribute_values.items():
        last = len(offers) - 1
        for index, (source, value, origin) in enumerate(offers):
            won = index == last
            reason = (
                f"set by the {source.label}"
                if won and last == 0
                else "set by the last source that names it (pydantic merge order)"
                if won
                else f"overridden by the later {offers[last][0].label}"
            )
            span = _span(src, source, origin)
            out.append(Candidate(attribute, source, value, won, reason, span=span))
    return tuple(out)


def parameter_candidates(src: ParameterSources, default: object) -> tuple[Candidate, ...]:
    """Every candidate of one parameter, the winners marked (``merge_parameter``'s winners)."""
    constraint_offers: dict[str, list[tuple[Source, Any, Any]]] = {}
    alias_offers: dict[str, list[tuple[Source, Any, Any]]] = {}
    for source, info in constraint_sources(src):
        for key, value in constraint_items(info):
            origin = info if source is not Source.ANNOTATED_CONSTRAINT else None
            origin = origin or _constraint_origin(src, key)
            constraint_offers.setdefault(key, []).append((source, value, origin))
    for source, info in field_sources(src):
        if info.alias is not None:
            alias_offers.setdefault("alias", []).append((source, info.alias, info))
    return (
        *_description_candidates(src),
        *_default_candidates(src, default),
        *_merged_candidates(src, {**constraint_offers, **alias_offers}),
    )


def tool_candidates(
    *,
    attribute: str,
    override: str | None,
    inferred: str | None,
    inferred_source: Source,
    use_inferred: bool = True,
    span: PendingSpan | None = None,
) -> tuple[Candidate, ...]:
    """Candidates for the tool's own name or description (an empty override is not given).

    ``use_inferred=False`` marks the inferred value ignored (docstring information off);
    ``span`` is where the inferred value is written.
    """
    out: list[Candidate] = []
    if override:
        out.append(Candidate(attribute, Source.OVERRIDE, override, True, "explicit override wins"))
    if inferred is not None:
        won = use_inferred and not override
        if not use_inferred:
            reason = IGNORED_DOCSTRING
        elif won:
            reason = f"inferred from the {inferred_source.label}"
        else:
            reason = "overridden by the explicit override"
        out.append(
            Candidate(
                attribute,
                inferred_source,
                inferred,
                won,
                reason,
                ignored=not use_inferred,
                span=span,
            )
        )
    return tuple(out)
