"""``compare(func)``: what every framework sends for one function, and where they differ.

Each framework's schema is diffed against toollens' reference view (the strict
``FunctionSchema.json_schema``, the OpenAI Agents SDK's rules) with the diff engine, and
every pair of frameworks can be diffed the same way. A change is *material* when the
framework differs from the reference both with and without strict conversion (strict mode
does not explain it) and it is not a cosmetic ``title``; the gate over all pairs ignores
``title`` changes as well.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from operator import attrgetter
from typing import TYPE_CHECKING, Any

from toollens.core.diff import DiffSeverity, SchemaChange, SchemaDiff, diff
from toollens.core.display_hooks import mimebundle
from toollens.core.errors import TargetError, ToolLensError
from toollens.core.function_schema import function_schema
from toollens.core.records import Finding, Severity
from toollens.core.schema.types import JsonObject, ToolFunction
from toollens.frameworks import adapt_all, installed, names
from toollens.frameworks.matrix import (
    TOOL_ROW,
    Column,
    DescriptionSources,
    Matrix,
    build_matrix,
    by_key,
)
from toollens.frameworks.records import FrameworkResult, tool_finding

if TYPE_CHECKING:
    from toollens.core.function_schema import FunctionSchema

__all__ = ["REFERENCE", "Comparison", "FrameworkComparison", "compare", "gated_compare"]

#: The column key of toollens' reference view.
REFERENCE = "toollens"
#: Keywords that never make a difference material: cosmetic, or a mode flag.
_COSMETIC = frozenset({"title", "tool.strict"})


@dataclass(frozen=True)
class _Side:
    """A tool as the diff engine reads it: a ``ToolSchemaLike`` (``strict`` left unset: it is
    a mode, not a schema)."""

    json_schema: JsonObject
    name: str | None
    description: str | None
    strict: bool | None = None


@dataclass(frozen=True)
class FrameworkComparison:
    """One framework's result and its diff against the reference view.

    Attributes:
        result: what the framework sent, refused, or that it is not installed.
        diff: reference (strict) -> framework; ``None`` when either side is missing.
        material: the changes of ``diff`` that strict mode does not explain, titles left out.
        error: why the diff could not be computed, when it could not.
    """

    result: FrameworkResult
    diff: SchemaDiff | None = None
    material: tuple[SchemaChange, ...] = ()
    error: str | None = None

    @property
    def framework(self) -> str:
        return self.result.framework

    @property
    def materially_different(self) -> bool:
        """Whether the framework sends something the reference does not explain."""
        return bool(self.material)


@dataclass(frozen=True)
class Comparison:
    """What each framework sends for one function, the diffs, and the parameter matrix.

    Attributes:
        target: the function's name.
        reference: toollens' function schema (``None`` when toollens refuses the function).
        reference_error: why toollens refused it.
        entries: one per framework asked for, in table order.
        matrix: per-parameter cells for the reference and every framework that accepted.
    """

    target: str
    reference: FunctionSchema | None
    reference_error: str | None
    entries: tuple[FrameworkComparison, ...]
    matrix: Matrix
    _sides: dict[str, _Side] = field(default_factory=dict, repr=False, compare=False)
    _pairs: dict[tuple[str, str], SchemaDiff] = field(
        default_factory=dict, repr=False, compare=False
    )

    def entry(self, framework: str) -> FrameworkComparison:
        """The entry of one framework; ``KeyError`` when it was not compared."""
        return by_key(self.entries, attrgetter("framework"), framework)

    @property
    def participants(self) -> tuple[str, ...]:
        """Column keys that have a schema: the reference (when built), then accepting frameworks."""
        return tuple(self._sides)

    @property
    def accepted(self) -> tuple[str, ...]:
        return tuple(e.framework for e in self.entries if e.result.accepted)

    @property
    def refused(self) -> tuple[str, ...]:
        return tuple(e.framework for e in self.entries if e.result.status.value == "refused")

    @property
    def not_installed(self) -> tuple[str, ...]:
        return tuple(e.framework for e in self.entries if e.result.status.value == "not-installed")

    def pair_diff(self, a: str, b: str) -> SchemaDiff:
        """The diff from ``a``'s schema to ``b``'s (``"toollens"`` names the reference).

        Raises:
            KeyError: ``a`` or ``b`` has no schema (unknown, refused or not installed).
        """
        key = (a, b)
        if key not in self._pairs:
            self._pairs[key] = diff(self._sides[a], self._sides[b])
        return self._pairs[key]

    def gate_pairs(self) -> tuple[str, ...]:
        """Who the gate compares: the accepting frameworks, with the reference when fewer
        than two frameworks accepted (one framework is gated against toollens)."""
        accepted = self.accepted
        if len(accepted) >= 2 or REFERENCE not in self._sides:
            return accepted
        return (REFERENCE, *accepted)

    def iter_pair_changes(self) -> Iterator[tuple[str, str, SchemaChange]]:
        """Every non-cosmetic change between any two gated participants, both ways.

        Both directions, because agreement is symmetric: a framework that closes an object
        another leaves open breaks the calls the open one accepts, whichever is "old".
        """
        for a, b in permutations(self.gate_pairs(), 2):
            for change in self.pair_diff(a, b):
                if change.keyword not in _COSMETIC:
                    yield a, b, change

    @property
    def agreement(self) -> DiffSeverity | None:
        """The worst difference between any two gated participants; ``None`` when they agree.

        A framework that refuses the function is a breaking difference.
        """
        if self.refused:
            return DiffSeverity.BREAKING
        worst = min(
            (c.severity for _, _, c in self.iter_pair_changes()),
            key=lambda s: s.rank,
            default=None,
        )
        return worst

    @property
    def findings(self) -> tuple[Finding, ...]:
        """Refusals, missing frameworks, a refusal by toollens, diffs that could not run."""
        found = [f for e in self.entries for f in e.result.findings]
        if self.reference_error is not None:
            found.insert(0, tool_finding("reference.refused", Severity.ERROR, self.reference_error))
        found.extend(
            tool_finding("framework.diff-failed", Severity.WARNING, f"{e.framework}: {e.error}")
            for e in self.entries
            if e.error is not None
        )
        return tuple(found)

    def to_json(self) -> JsonObject:
        """JSON-ready form: every framework's schema, diff and the matrix."""
        agreement = self.agreement
        return {
            "target": self.target,
            "agreement": None if agreement is None else agreement.value,
            "reference": None
            if self.reference is None
            else {
                "name": self.reference.name,
                "description": self.reference.description,
                "parameters": self.reference.json_schema,
            },
            "reference_error": self.reference_error,
            "frameworks": [_entry_dict(e) for e in self.entries],
            "matrix": self.matrix.to_json(),
            "findings": [f.to_json() for f in self.findings],
        }

    to_dict = to_json  # the former name, kept for callers

    def _repr_mimebundle_(
        self, include: Iterable[str] | None = None, exclude: Iterable[str] | None = None
    ) -> dict[str, str]:
        # The renderer is registered by toollens.render: frameworks never import a front end.
        return mimebundle(self, include, exclude)


