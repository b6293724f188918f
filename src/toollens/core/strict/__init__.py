"""Strict conversion: the JSON Schema a provider's strict mode accepts, and every change.

- ``convert``: ``explain_strict``, ``strict_schema``, ``ensure_strict_json_schema`` and the
  root-level rules (empty schema, root type, nesting limit);
- ``rules``: every rewrite and refusal as a ``StrictRule`` id with its wording (data);
- ``objects``: closing objects, requiring every property, inferring ``type: object``,
  dropping ``default: null``, nullable defaults;
- ``unions``: ``oneOf`` -> ``anyOf``, merging a single ``allOf`` entry;
- ``refs``: resolving and inlining ``$ref``;
- ``applicators``: how each subschema-holding keyword's value is converted (``APPLY``);
- ``state``: one conversion's state and ``At``, the context every rule function gets;
- ``walker``: ``Walker.node``, the walk every rule function recurses through.

The rule families are plain functions of ``(walker, node, at)``, as ``diff/rules`` are of
``(walk, old, new, keyword)``; none imports another in a circle.
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
