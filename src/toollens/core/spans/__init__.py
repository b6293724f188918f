"""Where in a tool's source a value is written: line/column spans, located when first read.

A span points into the text ``inspect.getsource`` returns for the tool's callable (the text
the explorer's editor shows). Building a schema never reads source: a value holds a
pending span until someone reads it.

Module map:

- ``span``: the records: :class:`SourceSpan` (``l1:c1-l2:c2``), :class:`SpanOf` (what a
  span covers), :class:`PendingSpan` and the :class:`LazySpan` field that locates it.
- ``locator``: :class:`~toollens.core.spans.locator.SourceLocator`, one per
  ``function_schema`` call: reads and parses the source on the first ``locate``, once.
- ``trees``: parsed module text, shared by the locator and the live editor
  (``jupyter.live``), kept for the few most recent texts.
- ``docstrings``: a parameter's entry, or the description, inside a docstring's lines.

The names below are the package's public face; import the modules for the rest.
"""

from toollens.core.spans.span import LazySpan, PendingSpan, SourceSpan, SpanOf, may_locate

__all__ = ["LazySpan", "PendingSpan", "SourceSpan", "SpanOf", "may_locate"]
