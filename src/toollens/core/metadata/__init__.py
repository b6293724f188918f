"""Which value of a parameter (or of the tool) won, where each candidate came from, and why.

A parameter's description, default, constraints and alias can each be written in several
places (the docstring, ``Annotated[..., Field(...)]``, a ``Field(...)`` default, a plain
default); this package merges them and keeps the record of every candidate.

Module map:

- ``provenance``: the records: :class:`Source` (where a value was written),
  :class:`Candidate` (one source's offer, whether it won, why) and :data:`MISSING`.
- ``precedence``: precedence as data: ``DESCRIPTION`` and ``DEFAULT`` rank the sources
  (first offer wins), ``MERGE_ORDER`` is the order constraints and aliases merge in; the
  one place that decides a winner.
- ``merge``: :func:`merge_parameter` computes each parameter's winners from those tables
  into a :class:`ParameterMetadata`; its ``candidates`` are built on first read.
- ``candidates``: builds the :class:`Candidate` records from the same tables, each with the
  span of the source text it was written in (located lazily, see ``toollens.core.spans``).

The names below are the package's public face; import the modules for the rest.
"""

from toollens.core.metadata.merge import ParameterMetadata, merge_parameter
from toollens.core.metadata.provenance import MISSING, Candidate, Source

__all__ = ["MISSING", "Candidate", "ParameterMetadata", "Source", "merge_parameter"]
