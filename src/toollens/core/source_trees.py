"""The former home of :mod:`toollens.core.spans.trees`, kept so existing imports still work."""

from toollens.core.spans.trees import parse_module, parsed_module

__all__ = ["parse_module", "parsed_module"]