def _entry_dict(entry: FrameworkComparison) -> JsonObject:
    return {
        **entry.result.to_json(),
        "diff": None if entry.diff is None else entry.diff.to_json(),
        "materially_different": entry.materially_different,
        "material": [c.to_json() for c in entry.material],
        "diff_error": entry.error,
    }


def compare(func: ToolFunction, frameworks: Iterable[str] | None = None) -> Comparison:
    """What each framework sends for ``func``, diffed against toollens' reference view.

    Args:
        func: the function to hand to every framework.
        frameworks: framework keys (see ``toollens.frameworks.names()``); default: all.
            A framework that is not installed is reported as such, not skipped silently.

    Returns:
        A :class:`Comparison`; nothing is raised for a framework's sake.

    Raises:
        TargetError: an unknown framework key.
    """
    reference, reference_error = _reference(func)
    results = adapt_all(func, frameworks)
    sides: dict[str, _Side] = {}
    raw: _Side | None = None
    if reference is not None:
        sides[REFERENCE] = _Side(reference.json_schema, reference.name, reference.description)
        raw = _Side(reference.raw_json_schema, reference.name, reference.description)
    for result in results:
        if result.sent is not None:
            sent = result.sent
            sides[result.framework] = _Side(sent.parameters, sent.name, sent.description)
    entries = tuple(_entry(result, sides, raw) for result in results)
    columns = [Column(k, s.description, s.json_schema) for k, s in sides.items()]
    matrix = build_matrix(columns, _description_sources(reference), func)
    return Comparison(
        target=str(getattr(func, "__qualname__", None) or getattr(func, "__name__", repr(func))),
        reference=reference,
        reference_error=reference_error,
        entries=entries,
        matrix=matrix,
        _sides=sides,
    )


