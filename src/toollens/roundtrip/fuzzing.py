"""``fuzz``: many model calls generated from the schema the model sees, and what broke.

A run has three steps, all seeded:

1. edge cases (every enum member, each bound, null, empty and long strings), each set on the
   simplest valid object;
2. ``n`` arguments drawn by Hypothesis from the schema (and, with ``invalid=True``, ``n``
   arguments the schema forbids);
3. for each distinct failure first seen in step 2, the same Hypothesis run again, now allowed
   to shrink, so the finding shows the smallest arguments that fail the same way.

Edge cases are already one value away from the simplest object and are not shrunk; neither is
a timeout (each try would wait for the timeout again). After the first timeout the function
is not called again: a hung sync call cannot be stopped, only left behind on its thread.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from toollens.core.choices import provider_id
from toollens.core.errors import ToolLensError
from toollens.core.schema.types import JsonObject
from toollens.roundtrip import classify, generate
from toollens.roundtrip.calling import PreparedTool
from toollens.roundtrip.classify import Observation
from toollens.roundtrip.records import CallResult, FindingKind, FuzzFinding, FuzzReport

if TYPE_CHECKING:
    from hypothesis import settings
    from hypothesis.strategies import SearchStrategy

DEFAULT_FUZZ_TIMEOUT = 2.0
"""Seconds each fuzzed call may take before it counts as a hang."""

Check = Callable[[Any], "Observation | None"]
_Source = tuple["SearchStrategy[Any]", Check]  # where a failure came from, to shrink it there


@dataclass
class _Run:
    """One fuzz run's state: the tool, what was tried, and the first example of each failure."""

    tool: Callable[[str], CallResult]  # JSON text in, what the call did out
    schema: dict[str, Any]
    timeout: float
    examples: int = 0
    stopped: str | None = None
    first: dict[str, tuple[Any, Observation, _Source | None]] = field(default_factory=dict)

    @functools.cached_property
    def validator(self) -> Any:
        return generate.schema_validator(self.schema)

    def call(self, arguments: Any) -> CallResult:
        return self.tool(json.dumps(arguments, ensure_ascii=False))

    def check_valid(self, arguments: Any) -> Observation | None:
        return classify.on_valid(arguments, self.call(arguments))

    def check_invalid(self, arguments: Any) -> Observation | None:
        from jsonschema.exceptions import best_match

        error = best_match(self.validator.iter_errors(arguments))
        if error is None:  # the mutation left the arguments valid: nothing to learn
            return None
        return classify.on_invalid(arguments, error, self.call(arguments))

    def visit(self, arguments: Any, check: Check, source: _Source | None = None) -> None:
        if self.stopped is not None:
            return
        self.examples += 1
        seen = check(arguments)
        if seen is None:
            return
        if seen.key not in self.first:
            self.first[seen.key] = (arguments, seen, source)
        if seen.kind is FindingKind.TIMEOUT:
            self.stopped = f"stopped calling after a call hung for {self.timeout:g} s"


def _settings(n: int, *, shrink: bool) -> settings:
    from hypothesis import HealthCheck, Phase, Verbosity, settings

    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    return settings(
        max_examples=max(n, 1),
        database=None,
        deadline=None,
        derandomize=False,
        phases=phases,
        verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        report_multiple_bugs=False,
    )


def explore(
    strategy: SearchStrategy[JsonObject], n: int, seed: int, visit: Callable[[JsonObject], None]
) -> None:
    """Draw ``n`` values of ``strategy`` with ``seed`` and hand each to ``visit``."""
    from hypothesis import given
    from hypothesis import seed as with_seed

    @_settings(n, shrink=False)
    @with_seed(seed)
    @given(strategy)
    def draw(value: Any) -> None:
        visit(value)

    draw()


class _Hit(Exception):
    """The failure being shrunk happened again."""


def shrink(
    strategy: SearchStrategy[JsonObject],
    n: int,
    seed: int,
    fails: Callable[[JsonObject], Observation | None],
) -> tuple[JsonObject, Observation] | None:
    """The smallest value Hypothesis finds for which ``fails`` returns an observation."""
    from hypothesis import given
    from hypothesis import seed as with_seed

    hits: list[tuple[Any, Observation]] = []

    @_settings(n, shrink=True)
    @with_seed(seed)
    @given(strategy)
    def search(value: Any) -> None:
        seen = fails(value)
        if seen is not None:
            hits.append((value, seen))
            raise _Hit

    # Whatever Hypothesis ends a failing run with (our _Hit, or its report that the failure
    # did not repeat), the hits recorded on the way are the answer.
    with contextlib.suppress(Exception):
        search()
    if not hits:
        return None
    return min(hits, key=lambda hit: _size(hit[0]))


def _size(value: Any) -> tuple[int, str]:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return (len(text), text)


