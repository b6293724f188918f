"""Semantic diff of two tool schemas: every change, with a JSON pointer and a severity.

- ``compare``: ``diff`` / ``iter_changes`` / ``SchemaDiff`` and how the two inputs are read
  (schemas, provider payloads, FunctionSchemas, callables);
- ``changes``: the ``SchemaChange`` record, ``ChangeKind`` and ``DiffSeverity``;
- ``nodes``: ``$ref`` resolution and the node each keyword lives in;
- ``walk``: the side-by-side walk and the keyword -> rule table;
- ``rules/``: one module per keyword family (enums, constraints, properties, unions, ...).
"""

from toollens.core.diff.changes import ChangeKind, DiffSeverity, SchemaChange
from toollens.core.diff.compare import SchemaDiff, diff, iter_changes

__all__ = ["ChangeKind", "DiffSeverity", "SchemaChange", "SchemaDiff", "diff", "iter_changes"]