def gated_compare(label: str, target: object, frameworks: Sequence[str] = ()) -> Comparison:
    """:func:`compare` when its agreement is to gate (``toollens compare``'s exit code):
    ``frameworks`` named must be installed, and there must be two sides to compare.

    Args:
        label: how the target was named, for the errors (``tools:search``).
        target: what the label names.
        frameworks: the frameworks asked for; none: every one, those not installed
            listed as such rather than left out.

    Raises:
        TargetError: ``target`` is not a function; a named framework is not installed, or
            none is; one framework and no reference view (toollens refuses the function).
    """
    if not callable(target) or isinstance(target, type):
        raise TargetError(
            f"{label} is a {type(target).__name__}, not a function",
            hint="compare takes MODULE:FUNC or file.py:FUNC",
        )
    # Unasked, every framework is listed: the ones not installed as such, not left out.
    wanted = list(frameworks) or list(names())
    missing = [name for name in wanted if name not in installed(wanted)]
    if missing and frameworks:
        raise TargetError(
            f"framework not installed: {', '.join(missing)}",
            hint="pip install 'toollens[frameworks]', or leave it out",
        )
    if len(missing) == len(wanted):
        raise TargetError("no framework is installed", hint="pip install 'toollens[frameworks]'")
    result = compare(target, wanted)
    if len(result.gate_pairs()) < 2 and not result.refused:
        # One framework and no reference view (toollens refuses the function): nothing to
        # gate on, and "0: they agree" would be a claim nobody checked.
        raise TargetError(
            f"nothing to compare {wanted[0]} with: {result.reference_error}",
            hint="name a second framework with --framework",
        )
    return result


def _reference(func: ToolFunction) -> tuple[FunctionSchema | None, str | None]:
    try:
        return function_schema(func), None
    except ToolLensError as exc:
        return None, f"toollens refused the function: {exc}"


def _entry(
    result: FrameworkResult, sides: dict[str, _Side], raw: _Side | None
) -> FrameworkComparison:
    if result.sent is None or raw is None:
        return FrameworkComparison(result)
    side = sides[result.framework]
    try:
        strict_diff = diff(sides[REFERENCE], side)
        raw_diff = diff(raw, side)
    except ToolLensError as exc:
        return FrameworkComparison(result, error=str(exc))
    also_raw = {(c.pointer, c.keyword) for c in raw_diff}
    material = tuple(
        c for c in strict_diff if c.keyword not in _COSMETIC and (c.pointer, c.keyword) in also_raw
    )
    return FrameworkComparison(result, diff=strict_diff, material=material)


def _description_sources(
    reference: FunctionSchema | None,
) -> DescriptionSources:
    def sources(name: str) -> Iterable[tuple[str, str]]:
        if reference is None:
            return ()
        if name == TOOL_ROW:
            candidates: Iterable[Any] = (
                c for c in reference.provenance if c.attribute == "description"
            )
        else:
            params = [p for p in reference.schema_parameters if p.schema_name == name]
            candidates = params[0].candidates_for("description") if params else ()
        return [(c.source.value, c.value) for c in candidates if isinstance(c.value, str)]

    return sources
