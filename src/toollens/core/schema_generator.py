"""pydantic's JSON Schema generator, without serialising plain defaults through pydantic.

pydantic writes a field's default into the schema by building a ``TypeAdapter`` for the
default's type and dumping the value in JSON mode: for a tool with hundreds of parameters
that is hundreds of adapters built on every live edit (about a third of pydantic's schema
time), to turn ``"asc"`` into ``"asc"``. A ``str``, ``int``, ``bool``, ``None`` or finite
``float`` (exactly those types, not subclasses such as enums) dumps to itself, so it is
written as it is; every other default goes through pydantic as before. The tests compare
both generators on a table of defaults.
"""

from __future__ import annotations

import math

from pydantic.json_schema import GenerateJsonSchema

from toollens.core import memo

__all__ = ["ToolSchemaGenerator", "schema_generator"]

_DUMPS_TO_ITSELF = frozenset({str, int, bool, type(None)})


class ToolSchemaGenerator(GenerateJsonSchema):
    """``GenerateJsonSchema`` with plain defaults written as they are."""

    def encode_default(self, dft: object) -> object:
        kind = type(dft)
        if kind in _DUMPS_TO_ITSELF or (
            isinstance(dft, float) and kind is float and math.isfinite(dft)
        ):
            return dft
        return super().encode_default(dft)


def schema_generator() -> type[GenerateJsonSchema]:
    """The generator ``function_schema`` uses (pydantic's own inside ``memo_disabled``, so
    the benchmark can measure the difference)."""
    return ToolSchemaGenerator if memo.enabled() else GenerateJsonSchema