def fuzz(
    target: object,
    n: int = 100,
    seed: int = 0,
    provider: str | None = None,
    invalid: bool = False,
    timeout: float = DEFAULT_FUZZ_TIMEOUT,
    *,
    dry_run: bool = False,
    strict: bool = True,
) -> FuzzReport:
    """Call ``target`` with arguments generated from the schema the model sees; report failures.

    Args:
        target: a function (sync or async), method, callable object or ``FunctionSchema``.
        n: how many arguments Hypothesis draws (edge cases come on top).
        seed: the Hypothesis seed; the same seed gives the same run.
        provider: generate from this provider's schema (after its conversions); ``None``:
            toollens's own (OpenAI) schema.
        invalid: also try arguments the schema forbids, and report those the function accepts.
        timeout: seconds each call may take.
        dry_run: validate and build each call without making it.
        strict: build the strict schema (the provider payloads follow it).

    Returns:
        A :class:`FuzzReport` with one shrunk finding per distinct failure.

    Raises:
        SchemaConstructionError: ``target`` cannot become a tool.
        ToolLensError: Hypothesis cannot generate from the schema, or it is not installed.
    """
    _require_hypothesis()
    tool = PreparedTool.of(target, strict=strict)
    return fuzz_calls(
        tool.fs.name,
        _schema_for(tool, provider),
        functools.partial(tool.call, timeout=timeout, dry_run=dry_run),
        FuzzPlan(n=n, seed=seed, invalid=invalid, timeout=timeout, dry_run=dry_run),
        provider=provider,
    )


@dataclass(frozen=True)
class FuzzPlan:
    """How many arguments to draw, from which seed, and how to call with them."""

    n: int = 100
    seed: int = 0
    invalid: bool = False
    timeout: float = DEFAULT_FUZZ_TIMEOUT
    dry_run: bool = False


# Any: the schema is whatever JSON Schema the model sees (a provider's, a server's), as in
# FuzzReport.schema.
def fuzz_calls(
    name: str,
    schema: dict[str, Any],
    call: Callable[[str], CallResult],
    plan: FuzzPlan,
    *,
    provider: str | None = None,
) -> FuzzReport:
    """The fuzz run of any tool: ``call`` takes the JSON text a model would send for ``name``
    (a Python function's :class:`PreparedTool`, an MCP server's ``tools/call``), and the
    arguments are generated from ``schema``, the JSON Schema the model sees."""
    _require_hypothesis()
    n, seed, invalid = plan.n, plan.seed, plan.invalid
    run = _Run(call, schema, plan.timeout)
    drawn_from = generate.declared_only(run.schema)
    valid = generate.valid_arguments(drawn_from)
    base = generate.simplest(valid)
    for arguments in (base, *generate.edge_cases(run.schema, base)):
        run.visit(arguments, run.check_valid)
    edge_cases = run.examples
    explore(valid, n, seed, lambda a: run.visit(a, run.check_valid, (valid, run.check_valid)))
    if invalid:
        _explore_invalid(run, valid, base, n, seed)
    findings = tuple(_finding(run, key, n, seed) for key in run.first)
    return FuzzReport(
        tool=name,
        provider=provider,
        schema=run.schema,
        seed=seed,
        examples=run.examples,
        findings=findings,
        dry_run=plan.dry_run,
        invalid=invalid,
        stopped=run.stopped,
        edge_cases=edge_cases,
    )


def _explore_invalid(run: _Run, valid: SearchStrategy[Any], base: Any, n: int, seed: int) -> None:
    """Each mutation on the simplest object, then in turn on ``n`` drawn objects; a failure
    shrinks the drawn object under the same mutation."""
    from functools import partial

    changes = generate.mutations(run.schema)
    if not changes:
        return
    for change in changes:
        run.visit(generate.mutate(base, change), run.check_invalid)
    turn = itertools.cycle(changes)

    def visit(value: Any) -> None:
        change = next(turn)
        source = (valid.map(partial(generate.mutate, mutation=change)), run.check_invalid)
        run.visit(generate.mutate(value, change), run.check_invalid, source)

    explore(valid, n, seed, visit)


def _finding(run: _Run, key: str, n: int, seed: int) -> FuzzFinding:
    arguments, seen, source = run.first[key]
    smaller = None
    if source is not None and run.stopped is None and seen.kind is not FindingKind.TIMEOUT:
        strategy, check = source

        def same(value: Any) -> Observation | None:
            again = check(value)
            return again if again is not None and again.key == key else None

        smaller = shrink(strategy, n, seed, same)
    shrunk = smaller is not None and _size(smaller[0]) < _size(arguments)
    if smaller is not None and shrunk:
        arguments, seen = smaller
    return FuzzFinding(
        kind=seen.kind,
        key=key,
        arguments=arguments,
        message=seen.message,
        pointer=seen.pointer,
        result=seen.result,
        shrunk=shrunk,
    )


def _schema_for(tool: PreparedTool, provider: str | None) -> dict[str, Any]:
    if provider is None:
        return generate.model_facing(tool.fs.json_schema)
    # lazy: the provider rules + docstring_parser (~41 ms), for a provider's schema only
    from toollens.core.providers import provider_payload

    return generate.model_facing(provider_payload(tool.fs, provider_id(provider)).schema)


def _require_hypothesis() -> None:
    try:
        import hypothesis  # noqa: F401
        import hypothesis_jsonschema  # noqa: F401
    except ImportError as exc:
        raise ToolLensError(
            f"fuzz needs Hypothesis and hypothesis-jsonschema ({exc.name} is not installed)",
            hint="pip install 'toollens[fuzz]'",
        ) from exc
