"""Strict conversion: the JSON Schema a provider's strict mode accepts, and every change.

- ``convert``: ``explain_strict``, ``strict_schema``, ``ensure_strict_json_schema`` and the
  root-level rules (empty schema, root type, nesting limit);
- ``rules``: every rewrite and refusal as a ``StrictRule`` id with its wording (data);
- ``objects``: closing objects, requiring every property, inferring ``type: object``,
  dropping ``default: null``, nullable defaults;
- ``unions``: ``oneOf`` -> ``anyOf``, merging a single ``allOf`` entry;
- ``refs``: resolving and inlining ``$ref``;
- ``state`` and ``walker``: one conversion's state, and the walk that ties the families.
"""

from toollens.core.strict.convert import ensure_strict_json_schema, explain_strict, strict_schema
from toollens.core.strict.rules import PROBLEMS, REASONS, StrictRule

__all__ = [
    "PROBLEMS",
    "REASONS",
    "StrictRule",
    "ensure_strict_json_schema",
    "explain_strict",
    "strict_schema",
]
