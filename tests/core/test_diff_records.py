"""Schema diff, every field of each change: before, after and the message as well as
pointer, kind and severity. The table in test_diff.py pins pointer, kind, keyword and
severity; the mutation pass (docs/mutation-testing.md) showed the rest unpinned: numeric
bounds, keywords toollens does not analyse, the false schema, enum values, which
``anyOf`` branch is paired with which; and, in golden files, every change of the table.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_diff import CASES as TABLE

from support.goldens import check_json
from toollens.core.diff import diff

S = {"type": "string"}
NOT_ANALYSED = "; toollens does not analyse this keyword, review it by hand"
Record = tuple[str, str, str, Any, Any, str, str]


def obj(**props: Any) -> dict[str, Any]:
    return {"type": "object", "properties": props}


def num(**keywords: Any) -> dict[str, Any]:
    return obj(n={"type": "number", **keywords})


def records(old: Any, new: Any) -> list[Record]:
    return [
        (c.pointer, c.kind.value, c.keyword, c.before, c.after, c.severity.value, c.message)
        for c in diff(old, new).changes
    ]


N = "/properties/n"
CASES = [
    (num(minimum=1), num(minimum=2),
     [(N, "changed", "minimum", 1, 2, "breaking", "raised from 1 to 2 (tightened)")]),
    (num(minimum=2), num(minimum=1),
     [(N, "changed", "minimum", 2, 1, "compatible", "lowered from 2 to 1 (loosened)")]),
    (num(maximum=1), num(maximum=2),
     [(N, "changed", "maximum", 1, 2, "compatible", "raised from 1 to 2 (loosened)")]),
    (num(maximum=2), num(maximum=1),
     [(N, "changed", "maximum", 2, 1, "breaking", "lowered from 2 to 1 (tightened)")]),
    (num(exclusiveMinimum=1), num(exclusiveMinimum=1.5),
     [(N, "changed", "exclusiveMinimum", 1, 1.5, "breaking", "raised from 1 to 1.5 (tightened)")]),
    (num(), num(minimum=0),
     [(N, "added", "minimum", None, 0, "breaking", "set to 0 (new restriction)")]),
    (num(maximum=5), num(),
     [(N, "removed", "maximum", 5, None, "compatible", "removed (was 5)")]),
    (obj(s={"type": "string", "minLength": 1}), obj(s={"type": "string", "minLength": 3}),
     [("/properties/s", "changed", "minLength", 1, 3, "breaking",
       "raised from 1 to 3 (tightened)")]),
    # draft-4 boolean exclusiveMinimum and a null bound: reported, not analysed
    (num(minimum=1, exclusiveMinimum=False), num(minimum=1, exclusiveMinimum=True),
     [(N, "changed", "exclusiveMinimum", False, True, "breaking",
       "changed from false to true" + NOT_ANALYSED)]),
    (num(minimum=None), num(minimum=1),
     [(N, "changed", "minimum", None, 1, "breaking", "changed from null to 1" + NOT_ANALYSED)]),
    (num(maximum=True), num(),
     [(N, "removed", "maximum", True, None, "breaking", "removed (was true)" + NOT_ANALYSED)]),
    (obj(x=False), obj(x=S),
     [("/properties/x", "changed", "schema", False, S, "compatible",
       "now accepts values (was the false schema, which accepts nothing)")]),
    (obj(x=S), obj(x=False),
     [("/properties/x", "changed", "schema", S, False, "breaking",
       "now the false schema: no value is accepted")]),
    (obj(e={"enum": ["a", "b", 1]}), obj(e={"enum": ["b", "c", 1.0]}),
     [("/properties/e", "added", "enum", None, "c", "compatible", 'value "c" added'),
      ("/properties/e", "removed", "enum", "a", None, "breaking", 'value "a" removed')]),
]  # fmt: skip
IDS = [
    "minimum-raised", "minimum-lowered", "maximum-raised", "maximum-lowered",
    "exclusiveMinimum-raised", "minimum-added", "maximum-removed", "minLength-raised",
    "draft4-exclusiveMinimum", "null-bound", "boolean-bound-removed", "false-to-schema",
    "schema-to-false", "enum-values",
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "expected"), CASES, ids=IDS)
def test_every_field_of_the_change(old: Any, new: Any, expected: list[Record]) -> None:
    assert records(old, new) == expected


def any_of(*branches: Any, **extra: Any) -> dict[str, Any]:
    return {"anyOf": list(branches), **extra}


def card(prop: str) -> dict[str, Any]:
    return {"type": "object", "title": "Card", "properties": {prop: S}}


def cash(prop: str) -> dict[str, Any]:
    return {"type": "object", "title": "Cash", "properties": {prop: S}}


def renamed(old_at: str, new_at: str, old: str, new: str) -> Record:
    return (new_at, "moved", "properties", old_at, new_at, "breaking",
            f'property "{old}" renamed to "{new}"')  # fmt: skip


# Reordered branches, each changed: the pairing shows in which old property each new one
# is said to rename. Each case turns on one clue of the likeness score.
PAIRINGS = [
    pytest.param(  # the title
        any_of(card("a"), cash("b")), any_of(cash("c"), card("d")),
        [renamed("/anyOf/1/properties/b", "/anyOf/0/properties/c", "b", "c"),
         renamed("/anyOf/0/properties/a", "/anyOf/1/properties/d", "a", "d")],
        id="title",
    ),
    pytest.param(  # a property both branches have
        any_of(obj(a=S, x=S), obj(b=S, y=S)), any_of(obj(b=S, z=S), obj(a=S, w=S)),
        [renamed("/anyOf/1/properties/y", "/anyOf/0/properties/z", "y", "z"),
         renamed("/anyOf/0/properties/x", "/anyOf/1/properties/w", "x", "w")],
        id="shared-property",
    ),
    pytest.param(  # the $defs name both refer to
        any_of({"$ref": "#/$defs/Card"}, {"$ref": "#/$defs/Cash"},
               **{"$defs": {"Card": obj(a=S), "Cash": obj(b=S)}}),
        any_of({"$ref": "#/$defs/Cash"}, {"$ref": "#/$defs/Card"},
               **{"$defs": {"Card": obj(d=S), "Cash": obj(c=S)}}),
        [renamed("/$defs/Card/properties/a", "/$defs/Card/properties/d", "a", "d"),
         renamed("/$defs/Cash/properties/b", "/$defs/Cash/properties/c", "b", "c")],
        id="definition-name",
    ),
    pytest.param(  # the same type
        any_of({"type": "string", "minLength": 1}, {"type": "integer", "minimum": 1}),
        any_of({"type": "integer", "minimum": 2}, {"type": "string", "minLength": 2}),
        [("/anyOf/0", "changed", "minimum", 1, 2, "breaking", "raised from 1 to 2 (tightened)"),
         ("/anyOf/1", "changed", "minLength", 1, 2, "breaking",
          "raised from 1 to 2 (tightened)")],
        id="same-type",
    ),
    pytest.param(  # overlapping types (integer within number) rather than none
        any_of({"type": "string", "minLength": 1}, {"type": "integer", "minimum": 1}),
        any_of({"type": "number", "minimum": 2}, {"type": "boolean"}),
        [("/anyOf/0", "removed", "anyOf", {"type": "string", "minLength": 1}, None, "breaking",
          "an alternative removed; values only it accepted are rejected"),
         ("/anyOf/0", "changed", "minimum", 1, 2, "breaking", "raised from 1 to 2 (tightened)"),
         ("/anyOf/0", "changed", "type", "integer", "number", "compatible",
          'widened from "integer" to "number"'),
         ("/anyOf/1", "added", "anyOf", None, {"type": "boolean"}, "compatible",
          "a new alternative accepted")],
        id="overlapping-types",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "expected"), PAIRINGS)
def test_branches_pair_by_likeness(old: Any, new: Any, expected: list[Record]) -> None:
    assert records(old, new) == expected


@pytest.mark.parametrize(("old", "new", "_summary"), TABLE)
def test_the_diff_table_in_full_both_ways(
    request: pytest.FixtureRequest, old: Any, new: Any, _summary: Any
) -> None:
    """Every field of every change of test_diff's table, and the text, pinned in a golden."""
    ways = {}
    for label, (a, b) in (("forward", (old, new)), ("backward", (new, old))):
        result = diff(a, b)
        ways[label] = {"text": str(result).splitlines(), "changes": result.to_dict()["changes"]}
    check_json(f"diff/{request.node.callspec.id}.json", ways)
