"""The diff's keyword rules, one module per family, gathered into one checked table.

- ``descriptions``: title, description, examples, default -- what only the model reads;
  ``opaque`` for keywords toollens does not analyse.
- ``types``: ``type`` / ``nullable``.
- ``enums``: ``enum`` / ``const`` (why a new enum value is compatible, a removed one breaking).
- ``constraints``: bounds, ``multipleOf``, ``pattern``, ``format``, ``uniqueItems``.
- ``properties``: ``properties`` / ``required``, ``patternProperties``.
- ``subschemas``: ``additionalProperties``, ``items``, ``prefixItems``, ``not``, ``if`` ...
- ``unions``: ``anyOf`` / ``oneOf`` / ``allOf`` branches, ``discriminator``.

Each keyword has exactly one rule; ``RuleTable`` fails at import when two claim one.
"""

from __future__ import annotations

from collections.abc import Iterator

from toollens.core.diff.changes import SchemaChange
from toollens.core.diff.nodes import Node
from toollens.core.diff.rules import (
    constraints,
    descriptions,
    enums,
    properties,
    subschemas,
    types,
    unions,
)
from toollens.core.diff.walk import Entry, RuleTable, Walk

#: Never compared directly: refs are followed, definitions are reached through refs.
SKIPPED = ("$ref", "$defs", "definitions")


def _skip(walk: Walk, old: Node, new: Node, keyword: str) -> Iterator[SchemaChange]:
    return iter(())


_SKIP_RULES: list[Entry] = [((keyword,), _skip) for keyword in SKIPPED]

#: Every keyword rule, checked once at import: a keyword has one rule.
TABLE = RuleTable(
    [
        *_SKIP_RULES,
        *descriptions.RULES,
        *types.RULES,
        *enums.RULES,
        *constraints.RULES,
        *properties.RULES,
        *subschemas.RULES,
        *unions.RULES,
    ],
    fallback=descriptions.opaque,
)

__all__ = ["SKIPPED", "TABLE"]
