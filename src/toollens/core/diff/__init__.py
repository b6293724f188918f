"""Semantic diff of two tool schemas: every change, with a JSON pointer and a severity.

- ``engine``: ``diff`` / ``iter_changes`` / ``SchemaDiff`` and how the two inputs are read
  (schemas, provider payloads, FunctionSchemas, callables); ``toollens.compare`` is another
  thing (what each framework sends), hence not ``compare``;
- ``sides``: what ``toollens diff`` compares for a target, computed alone;
- ``changes``: the ``SchemaChange`` record, ``ChangeKind`` and ``DiffSeverity``;
- ``nodes``: ``$ref`` resolution and the node each keyword lives in;
- ``walk``: the side-by-side walk and the keyword -> rule table;
- ``rules/``: one module per keyword family (enums, constraints, properties, unions, ...).
"""

from toollens.core.diff.changes import ChangeKind, DiffSeverity, SchemaChange
from toollens.core.diff.engine import SchemaDiff, diff, iter_changes

__all__ = ["ChangeKind", "DiffSeverity", "SchemaChange", "SchemaDiff", "diff", "iter_changes"]
